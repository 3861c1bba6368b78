/**
 * One pass of the decoder over a layout: a tree of nodes (value, struct, array, mapping) built
 * from the words read so far, at one or more blocks at once (a diff reads both of its blocks in
 * the same round trips). A slot not read yet reads as zero and is put on the list of slots the
 * next round trip reads; passes repeat until a pass asks for nothing new. So the first pass asks
 * for every slot of the value types (and mapping entries, once their keys are known), the next
 * for long string data and dynamic array elements, found from the lengths the first one read.
 *
 * Mapping entries are tried for every candidate key of the key's type (key combinations for a
 * nested mapping, those one log names together first: ./keys.ts) and kept where any slot of the
 * value is non-zero at any block; a search the bound stops is marked on its mapping and said in
 * a warning; dynamic array elements and string data are read up to bounds, with a warning where
 * one cuts.
 */
import { keccak256 } from 'ethers';
import type { KnobHints } from '../../knobs';
import { word } from '../inputs';
import { bytesOf, slotsOf, staticLength, typeOf, type SolcType } from '../layout';
import { StorageDecodeError } from './errors';
import { compareKeys, keyCombinations, type MappingKeyCandidate } from './keys';
import { bytesHead, bytesValue, decodeValue, longBytes, MAX_BYTES_LENGTH, shortBytes, sliceBits, type DecodedValue } from './values';

/** A node of the decoded tree; `values`/`lengths` hold one entry per block, null where the node does not exist there. */
export type DecodedNode =
  | { kind: 'value'; type: string; slot: bigint; offset: number; values: DecodedValue[]; nonZero: boolean }
  | { kind: 'struct'; type: string; slot: bigint; members: { label: string; node: DecodedNode }[]; nonZero: boolean }
  | { kind: 'array'; type: string; slot: bigint; lengths?: (string | null)[]; elements: DecodedNode[]; nonZero: boolean }
  | {
      kind: 'mapping';
      type: string;
      slot: bigint;
      entries: { key: string; node: DecodedNode }[];
      nonZero: boolean;
      /** Set where the bound stopped the key search: the combinations tried (maxKeyTries). */
      searchStopped?: number;
    };

/** Bounds of one decode; each says so in a warning where it cuts. */
export interface DecodeLimits {
  /** Elements read of one array (static or dynamic). */
  maxElements: number;
  /** Keys (or key combinations, for nested mappings) tried under one state variable. */
  maxKeyTries: number;
  /** Bytes read of one string or bytes value. */
  maxBytes: number;
}

export const DEFAULT_LIMITS: DecodeLimits = { maxElements: 10_000, maxKeyTries: 100_000, maxBytes: MAX_BYTES_LENGTH };

export interface WalkInput {
  types: Record<string, SolcType>;
  /** How many blocks are read at once. */
  states: number;
  /** The words read so far, one per block; undefined for a slot not read yet. */
  words(slot: bigint): readonly bigint[] | undefined;
  /** The candidate keys of a mapping key type (by solc type id). */
  keys(keyTypeId: string): readonly MappingKeyCandidate[];
  /** Each log's words in order: keys named together, tried together first in a nested mapping. */
  keyGroups?: readonly (readonly bigint[])[];
  /** The keys the user gave, as text: in a nested mapping, tried with every other candidate before the rest. */
  userKeys?: readonly string[];
  limits: DecodeLimits;
  /** The front end's words for giving mapping keys, ending the warning of a cut. */
  hints?: Pick<KnobHints, 'mappingKeys'>;
  /** Shared across passes: keccak256 results. */
  hashes: Map<string, bigint>;
}

const MOD = 1n << 256n;
/** How deep types may nest (struct in array in mapping …) before a layout counts as looping. */
const MAX_DEPTH = 64;

/** A path as a message names it: a looping layout makes paths of 64 steps, cut so the message stays one readable line. */
const pathInMessage = (path: string) => (path.length > 120 ? `${path.slice(0, 119)}…` : path);

export class Walk {
  /** Slots this pass read as zero because they have not been read yet. */
  readonly needed = new Set<bigint>();
  readonly warnings = new Set<string>();
  private readonly zeros: bigint[];
  private tries = 0;
  private depth = 0;

  constructor(private readonly input: WalkInput) {
    this.zeros = new Array<bigint>(input.states).fill(0n);
  }

  /** A state variable of the layout (or any value at a slot). */
  variable(label: string, typeId: string, slot: bigint, offset: number): DecodedNode {
    this.tries = 0;
    return this.node(typeId, slot, offset, new Array<boolean>(this.input.states).fill(true), label);
  }

