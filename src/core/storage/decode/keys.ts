/**
 * Mapping keys: the candidates found in the contract's own event logs (every topic and every
 * 32-byte data word, which are already ABI words: an address, an integer, a bytesN in the form a
 * mapping hashes) and the keys the user gives as text, each turned into the bytes hashed before a
 * mapping's slot for one key type, or refused for it (a word too large for a uint8, an address
 * with non-zero upper bytes). The node side (paging eth_getLogs) is in ./logs.ts.
 *
 * A nested mapping is searched by key combinations, and the order matters because a bound cuts
 * the search: keys one log names together come first (Approval(owner, spender, value) names the
 * pair an allowance is kept under), then combinations with a key the user gave, then every
 * combination of every candidate (a million pairs for a token with a thousand holders).
 */
import { getAddress, hexlify, toUtf8Bytes, toUtf8String } from 'ethers';
import type { SolcType } from '../layout';
import { word as wordHex } from '../inputs';
import { addressText, signed, valueKind, wordBytes } from './values';

/** One key of one mapping: the bytes hashed before the slot, its text in paths and JSON, its sort order. */
export interface MappingKeyCandidate {
  /** Lowercase hex of the bytes hashed (32 bytes for value types, raw for string and bytes). */
  encoding: string;
  text: string;
  order: bigint;
}

const TWO_256 = 1n << 256n;

/** How a key type reads a 32-byte word from a log, or undefined when the word cannot be such a key. */
export function keyFromWord(type: SolcType, w: bigint): MappingKeyCandidate | undefined {
  if (type.encoding === 'bytes') {
    // A string or bytes key: the word's bytes up to its trailing zeros (an ABI-encoded short text).
    const bytes = wordBytes(w);
    let end = 32;
    while (end > 0 && bytes[end - 1] === 0) end--;
    if (end === 0) return undefined;
    const data = bytes.subarray(0, end);
    if (type.label === 'string') {
      let text: string;
      try {
        text = toUtf8String(data);
      } catch {
        return undefined;
      }
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(text)) return undefined;
      return { encoding: hexlify(data), text, order: w };
    }
    return { encoding: hexlify(data), text: hexlify(data), order: w };
  }
  const kind = valueKind(type);
  const encoding = wordHex(w);
  switch (kind.kind) {
    case 'address':
      return w < 1n << 160n ? { encoding, text: addressText(w), order: w } : undefined;
    case 'uint':
      return w < 1n << BigInt(kind.bits) ? { encoding, text: w.toString(10), order: w } : undefined;
    case 'enum':
      return w < 256n ? { encoding, text: w.toString(10), order: w } : undefined;
    case 'int': {
      const s = signed(w, 256);
      const top = 1n << BigInt(kind.bits - 1);
      return s >= -top && s < top ? { encoding, text: s.toString(10), order: s } : undefined;
    }
    case 'bool':
      return w <= 1n ? { encoding, text: String(w === 1n), order: w } : undefined;
    case 'bytesN':
      return (w & ((1n << BigInt((32 - kind.size) * 8)) - 1n)) === 0n ? { encoding, text: `0x${encoding.slice(2, 2 + kind.size * 2)}`, order: w } : undefined;
    case 'raw':
      return w < 1n << BigInt(kind.size * 8) ? { encoding, text: `0x${encoding.slice(-kind.size * 2)}`, order: w } : undefined;
    case 'function':
      return undefined;
  }
}

function integerOf(text: string): bigint | undefined {
  const t = text.trim();
  if (/^-?\d+$/.test(t)) return BigInt(t);
  if (/^0x[0-9a-f]+$/i.test(t)) return BigInt(t);
  return undefined;
}

/** How a key type reads a key the user typed, or undefined when the text is no such key. */
export function keyFromText(type: SolcType, text: string): MappingKeyCandidate | undefined {
  const t = text.trim();
  if (type.encoding === 'bytes') {
    if (type.label === 'string') return { encoding: hexlify(toUtf8Bytes(text)), text, order: -1n };
    return /^0x([0-9a-f]{2})*$/i.test(t) ? { encoding: t.toLowerCase(), text: t.toLowerCase(), order: -1n } : undefined;
  }
  const kind = valueKind(type);
  switch (kind.kind) {
    case 'address': {
      if (!/^0x[0-9a-f]{40}$/i.test(t)) return undefined;
      try {
        return keyFromWord(type, BigInt(getAddress(t)));
      } catch {
        return undefined; // a mixed-case address with a bad checksum
      }
    }
    case 'uint':
    case 'enum':
    case 'raw': {
      const n = integerOf(t);
      return n !== undefined && n >= 0n ? keyFromWord(type, n) : undefined;
    }
    case 'int': {
      const n = integerOf(t);
      if (n === undefined || t.startsWith('0x')) return n === undefined ? undefined : keyFromWord(type, n);
      return n >= -(TWO_256 / 2n) && n < TWO_256 / 2n ? keyFromWord(type, (n + TWO_256) % TWO_256) : undefined;
    }
    case 'bool':
      return /^(true|false)$/i.test(t) ? keyFromWord(type, /^true$/i.test(t) ? 1n : 0n) : undefined;
    case 'bytesN':
      if (!/^0x[0-9a-f]*$/i.test(t) || t.length - 2 > kind.size * 2 || t.length % 2) return undefined;
      return keyFromWord(type, BigInt(`0x${t.slice(2).padEnd(64, '0')}`));
    case 'function':
      return undefined;
  }
}

/** The most candidate words taken from logs; beyond it the rest are left out, with a warning. */
export const MAX_CANDIDATE_WORDS = 20_000;
/** The most keys a user may give. */
export const MAX_USER_KEYS = 1_000;
/** The longest key a user may give, in characters. */
export const MAX_USER_KEY_LENGTH = 1_024;

