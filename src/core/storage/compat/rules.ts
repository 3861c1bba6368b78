/**
 * Whether a new storage layout keeps an old one's state where it was, by OpenZeppelin's upgrade
 * rules: variables (and the members of ERC-7201 namespaces and of structs) may be appended, not
 * inserted, removed, retyped, renamed or reordered; a `__gap` may shrink by exactly what the
 * variables added before it take; a namespace may not disappear. Pure: two layouts in, findings
 * out, plus the storage the new layout adds (for the check that it is still zero on chain).
 */
import { bytesOf, slotsOf, staticLength, typeOf, type ContractLayout, type SolcType } from '../layout';
import { describe, enumOf, isGap, structOf, typeShape, type TypeRef } from './shape';

/**
 * The kinds of finding (docs: the storage-compat command's help):
 *  - inserted: a variable or member added before existing ones (they would move) — error
 *  - removed: one the new layout no longer has (its data stays in the slot for the next) — error
 *  - retyped: same name and place, another layout meaning (or a struct that grew where growing moves what follows) — error
 *  - renamed: same type and place, another name — error (OpenZeppelin's rule: say so on purpose)
 *  - reordered: a variable that is in both layouts, at another place — error
 *  - moved: same name and type, another slot, with no finding above it that explains why — error
 *  - gap-resized: a `__gap` that did not shrink by exactly what was added before it — error
 *  - namespace-removed: an `erc7201:<id>` namespace the new layout no longer has — error
 *  - nonzero-slot: storage the new layout adds already holds data on chain — error
 *  - unchecked-slots: storage the new layout adds that was too large to read on chain — warning
 */
export type CompatKind = 'inserted' | 'removed' | 'retyped' | 'renamed' | 'reordered' | 'moved' | 'gap-resized' | 'namespace-removed' | 'nonzero-slot' | 'unchecked-slots';

export interface CompatFinding {
  kind: CompatKind;
  /** The variable: "total", "pos.since", "erc7201:example.main.score", "bonus[].extra". */
  path: string;
  /** The variable in the old layout ("uint256 total at slot 3"), or null. */
  before: string | null;
  /** The variable in the new layout, or null. */
  after: string | null;
  severity: 'error' | 'warning';
}

/** Storage the new layout uses that the old one did not: it must be zero on chain. */
export interface AddedStorage {
  path: string;
  description: string;
  slot: bigint;
  offset: number;
  /** Bytes at `offset` when the value lies within one slot; else whole slots. */
  numberOfBytes: number;
  slots: bigint;
}

export interface CompatResult {
  findings: CompatFinding[];
  added: AddedStorage[];
}

/** One variable or member, with its absolute slot. */
interface Entry {
  label: string;
  slot: bigint;
  offset: number;
  ref: TypeRef;
  /** Inside each value of a mapping or element of an array: the slot is relative to it. */
  relative?: boolean;
}

type Op = { op: 'match' | 'retype' | 'rename'; a: Entry; b: Entry } | { op: 'delete'; a: Entry } | { op: 'insert'; b: Entry };

const NAMESPACE = /^erc7201:/;

/** Compares the layout an upgrade starts from with the one it installs. */
export function compareLayouts(before: Pick<ContractLayout, 'storage' | 'types'>, after: Pick<ContractLayout, 'storage' | 'types'>): CompatResult {
  const out: CompatResult = { findings: [], added: [] };
  const entries = (l: Pick<ContractLayout, 'storage' | 'types'>) =>
    l.storage.map((v): Entry => ({ label: v.label, slot: BigInt(v.slot), offset: v.offset, ref: { types: l.types, id: v.typeId } }));
  const old = entries(before);
  const now = entries(after);
  const plain = (list: Entry[]) => list.filter((e) => !NAMESPACE.test(e.label));
  compareList(plain(old), plain(now), '', false, out);
  for (const a of old.filter((e) => NAMESPACE.test(e.label))) {
    const b = now.find((e) => e.label === a.label);
    if (!b) out.findings.push(finding('namespace-removed', a.label, a, undefined));
    else if (typeShape(a.ref) !== typeShape(b.ref)) compareValue(a, b, a.label, true, out);
  }
  for (const b of now.filter((e) => NAMESPACE.test(e.label) && !old.some((a) => a.label === e.label))) out.added.push(addedOf(b, b.label));
  return out;
}

function finding(kind: CompatKind, path: string, a: Entry | undefined, b: Entry | undefined): CompatFinding {
  const text = (e: Entry | undefined) => (e ? describe(e.ref, e.label, e.slot, e.offset, e.relative) : null);
  return { kind, path, before: text(a), after: text(b), severity: 'error' };
}

