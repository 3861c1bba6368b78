import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  buildQuerySchema,
  defaultListQuery,
  entityModel,
  flattenResult,
  listQueryName,
  lowerCamelCase,
  pageVariables,
  parseJsonLossless,
  pluralTypeName,
  singleQueryName,
  validateQuery,
} from '../../src/core/subgraph/query';

const TUTORIAL_SCHEMA = readFileSync(path.join(__dirname, '../fixtures/subgraphs/tutorial/schema.graphql'), 'utf8');

const RICH_SCHEMA = `
enum Kind { MINT BURN }
interface Event { id: ID! block: BigInt! }
type Token @entity { id: Bytes! symbol: String! decimals: Int! holders: [Account!]! transfers: [Transfer!]! @derivedFrom(field: "token") }
type Account @entity { id: Bytes! balances: [BigDecimal!]! }
type Transfer implements Event @entity(immutable: true) { id: ID! block: BigInt! token: Token! kind: Kind! amount: BigDecimal! }
type Stats @entity { id: ID! count: Int8! }
`;

test('list and single query names follow graph-node: lower camel case plural', () => {
  const cases: [string, string, string][] = [
    ['ApprovalQuery', 'approvalQuery', 'approvalQueries'],
    ['Token', 'token', 'tokens'],
    ['Address', 'address', 'addresses'],
    ['Status', 'status', 'statuses'],
    ['UniswapDayData', 'uniswapDayData', 'uniswapDayDatas'],
    ['Wolf', 'wolf', 'wolves'],
    ['ERC20Token', 'erc20Token', 'erc20Tokens'],
    // Runs of capitals are lowered whole: graph-node's inflector does the same.
    ['NFTSale', 'nftsale', 'nftsales'],
    // A name that reads plural already gets graph-node's _collection suffix.
    ['Stats', 'stats', 'stats_collection'],
  ];
  for (const [entity, single, list] of cases) {
    assert.equal(singleQueryName(entity), single, entity);
    assert.equal(listQueryName(entity), list, entity);
  }
  assert.equal(lowerCamelCase('TokenID'), 'tokenID');
});

