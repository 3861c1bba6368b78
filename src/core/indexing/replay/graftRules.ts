/**
 * Whether a deployment may graft onto a base, by the rules graph-node applies when it copies the
 * base's tables into the new deployment (a table of the new schema that the base has too must
 * take the base's rows as they are): every column the new table has must either exist in the
 * base with the same type, list-ness and no looser nullability, or be nullable. Types the new
 * schema adds, or the base has and the new one drops, are fine. Two cases are refused here where
 * graph-node's own check is finer, so that a replay never fails half-way: a change of
 * `@entity(immutable)`, and schemas with timeseries or aggregations.
 */
import { schemaTables } from './schemaTables';

/** Why the project's schema cannot graft onto the base's; empty when it can. */
export function graftProblems(baseSchema: string, projectSchema: string): string[] {
  const base = schemaTables(baseSchema);
  const project = schemaTables(projectSchema);
  if (base.aggregations || project.aggregations) return ['the schema has timeseries or aggregations'];
  const problems: string[] = [];
  for (const table of project.tables.values()) {
    const source = base.tables.get(table.entity);
    if (!source) continue;
    if (source.immutable !== table.immutable)
      problems.push(`${table.entity} is ${table.immutable ? '' : 'not '}immutable now, and was ${source.immutable ? 'immutable' : 'mutable'} in the base`);
    for (const column of table.columns.values()) {
      const from = source.columns.get(column.name);
      const at = `${table.entity}.${column.name}`;
      if (!from) {
        if (!column.nullable) problems.push(`${at} is non-nullable, but the base has no such field`);
      } else if (from.type !== column.type || from.list !== column.list) {
        problems.push(`${at} is ${column.list ? `[${column.type}]` : column.type} now, and ${from.list ? `[${from.type}]` : from.type} in the base`);
      } else if (from.nullable && !column.nullable) {
        problems.push(`${at} is non-nullable now, and nullable in the base`);
      }
    }
  }
  return problems;
}