  private read(slot: bigint): readonly bigint[] {
    const w = this.input.words(slot);
    if (w) return w;
    this.needed.add(slot);
    return this.zeros;
  }

  private hash(hex: string): bigint {
    let h = this.input.hashes.get(hex);
    if (h === undefined) {
      h = BigInt(keccak256(hex));
      this.input.hashes.set(hex, h);
    }
    return h;
  }

  private dataSlot(slot: bigint): bigint {
    return this.hash(word(slot));
  }

  private node(id: string, slot: bigint, offset: number, present: readonly boolean[], path: string): DecodedNode {
    // solc's types nest only as deep as the source does; a layout that loops (a struct inside
    // itself) is refused rather than recursed into without end.
    if (this.depth >= MAX_DEPTH) throw new StorageDecodeError(`${pathInMessage(path)}: the layout nests types more than ${MAX_DEPTH} deep`, 'limit');
    this.depth++;
    try {
      return this.nodeOf(id, slot, offset, present, path);
    } finally {
      this.depth--;
    }
  }

  private nodeOf(id: string, slot: bigint, offset: number, present: readonly boolean[], path: string): DecodedNode {
    const t = typeOf(this.input.types, id);
    if (!t) throw new StorageDecodeError(`${pathInMessage(path)}: the layout names type ${id} but does not describe it`, 'limit');
    if (t.encoding === 'mapping') return this.mapping(t, slot, present, path);
    if (t.encoding === 'bytes') return this.bytes(t, slot, present, path);
    if (t.encoding === 'dynamic_array') return this.dynamicArray(t, slot, present, path);
    if (t.members) {
      const members = t.members.map((m) => ({ label: m.label, node: this.node(m.type, (slot + BigInt(m.slot)) % MOD, m.offset, present, `${path}.${m.label}`) }));
      return { kind: 'struct', type: t.label, slot, members, nonZero: members.some((m) => m.node.nonZero) };
    }
    if (t.base) {
      const n = this.bound(staticLength(id), path);
      const elements = Array.from({ length: n }, (_, i) => this.element(t.base!, slot, i, present, `${path}[${i}]`));
      return { kind: 'array', type: t.label, slot, elements, nonZero: elements.some((e) => e.nonZero) };
    }
    const words = this.read(slot);
    const size = Number(t.numberOfBytes);
    const values = words.map((w, i) => (present[i] ? decodeValue(t, w, offset) : null));
    return { kind: 'value', type: t.label, slot, offset, values, nonZero: words.some((w, i) => present[i] && sliceBits(w, offset, size) !== 0n) };
  }

  /** How many elements of an array of `length` are read; the warning names the real length, however long. */
  private bound(length: bigint, path: string): number {
    const max = this.input.limits.maxElements;
    if (length <= BigInt(max)) return Number(length);
    this.warnings.add(`${path}: ${length} elements, the first ${max} read`);
    return max;
  }

  /** Element `i` of an array whose data starts at `base`: small elements share slots, from the right. */
  private element(baseType: string, base: bigint, i: number, present: readonly boolean[], path: string): DecodedNode {
    const size = bytesOf(this.input.types, baseType);
    if (size < 32) {
      const perSlot = Math.floor(32 / size);
      return this.node(baseType, (base + BigInt(Math.floor(i / perSlot))) % MOD, (i % perSlot) * size, present, path);
    }
    return this.node(baseType, (base + BigInt(i) * slotsOf(this.input.types, baseType)) % MOD, 0, present, path);
  }

  private dynamicArray(t: SolcType, slot: bigint, present: readonly boolean[], path: string): DecodedNode {
    const heads = this.read(slot);
    const lengths = heads.map((h, i) => (present[i] ? h : null));
    const longest = lengths.reduce<bigint>((m, l) => (l !== null && l > m ? l : m), 0n);
    const n = this.bound(longest, path);
    const base = n > 0 ? this.dataSlot(slot) : 0n;
    const elements = Array.from({ length: n }, (_, k) => {
      const here = lengths.map((l) => l !== null && BigInt(k) < l);
      return this.element(t.base!, base, k, here, `${path}[${k}]`);
    });
    return { kind: 'array', type: t.label, slot, lengths: lengths.map((l) => (l === null ? null : l.toString(10))), elements, nonZero: lengths.some((l) => l !== null && l !== 0n) };
  }