test('plurals by every inflection rule, case-sensitive as graph-node applies them to the name as written', () => {
  // Irregular and Latin stems match in lower case only, so a capitalised name (Person, Matrix,
  // Knife) takes the general rules: graph-node names the list field the same way.
  const cases: [string, string][] = [
    ['Chateaux', 'Chateaux'], ['Bureau', 'Bureaus'], ['Person', 'Persons'], ['SalesPerson', 'SalesPersons'], ['People', 'Peoples'],
    ['Child', 'Childs'], ['Children', 'Childrens'], ['Mouse', 'Mouses'], ['DeviceMouse', 'DeviceMouses'], ['Louse', 'Louses'],
    ['TokenIndex', 'TokenIndexes'], ['Matrix', 'Matrixes'], ['Vertex', 'Vertexes'], ['Boxes', 'Boxes'], ['Box', 'Boxes'], ['Match', 'Matches'],
    ['Pass', 'Passes'], ['Wish', 'Wishes'], ['Buzz', 'Buzzes'], ['Money', 'Monies'], ['Honey', 'Honies'], ['Chimney', 'Chimneys'],
    ['Query', 'Queries'], ['Day', 'Days'], ['Soliloquy', 'Soliloquies'], ['Half', 'Halves'], ['Leaf', 'Leaves'], ['Roof', 'Roofs'],
    ['Dwarf', 'Dwarves'], ['Afterlife', 'Afterlives'], ['Knife', 'Knifes'], ['Analysis', 'Analyses'], ['Criterion', 'Criterions'],
    ['Phenomenon', 'Phenomenons'], ['Metadata', 'Metadata'], ['Metadatum', 'Metadata'], ['Potato', 'Potatoes'], ['Tomato', 'Tomatoes'],
    ['Hero', 'Heros'], ['Cherub', 'Cherubs'], ['Seraphim', 'Seraphims'], ['Alga', 'Algas'], ['Autofocus', 'Autofoci'], ['Bias', 'Bias'],
    ['Atlas', 'Atlases'], ['Gas', 'Gas'], ['Iris', 'Irises'], ['Alias', 'Alias'], ['Bonus', 'Bonuses'], ['Status', 'Statuses'], ['Menu', 'Menus'],
    ['Axis', 'Axis'], ['Chinese', 'Chinese'], ['Stats', 'Stats'], ['Token', 'Tokens'], ['Automaton', 'Automatons'], ['Octopus', 'Octopuses'],
    ['Datum', 'Datums'], ['Bacterium', 'Bacteriums'], ['Vertebra', 'Vertebras'], ['Ox', 'Oxes'], ['Bus', 'Buses'], ['Class', 'Classes'],
    ['Dish', 'Dishes'], ['Fizz', 'Fizzes'], ['Sheep', 'Sheeps'], ['Stadium', 'Stadiums'], ['Quiz', 'Quizs'], ['Tax', 'Taxes'], ['Hedron', 'Hedrons'],
    ['Strata', 'Stratas'], ['Emus', 'Emuses'], ['Protest', 'Protests'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralTypeName(name), plural, name);
});

test('lower camel case: separators start words and go, digits start words, trailing separators go', () => {
  const cases: [string, string][] = [
    ['ApprovalQuery', 'approvalQuery'], ['ERC20Token', 'erc20Token'], ['NFTSale', 'nftsale'], ['TokenID', 'tokenID'],
    ['token_transfer', 'tokenTransfer'], ['Token-Transfer', 'tokenTransfer'], ['_Private', 'private'], ['Pool2Day', 'pool2Day'],
    ['ÄpfelBaum', 'äpfelBaum'], ['ABC', 'abc'], ['A', 'a'], ['Token__', 'token'], ['9Lives', '9Lives'], ['X_y_Z', 'xYZ'],
    ['uniswapV3Pool', 'uniswapV3Pool'],
  ];
  for (const [name, camel] of cases) assert.equal(lowerCamelCase(name), camel, name);
});

test('the tutorial entity gets the default list query with paging variables', () => {
  const model = entityModel(TUTORIAL_SCHEMA);
  assert.equal(
    defaultListQuery(model.entities[0]),
    `query ApprovalQueries($first: Int = 100, $skip: Int = 0) {
  approvalQueries(first: $first, skip: $skip) {
    id
    owner
    spender
    value
  }
}
`,
  );
});

test('default queries select ids of referenced entities and skip @derivedFrom lists', () => {
  const model = entityModel(RICH_SCHEMA);
  const token = model.entities.find((e) => e.name === 'Token')!;
  const transfer = model.entities.find((e) => e.name === 'Transfer')!;
  assert.match(defaultListQuery(token, 25), /tokens\(first: \$first, skip: \$skip\) \{\n {4}id\n {4}symbol\n {4}decimals\n {4}holders \{ id \}\n {2}\}/);
  assert.doesNotMatch(defaultListQuery(token), /transfers/);
  assert.match(defaultListQuery(transfer), /token \{ id \}\n {4}kind\n {4}amount/);
  // Every default query is valid against the query schema built from the same entities.
  const schema = buildQuerySchema(model);
  for (const e of model.entities) assert.deepEqual(validateQuery(schema, defaultListQuery(e)), [], e.name);
});

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

test('results flatten to a table: dotted columns, lists as JSON, big numbers kept whole', () => {
  const body = '{"data":{"transfers":[{"id":"a","amount":"115792089237316195423570985008687907853269984665640564039457584007913129639935","count":12345678901234567890123,"token":{"id":"0x01","owner":{"id":"0x02"}},"tags":["x","y"],"memo":null,"ok":true}]}}';
  const json = parseJsonLossless(body) as { data: unknown };
  const table = flattenResult(json.data);
  assert.equal(table.field, 'transfers');
  assert.deepEqual(
    table.columns.map((c) => c.id),
    ['id', 'amount', 'count', 'token.id', 'token.owner.id', 'tags', 'memo', 'ok'],
  );
  assert.deepEqual(table.rows, [['a', '115792089237316195423570985008687907853269984665640564039457584007913129639935', '12345678901234567890123', '0x01', '0x02', '["x","y"]', '', 'true']]);
  // A single object is one row; columns that appear later are added in order seen.
  assert.deepEqual(flattenResult({ _meta: { block: { number: 7 }, hasIndexingErrors: false } }).rows, [['7', 'false']]);
  const ragged = flattenResult({ xs: [{ a: '1' }, { b: '2' }] });
  assert.deepEqual(ragged.rows, [['1', ''], ['', '2']]);
});

test('JSON numbers too big for a double stay exact; strings with digits are untouched', () => {
  assert.deepEqual(parseJsonLossless('{"a":9007199254740993,"b":"9007199254740993","c":-1.25e3,"d":42,"e":"x\\"1234567890123456789"}'), {
    a: '9007199254740993',
    b: '9007199254740993',
    c: -1250,
    d: 42,
    e: 'x"1234567890123456789',
  });
});

test('paging variables stay inside graph-node limits', () => {
  assert.deepEqual(pageVariables(0), { first: 100, skip: 0 });
  assert.deepEqual(pageVariables(3, 50), { first: 50, skip: 150 });
  assert.throws(() => pageVariables(0, 1001), /1 to 1000/);
  assert.throws(() => pageVariables(51, 100), /at most 5000 .*id_gt/);
});

test('flattening: empty objects, scalars at the top, a named field, nothing to show', () => {
  assert.deepEqual(flattenResult({ xs: [{ a: {}, b: { c: {} }, d: [1, { e: 2 }], f: 1.5, g: null, h: true }] }), {
    field: 'xs',
    columns: ['a', 'b.c', 'd', 'f', 'g', 'h'].map((id) => ({ id, title: id })),
    rows: [['{}', '{}', '[1,{"e":2}]', '1.5', '', 'true']],
  });
  assert.deepEqual(flattenResult({ n: 5 }), { field: 'n', columns: [{ id: 'value', title: 'value' }], rows: [['5']] });
  assert.deepEqual(flattenResult({ a: [{ x: 1 }], b: [{ y: 2 }] }, 'b').rows, [['2']]);
  assert.deepEqual(flattenResult({ a: null }), { field: 'a', columns: [], rows: [] });
  assert.deepEqual(flattenResult({}), { columns: [], rows: [] });
  assert.deepEqual(flattenResult(null), { columns: [], rows: [] });
  assert.deepEqual(flattenResult('text'), { columns: [], rows: [] });
  assert.deepEqual(flattenResult({ xs: [{}] }), { field: 'xs', columns: [], rows: [[]] });
});

test('paging at the limits: page size 1 and 1000, skip exactly 5000, bad pages', () => {
  assert.deepEqual(pageVariables(0, 1), { first: 1, skip: 0 });
  assert.deepEqual(pageVariables(5, 1000), { first: 1000, skip: 5000 });
  assert.deepEqual(pageVariables(50), { first: 100, skip: 5000 });
  for (const size of [0, 1.5, 1001]) assert.throws(() => pageVariables(0, size), { name: 'RangeError', message: "Page size must be 1 to 1000 (graph-node's limit on first)." }, String(size));
  for (const page of [-1, 0.5]) assert.throws(() => pageVariables(page), { name: 'RangeError', message: 'Page must be 0 or more.' }, String(page));
  assert.throws(() => pageVariables(6, 1000), { message: 'graph-node skips at most 5000 records; to read further, filter instead of skipping (e.g. where: { id_gt: "<last id>" } with orderBy: id).' });
});
