/**
 * The decoded storage as a tree to show (pure; the editor's Contract Storage view draws it): one
 * item per state variable, struct member, array element and mapping entry, with its path (as the
 * diff names leaves: `pos.amount`, `list[2]`, `balances[0xAb…]`), its slot and offset, and its
 * value as bounded one-line text. A node read at two blocks (a diff, a watched variable's last
 * two readings) is shown at the later one, marked where it differs from the earlier: the earlier
 * value on changed leaves, "added"/"removed" on elements and entries present at one block only.
 *
 * Values come from a node: outside text. Shown text is inert (controls and bidi overrides gone,
 * strings quoted with their escapes) and bounded; the copy value is the value as decoded.
 */
import { inertText } from '../../inert';
import { keccak256 } from 'ethers';
import { minimalHex, word } from '../inputs';
import { typeOf, type SolcType } from '../layout';
import { nodeValue } from './decode';
import { keyFromText } from './keys';
import type { DecodedValue } from './values';
import type { DecodedNode } from './walk';

/** The longest value text shown in a tree row; longer ones end in "…". */
export const MAX_SHOWN_VALUE = 120;
/** The longest value text shown in a tooltip. */
export const MAX_TOOLTIP_VALUE = 2_000;
/** Array elements and mapping entries shown at first, and added by each "Load more". */
export const CHILD_PAGE = 50;

/** Data slots named per long string or bytes value. */
const MAX_DATA_SLOTS_NAMED = 1_024;

/** Which of a node's blocks is shown, and which (if any) it is compared with. */
export interface TreeStates {
  shown: number;
  before?: number;
}

export type ItemChange =
  /** A leaf whose value differs: `before` is the earlier value's text. */
  | { kind: 'changed'; before: string }
  /** An element or entry that exists only at the shown block. */
  | { kind: 'added' }
  /** One that exists only at the earlier block (its earlier value is shown). */
  | { kind: 'removed' }
  /** A struct, array or mapping with a change somewhere below. */
  | { kind: 'inside' };

export interface StorageItem {
  /** The path of the value, unique in the tree: `total`, `pos.amount`, `list[2]`, `allowed[0xAb…][0xCd…]`. */
  path: string;
  /** The row's own name: the variable, `.member` as `member`, `[2]`, `[0xAb…]`. */
  label: string;
  kind: DecodedNode['kind'];
  /** solc's type string. */
  type: string;
  /** The slot in minimal hex. */
  slot: string;
  /** Bytes from the right of the slot (value types only; 0 otherwise). */
  offset: number;
  /** One line: the value of a value type, a summary of the others ("3 elements", "2 entries"). */
  description: string;
  /** The value for copying: a value type's decoded value as text, the others as JSON. */
  copyValue: string;
  /** Hover text: path, type, slot, offset, the value (longer than in the row), the change. */
  tooltip: string;
  change?: ItemChange;
  /** Whether it has children to expand. */
  expandable: boolean;
  node: DecodedNode;
}

/**
 * A value as one line of inert text, at most `max` characters: a Solidity string (`isText`)
 * quoted with its escapes, so "12" is told from 12 and a newline shows as \n; numbers, booleans,
 * addresses and hex bare; structs and arrays as JSON.
 */
export function valueText(value: DecodedValue, max = MAX_SHOWN_VALUE, isText = false): string {
  const bare = typeof value === 'string' && !isText && /^(-?\d+|0x[0-9a-fA-F]*)$/.test(value);
  return bounded(inertText(bare ? value : (JSON.stringify(value) ?? 'null')), max);
}

const isTextType = (node: DecodedNode) => node.kind === 'value' && node.type === 'string';

/** A tree label from outside text (a key, a path) as one inert line: tabs and line breaks become spaces, as a label reads best. */
export function labelLine(text: string, max = MAX_SHOWN_VALUE * 2): string {
  return bounded(inertText(text).replace(/[\t\n]/g, ' '), max);
}

