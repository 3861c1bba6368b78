/**
 * Decoding a contract's storage by its compiler layout, at one block (decodeStorage) or at two
 * (diffStorage: the same walk reads both blocks in the same round trips, so a mapping entry or an
 * array element present at either block is compared with its value, or its absence, at the other).
 *
 * Round trips: the blocks are looked up first (numbers and hashes, so every read is pinned by
 * number and checked against the hash); then the slots of every value type are read while the
 * logs are searched for mapping keys; then mapping entries, long string data and dynamic array
 * elements; a further round only where those hold more of the same (a long string in a mapping
 * value, an array of arrays).
 */
import type { KnobHints } from '../../knobs';
import { RpcFailure } from '../../rpc/failure';
import { blockCall, blockFailure, blockFromResult, type BlockInfo } from '../block';
import { BLOCK_FAILED_PREFIX, StorageRangeError } from '../errors';
import { minimalHex, normaliseAddress, parseBlockRef } from '../inputs';
import { typeOf, type ContractLayout } from '../layout';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from './errors';
import { keyFromText, keysFor, MAX_USER_KEYS, MAX_USER_KEY_LENGTH, type MappingKeyCandidate } from './keys';
import { discoverLogWords } from './logs';
import { SlotReader, type ReaderOptions, type ReadStats } from './read';
import type { DecodedValue } from './values';
import { DEFAULT_LIMITS, Walk, type DecodedNode, type DecodeLimits } from './walk';

export type { DecodedNode, DecodedValue, ReadStats };

export interface StorageReadOptions extends ReaderOptions {
  /** The contract; any case (checksummed before use). */
  address: string;
  /** Keys the user gives, as text; tried in every mapping whose key type they fit. */
  keys?: readonly string[];
  /** Search the contract's logs for mapping keys (default true). */
  discoverKeys?: boolean;
  limits?: Partial<DecodeLimits>;
  /** The front end's words that end a warning, e.g. how to give mapping keys. */
  hints?: Pick<KnobHints, 'mappingKeys'>;
  /** Each warning line, as it is known (a bound that cut, a key that fits no mapping). */
  onWarning?(line: string): void;
  /** States that are not the blocks read (a transaction's before and after), made from the words read. */
  overlay?: StateOverlay;
}

/**
 * States derived from the words read at the blocks (e.g. a transaction's before and after: its
 * parent block's words with the traced writes of the block's transactions laid over them).
 */
export interface StateOverlay {
  /** How many states the words give. */
  states: number;
  /** A slot's words at each state, from its words at the blocks read. */
  words(slot: bigint, read: readonly bigint[]): bigint[];
  /** The last block whose logs are searched for mapping keys. */
  logsTo: number;
  /** The contract may have no code at the blocks read (it was created after them). */
  mayLackCode?: boolean;
}

/** One state variable, decoded. */
export interface DecodedVariable {
  label: string;
  /** solc's type string, e.g. "uint256", "struct Demo.Pos", "mapping(address => uint256)". */
  type: string;
  slot: bigint;
  offset: number;
  node: DecodedNode;
}

export interface StorageReading {
  address: string;
  blocks: BlockInfo[];
  variables: DecodedVariable[];
  warnings: string[];
  stats: ReadStats;
}

/** The most rounds of reads one decode may take; layouts nest only so deep. */
const MAX_ROUNDS = 32;

/** The user's keys, checked: at most MAX_USER_KEYS, each at most MAX_USER_KEY_LENGTH characters. */
export function checkUserKeys(keys: readonly string[]): string[] {
  if (keys.length > MAX_USER_KEYS) throw new RangeError(`at most ${MAX_USER_KEYS} keys may be given, not ${keys.length}`);
  const long = keys.find((k) => k.length > MAX_USER_KEY_LENGTH);
  if (long !== undefined) throw new RangeError(`a key is at most ${MAX_USER_KEY_LENGTH} characters: '${long.slice(0, 40)}…' is ${long.length}`);
  return [...keys];
}

/** The blocks, looked up in one round trip, in the order given; one that cannot be had is named as the user wrote it. */
export async function resolveBlocks(rpc: StorageRpc, given: readonly string[], stats: ReadStats, signal?: AbortSignal): Promise<BlockInfo[]> {
  const refs = given.map((g) => parseBlockRef(g));
  let items;
  try {
    stats.requests++;
    stats.roundTrips++;
    items = await rpc.batch(refs.map(blockCall), { signal });
  } catch (err) {
    throw blockFailure(err);
  }
  return refs.map((ref, i) => {
    const item = items[i];
    const name = given[i].trim();
    if ('error' in item) {
      const failure = blockFailure(item.error);
      throw failure instanceof StorageRangeError && failure.reason === 'block' ? new StorageRangeError(`${BLOCK_FAILED_PREFIX}block ${name}: ${item.error.message}`, 'block') : failure;
    }
    return blockFromResult(ref, item.result, name);
  });
}

