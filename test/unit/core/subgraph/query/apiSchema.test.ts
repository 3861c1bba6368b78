import { type GraphQLEnumType, type GraphQLInputObjectType } from 'graphql';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildQuerySchema, querySchemaSdl, validateQuery } from '../../../../../src/core/subgraph/query/apiSchema';
import { entityModel } from '../../../../../src/core/subgraph/query/entities';
import { RICH_SCHEMA, TUTORIAL_SCHEMA } from '../../../../support/querySchemas';

test('valid graph-node queries pass: filters, ordering, nested lists, _meta, interfaces', () => {
  const schema = buildQuerySchema(RICH_SCHEMA);
  const query = `{
    tokens(first: 10, skip: 5, orderBy: symbol, orderDirection: desc, where: { symbol_starts_with_nocase: "us", decimals_gte: 6, holders_contains: ["0x01"], transfers_: { amount_gt: "1.5" } }) {
      id symbol holders(first: 3, orderBy: id) { id balances } transfers { id kind }
    }
    transfer(id: "t1") { token { symbol } }
    events(where: { block_in: ["1", "2"] }) { id block }
    stats_collection(block: { number: 100 }) { count }
    _meta { block { number hash timestamp } deployment hasIndexingErrors }
  }`;
  assert.deepEqual(validateQuery(schema, query), []);
});

test('unknown fields and arguments are flagged with their positions', () => {
  const schema = buildQuerySchema(TUTORIAL_SCHEMA);
  const query = '{\n  approvalQueries(first: 5) {\n    id\n    ownr\n  }\n  approvals { id }\n}';
  const problems = validateQuery(schema, query);
  assert.deepEqual(
    problems.map((p) => [p.line, p.column, query.slice(p.start, p.end), p.message]),
    [
      [4, 5, 'ownr', 'Cannot query field "ownr" on type "ApprovalQuery". Did you mean "owner"?'],
      [6, 3, 'approvals', 'Cannot query field "approvals" on type "Query".'],
    ],
  );
  const args = validateQuery(schema, '{ approvalQueries(limit: 5) { id } approvalQuery { id } }');
  assert.deepEqual(
    args.map((p) => p.message),
    ['Unknown argument "limit" on field "Query.approvalQueries". Did you mean "first"?', 'Field "approvalQuery" argument "id" of type "ID!" is required, but it was not provided.'],
  );
  const syntax = validateQuery(schema, '{ approvalQueries { id }');
  assert.equal(syntax.length, 1);
  assert.match(syntax[0].message, /^Syntax Error/);
  assert.deepEqual([syntax[0].line, syntax[0].column], [1, 25]);
});

test('the query schema SDL graph-node would serve: types, interfaces, orderBy enums, filters, query fields', () => {
  const sdl = querySchemaSdl(
    entityModel(`
enum Kind { A B }
interface Event { on: Boolean }
interface Named { kind: Kind }
type Pool @entity { on: Boolean parts: [Part!]! }
type Part implements Event & Named @entity { on: Boolean kind: Kind }
`),
  );
  assert.ok(sdl.startsWith('\nscalar BigInt\n'), sdl.slice(0, 40));
  const filter = (name: string, lines: string[]) => [
    `input ${name}_filter {`,
    ...[...lines, '_change_block: BlockChangedFilter', `and: [${name}_filter]`, `or: [${name}_filter]`].map((l) => `  ${l}`),
    '}',
  ];
  const bool = ['on: Boolean', 'on_not: Boolean', 'on_in: [Boolean!]', 'on_not_in: [Boolean!]'];
  const kind = ['kind: Kind', 'kind_not: Kind', 'kind_in: [Kind!]', 'kind_not_in: [Kind!]'];
  const common = 'block: Block_height, subgraphError: _SubgraphErrorPolicy_! = deny';
  const list = (name: string) => `skip: Int = 0, first: Int = 100, orderBy: ${name}_orderBy, orderDirection: OrderDirection, where: ${name}_filter`;
  assert.equal(
    sdl.slice(sdl.indexOf('enum Kind')),
    [
      'enum Kind { A B }',
      'interface Event {',
      '  on: Boolean',
      '}',
      'enum Event_orderBy { on }',
      ...filter('Event', bool),
      'interface Named {',
      '  kind: Kind',
      '}',
      'enum Named_orderBy { kind }',
      ...filter('Named', kind),
      'type Pool {',
      '  on: Boolean',
      `  parts(${list('Part')}): [Part!]!`,
      '}',
      'enum Pool_orderBy { on parts }',
      ...filter('Pool', [
        ...bool,
        'parts: [String!]',
        'parts_not: [String!]',
        'parts_contains: [String!]',
        'parts_contains_nocase: [String!]',
        'parts_not_contains: [String!]',
        'parts_not_contains_nocase: [String!]',
        'parts_: Part_filter',
      ]),
      'type Part implements Event & Named {',
      '  on: Boolean',
      '  kind: Kind',
      '}',
      'enum Part_orderBy { on kind }',
      ...filter('Part', [...bool, ...kind]),
      'type Query {',
      `  event(id: ID!, ${common}): Event`,
      `  events(${list('Event')}, ${common}): [Event!]!`,
      `  named(id: ID!, ${common}): Named`,
      `  nameds(${list('Named')}, ${common}): [Named!]!`,
      `  pool(id: ID!, ${common}): Pool`,
      `  pools(${list('Pool')}, ${common}): [Pool!]!`,
      `  part(id: ID!, ${common}): Part`,
      `  parts(${list('Part')}, ${common}): [Part!]!`,
      '  _meta(block: Block_height): _Meta_',
      '}',
    ].join('\n'),
  );
});