export function bounded(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether a node has a value at block `state` (an array element past the length there, or a mapping entry all zero there, has not). */
export function existsAt(node: DecodedNode, state: number): boolean {
  switch (node.kind) {
    case 'value':
      return node.values[state] !== null && node.values[state] !== undefined;
    case 'array':
      return node.lengths ? node.lengths[state] !== null && node.lengths[state] !== undefined : node.elements.every((e) => existsAt(e, state));
    case 'struct':
      return node.members.every((m) => existsAt(m.node, state));
    case 'mapping':
      return true;
  }
}

/** Whether anything under `node` differs between blocks `a` and `b`. */
export function differs(node: DecodedNode, a: number, b: number): boolean {
  return JSON.stringify(nodeValue(node, a)) !== JSON.stringify(nodeValue(node, b));
}

function changeOf(node: DecodedNode, states: TreeStates, present: { a: boolean; b: boolean }): ItemChange | undefined {
  if (states.before === undefined) return undefined;
  if (present.b && !present.a) return { kind: 'added' };
  if (present.a && !present.b) return { kind: 'removed' };
  if (!differs(node, states.before, states.shown)) return undefined;
  return node.kind === 'value' ? { kind: 'changed', before: valueText(nodeValue(node, states.before), MAX_SHOWN_VALUE, isTextType(node)) } : { kind: 'inside' };
}

/** `n` as decimal text (an array's length may exceed 2^53: shown exactly). */
function count(n: number | string, one: string, many: string): string {
  return `${n} ${String(n) === '1' ? one : many}`;
}

function summary(node: DecodedNode, state: number): string {
  switch (node.kind) {
    case 'value':
      return valueText(nodeValue(node, state), MAX_SHOWN_VALUE, isTextType(node));
    case 'struct':
      return node.type;
    case 'array': {
      // A dynamic array's length as read; a static one's as declared (the last [N] of its type), not the elements read.
      const length = node.lengths ? node.lengths[state] : /\[(\d+)\]$/.exec(node.type)?.[1];
      return `${node.type}, ${count(length ?? node.elements.length, 'element', 'elements')}`;
    }
    case 'mapping': {
      const n = node.entries.filter((e) => !isZero(e.node, state)).length;
      // A search the bound stopped found what it found: "0 entries" would say there are none.
      if (node.searchStopped !== undefined) return `${node.type}, ${n ? `${count(n, 'entry', 'entries')} found, ` : ''}${searchStoppedText(node.searchStopped)}`;
      return `${node.type}, ${count(n, 'entry', 'entries')} found`;
    }
  }
}

/** What a mapping says when the bound stopped its key search before every combination was tried. */
export function searchStoppedText(tries: number): string {
  return `search stopped at ${tries.toLocaleString('en-US')} combinations`;
}

/** Whether every leaf under a node is its zero at `state`: a mapping entry whose value is zero there is not shown as present. */
function isZero(node: DecodedNode, state: number): boolean {
  const zero = (v: DecodedValue): boolean =>
    v === null ||
    v === false ||
    v === '' ||
    v === '0x' ||
    (typeof v === 'string' && /^(0|0x0*)$/.test(v)) ||
    (Array.isArray(v) ? v.every(zero) : typeof v === 'object' && v !== null ? Object.values(v).every(zero) : false);
  return zero(nodeValue(node, state));
}

/** The item of one node at `path`, labelled `label`. */
export function storageItem(node: DecodedNode, path: string, label: string, states: TreeStates, present = { a: true, b: true }): StorageItem {
  const shownState = present.b || states.before === undefined ? states.shown : states.before;
  const value = nodeValue(node, shownState);
  const change = changeOf(node, states, present);
  const offset = node.kind === 'value' ? node.offset : 0;
  const full = node.kind === 'value' ? valueText(value, MAX_TOOLTIP_VALUE, isTextType(node)) : bounded(inertText(JSON.stringify(value) ?? 'null'), MAX_TOOLTIP_VALUE);
  const lines = [labelLine(path), `type: ${labelLine(node.type)}`, `slot: ${minimalHex(node.slot)}${offset ? `, offset ${offset}` : ''}`, `value: ${full}`];
  if (change?.kind === 'changed') lines.push(`was: ${valueText(nodeValue(node, states.before!), MAX_TOOLTIP_VALUE, isTextType(node))}`);
  if (change?.kind === 'added') lines.push('added since the earlier block');
  if (change?.kind === 'removed') lines.push('gone since the earlier block');
  return {
    path,
    label: labelLine(label),
    kind: node.kind,
    type: node.type,
    slot: minimalHex(node.slot),
    offset,
    // The type is the layout file's text: inert like the rest.
    description: labelLine(summary(node, shownState)),
    copyValue: node.kind === 'value' && typeof value === 'string' ? value : JSON.stringify(value),
    tooltip: lines.join('\n'),
    change,
    expandable: node.kind === 'struct' || (node.kind === 'array' && node.elements.length > 0) || (node.kind === 'mapping' && node.entries.length > 0),
    node,
  };
}

/** The items of the state variables, in layout order. */
export function variableItems(variables: readonly { label: string; node: DecodedNode; states: TreeStates }[], changedOnly = false): StorageItem[] {
  return variables.map((v) => storageItem(v.node, v.label, v.label, v.states)).filter((item) => !changedOnly || item.change !== undefined);
}

/**
 * The children of an item: struct members, array elements and mapping entries, the first
 * `shown` of the elements and entries (`more`: how many are left), only the changed ones when
 * `changedOnly`.
 */
export function childItems(item: Pick<StorageItem, 'node' | 'path'>, states: TreeStates, shown = CHILD_PAGE, changedOnly = false): { items: StorageItem[]; more: number } {
  const { node, path } = item;
  const presence = (child: DecodedNode) => ({ a: states.before === undefined || existsAt(child, states.before), b: existsAt(child, states.shown) });
  let all: { node: DecodedNode; path: string; label: string }[];
  switch (node.kind) {
    case 'value':
      return { items: [], more: 0 };
    case 'struct':
      all = node.members.map((m) => ({ node: m.node, path: `${path}.${m.label}`, label: m.label }));
      break;
    case 'array':
      all = node.elements.map((e, i) => ({ node: e, path: `${path}[${i}]`, label: `[${i}]` }));
      break;
    case 'mapping':
      all = node.entries.map((e) => ({ node: e.node, path: `${path}[${e.key}]`, label: `[${e.key}]` }));
      break;
  }
  const items = all
    .map((c) => ({ ...c, present: presence(c.node) }))
    .filter((c) => c.present.a || c.present.b)
    .map((c) => storageItem(c.node, c.path, c.label, states, c.present))
    .filter((i) => !changedOnly || i.change !== undefined);
  if (node.kind === 'struct') return { items, more: 0 };
  return { items: items.slice(0, shown), more: Math.max(0, items.length - shown) };
}

/** What is wrong with `text` as a key of a mapping whose key type is `keyType`; undefined when it is one. */
export function mappingKeyProblem(keyType: SolcType, text: string): string | undefined {
  if (text.trim() === '') return 'Enter a key.';
  if (keyType.encoding === 'bytes' && keyType.label !== 'string' && !/^0x([0-9a-f]{2})*$/i.test(text.trim())) return 'A bytes key is 0x followed by an even number of hex digits.';
  if (keyFromText(keyType, text)) return undefined;
  const label = keyType.label;
  if (label === 'address' || label === 'address payable' || label.startsWith('contract ')) return 'An address is 0x followed by 40 hex digits (a mixed-case one must have a valid checksum).';
  if (label === 'bool') return 'A bool key is true or false.';
  if (/^bytes\d+$/.test(label)) return `A ${label} key is 0x followed by at most ${Number(label.slice(5)) * 2} hex digits.`;
  if (/^int\d*$/.test(label)) return `Not an ${label}: a whole number (decimal, or 0x hex for its two's complement) in the ${label} range.`;
  if (/^uint\d*$/.test(label) || label.startsWith('enum ')) return `Not a ${label}: a whole number from 0 (decimal or 0x hex) in its range.`;
  return `Not a key of type ${label}.`;
}

/** The key type of the mapping `node` of a layout, by its type string, when the layout describes it. */
export function mappingKeyType(types: Record<string, SolcType>, mapping: { type: string }): SolcType | undefined {
  const entry = Object.values(types).find((t) => t.encoding === 'mapping' && t.label === mapping.type);
  return entry?.key ? typeOf(types, entry.key) : undefined;
}

/**
 * The slots a decode explains, with the paths of what they hold: every value's slot (packed
 * values joined: `owner, paused`), mapping entries included, so a raw table can name a slot the
 * layout alone cannot (a mapping entry's hashed slot).
 */
export function decodedSlotNames(variables: readonly { label: string; node: DecodedNode }[], max = 100_000): Map<string, string> {
  const out = new Map<string, string[]>();
  const add = (slot: bigint, path: string) => {
    const key = minimalHex(slot);
    const list = out.get(key);
    if (list) {
      if (!list.includes(path)) list.push(path);
    } else if (out.size < max) out.set(key, [path]);
  };
  const walk = (node: DecodedNode, path: string) => {
    switch (node.kind) {
      case 'value':
        add(node.slot, path);
        if (node.type === 'string' || node.type === 'bytes') dataSlots(node, path);
        break;
      case 'struct':
        for (const m of node.members) walk(m.node, `${path}.${m.label}`);
        break;
      case 'array':
        if (node.lengths) add(node.slot, `${path}.length`);
        node.elements.forEach((e, i) => walk(e, `${path}[${i}]`));
        break;
      case 'mapping':
        for (const e of node.entries) walk(e.node, `${path}[${e.key}]`);
        break;
    }
  };
  // A long string or bytes keeps its data from keccak256(slot): named as the layout names them, `note (data 0)`.
  const dataSlots = (node: Extract<DecodedNode, { kind: 'value' }>, path: string) => {
    const length = Math.max(...node.values.map((v) => (typeof v !== 'string' ? 0 : node.type === 'bytes' ? (v.length - 2) / 2 : Buffer.byteLength(v, 'utf8'))));
    if (length < 32) return;
    const base = BigInt(keccak256(word(node.slot)));
    for (let k = 0; k < Math.min(Math.ceil(length / 32), MAX_DATA_SLOTS_NAMED); k++) add((base + BigInt(k)) % (1n << 256n), `${path} (data ${k})`);
  };
  for (const v of variables) walk(v.node, v.label);
  return new Map([...out].map(([slot, paths]) => [slot, paths.join(', ')]));
}