/** Reads and decodes every state variable of `layout` at each of `blockRefs`. */
export async function readStorage(
  rpc: StorageRpc,
  layout: Pick<ContractLayout, 'storage' | 'types' | 'notes'>,
  blockRefs: readonly string[],
  options: StorageReadOptions,
): Promise<StorageReading> {
  const address = normaliseAddress(options.address);
  const refs = blockRefs.map((b) => parseBlockRef(b));
  const userKeys = checkUserKeys(options.keys ?? []);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  // A Set: a hostile layout file may bring 100,000 notes, and a list's includes() made that quadratic.
  const warnings = new Set<string>();
  const warn = (line: string) => {
    if (warnings.has(line)) return;
    warnings.add(line);
    options.onWarning?.(line);
  };
  const keyTypes = Object.values(layout.types).flatMap((t) => {
    const key = t.encoding === 'mapping' && t.key ? typeOf(layout.types, t.key) : undefined;
    return key ? [key] : [];
  });
  for (const k of userKeys) if (!keyTypes.some((t) => keyFromText(t, k))) warn(`key '${k}' fits the key type of no mapping of the layout`);
  for (const note of layout.notes ?? []) warn(note);
  const stats: ReadStats = { roundTrips: 0, requests: 0, reads: 0 };
  // Blocks given by number: the first reads travel with the lookup, checked against it after.
  const lookup = resolveBlocks(rpc, blockRefs, stats, options.signal);
  lookup.catch(() => undefined); // awaited below; a failure of the first pass must not leave it unhandled
  const early = refs.every((r) => r.kind === 'number' && r.number <= BigInt(Number.MAX_SAFE_INTEGER));
  let blocks = early ? refs.map((r) => ({ number: Number((r as { number: bigint }).number), hash: '' })) : await lookup;
  const reader = new SlotReader(rpc, address, blocks, options);

  // The logs are searched while the first round reads the value types.
  const overlay = options.overlay;
  const newest = overlay?.logsTo ?? Math.max(...blocks.map((b) => b.number));
  let logWords: Set<bigint> = new Set();
  let keyGroups: readonly (readonly bigint[])[] = [];
  const discovery = options.discoverKeys === false ? undefined : discoverLogWords(rpc, address, newest, options.signal);
  discovery?.catch(() => undefined); // awaited below, unless the lookup fails first
  let keysKnown = discovery === undefined;
  const keyCache = new Map<string, MappingKeyCandidate[]>();
  const keys = (id: string) => {
    let list = keyCache.get(id);
    if (!list) {
      const type = typeOf(layout.types, id);
      list = type ? keysFor(type, logWords, userKeys) : [];
      keyCache.set(id, list);
    }
    return list;
  };
  const hashes = new Map<string, bigint>();
  const codeCalls = blocks.map((b) => ({ method: 'eth_getCode', params: [address, minimalHex(BigInt(b.number))] }));

  for (let round = 0; ; round++) {
    const words = (s: bigint) => {
      const read = reader.known.get(s);
      return read && overlay ? overlay.words(s, read) : read;
    };
    const walk = new Walk({ types: layout.types, states: overlay?.states ?? blocks.length, words, keys, keyGroups, userKeys, limits, hints: options.hints, hashes });
    const variables = layout.storage.map((v) => ({ label: v.label, type: v.type, slot: BigInt(v.slot), offset: v.offset, node: walk.variable(v.label, v.typeId, BigInt(v.slot), v.offset) }));
    if (round > 0 && walk.needed.size === 0 && keysKnown) {
      for (const w of walk.warnings) warn(w);
      stats.roundTrips += reader.stats.roundTrips;
      stats.requests += reader.stats.requests;
      stats.reads += reader.stats.reads;
      return { address, blocks, variables, warnings: [...warnings], stats };
    }
    if (round >= MAX_ROUNDS) throw new StorageDecodeError(`the layout still asked for more slots after ${MAX_ROUNDS} rounds of reads`, 'limit');
    if (round === 0) {
      const first = reader.round([...walk.needed], codeCalls, !early);
      if (early) {
        const [looked, read] = await Promise.allSettled([lookup, first]);
        if (looked.status === 'rejected') throw looked.reason;
        if (read.status === 'rejected') throw read.reason;
        blocks = looked.value;
        reader.pin(blocks);
        stats.roundTrips--; // the lookup and the first reads went out together: one round trip
        if (!overlay?.mayLackCode) checkCode(address, blocks, read.value);
      } else {
        const codes = await first;
        if (!overlay?.mayLackCode) checkCode(address, blocks, codes);
      }
    } else if (walk.needed.size > 0) await reader.round([...walk.needed]);
    if (!keysKnown && discovery) {
      const found = await discovery;
      stats.requests += found.requests;
      for (const w of found.warnings) warn(w);
      logWords = found.words;
      keyGroups = found.groups;
      keyCache.clear();
      keysKnown = true;
    }
  }
}