function addedOf(e: Entry, path: string): AddedStorage {
  return {
    path,
    description: describe(e.ref, e.label, e.slot, e.offset),
    slot: e.slot,
    offset: e.offset,
    numberOfBytes: bytesOf(e.ref.types, e.ref.id),
    slots: slotsOf(e.ref.types, e.ref.id),
  };
}

/** Variables (or members) of one list compared at most: the alignment's table grows with the square. */
export const MAX_ENTRIES = 5000;

/** Costs of the alignment, doubled to stay whole: a rename or retype is dearer than a move's delete and insert pair, so a swap reads as one reorder. */
const COST = { match: 0, change: 3, gap: 0, edit: 2 };

/** The cheapest edit script from `a` to `b` (Levenshtein over names and type meanings). */
function align(a: Entry[], b: Entry[]): Op[] {
  if (a.length > MAX_ENTRIES || b.length > MAX_ENTRIES) throw new RangeError(`too many variables to compare (${a.length} and ${b.length}; at most ${MAX_ENTRIES} in one list)`);
  const shapes = new Map<Entry, string>([...a, ...b].map((e) => [e, typeShape(e.ref)]));
  const pairCost = (x: Entry, y: Entry): number | undefined => {
    const sameName = x.label === y.label;
    const sameType = shapes.get(x) === shapes.get(y);
    if (sameName && sameType) return COST.match;
    if (sameName && isGap(x.label, x.ref) && isGap(y.label, y.ref)) return COST.gap;
    return sameName || sameType ? COST.change : undefined;
  };
  const n = a.length;
  const m = b.length;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j * COST.edit : j === 0 ? i * COST.edit : 0)));
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) {
      const pair = pairCost(a[i - 1], b[j - 1]);
      d[i][j] = Math.min(d[i - 1][j] + COST.edit, d[i][j - 1] + COST.edit, pair === undefined ? Infinity : d[i - 1][j - 1] + pair);
    }
  const ops: Op[] = [];
  for (let i = n, j = m; i > 0 || j > 0;) {
    const pair = i > 0 && j > 0 ? pairCost(a[i - 1], b[j - 1]) : undefined;
    if (pair !== undefined && d[i][j] === d[i - 1][j - 1] + pair) {
      const x = a[--i];
      const y = b[--j];
      ops.push({ op: x.label !== y.label ? 'rename' : shapes.get(x) === shapes.get(y) ? 'match' : 'retype', a: x, b: y });
    } else if (i > 0 && d[i][j] === d[i - 1][j] + COST.edit) ops.push({ op: 'delete', a: a[--i] });
    else ops.push({ op: 'insert', b: b[--j] });
  }
  return ops.reverse();
}

const end = (e: Entry) => e.slot + slotsOf(e.ref.types, e.ref.id);
const rel = (e: Entry, base: bigint) => `${e.slot - base}/${e.offset}`;

/**
 * Compares two lists of variables (top-level, a namespace's or a struct's members), findings
 * under `prefix`. `growable`: the list may grow at its end (a namespace, a mapping's value, the
 * last variable) without moving anything.
 */
function compareList(old: Entry[], now: Entry[], prefix: string, growable: boolean, out: CompatResult, baseOld = 0n, baseNew = 0n): void {
  const ops = align(old, now);
  const findings = out.findings;
  const start = findings.length;
  const explained = () => findings.slice(start).some((f) => f.severity === 'error');
  // A variable deleted in one place and inserted in another is one reorder.
  const moves = new Map<Op, Op>();
  for (const del of ops) {
    if (del.op !== 'delete') continue;
    const ins = ops.find((o) => o.op === 'insert' && o.b.label === del.a.label && ![...moves.values()].includes(o));
    if (ins) moves.set(del, ins);
  }
  const reported = new Set<Op>();
  const lastOld = ops.map((o) => o.op !== 'insert').lastIndexOf(true);
  ops.forEach((o, k) => {
    const path = (e: Entry) => `${prefix}${e.label}`;
    if (reported.has(o)) return;
    const move = [...moves].find(([del, ins]) => del === o || ins === o);
    if (move) {
      // Reported where it is met first, so that what it moves is explained.
      const [del, ins] = move;
      if (del.op === 'delete' && ins.op === 'insert') findings.push(finding('reordered', path(del.a), del.a, ins.b));
      reported.add(del).add(ins);
      return;
    }
    if (o.op === 'delete') {
      findings.push(finding('removed', path(o.a), o.a, undefined));
      return;
    }
    if (o.op === 'insert') {
      if (k > lastOld || intoGap(ops, k)) out.added.push(addedOf(o.b, path(o.b)));
      else findings.push(finding('inserted', path(o.b), undefined, o.b));
      return;
    }
    const { a, b } = o;
    if (o.op === 'rename') {
      findings.push(finding('renamed', path(b), a, b));
      return;
    }
    if (o.op === 'retype' && isGap(a.label, a.ref) && isGap(b.label, b.ref)) {
      // A gap may shrink (or grow) as long as what follows it keeps its slot.
      if (end(a) - baseOld !== end(b) - baseNew && k < lastOld) findings.push(finding('gap-resized', path(b), a, b));
      return;
    }
    if (rel(a, baseOld) !== rel(b, baseNew) && !explained()) findings.push(finding('moved', path(b), a, b));
    if (o.op === 'retype') compareValue(a, b, path(b), growable || k === lastOld, out);
  });
}

