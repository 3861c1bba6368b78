/**
 * The user's query made comparable, by graphql's AST (never by text): each top-level entity field
 * pinned to one block (`block: { number: N }`, unless the field names its own `block`), and each
 * collection split off into a document of its own that pages by id (`orderBy: id`,
 * `where: { …, id_gt: "<last id>" }`, `first` ≤ 1000), so a collection of any size is compared
 * whole. `_meta` and introspection fields are left out: they differ between endpoints by nature.
 * Fragments and variables the field uses come along; top-level fragments are flattened.
 */
import {
  Kind,
  parse,
  print,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type ObjectFieldNode,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import { MAX_FIRST } from '../../subgraph/query/build';

export class CompareQueryError extends Error {
  override readonly name = 'CompareQueryError';
}

/** What the endpoint's schema says of a Query field (from introspection). */
export interface RootField {
  /** It answers a list (a collection of entities). */
  list: boolean;
  args: ReadonlySet<string>;
}

/** One top-level field of the query, ready to send. */
export interface FieldQuery {
  /** The key its answer comes under (the alias, else the name). */
  key: string;
  /** The schema field it reads. */
  name: string;
  /** It is a collection paged by id: `document(after)` gives the page after that id. */
  paged: boolean;
  /** The document of this field alone; for a paged field, the page after `after` (the first page without). */
  document(after?: string): string;
  /** The variables the document uses (the given values, else their defaults are left to the endpoint). */
  variables: Record<string, unknown>;
}

/** Arguments a paged collection gets from the compare, whatever the query said. */
const PAGING_ARGS = new Set(['first', 'skip', 'orderBy', 'orderDirection']);

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const arg = (key: string, value: ValueNode): ArgumentNode => ({ kind: Kind.ARGUMENT, name: name(key), value });
const objectField = (key: string, value: ValueNode): ObjectFieldNode => ({ kind: Kind.OBJECT_FIELD, name: name(key), value });
const intValue = (n: number): ValueNode => ({ kind: Kind.INT, value: String(n) });

/** `block: { number: N }`. */
export function blockArgument(block: number): ArgumentNode {
  return arg('block', { kind: Kind.OBJECT, fields: [objectField('number', intValue(block))] });
}

/** The operation to compare: the one named, else the only query. */
function pickOperation(doc: DocumentNode, operationName?: string): OperationDefinitionNode {
  const operations = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName !== undefined) {
    const named = operations.find((o) => o.name?.value === operationName);
    if (!named) throw new CompareQueryError(`The query has no operation named '${operationName}'.`);
    return named;
  }
  if (operations.length !== 1) throw new CompareQueryError(operations.length ? `The query holds ${operations.length} operations: name the one to compare.` : 'The query holds no operation.');
  return operations[0];
}

/** The top-level fields, with inline fragments and fragment spreads on the query type flattened. */
function topLevelFields(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) out.push(...topLevelFields(s.selectionSet, fragments, seen));
    else {
      const fragment = fragments.get(s.name.value);
      if (!fragment) throw new CompareQueryError(`The query spreads an unknown fragment '${s.name.value}'.`);
      if (seen.has(s.name.value)) continue;
      seen.add(s.name.value);
      out.push(...topLevelFields(fragment.selectionSet, fragments, seen));
    }
  }
  return out;
}

/** Left out of the compare: `_meta` (it differs between endpoints by nature) and introspection. */
const compared = (field: FieldNode) => field.name.value !== '_meta' && !field.name.value.startsWith('__');

/** The where filter of a page: the query's own, narrowed to ids after `after`. */
function pageWhere(where: ValueNode | undefined, after: string | undefined): ValueNode | undefined {
  if (after === undefined) return where;
  const idGt = objectField('id_gt', { kind: Kind.STRING, value: after });
  if (!where) return { kind: Kind.OBJECT, fields: [idGt] };
  if (where.kind === Kind.OBJECT && !where.fields.some((f) => f.name.value === 'id_gt')) return { ...where, fields: [...where.fields, idGt] };
  // A variable, or a filter with its own id_gt: both must hold.
  return { kind: Kind.OBJECT, fields: [objectField('and', { kind: Kind.LIST, values: [where, { kind: Kind.OBJECT, fields: [idGt] }] })] };
}

/** The selection with `id` in it (paging needs each entity's id). */
function withId(set: SelectionSetNode | undefined): SelectionSetNode {
  const selections = set?.selections ?? [];
  const hasId = selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'id' && !s.alias);
  return { kind: Kind.SELECTION_SET, selections: hasId ? selections : [{ kind: Kind.FIELD, name: name('id') }, ...selections] };
}

