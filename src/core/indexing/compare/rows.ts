/**
 * A compare's result as a panel shows it: one row per entity that differs (field, how, id, what),
 * paged; and the query compared when none is given (a deployment compared from the tree): every
 * entity's default list query, in one operation.
 */
import { Kind, OperationTypeNode, parse, print, type OperationDefinitionNode, type SelectionNode } from 'graphql';
import { oneLine } from '../../inert';
import { defaultListQueries } from '../../subgraph/query/build';
import { entityModel } from '../../subgraph/query/entities';
import type { Tabular } from '../../table/table';
import type { CompareResult } from './compare';

export const DIFF_COLUMNS = [
  { id: 'field', title: 'Field' },
  { id: 'kind', title: 'Difference' },
  { id: 'id', title: 'Entity id' },
  { id: 'detail', title: 'A → B' },
] as const;

/** Each value quoted as JSON, cut to one line. */
const shown = (v: unknown) => oneLine(JSON.stringify(v ?? null), 200);

/** One row per entity that differs, field by field: only in A, only in B, then changed. */
export function diffRows(result: CompareResult): string[][] {
  const rows: string[][] = [];
  const idOf = (e: Record<string, unknown>) => (typeof e.id === 'string' ? e.id : shown(e.id));
  for (const f of result.fields) {
    for (const e of f.onlyInA) rows.push([f.field, 'only in A', idOf(e), shown(e)]);
    for (const e of f.onlyInB) rows.push([f.field, 'only in B', idOf(e), shown(e)]);
    for (const c of f.changed) rows.push([f.field, 'changed', c.id, c.changes.map((ch) => `${ch.path}: ${shown(ch.a)} → ${shown(ch.b)}`).join('; ')]);
  }
  return rows;
}

/** Rows `index * size` onward, and where that page stands. */
export function diffPage(rows: readonly string[][], index: number, size: number): { table: Tabular; pageNumber: number; hasPrevious: boolean; hasNext: boolean } {
  const last = Math.max(0, Math.ceil(rows.length / size) - 1);
  const at = Math.min(Math.max(0, index), last);
  return {
    table: { columns: DIFF_COLUMNS, rows: rows.slice(at * size, (at + 1) * size) },
    pageNumber: at + 1,
    hasPrevious: at > 0,
    hasNext: at < last,
  };
}

/** Every entity's list in one query, from the subgraph's schema text (throws when it has no entity). */
export function entitiesQuery(schemaText: string): string {
  const selections: SelectionNode[] = [];
  for (const query of defaultListQueries(entityModel(schemaText)).values()) {
    const op = parse(query).definitions[0] as OperationDefinitionNode;
    // The default queries' own $first/$skip go: the compare reads each collection whole.
    selections.push(...op.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? { ...s, arguments: [] } : s)));
  }
  if (!selections.length) throw new Error('The subgraph schema has no entity to compare.');
  return print({ kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: OperationTypeNode.QUERY, selectionSet: { kind: Kind.SELECTION_SET, selections } }] });
}
