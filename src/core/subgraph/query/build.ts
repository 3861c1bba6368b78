/**
 * Ready-made queries: each entity's default list query (paged with $first/$skip), and the
 * health query. The default query selects what a table can show: every stored scalar or enum
 * field, and the `id` of referenced entities; @derivedFrom lists are left out (they can be
 * long and are reachable from the other side).
 */
import type { EntityModel, QueryEntity, QueryField } from './entities';
import { listQueryName, pluralTypeName } from './naming';

/** graph-node's limits on list arguments: first ≤ 1000, skip ≤ 5000. */
export const MAX_FIRST = 1000;
export const MAX_SKIP = 5000;
export const DEFAULT_PAGE_SIZE = 100;

function selection(field: QueryField): string | undefined {
  if (field.derivedFrom !== undefined) return undefined;
  return field.kind === 'entity' ? `${field.name} { id }` : field.name;
}

/** The list query of one entity, e.g. `query ApprovalQueries($first: Int = 100, $skip: Int = 0) { approvalQueries(first: $first, skip: $skip) { id owner … } }`. */
export function defaultListQuery(entity: QueryEntity, pageSize = DEFAULT_PAGE_SIZE): string {
  const fields = [...entity.fields].sort((a, b) => Number(b.name === 'id') - Number(a.name === 'id'));
  const selected = fields.map(selection).filter((s): s is string => !!s);
  const operation = pluralTypeName(entity.name).replace(/[^A-Za-z0-9_]/g, '');
  return [
    `query ${operation}($first: Int = ${pageSize}, $skip: Int = 0) {`,
    `  ${listQueryName(entity.name)}(first: $first, skip: $skip) {`,
    ...selected.map((s) => `    ${s}`),
    '  }',
    '}',
    '',
  ].join('\n');
}

/** The default list query of every entity, by entity name. */
export function defaultListQueries(model: EntityModel, pageSize = DEFAULT_PAGE_SIZE): Map<string, string> {
  return new Map(model.entities.map((e) => [e.name, defaultListQuery(e, pageSize)]));
}

/** Subgraph health: the latest indexed block and whether indexing hit errors. */
export const HEALTH_QUERY = '{ _meta { block { number } hasIndexingErrors } }';

/** Paging variables for a page (0-based); throws RangeError past graph-node's limits. */
export function pageVariables(page: number, pageSize = DEFAULT_PAGE_SIZE): { first: number; skip: number } {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_FIRST) throw new RangeError(`Page size must be 1 to ${MAX_FIRST} (graph-node's limit on first).`);
  const skip = page * pageSize;
  if (!Number.isInteger(page) || page < 0) throw new RangeError('Page must be 0 or more.');
  if (skip > MAX_SKIP) {
    throw new RangeError(`graph-node skips at most ${MAX_SKIP} records; to read further, filter instead of skipping (e.g. where: { id_gt: "<last id>" } with orderBy: id).`);
  }
  return { first: pageSize, skip };
}
