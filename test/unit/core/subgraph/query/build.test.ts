import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, type GraphQLEnumType, type GraphQLInputObjectType } from 'graphql';
import { buildQuerySchema, querySchemaSdl, validateQuery } from '../../../../../src/core/subgraph/query/apiSchema';
import { defaultListQueries, defaultListQuery, pageVariables } from '../../../../../src/core/subgraph/query/build';
import { entityModel } from '../../../../../src/core/subgraph/query/entities';
import { fieldCounts, flattenFields } from '../../../../../src/core/subgraph/query/flatten';
import { queryRunText } from '../../../../../src/core/subgraph/query/file';
import { listQueryName, lowerCamelCase, pluralTypeName, singleQueryName } from '../../../../../src/core/subgraph/query/naming';
import { parseJsonLossless } from '../../../../../src/core/subgraph/query/client';
import { repoPath } from '../../../../support/paths';

const TUTORIAL_SCHEMA = readFileSync(repoPath('test/fixtures/subgraphs/tutorial/schema.graphql'), 'utf8');

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
    ['Chateaux', 'Chateaux'],
    ['Bureau', 'Bureaus'],
    ['Person', 'Persons'],
    ['SalesPerson', 'SalesPersons'],
    ['People', 'Peoples'],
    ['Child', 'Childs'],
    ['Children', 'Childrens'],
    ['Mouse', 'Mouses'],
    ['DeviceMouse', 'DeviceMouses'],
    ['Louse', 'Louses'],
    ['TokenIndex', 'TokenIndexes'],
    ['Matrix', 'Matrixes'],
    ['Vertex', 'Vertexes'],
    ['Boxes', 'Boxes'],
    ['Box', 'Boxes'],
    ['Match', 'Matches'],
    ['Pass', 'Passes'],
    ['Wish', 'Wishes'],
    ['Buzz', 'Buzzes'],
    ['Money', 'Monies'],
    ['Honey', 'Honies'],
    ['Chimney', 'Chimneys'],
    ['Query', 'Queries'],
    ['Day', 'Days'],
    ['Soliloquy', 'Soliloquies'],
    ['Half', 'Halves'],
    ['Leaf', 'Leaves'],
    ['Roof', 'Roofs'],
    ['Dwarf', 'Dwarves'],
    ['Afterlife', 'Afterlives'],
    ['Knife', 'Knifes'],
    ['Analysis', 'Analyses'],
    ['Criterion', 'Criterions'],
    ['Phenomenon', 'Phenomenons'],
    ['Metadata', 'Metadata'],
    ['Metadatum', 'Metadata'],
    ['Potato', 'Potatoes'],
    ['Tomato', 'Tomatoes'],
    ['Hero', 'Heros'],
    ['Cherub', 'Cherubs'],
    ['Seraphim', 'Seraphims'],
    ['Alga', 'Algas'],
    ['Autofocus', 'Autofoci'],
    ['Bias', 'Bias'],
    ['Atlas', 'Atlases'],
    ['Gas', 'Gas'],
    ['Iris', 'Irises'],
    ['Alias', 'Alias'],
    ['Bonus', 'Bonuses'],
    ['Status', 'Statuses'],
    ['Menu', 'Menus'],
    ['Axis', 'Axis'],
    ['Chinese', 'Chinese'],
    ['Stats', 'Stats'],
    ['Token', 'Tokens'],
    ['Automaton', 'Automatons'],
    ['Octopus', 'Octopuses'],
    ['Datum', 'Datums'],
    ['Bacterium', 'Bacteriums'],
    ['Vertebra', 'Vertebras'],
    ['Ox', 'Oxes'],
    ['Bus', 'Buses'],
    ['Class', 'Classes'],
    ['Dish', 'Dishes'],
    ['Fizz', 'Fizzes'],
    ['Sheep', 'Sheeps'],
    ['Stadium', 'Stadiums'],
    ['Quiz', 'Quizs'],
    ['Tax', 'Taxes'],
    ['Hedron', 'Hedrons'],
    ['Strata', 'Stratas'],
    ['Emus', 'Emuses'],
    ['Protest', 'Protests'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralTypeName(name), plural, name);
});