/** Whether the insert at ops[k] takes room from a gap: the next kept entry is a `__gap` and the insert lies within its old slots (whether the gap shrank by as much is the gap's own finding). */
function intoGap(ops: Op[], k: number): boolean {
  const insert = ops[k];
  if (insert.op !== 'insert') return false;
  const next = ops.slice(k + 1).find((o) => o.op !== 'insert');
  if (!next || next.op !== 'retype' || !isGap(next.a.label, next.a.ref) || !isGap(next.b.label, next.b.ref)) return false;
  return insert.b.slot >= next.a.slot && end(insert.b) <= end(next.a);
}

/**
 * Two variables of one name whose types mean different layouts: structs (also as a mapping's
 * value or an array's element) are compared member by member; anything else is retyped.
 */
function compareValue(a: Entry, b: Entry, path: string, growable: boolean, out: CompatResult): void {
  const retyped = () => out.findings.push(finding('retyped', path, a, b));
  const ta = typeOf(a.ref.types, a.ref.id);
  const tb = typeOf(b.ref.types, b.ref.id);
  if (!ta || !tb) return void retyped();
  const ea = enumOf(a.ref);
  const eb = enumOf(b.ref);
  if (ea && eb) {
    // Members appended keep every stored value's meaning; unknown members (no AST) cannot be judged.
    const [x, y] = [ea.enumMembers, eb.enumMembers];
    if (ea.numberOfBytes !== eb.numberOfBytes || (x && y && (y.length < x.length || x.some((name, i) => y[i] !== name)))) retyped();
    return;
  }
  const sa = structOf(a.ref);
  const sb = structOf(b.ref);
  if (sa && sb) {
    const members = (e: Entry, t: SolcType) =>
      (t.members ?? []).map((m): Entry => ({ label: m.label, slot: e.slot + BigInt(m.slot), offset: m.offset, ref: { types: e.ref.types, id: m.type }, relative: e.relative }));
    const before = out.findings.length;
    compareList(members(a, sa), members(b, sb), `${path}.`, growable, out, a.slot, b.slot);
    // Grown where what follows would move (a struct in the middle, an array's element).
    if (out.findings.length === before && !growable && ta.numberOfBytes !== tb.numberOfBytes) retyped();
    return;
  }
  const child = (e: Entry, id: string | undefined): Entry => ({ label: e.label, slot: 0n, offset: 0, ref: { types: e.ref.types, id: id ?? '' }, relative: true });
  const shape = (e: Entry, id: string | undefined) => typeShape(child(e, id).ref);
  if (ta.encoding === 'mapping' && tb.encoding === 'mapping' && shape(a, ta.key) === shape(b, tb.key)) {
    // Values lie apart (hashed slots): a struct value may grow. Its slots are per key, not checked on chain.
    const scratch: CompatResult = { findings: out.findings, added: [] };
    return compareNested(child(a, ta.value), child(b, tb.value), `${path}[]`, true, scratch, retyped);
  }
  const sameArray = ta.encoding === tb.encoding && ta.base !== undefined && tb.base !== undefined && (ta.encoding === 'dynamic_array' || staticLength(a.ref.id) === staticLength(b.ref.id));
  if (sameArray) {
    const scratch: CompatResult = { findings: out.findings, added: [] };
    return compareNested(child(a, ta.base), child(b, tb.base), `${path}[]`, false, scratch, retyped);
  }
  retyped();
}

/** A mapping's values or an array's elements: structs member by member, else the container is retyped. */
function compareNested(a: Entry, b: Entry, path: string, growable: boolean, out: CompatResult, retyped: () => void): void {
  if ((structOf(a.ref) && structOf(b.ref)) || (enumOf(a.ref) && enumOf(b.ref))) compareValue(a, b, path, growable, out);
  else if (typeShape(a.ref) !== typeShape(b.ref)) retyped();
}
