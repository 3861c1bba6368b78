/**
 * A captured test's assertions: every entity type of the schema (immutable ones too; a type with
 * none is asserted empty, so a handler that starts writing it fails the test), each as graph-node
 * answers it at the range's last block: every stored field, references as `{ id }`, @derivedFrom
 * fields left out (they are the other side's), ordered by id, in pages of graph-node's 1,000.
 */
import { entityModel, type QueryEntity, type QueryField } from '../../subgraph/query/entities';
import { MAX_FIRST } from '../../subgraph/query/build';
import { listQueryName } from '../../subgraph/query/naming';
import { postGraphql } from '../../subgraph/query/client';

export interface GndAssertion {
  query: string;
  expected: Record<string, unknown>;
}

/** The most entities a captured test asserts: past it the capture stops and says to narrow the range. */
export const MAX_ENTITIES = 10_000;

export class TooManyEntitiesError extends Error {}

function selection(field: QueryField): string | undefined {
  if (field.derivedFrom !== undefined) return undefined;
  return field.kind === 'entity' ? `${field.name} { id }` : field.name;
}

/** One page's query: `{ transfers(first: 1000, orderBy: id, where: { id_gt: "…" }) { id … } }`; `block` only for reading the live node. */
export function pageQuery(entity: QueryEntity, after?: string, block?: number): string {
  const fields = [...entity.fields].sort((a, b) => Number(b.name === 'id') - Number(a.name === 'id'));
  const selected = fields.map(selection).filter((s): s is string => !!s);
  const args = [`first: ${MAX_FIRST}`, 'orderBy: id', 'orderDirection: asc'];
  if (after !== undefined) args.push(`where: { id_gt: ${JSON.stringify(after)} }`);
  if (block !== undefined) args.push(`block: { number: ${block} }`);
  return `{ ${listQueryName(entity.name)}(${args.join(', ')}) { ${selected.join(' ')} } }`;
}

/** The entity types a test asserts: objects (interfaces are their implementers again). */
export function assertedEntities(schemaText: string): QueryEntity[] {
  return entityModel(schemaText).entities.filter((e) => e.kind === 'object');
}

/** Reads every entity of the schema from `queryUrl` at block `block` and writes them as assertions. */
export async function captureAssertions(queryUrl: string, schemaText: string, block: number, signal?: AbortSignal): Promise<{ assertions: GndAssertion[]; entities: number }> {
  const assertions: GndAssertion[] = [];
  let total = 0;
  for (const entity of assertedEntities(schemaText)) {
    const field = listQueryName(entity.name);
    let after: string | undefined;
    for (;;) {
      const answer = await postGraphql(queryUrl, { query: pageQuery(entity, after, block) }, { timeoutMs: 30_000, signal });
      if (answer.errors?.length || !answer.data) {
        const message = (answer.errors?.[0] as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`;
        throw new Error(`The local graph-node did not answer the ${entity.name} entities: ${message}`);
      }
      const rows = ((answer.data as Record<string, unknown>)[field] ?? []) as Record<string, unknown>[];
      total += rows.length;
      if (total > MAX_ENTITIES)
        throw new TooManyEntitiesError(
          `The range wrote more than ${MAX_ENTITIES.toLocaleString('en-US')} entities: a test that large is slow to run and to read; capture a shorter range (--from/--to).`,
        );
      if (rows.length || after === undefined) assertions.push({ query: pageQuery(entity, after), expected: { [field]: rows } });
      if (rows.length < MAX_FIRST) break;
      after = String(rows[rows.length - 1].id);
    }
  }
  return { assertions, entities: total };
}