test('filters per field type follow graph-node: comparisons, text matching, Bytes, lists, references, @derivedFrom', () => {
  const schema = buildQuerySchema(`
enum Kind { MINT BURN }
type Token @entity {
  id: Bytes! symbol: String! decimals: Int! active: Boolean! kind: Kind! owner: Account! holders: [Account!]! tags: [String!]!
  transfers: [Transfer!]! @derivedFrom(field: "token") count: Int! @derivedFrom(field: "x")
}
type Account @entity { id: Bytes! balance: BigDecimal! flags: [Boolean!]! best: Token kind: Kind }
type Transfer @entity { id: ID! token: Token! }
`);
  const ops = (n: string, t: string, suffixes: string[]) => suffixes.map((op) => `${n}${op}: ${op.endsWith('_in') ? `[${t}!]` : t}`);
  const EQ = ['', '_not', '_in', '_not_in'];
  const ORDER = ['_gt', '_lt', '_gte', '_lte'];
  const TEXT = [
    '_contains',
    '_contains_nocase',
    '_not_contains',
    '_not_contains_nocase',
    '_starts_with',
    '_starts_with_nocase',
    '_not_starts_with',
    '_not_starts_with_nocase',
    '_ends_with',
    '_ends_with_nocase',
    '_not_ends_with',
    '_not_ends_with_nocase',
  ];
  const LIST = ['', '_not', '_contains', '_contains_nocase', '_not_contains', '_not_contains_nocase'];
  const fields = (type: string) => Object.values((schema.getType(type) as GraphQLInputObjectType).getFields()).map((f) => `${f.name}: ${String(f.type)}`);
  assert.deepEqual(fields('Token_filter'), [
    ...ops('id', 'Bytes', [...EQ, ...ORDER, '_contains', '_not_contains']),
    ...ops('symbol', 'String', [...EQ, ...ORDER, ...TEXT]),
    ...ops('decimals', 'Int', [...EQ, ...ORDER]),
    ...ops('active', 'Boolean', EQ),
    ...ops('kind', 'Kind', EQ),
    // A reference filters by the id it holds, as a string, and by the referenced entity's fields.
    ...ops('owner', 'String', [...EQ, ...ORDER, ...TEXT]),
    'owner_: Account_filter',
    ...LIST.map((op) => `holders${op}: [String!]`),
    'holders_: Account_filter',
    ...LIST.map((op) => `tags${op}: [String!]`),
    // A @derivedFrom list filters only through the entities it lists; a derived scalar not at all.
    'transfers_: Transfer_filter',
    '_change_block: BlockChangedFilter',
    'and: [Token_filter]',
    'or: [Token_filter]',
  ]);
  assert.deepEqual(
    fields('Account_filter').filter((f) => f.startsWith('flags')),
    LIST.map((op) => `flags${op}: [Boolean!]`),
  );
  // ID takes the comparisons and text matching of String.
  assert.deepEqual(
    fields('Transfer_filter').filter((f) => f.startsWith('id')),
    ops('id', 'ID', [...EQ, ...ORDER, ...TEXT]),
  );
  const values = (type: string) => (schema.getType(type) as GraphQLEnumType).getValues().map((v) => v.name);
  // Ordering by a single reference's own fields (ref__field): its scalars and enums, not its lists or references.
  assert.deepEqual(values('Token_orderBy'), ['id', 'symbol', 'decimals', 'active', 'kind', 'owner', 'owner__id', 'owner__balance', 'owner__kind', 'holders', 'tags', 'transfers', 'count']);
  assert.deepEqual(values('Account_orderBy'), ['id', 'balance', 'flags', 'best', 'best__id', 'best__symbol', 'best__decimals', 'best__active', 'best__kind', 'best__count', 'kind']);
  assert.deepEqual(values('Kind'), ['MINT', 'BURN']);
});

test('diagnostics point at the field name, not its alias; a syntax error at the end spans one place past it', () => {
  const schema = buildQuerySchema('type Token @entity { id: ID! symbol: String! }');
  const aliased = '{ x: tokens { y: nope } }';
  assert.deepEqual(validateQuery(schema, aliased), [{ message: 'Cannot query field "nope" on type "Token".', line: 1, column: 15, start: 17, end: 21 }]);
  assert.deepEqual(validateQuery(schema, '{ tokens { id }'), [{ message: 'Syntax Error: Expected Name, found <EOF>.', line: 1, column: 16, start: 15, end: 16 }]);
  assert.deepEqual(validateQuery(schema, ''), [{ message: 'Syntax Error: Unexpected <EOF>.', line: 1, column: 1, start: 0, end: 1 }]);
});
