/**
 * Two answers to the same field compared entity by entity (by id): the entities only one side
 * has, and for those both have, each value that differs (by its path). Values are compared
 * normalised, so what two hosts spell differently but mean the same is equal: numbers as
 * canonical decimals (BigInt `"5"` and `5`, BigDecimal `"1.50"` and `"1.5"`, `"1e3"` and
 * `"1000"`), and hex Bytes in one case (`0xAB` and `0xab`).
 */

/** One side's answer to one top-level field. */
export type FieldAnswer =
  /** A collection, read whole (or up to the bound: `truncated`). */
  | { kind: 'list'; entities: readonly Record<string, unknown>[]; truncated: boolean }
  /** A single entity or value (null when absent). */
  | { kind: 'value'; value: unknown };

export interface ValueChange {
  /** Where in the entity, e.g. `version` or `owner.id`. */
  path: string;
  a: unknown;
  b: unknown;
}

export interface ChangedEntity {
  id: string;
  changes: ValueChange[];
}

export interface FieldDiff {
  /** The field's key in the answer (alias or name). */
  field: string;
  countA: number;
  countB: number;
  /** A side stopped at the bound: entities past the lower side's last id are not compared. */
  truncated: boolean;
  onlyInA: Record<string, unknown>[];
  onlyInB: Record<string, unknown>[];
  changed: ChangedEntity[];
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const HEX = /^0x[0-9a-f]*$/i;
/** Exponents beyond this are kept as written rather than expanded into digits. */
const MAX_EXPONENT = 400;

/** A decimal number's canonical text (no exponent, no leading or trailing zeros, no `-0`), or undefined when the text is not one. */
export function canonicalDecimal(text: string): string | undefined {
  const m = DECIMAL.exec(text);
  if (!m || (!m[2] && !m[3])) return undefined;
  const exponent = Number(m[4] ?? 0);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let digits = (m[2] ?? '') + (m[3] ?? '');
  let point = (m[2] ?? '').length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  const body = fraction ? `${whole}.${fraction}` : whole;
  return m[1] === '-' && body !== '0' ? `-${body}` : body;
}

/** The value as compared: numbers and numeric strings canonical, hex in lower case, objects and lists through. */
export function normalise(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? (canonicalDecimal(String(value)) ?? String(value)) : String(value);
  if (typeof value === 'string') return HEX.test(value) ? value.toLowerCase() : (canonicalDecimal(value) ?? value);
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The paths where two normalised values differ (objects by key; lists and scalars whole). */
function changes(a: unknown, b: unknown, path: string, out: ValueChange[], rawA: unknown, rawB: unknown): void {
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      changes(a[key], b[key], path ? `${path}.${key}` : key, out, (rawA as Record<string, unknown>)[key], (rawB as Record<string, unknown>)[key]);
    }
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, a: rawA === undefined ? null : rawA, b: rawB === undefined ? null : rawB });
}

/** Ids in the order graph-node sorts Int8 ids: numeric ids by value, the rest as text. */
export function compareIds(x: string, y: string): number {
  if (/^-?\d+$/.test(x) && /^-?\d+$/.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }
  return byText(x, y);
}

const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * The order the node sorted a list's ids in, read from the list: by value only when every id is
 * a number and they run that way (Int8); String ids that look like numbers sort as text ("10" before "9").
 */
function orderOf(ids: readonly string[]): (x: string, y: string) => number {
  return ids.every((id, i) => /^-?\d+$/.test(id) && (i === 0 || compareIds(ids[i - 1], id) < 0)) ? compareIds : byText;
}

const idOf = (entity: Record<string, unknown>) => {
  const id = normalise(entity.id);
  return typeof id === 'string' ? id : JSON.stringify(id);
};

/** The entities both sides read in full: up to the lower last id of a side that stopped at the bound. */
function comparedRange(a: FieldAnswer & { kind: 'list' }, b: FieldAnswer & { kind: 'list' }): (id: string) => boolean {
  const stopped = [a, b].filter((s) => s.truncated && s.entities.length).map((s) => s.entities.map(idOf));
  if (!stopped.length) return () => true;
  const order = orderOf(stopped[0]);
  const end = stopped.map((ids) => ids[ids.length - 1]).sort(order)[0];
  return (id) => order(id, end) <= 0;
}

/** Two answers to the field `field` compared. */
export function diffField(field: string, a: FieldAnswer, b: FieldAnswer): FieldDiff {
  const diff: FieldDiff = { field, countA: 0, countB: 0, truncated: false, onlyInA: [], onlyInB: [], changed: [] };
  if (a.kind === 'list' && b.kind === 'list') {
    const inRange = comparedRange(a, b);
    diff.truncated = a.truncated || b.truncated;
    diff.countA = a.entities.length;
    diff.countB = b.entities.length;
    const byIdB = new Map(b.entities.map((e) => [idOf(e), e]));
    const seen = new Set<string>();
    for (const entity of a.entities) {
      const id = idOf(entity);
      seen.add(id);
      if (!inRange(id)) continue;
      const other = byIdB.get(id);
      if (!other) {
        diff.onlyInA.push(entity);
        continue;
      }
      const found: ValueChange[] = [];
      changes(normalise(entity), normalise(other), '', found, entity, other);
      if (found.length) diff.changed.push({ id, changes: found });
    }
    for (const [id, entity] of byIdB) if (!seen.has(id) && inRange(id)) diff.onlyInB.push(entity);
    return diff;
  }
  // A single entity (or a value): compared whole, keyed by the field.
  const valueA = a.kind === 'value' ? a.value : a.entities;
  const valueB = b.kind === 'value' ? b.value : b.entities;
  diff.countA = valueA === null || valueA === undefined ? 0 : 1;
  diff.countB = valueB === null || valueB === undefined ? 0 : 1;
  if (diff.countA && !diff.countB) diff.onlyInA.push(isObject(valueA) ? valueA : { value: valueA });
  else if (diff.countB && !diff.countA) diff.onlyInB.push(isObject(valueB) ? valueB : { value: valueB });
  else if (diff.countA) {
    const found: ValueChange[] = [];
    changes(normalise(valueA), normalise(valueB), '', found, valueA, valueB);
    const id = isObject(valueA) && typeof valueA.id === 'string' ? valueA.id : field;
    if (found.length) diff.changed.push({ id, changes: found.map((c) => (c.path ? c : { ...c, path: field })) });
  }
  return diff;
}

/** Whether a field's answers differ at all. */
export const differs = (d: FieldDiff) => d.onlyInA.length > 0 || d.onlyInB.length > 0 || d.changed.length > 0;