/** The words of one log taken as keys named together: its first MAX_GROUP_WORDS (topics first, then data words). */
export const MAX_GROUP_WORDS = 12;
/** The most logs whose words are tried together first; the words of the rest are still candidates. */
export const MAX_KEY_GROUPS = 20_000;

/** The words of each log, in order, once per distinct sequence: keys a log names together. */
export class KeyGroups {
  readonly list: bigint[][] = [];
  private readonly seen = new Set<string>();

  add(words: bigint[]): void {
    if (words.length === 0 || this.list.length >= MAX_KEY_GROUPS) return;
    const group = words.slice(0, MAX_GROUP_WORDS);
    const id = group.join(',');
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.list.push(group);
  }
}

/**
 * The candidate words of logs: every topic, every whole 32-byte word of data, in order of
 * appearance, once each; with `groups`, each log's words in order as well.
 */
export function logWords(logs: readonly unknown[], into: Set<bigint> = new Set(), groups?: KeyGroups): Set<bigint> {
  for (const log of logs) {
    // A node's list may hold anything: what is not a log holds no words.
    if (typeof log !== 'object' || log === null) continue;
    const { topics, data } = log as { topics?: unknown; data?: unknown };
    const words: bigint[] = [];
    for (const topic of Array.isArray(topics) ? topics : []) if (typeof topic === 'string' && /^0x[0-9a-f]{1,64}$/i.test(topic)) words.push(BigInt(topic));
    const hex = typeof data === 'string' && /^0x[0-9a-f]*$/i.test(data) ? data.slice(2) : '';
    for (let i = 0; i + 64 <= hex.length; i += 64) words.push(BigInt(`0x${hex.slice(i, i + 64)}`));
    for (const w of words) into.add(w);
    groups?.add(words);
  }
  return into;
}

/** The order keys of one type are listed in: text keys by text, the others by value. */
export function compareKeys(type: SolcType): (a: MappingKeyCandidate, b: MappingKeyCandidate) => number {
  if (type.encoding === 'bytes') return (a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  return (a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);
}

/** The keys of one key type: from the log words and the user's texts, once each, in key order. */
export function keysFor(type: SolcType, words: Iterable<bigint>, userKeys: readonly string[]): MappingKeyCandidate[] {
  const byEncoding = new Map<string, MappingKeyCandidate>();
  for (const w of words) {
    const k = keyFromWord(type, w);
    if (k && !byEncoding.has(k.encoding)) byEncoding.set(k.encoding, k);
  }
  for (const text of userKeys) {
    const k = keyFromText(type, text);
    if (k && !byEncoding.has(k.encoding)) byEncoding.set(k.encoding, k);
  }
  return [...byEncoding.values()].sort(compareKeys(type));
}

/** What a nested mapping's search draws on: per level (outermost first) its key type and candidates. */
export interface KeySearch {
  types: readonly SolcType[];
  candidates: readonly (readonly MappingKeyCandidate[])[];
  /** Each log's words in order (KeyGroups.list). */
  groups: readonly (readonly bigint[])[];
  /** The keys the user gave, as text. */
  userKeys: readonly string[];
}

/** The index tuples i1 < i2 < … < ik of 0..n-1, in order. */
function* ascending(n: number, k: number, from = 0): Generator<number[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= n - k; i++) for (const rest of ascending(n, k - 1, i + 1)) yield [i, ...rest];
}

/** Every tuple with one element from each list, the first list outermost. */
function* product<T>(lists: readonly (readonly T[])[], level = 0): Generator<T[]> {
  if (level === lists.length) {
    yield [];
    return;
  }
  for (const x of lists[level]) for (const rest of product(lists, level + 1)) yield [x, ...rest];
}

/**
 * The key combinations of a mapping nested `types.length` deep, each once, in the order tried:
 * those one log names together (its words taken in the order they appear, e.g. an Approval's
 * owner and spender; then, for pairs, the other way round), then those holding a key the user
 * gave, then every combination of the candidates. The caller stops drawing where its bound is.
 */
export function* keyCombinations(search: KeySearch): Generator<MappingKeyCandidate[]> {
  const { types, candidates } = search;
  const depth = types.length;
  const tried = new Set<string>();
  const fresh = (combo: MappingKeyCandidate[]) => {
    const id = combo.map((k) => k.encoding).join(',');
    if (tried.has(id)) return false;
    tried.add(id);
    return true;
  };
  const userKeys = types.map((type) => search.userKeys.map((text) => keyFromText(type, text)).filter((k) => k !== undefined));
  if (depth > 1) {
    const asKey = types.map(() => new Map<bigint, MappingKeyCandidate | undefined>());
    const keyAt = (level: number, w: bigint) => {
      const cache = asKey[level];
      if (!cache.has(w)) cache.set(w, keyFromWord(types[level], w));
      return cache.get(w);
    };
    const fromGroup = function* (group: readonly bigint[], indexes: readonly number[]) {
      const combo = indexes.map((i, level) => keyAt(level, group[i]));
      if (combo.every((k) => k !== undefined) && fresh(combo)) yield combo;
    };
    for (const group of search.groups) for (const indexes of ascending(group.length, depth)) yield* fromGroup(group, indexes);
    if (depth === 2) for (const group of search.groups) for (const [i, j] of ascending(group.length, 2)) yield* fromGroup(group, [j, i]);
  }
  for (let level = 0; level < depth; level++)
    for (const user of userKeys[level]) for (const combo of product(candidates.map((list, l) => (l === level ? [user] : list)))) if (fresh(combo)) yield combo;
  for (const combo of product(candidates)) if (fresh(combo)) yield combo;
}
