import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildQuerySchema, validateQuery } from '../../../../../src/core/subgraph/query/apiSchema';
import { defaultListQueries, defaultListQuery, pageVariables } from '../../../../../src/core/subgraph/query/build';
import { entityModel } from '../../../../../src/core/subgraph/query/entities';
import { RICH_SCHEMA, TUTORIAL_SCHEMA } from '../../../../support/querySchemas';

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

test('paging variables stay inside graph-node limits', () => {
  assert.deepEqual(pageVariables(0), { first: 100, skip: 0 });
  assert.deepEqual(pageVariables(3, 50), { first: 50, skip: 150 });
  assert.throws(() => pageVariables(0, 1001), /1 to 1000/);
  assert.throws(() => pageVariables(51, 100), /at most 5000 .*id_gt/);
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