  private bytes(t: SolcType, slot: bigint, present: readonly boolean[], path: string): DecodedNode {
    const heads = this.read(slot);
    const isString = t.label === 'string';
    const values = heads.map((h, i): DecodedValue => {
      if (!present[i]) return null;
      const head = bytesHead(h);
      if (!head.long) return bytesValue(isString, shortBytes(h, head.length));
      let length = head.length > BigInt(this.input.limits.maxBytes) ? this.input.limits.maxBytes : Number(head.length);
      if (BigInt(length) < head.length) this.warnings.add(`${path}: ${head.length} bytes, the first ${length} read`);
      length = Math.max(0, length);
      const base = this.dataSlot(slot);
      const data = Array.from({ length: Math.ceil(length / 32) }, (_, k) => this.read((base + BigInt(k)) % MOD)[i]);
      return bytesValue(isString, longBytes(data, length));
    });
    return { kind: 'value', type: t.label, slot, offset: 0, values, nonZero: heads.some((h, i) => present[i] && h !== 0n) };
  }

  /**
   * A mapping and the mappings nested directly in it (`mapping(a => mapping(b => V))`), searched
   * as one by key combinations (./keys.ts gives their order), up to maxKeyTries for the variable.
   */
  private mapping(t: SolcType, slot: bigint, present: readonly boolean[], path: string): DecodedNode {
    const chain = [t];
    let valueId = t.value!;
    for (let v = typeOf(this.input.types, valueId); v?.encoding === 'mapping'; v = typeOf(this.input.types, valueId)) {
      if (chain.length >= MAX_DEPTH) throw new StorageDecodeError(`${pathInMessage(path)}: the layout nests types more than ${MAX_DEPTH} deep`, 'limit');
      chain.push(v);
      valueId = v.value!;
    }
    const types = chain.map((m) => {
      const key = typeOf(this.input.types, m.key!);
      if (!key) throw new StorageDecodeError(`${pathInMessage(path)}: the layout names type ${m.key} but does not describe it`, 'limit');
      return key;
    });
    const search = keyCombinations({ types, candidates: chain.map((m) => this.input.keys(m.key!)), groups: this.input.keyGroups ?? [], userKeys: this.input.userKeys ?? [] });
    const root: Branch = new Map();
    let stopped = false;
    for (const combo of search) {
      if (this.tries >= this.input.limits.maxKeyTries) {
        stopped = true;
        break;
      }
      this.tries++;
      let at = slot;
      for (const key of combo) at = this.hash(`${key.encoding}${word(at).slice(2)}`);
      const node = this.node(valueId, at, 0, present, `${path}${combo.map((k) => `[${k.text}]`).join('')}`);
      if (!node.nonZero) continue;
      let branch = root;
      combo.forEach((key, level) => {
        if (level === combo.length - 1) branch.set(key.encoding, { key, node });
        else {
          const next = branch.get(key.encoding)?.inner ?? new Map();
          branch.set(key.encoding, { key, inner: next });
          branch = next;
        }
      });
    }
    const mapping = this.entriesOf(chain, types, root, slot, 0);
    if (stopped) {
      const cap = this.input.limits.maxKeyTries;
      const variable = path.replace(/\[.*$/, '');
      this.warnings.add(
        `${variable}: search stopped at ${cap.toLocaleString('en-US')} combinations of candidate keys${this.input.hints?.mappingKeys ? `; name the keys wanted with ${this.input.hints.mappingKeys}` : ''}`,
      );
      if (mapping.kind === 'mapping') mapping.searchStopped = cap;
    }
    return mapping;
  }

  /** The mapping node of `chain[level]` at `slot` from the entries found, each level in key order. */
  private entriesOf(chain: readonly SolcType[], keyTypes: readonly SolcType[], branch: Branch, slot: bigint, level: number): DecodedNode {
    const found = [...branch.values()].sort((a, b) => compareKeys(keyTypes[level])(a.key, b.key));
    const slotWord = word(slot).slice(2);
    const entries = found.map((e) => ({
      key: e.key.text,
      node: e.node ?? this.entriesOf(chain, keyTypes, e.inner!, this.hash(`${e.key.encoding}${slotWord}`), level + 1),
    }));
    return { kind: 'mapping', type: chain[level].label, slot, entries, nonZero: entries.length > 0 };
  }
}

/** Entries found under one mapping of a nested chain, by key encoding: a value, or the next mapping's. */
type Branch = Map<string, { key: MappingKeyCandidate; node?: DecodedNode; inner?: Branch }>;