test('lower camel case: separators start words and go, digits start words, trailing separators go', () => {
  const cases: [string, string][] = [
    ['ApprovalQuery', 'approvalQuery'],
    ['ERC20Token', 'erc20Token'],
    ['NFTSale', 'nftsale'],
    ['TokenID', 'tokenID'],
    ['token_transfer', 'tokenTransfer'],
    ['Token-Transfer', 'tokenTransfer'],
    ['_Private', 'private'],
    ['Pool2Day', 'pool2Day'],
    ['ÄpfelBaum', 'äpfelBaum'],
    ['ABC', 'abc'],
    ['A', 'a'],
    ['Token__', 'token'],
    ['9Lives', '9Lives'],
    ['X_y_Z', 'xYZ'],
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
  const body =
    '{"data":{"transfers":[{"id":"a","amount":"115792089237316195423570985008687907853269984665640564039457584007913129639935","count":12345678901234567890123,"token":{"id":"0x01","owner":{"id":"0x02"}},"tags":["x","y"],"memo":null,"ok":true}]}}';
  const json = parseJsonLossless(body) as { data: unknown };
  const table = flattenFields(json.data)[0];
  assert.equal(table.field, 'transfers');
  assert.deepEqual(
    table.columns.map((c) => c.id),
    ['id', 'amount', 'count', 'token.id', 'token.owner.id', 'tags', 'memo', 'ok'],
  );
  assert.deepEqual(table.rows, [['a', '115792089237316195423570985008687907853269984665640564039457584007913129639935', '12345678901234567890123', '0x01', '0x02', '["x","y"]', '', 'true']]);
  // A single object is one row; columns that appear later are added in order seen.
  assert.deepEqual(flattenFields({ _meta: { block: { number: 7 }, hasIndexingErrors: false } })[0].rows, [['7', 'false']]);
  const ragged = flattenFields({ xs: [{ a: '1' }, { b: '2' }] })[0];
  assert.deepEqual(ragged.rows, [
    ['1', ''],
    ['', '2'],
  ]);
});

test('every top-level field of an answer is a table of its own, in the query’s order, with its row count', () => {
  // The demo's query: transfers, approvals and _meta, none of them dropped.
  const data = {
    transfers: [
      { from: '0x01', value: '5' },
      { from: '0x02', value: '7' },
    ],
    approvals: [{ owner: '0x03', spender: '0x04' }],
    _meta: { block: { number: 12 }, hasIndexingErrors: false },
    none: null,
  };
  const fields = flattenFields(data);
  assert.deepEqual(
    fields.map((t) => [t.field, t.columns.map((c) => c.id), t.rows]),
    [
      [
        'transfers',
        ['from', 'value'],
        [
          ['0x01', '5'],
          ['0x02', '7'],
        ],
      ],
      ['approvals', ['owner', 'spender'], [['0x03', '0x04']]],
      ['_meta', ['block.number', 'hasIndexingErrors'], [['12', 'false']]],
      ['none', [], []],
    ],
  );
  assert.equal(fieldCounts(fields), 'transfers: 2 rows, approvals: 1 row, _meta: 1 row, none: 0 rows');
  assert.deepEqual(flattenFields(null), []);
  assert.deepEqual(flattenFields([{ a: 1 }]), []);
  assert.equal(fieldCounts([]), 'no data');
});

test('a run is named by its operation, or plainly a query: never "Query query on …"', () => {
  assert.deepEqual(queryRunText('Transfers', 'demo/token'), { title: 'Query Transfers on demo/token', progress: 'Querying Transfers on demo/token' });
  assert.deepEqual(queryRunText(undefined, 'demo/token'), { title: 'Query on demo/token', progress: 'Querying demo/token' });
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
  assert.deepEqual(flattenFields({ xs: [{ a: {}, b: { c: {} }, d: [1, { e: 2 }], f: 1.5, g: null, h: true }] })[0], {
    field: 'xs',
    columns: ['a', 'b.c', 'd', 'f', 'g', 'h'].map((id) => ({ id, title: id })),
    rows: [['{}', '{}', '[1,{"e":2}]', '1.5', '', 'true']],
  });
  assert.deepEqual(flattenFields({ n: 5 })[0], { field: 'n', columns: [{ id: 'value', title: 'value' }], rows: [['5']] });
  assert.deepEqual(flattenFields({ a: [{ x: 1 }], b: [{ y: 2 }] })[1].rows, [['2']]);
  assert.deepEqual(flattenFields({ a: null })[0], { field: 'a', columns: [], rows: [] });
  assert.deepEqual(flattenFields({}), []);
  assert.deepEqual(flattenFields(null), []);
  assert.deepEqual(flattenFields('text'), []);
  assert.deepEqual(flattenFields({ xs: [{}] })[0], { field: 'xs', columns: [], rows: [[]] });
});

test('paging at the limits: page size 1 and 1000, skip exactly 5000, bad pages', () => {
  assert.deepEqual(pageVariables(0, 1), { first: 1, skip: 0 });
  assert.deepEqual(pageVariables(5, 1000), { first: 1000, skip: 5000 });
  assert.deepEqual(pageVariables(50), { first: 100, skip: 5000 });
  for (const size of [0, 1.5, 1001]) assert.throws(() => pageVariables(0, size), { name: 'RangeError', message: "Page size must be 1 to 1000 (graph-node's limit on first)." }, String(size));
  for (const page of [-1, 0.5]) assert.throws(() => pageVariables(page), { name: 'RangeError', message: 'Page must be 0 or more.' }, String(page));
  assert.throws(() => pageVariables(6, 1000), {
    message: 'graph-node skips at most 5000 records; to read further, filter instead of skipping (e.g. where: { id_gt: "<last id>" } with orderBy: id).',
  });
});

test('plural rules apply only at the end of the name; lower-case stems inside a name take the irregular forms', () => {
  const cases: [string, string][] = [
    // Each rule's ending in the middle of a name does not count: the name takes the general rules.
    ['BeauxArt', 'BeauxArts'],
    ['Salespersonnel', 'Salespersonnels'],
    ['Grandchildhood', 'Grandchildhoods'],
    ['DormouseNest', 'DormouseNests'],
    ['ReindexedEvent', 'ReindexedEvents'],
    ['BoxesCount', 'BoxesCounts'],
    ['MoneyBag', 'MoneyBags'],
    ['LeafNode', 'LeafNodes'],
    ['MidwifeFee', 'MidwifeFees'],
    ['AnalysisRun', 'AnalysisRuns'],
    ['SubcriterionSet', 'SubcriterionSets'],
    ['MetadataItem', 'MetadataItems'],
    ['GoldcherubWing', 'GoldcherubWings'],
    ['MicroalgaBloom', 'MicroalgaBlooms'],
    ['AutofocusMode', 'AutofocusModes'],
    ['BiasCount', 'BiasCounts'],
    ['MenuItem', 'MenuItems'],
    ['IrisScan', 'IrisScans'],
    ['TaxisFleet', 'TaxisFleets'],
    ['ChineseName', 'ChineseNames'],
    // At the end, in lower case, the irregular and Latin forms.
    ['Salesperson', 'Salespeople'],
    ['Grandchild', 'Grandchildren'],
    ['Grandchildren', 'Grandchildren'],
    ['Dormouse', 'Dormice'],
    ['Subappendix', 'Subappendices'],
    ['Subcriterion', 'Subcriteria'],
    ['Goldcherub', 'Goldcherubim'],
    ['Goldcherubim', 'Goldcherubim'],
    ['Microalga', 'Microalgae'],
    ['Taxis', 'Taxes'],
    // -ias stays unless it is -lias (alias takes -es); -iam and -uam stay, other -am do not; -enus stays.
    ['Subalias', 'Subaliases'],
    ['Siam', 'Siam'],
    ['Exam', 'Exams'],
    ['Venus', 'Venus'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralTypeName(name), plural, name);
});

test('lower camel case: a capital after one that started a word is lowered; trailing digits stay', () => {
  assert.equal(lowerCamelCase('9AB'), '9Ab');
  assert.equal(lowerCamelCase('ERC721'), 'erc721');
});

const MODEL_SCHEMA = `
enum Kind { MINT BURN }
scalar Extra
scalar Weird @entity
interface Event { id: ID! block: BigInt! }
interface Named { name: String! }
type Plain { id: ID! }
type Hourly @aggregation(intervals: ["hour"], source: "Transfer") { id: Int8! timestamp: Timestamp! }
type Token @entity {
  id: Bytes! owner: Account! plain: Plain hourly: Hourly extra: Extra weird: Weird event: Event kind: Kind
  transfers: [Transfer!]! @derivedFrom(field: "token") legacy: [Transfer!] @derivedFrom(note: "x", field: "token") odd: [Transfer!] @derivedFrom
  note: String @deprecated
}
type Transfer implements Event & Named @entity(immutable: true) { id: ID! block: BigInt! name: String! token: Token! }
type Account @legacy(immutable: false) @entity(timeseries: false, immutable: true) { id: Bytes! }
type Stat @entity(immutable: "yes") { id: ID! }
`;

test('the entity model: entity objects and interfaces only, field kinds, lists, non-null, @derivedFrom, immutable', () => {
  const field = (name: string, type: string, typeText: string, kind: string, list: boolean, nonNull: boolean, derivedFrom?: string) => ({
    name,
    type,
    typeText,
    kind,
    list,
    nonNull,
    ...(derivedFrom !== undefined ? { derivedFrom } : {}),
  });
  const model = entityModel(MODEL_SCHEMA);
  assert.deepEqual(model.entities, [
    {
      name: 'Event',
      kind: 'interface',
      implements: [],
      immutable: false,
      fields: [field('id', 'ID', 'ID!', 'scalar', false, true), field('block', 'BigInt', 'BigInt!', 'scalar', false, true)],
    },
    { name: 'Named', kind: 'interface', implements: [], immutable: false, fields: [field('name', 'String', 'String!', 'scalar', false, true)] },
    {
      name: 'Token',
      kind: 'object',
      implements: [],
      immutable: false,
      fields: [
        field('id', 'Bytes', 'Bytes!', 'scalar', false, true),
        field('owner', 'Account', 'Account!', 'entity', false, true),
        // Types without @entity (a plain object, an aggregation) and custom scalars are not entities.
        field('plain', 'Plain', 'Plain', 'scalar', false, false),
        field('hourly', 'Hourly', 'Hourly', 'scalar', false, false),
        field('extra', 'Extra', 'Extra', 'scalar', false, false),
        // @entity counts on object types only.
        field('weird', 'Weird', 'Weird', 'scalar', false, false),
        field('event', 'Event', 'Event', 'entity', false, false),
        field('kind', 'Kind', 'Kind', 'enum', false, false),
        field('transfers', 'Transfer', '[Transfer!]!', 'entity', true, true, 'token'),
        field('legacy', 'Transfer', '[Transfer!]', 'entity', true, false, 'token'),
        // @derivedFrom without its field argument still marks the field as not stored.
        field('odd', 'Transfer', '[Transfer!]', 'entity', true, false, ''),
        field('note', 'String', 'String', 'scalar', false, false),
      ],
    },
    {
      name: 'Transfer',
      kind: 'object',
      implements: ['Event', 'Named'],
      immutable: true,
      fields: [
        field('id', 'ID', 'ID!', 'scalar', false, true),
        field('block', 'BigInt', 'BigInt!', 'scalar', false, true),
        field('name', 'String', 'String!', 'scalar', false, true),
        field('token', 'Token', 'Token!', 'entity', false, true),
      ],
    },
    // immutable is read from @entity's own argument, wherever the directive and the argument stand.
    { name: 'Account', kind: 'object', implements: [], immutable: true, fields: [field('id', 'Bytes', 'Bytes!', 'scalar', false, true)] },
    // Not a boolean: mutable, as graph-node takes an entity without the argument.
    { name: 'Stat', kind: 'object', implements: [], immutable: false, fields: [field('id', 'ID', 'ID!', 'scalar', false, true)] },
  ]);
  assert.deepEqual([...model.enums], [['Kind', ['MINT', 'BURN']]]);
  // An already parsed document reads the same.
  assert.deepEqual(entityModel(parse(MODEL_SCHEMA)), model);
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

test('default queries put id first wherever the schema declares it; one per entity, with the page size', () => {
  const model = entityModel('type T @entity { name: String! id: ID! b: Int } type U @entity { a: Int b: Int id: ID! } type V @entity { a: Int b: Int }');
  const query = (plural: string, list: string, fields: string[], size = 100) =>
    [`query ${plural}($first: Int = ${size}, $skip: Int = 0) {`, `  ${list}(first: $first, skip: $skip) {`, ...fields.map((f) => `    ${f}`), '  }', '}', ''].join('\n');
  assert.equal(defaultListQuery(model.entities[0]), query('Ts', 'ts', ['id', 'name', 'b']));
  assert.equal(defaultListQuery(model.entities[1]), query('Us', 'us', ['id', 'a', 'b']));
  assert.equal(defaultListQuery(model.entities[2]), query('Vs', 'vs', ['a', 'b']));
  assert.deepEqual(
    model.entities[0].fields.map((f) => f.name),
    ['name', 'id', 'b'],
    'the model itself is not reordered',
  );
  assert.deepEqual(
    [...defaultListQueries(model, 7)],
    [
      ['T', query('Ts', 'ts', ['id', 'name', 'b'], 7)],
      ['U', query('Us', 'us', ['id', 'a', 'b'], 7)],
      ['V', query('Vs', 'vs', ['a', 'b'], 7)],
    ],
  );
  assert.deepEqual(
    [...defaultListQueries(model)].map(([, q]) => q.split('\n')[0]),
    ['query Ts($first: Int = 100, $skip: Int = 0) {', 'query Us($first: Int = 100, $skip: Int = 0) {', 'query Vs($first: Int = 100, $skip: Int = 0) {'],
  );
});

test('flattening: a column seen again is not repeated', () => {
  assert.deepEqual(
    flattenFields({
      xs: [
        { a: 1, b: 2 },
        { b: 3, a: 4 },
      ],
    })[0],
    {
      field: 'xs',
      columns: [
        { id: 'a', title: 'a' },
        { id: 'b', title: 'b' },
      ],
      rows: [
        ['1', '2'],
        ['4', '3'],
      ],
    },
  );
});

test('lossless JSON: negative big integers, decimals and exponents stay numbers, broken JSON is a SyntaxError', () => {
  assert.deepEqual(parseJsonLossless('{"a":-9007199254740993,"b":12345678901234567.5,"c":1.2345678901234567890}'), { a: '-9007199254740993', b: 12345678901234568, c: 1.2345678901234567 });
  assert.deepEqual(parseJsonLossless('[12345678901234567e2,12345678901234567e+2,12345678901234567E-2,9007199254740993,1,1e99999999999999999,-0,-1.5]'), [
    1234567890123456800,
    1234567890123456800,
    123456789012345.67,
    '9007199254740993',
    1,
    Infinity,
    -0,
    -1.5,
  ]);
  for (const text of ['{"a":"abc', '[-]', '[-x]', '[-,1]']) assert.throws(() => parseJsonLossless(text), SyntaxError, text);
  assert.throws(() => parseJsonLossless(`${'['.repeat(513)}${']'.repeat(513)}`), { name: 'SyntaxError', message: 'nested more than 512 levels deep' });
  assert.deepEqual(parseJsonLossless(`${'['.repeat(512)}${']'.repeat(512)}`), JSON.parse(`${'['.repeat(512)}${']'.repeat(512)}`));
});