/** The address must hold code at one of the blocks at least. */
export function checkCode(address: string, blocks: readonly BlockInfo[], codes: readonly unknown[]): void {
  codes.forEach((c) => {
    if (c instanceof RpcFailure) throw new StorageDecodeError(`eth_getCode of ${address} failed: ${c.message}`, 'read');
  });
  if (codes.every((c) => typeof c !== 'string' || /^0x0*$/.test(c))) {
    const at = blocks.length === 1 ? `block ${blocks[0].number}` : `blocks ${blocks.map((b) => b.number).join(' and ')}`;
    throw new StorageDecodeError(`${address} has no code at ${at}: no contract there to decode`, 'no-code');
  }
}

/** A node's value at block `state` as JSON: structs as objects by member, arrays as arrays, mappings as objects by key. */
export function nodeValue(node: DecodedNode, state = 0): DecodedValue {
  switch (node.kind) {
    case 'value':
      return node.values[state];
    case 'struct':
      return Object.fromEntries(node.members.map((m) => [m.label, nodeValue(m.node, state)]));
    case 'array': {
      const length = node.lengths ? node.lengths[state] : undefined;
      const elements = length === undefined ? node.elements : node.elements.slice(0, length === null ? 0 : Number(length));
      return elements.map((e) => nodeValue(e, state));
    }
    case 'mapping':
      return Object.fromEntries(node.entries.map((e) => [e.key, nodeValue(e.node, state)]));
  }
}

/** The JSON of `storage-decode`: one element per state variable, in layout order. */
export function decodedJson(reading: StorageReading, state = 0): { label: string; type: string; slot: string; offset: number; value: DecodedValue }[] {
  return reading.variables.map((v) => ({ label: v.label, type: v.type, slot: minimalHex(v.slot), offset: v.offset, value: nodeValue(v.node, state) }));
}

/** One leaf of the tree: a value type, a whole string or bytes, or a dynamic array's length. */
export interface Leaf {
  path: string;
  type: string;
  slot: string;
  values: DecodedValue[];
}

/** The leaves under a node, depth first in layout order, with paths like `pos.amount`, `list[2]`, `balances[0xAb…]`, `list.length`. */
export function leaves(node: DecodedNode, path: string, states = 1, out: Leaf[] = []): Leaf[] {
  switch (node.kind) {
    case 'value':
      out.push({ path, type: node.type, slot: minimalHex(node.slot), values: node.values });
      break;
    case 'struct':
      for (const m of node.members) leaves(m.node, `${path}.${m.label}`, states, out);
      break;
    case 'array':
      if (node.lengths) out.push({ path: `${path}.length`, type: 'uint256', slot: minimalHex(node.slot), values: node.lengths });
      node.elements.forEach((e, i) => leaves(e, `${path}[${i}]`, states, out));
      break;
    case 'mapping':
      // A mapping without entries found is one leaf, so a table still shows it.
      if (node.entries.length === 0) out.push({ path, type: node.type, slot: minimalHex(node.slot), values: new Array<DecodedValue>(states).fill({}) });
      for (const e of node.entries) leaves(e.node, `${path}[${e.key}]`, states, out);
      break;
  }
  return out;
}

export async function decodeStorage(rpc: StorageRpc, layout: Pick<ContractLayout, 'storage' | 'types' | 'notes'>, block: string, options: StorageReadOptions): Promise<StorageReading> {
  return readStorage(rpc, layout, [block], options);
}

/** One changed leaf between two blocks; null only for a dynamic array element missing at one of them. */
export interface LeafChange {
  path: string;
  slot: string;
  before: DecodedValue;
  after: DecodedValue;
}

export interface StorageDiff {
  from: BlockInfo;
  to: BlockInfo;
  changes: LeafChange[];
  warnings: string[];
  stats: ReadStats;
}

/** What changed between the state at the end of block `from` and at the end of block `to`, leaf by leaf in layout order. */
export async function diffStorage(rpc: StorageRpc, layout: Pick<ContractLayout, 'storage' | 'types' | 'notes'>, from: string, to: string, options: StorageReadOptions): Promise<StorageDiff> {
  return diffOfReading(await readStorage(rpc, layout, [from, to], options));
}

/** The changed leaves of a reading at two blocks, in layout order. */
export function diffOfReading(reading: StorageReading): StorageDiff {
  return { from: reading.blocks[0], to: reading.blocks[1], changes: changedLeaves(reading.variables), warnings: reading.warnings, stats: reading.stats };
}

/** The leaves whose value differs between the first two states of the variables, in layout order. */
export function changedLeaves(variables: readonly DecodedVariable[]): LeafChange[] {
  const changes: LeafChange[] = [];
  for (const v of variables) {
    for (const leaf of leaves(v.node, v.label, 2)) {
      const [before, after] = leaf.values;
      if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ path: leaf.path, slot: leaf.slot, before, after });
    }
  }
  return changes;
}
