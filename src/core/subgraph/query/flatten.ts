/**
 * GraphQL results as tables, one per top-level field: a row per record of a list, nested objects
 * spread into dotted columns (token.id), lists kept whole as JSON text. Values stay as sent:
 * BigInt, BigDecimal and Bytes come as strings and are never turned into numbers (they would
 * lose digits).
 */
import { inertText } from '../../inert';
import type { Tabular } from '../../table/table';

/** Cell text is inert: a table copied or exported to a terminal must not carry control sequences. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return inertText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return inertText(JSON.stringify(value));
}

function spread(value: unknown, prefix: string, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length && prefix) into.set(prefix, '{}');
    for (const [raw, inner] of entries) {
      const key = inertText(raw);
      spread(inner, prefix ? `${prefix}.${key}` : key, into);
    }
    return;
  }
  into.set(prefix || 'value', cell(value));
}

/** One top-level field of an answer as a table: e.g. `transfers` with a row per transfer. */
export interface FieldTable extends Tabular {
  field: string;
}

/** Every top-level field of `data` as its own table, in the order the endpoint sent them (the query's order). */
export function flattenFields(data: unknown): FieldTable[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>).map(([name, value]) => flattenValue(inertText(name), value));
}

/** One field's rows: a list gives one row per element, an object or scalar a single row. Columns appear in first-seen order. */
function flattenValue(field: string, value: unknown): FieldTable {
  const records = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  const columnOrder: string[] = [];
  const known = new Set<string>();
  const maps = records.map((record) => {
    const map = new Map<string, string>();
    spread(record, '', map);
    for (const key of map.keys()) {
      if (!known.has(key)) {
        known.add(key);
        columnOrder.push(key);
      }
    }
    return map;
  });
  return {
    field,
    columns: columnOrder.map((id) => ({ id, title: id })),
    rows: maps.map((m) => columnOrder.map((c) => m.get(c) ?? '')),
  };
}

/** Each field with its row count, for the log: "transfers: 10 rows, _meta: 1 row". */
export function fieldCounts(fields: readonly FieldTable[]): string {
  return fields.length ? fields.map((t) => `${t.field}: ${t.rows.length} row${t.rows.length === 1 ? '' : 's'}`).join(', ') : 'no data';
}