/** A collection the endpoint can filter and order: paged by id. */
const isPaged = (info: RootField | undefined) => info?.list === true && info.args.has('where') && info.args.has('orderBy');

/** The field pinned to `block` (its own block argument kept) and, when paged, the page after `after`. */
function rewriteField(field: FieldNode, block: number, info: RootField | undefined, pageSize: number, after?: string): FieldNode {
  const paged = isPaged(info);
  const own = field.arguments ?? [];
  const args = own.filter((a) => !(paged && (PAGING_ARGS.has(a.name.value) || a.name.value === 'where')));
  const takesBlock = info ? info.args.has('block') : true;
  if (takesBlock && !own.some((a) => a.name.value === 'block')) args.push(blockArgument(block));
  if (!paged) return { ...field, arguments: args };
  const where = pageWhere(own.find((a) => a.name.value === 'where')?.value, after);
  args.push(arg('first', intValue(pageSize)), arg('orderBy', { kind: Kind.ENUM, value: 'id' }), arg('orderDirection', { kind: Kind.ENUM, value: 'asc' }));
  if (where) args.push(arg('where', where));
  return { ...field, arguments: args, selectionSet: withId(field.selectionSet) };
}

/** The fragments and variables a selection uses, fragments' own uses included. */
function uses(node: FieldNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): { fragments: FragmentDefinitionNode[]; variables: Set<string> } {
  const found = new Map<string, FragmentDefinitionNode>();
  const variables = new Set<string>();
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(walk);
    const n = value as { kind?: string; name?: { value: string } };
    if (n.kind === Kind.VARIABLE) variables.add(n.name!.value);
    if (n.kind === Kind.FRAGMENT_SPREAD && !found.has(n.name!.value)) {
      const fragment = fragments.get(n.name!.value);
      if (!fragment) throw new CompareQueryError(`The query spreads an unknown fragment '${n.name!.value}'.`);
      found.set(n.name!.value, fragment);
      walk(fragment);
    }
    for (const [key, child] of Object.entries(n)) if (key !== 'loc') walk(child);
  };
  walk(node);
  return { fragments: [...found.values()], variables };
}

export interface RewriteOptions {
  block: number;
  /** The Query type's fields, as the endpoint's schema has them; unknown fields are sent pinned only. */
  rootFields?: ReadonlyMap<string, RootField>;
  operationName?: string;
  variables?: Record<string, unknown>;
  /** Entities per page (1–1000; default 1000). */
  pageSize?: number;
}

/** Each compared top-level field of the query as a document of its own, pinned to the block and paged. */
export function fieldQueries(query: string, options: RewriteOptions): FieldQuery[] {
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch (error) {
    throw new CompareQueryError(`The query is not GraphQL: ${(error as Error).message}`);
  }
  const pageSize = options.pageSize ?? MAX_FIRST;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_FIRST) throw new RangeError(`The page size must be 1 to ${MAX_FIRST} (graph-node's limit on first).`);
  const operation = pickOperation(doc, options.operationName);
  if (operation.operation !== 'query') throw new CompareQueryError(`Only a query can be compared, not a ${operation.operation}.`);
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const fields = topLevelFields(operation.selectionSet, fragments).filter(compared);
  if (!fields.length) throw new CompareQueryError('The query selects no entity field to compare (only _meta or introspection).');
  const keys = new Set<string>();
  return fields.map((field) => {
    const key = field.alias?.value ?? field.name.value;
    if (keys.has(key)) throw new CompareQueryError(`The query selects '${key}' twice: give one an alias.`);
    keys.add(key);
    const info = options.rootFields?.get(field.name.value);
    // What the rewritten field uses: the query's own paging variables are gone with its paging.
    const used = uses(rewriteField(field, options.block, info, pageSize), fragments);
    const definitions: VariableDefinitionNode[] = (operation.variableDefinitions ?? []).filter((v) => used.variables.has(v.variable.name.value));
    const variables = Object.fromEntries(Object.entries(options.variables ?? {}).filter(([k]) => used.variables.has(k)));
    const document = (after?: string) => {
      const selections: SelectionNode[] = [rewriteField(field, options.block, info, pageSize, after)];
      const op: OperationDefinitionNode = { ...operation, variableDefinitions: definitions, selectionSet: { kind: Kind.SELECTION_SET, selections } };
      return print({ kind: Kind.DOCUMENT, definitions: [op, ...used.fragments] });
    };
    return { key, name: field.name.value, paged: isPaged(info), document, variables };
  });
}
