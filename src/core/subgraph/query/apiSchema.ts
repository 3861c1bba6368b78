/**
 * The query schema graph-node generates from a subgraph's entities, rebuilt here so a user's
 * query can be checked (unknown fields, wrong arguments) before it is sent. Per entity: a
 * by-id field and a list field with skip/first/orderBy/orderDirection/where/block, the
 * `<Entity>_orderBy` enum and the `<Entity>_filter` input; plus `_meta`. Filters follow
 * graph-node's operator suffixes; a filter it has and this lacks would be a false alarm, so
 * they err on the side of allowing.
 */
import { buildASTSchema, GraphQLError, parse, Source, validate, type GraphQLSchema } from 'graphql';
import { entityModel, type EntityModel, type QueryEntity, type QueryField } from './entities';
import { listQueryName, singleQueryName } from './naming';

const FIXED_SDL = `
scalar BigInt
scalar BigDecimal
scalar Bytes
scalar Int8
scalar Timestamp
enum OrderDirection { asc desc }
enum _SubgraphErrorPolicy_ { allow deny }
input Block_height { hash: Bytes number: Int number_gte: Int }
input BlockChangedFilter { number_gte: Int! }
type _Block_ { hash: Bytes number: Int! timestamp: Int parentHash: Bytes }
type _Meta_ { block: _Block_! deployment: String! hasIndexingErrors: Boolean! }
`;

const COMPARE = ['', '_not', '_gt', '_lt', '_gte', '_lte'];
const TEXT_MATCH = ['contains', 'starts_with', 'ends_with'].flatMap((op) => [`_${op}`, `_${op}_nocase`, `_not_${op}`, `_not_${op}_nocase`]);
const LIST_MATCH = ['', '_not', '_contains', '_contains_nocase', '_not_contains', '_not_contains_nocase'];

/** The filter fields of one entity field, as `name: Type` lines. */
function filterFields(field: QueryField): string[] {
  const n = field.name;
  if (field.derivedFrom !== undefined) return field.kind === 'entity' ? [`${n}_: ${field.type}_filter`] : [];
  const nested = field.kind === 'entity' ? [`${n}_: ${field.type}_filter`] : [];
  // References filter by the referenced id, written as a string.
  const scalar = field.kind === 'entity' ? 'String' : field.type;
  if (field.list) return [...LIST_MATCH.map((op) => `${n}${op}: [${scalar}!]`), ...nested];
  const lines = [`${n}: ${scalar}`, `${n}_not: ${scalar}`, `${n}_in: [${scalar}!]`, `${n}_not_in: [${scalar}!]`];
  if (scalar !== 'Boolean' && field.kind !== 'enum') lines.push(...COMPARE.slice(2).map((op) => `${n}${op}: ${scalar}`));
  if (scalar === 'String' || scalar === 'ID') lines.push(...TEXT_MATCH.map((op) => `${n}${op}: ${scalar}`));
  if (scalar === 'Bytes') lines.push(`${n}_contains: Bytes`, `${n}_not_contains: Bytes`);
  return [...lines, ...nested];
}

/** Values of `<Entity>_orderBy`: every field, and `ref__child` for the scalar fields of a single reference. */
function orderByValues(entity: QueryEntity, byName: Map<string, QueryEntity>): string[] {
  const values: string[] = [];
  for (const f of entity.fields) {
    values.push(f.name);
    if (f.kind === 'entity' && !f.list) {
      for (const child of byName.get(f.type)?.fields ?? []) if (child.kind !== 'entity' && !child.list) values.push(`${f.name}__${child.name}`);
    }
  }
  return values;
}

function collectionArgs(entity: string): string {
  return `skip: Int = 0, first: Int = 100, orderBy: ${entity}_orderBy, orderDirection: OrderDirection, where: ${entity}_filter`;
}

function fieldSdl(field: QueryField): string {
  const args = field.kind === 'entity' && field.list ? `(${collectionArgs(field.type)})` : '';
  return `  ${field.name}${args}: ${field.typeText}`;
}

/** The SDL of the query schema graph-node would serve for these entities. */
export function querySchemaSdl(model: EntityModel): string {
  const byName = new Map(model.entities.map((e) => [e.name, e]));
  const parts = [FIXED_SDL];
  for (const [name, values] of model.enums) parts.push(`enum ${name} { ${values.join(' ')} }`);
  const queryFields: string[] = [];
  for (const e of model.entities) {
    const keyword = e.kind === 'interface' ? 'interface' : 'type';
    const implementsClause = e.implements.length ? ` implements ${e.implements.join(' & ')}` : '';
    parts.push(`${keyword} ${e.name}${implementsClause} {\n${e.fields.map(fieldSdl).join('\n')}\n}`);
    parts.push(`enum ${e.name}_orderBy { ${orderByValues(e, byName).join(' ')} }`);
    parts.push(
      `input ${e.name}_filter {\n  ${[...e.fields.flatMap(filterFields), '_change_block: BlockChangedFilter', `and: [${e.name}_filter]`, `or: [${e.name}_filter]`].join('\n  ')}\n}`,
    );
    const common = 'block: Block_height, subgraphError: _SubgraphErrorPolicy_! = deny';
    queryFields.push(`  ${singleQueryName(e.name)}(id: ID!, ${common}): ${e.name}`);
    queryFields.push(`  ${listQueryName(e.name)}(${collectionArgs(e.name)}, ${common}): [${e.name}!]!`);
  }
  queryFields.push('  _meta(block: Block_height): _Meta_');
  parts.push(`type Query {\n${queryFields.join('\n')}\n}`);
  return parts.join('\n');
}

/** The query schema for a schema.graphql's text (or an already read model). */
export function buildQuerySchema(schema: string | EntityModel): GraphQLSchema {
  const model = typeof schema === 'string' ? entityModel(schema) : schema;
  return buildASTSchema(parse(querySchemaSdl(model)));
}

/** A problem in a user's query, placed for the editor. */
export interface QueryDiagnostic {
  message: string;
  /** 1-based, as graphql reports them. */
  line: number;
  column: number;
  /** Offsets into the query text of the node at fault (the unknown field's name, say). */
  start: number;
  end: number;
}

function diagnostic(err: GraphQLError, text: string): QueryDiagnostic {
  const node = err.nodes?.[0];
  // A field node spans its whole selection set; point at its name (or alias) only.
  const named = node && 'name' in node && node.name && typeof node.name === 'object' && 'loc' in node.name ? node.name.loc : undefined;
  const loc = named ?? node?.loc;
  const at = err.locations?.[0] ?? { line: 1, column: 1 };
  const start = loc?.start ?? err.positions?.[0] ?? 0;
  const end = Math.max(loc?.end ?? start + 1, start + 1);
  return { message: err.message, line: at.line, column: at.column, start, end: Math.min(end, Math.max(text.length, start + 1)) };
}

/** Checks a query against the query schema: syntax first, then every validation rule. */
export function validateQuery(schema: GraphQLSchema, query: string): QueryDiagnostic[] {
  let doc;
  try {
    doc = parse(new Source(query, 'query.graphql'));
  } catch (err) {
    if (err instanceof GraphQLError) return [diagnostic(err, query)];
    throw err;
  }
  return validate(schema, doc).map((e) => diagnostic(e, query));
}
