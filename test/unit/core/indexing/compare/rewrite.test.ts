/**
 * The compare's query rewrite, read back through graphql's parser: every top-level entity field
 * pinned to the block (its own block kept, _meta untouched and left out), collections paged by id
 * with the query's where filter kept, fragments and variables carried along, one document per field.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { fieldQueries, type RootField } from '../../../../../src/core/indexing/compare/rewrite';

const list = (...args: string[]): RootField => ({ list: true, args: new Set(['block', 'where', 'orderBy', 'orderDirection', 'first', 'skip', ...args]) });
const single: RootField = { list: false, args: new Set(['id', 'block']) };
const ROOT = new Map<string, RootField>([
  ['pings', list()],
  ['ping', single],
  ['tokens', list()],
  ['_meta', { list: false, args: new Set(['block']) }],
]);

/** The top-level field of a document, and its arguments printed by name. */
function fieldOf(document: string): { field: FieldNode; args: Record<string, string>; doc: ReturnType<typeof parse> } {
  const doc = parse(document);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  assert.equal(op.selectionSet.selections.length, 1);
  const field = op.selectionSet.selections[0] as FieldNode;
  return { field, doc, args: Object.fromEntries((field.arguments ?? []).map((a) => [a.name.value, print(a.value)])) };
}

test('a collection and a single entity are pinned to the block; _meta is left out', () => {
  const queries = fieldQueries('{pings(where: {n_gt: 2}) {n} ping(id: "x") {id n} _meta {block {number}}}', { block: 7, rootFields: ROOT });
  assert.deepEqual(
    queries.map((q) => [q.key, q.paged]),
    [
      ['pings', true],
      ['ping', false],
    ],
  );
  const pings = fieldOf(queries[0].document());
  assert.deepEqual(pings.args, { block: '{number: 7}', first: '1000', orderBy: 'id', orderDirection: 'asc', where: '{n_gt: 2}' });
  // Paging needs the id even when the query did not select it.
  assert.deepEqual(
    pings.field.selectionSet!.selections.map((s) => (s as FieldNode).name.value),
    ['id', 'n'],
  );
  assert.deepEqual(fieldOf(queries[1].document()).args, { id: '"x"', block: '{number: 7}' });
});

test('the next page narrows the where filter to ids after the last one; a variable filter or its own id_gt is kept beside it', () => {
  const [plain, object, variable, ownIdGt] = fieldQueries(
    'query ($w: Ping_filter) { a: pings { n } b: pings(where: { n: 1 }) { n } c: pings(where: $w) { n } d: pings(where: { id_gt: "0x1" }) { n } }',
    { block: 3, rootFields: ROOT, variables: { w: { n: 2 }, unused: 1 } },
  );
  assert.equal(fieldOf(plain.document('0xab')).args.where, '{id_gt: "0xab"}');
  assert.equal(fieldOf(object.document('0xab')).args.where, '{n: 1, id_gt: "0xab"}');
  assert.equal(fieldOf(variable.document('0xab')).args.where, '{and: [$w, {id_gt: "0xab"}]}');
  assert.equal(fieldOf(ownIdGt.document('0xab')).args.where, '{and: [{id_gt: "0x1"}, {id_gt: "0xab"}]}');
  // Only the variables a field uses go along, definitions included (graph-node refuses unused ones).
  assert.deepEqual(variable.variables, { w: { n: 2 } });
  assert.deepEqual(plain.variables, {});
  assert.match(variable.document(), /query \(\$w: Ping_filter\)/);
  assert.doesNotMatch(plain.document(), /\$w/);
});

test("the query's paging is replaced by the compare's; a field's own block argument is kept", () => {
  const [q] = fieldQueries('query ($first: Int = 100, $skip: Int = 0) { pings(first: $first, skip: $skip, orderBy: n, orderDirection: desc, block: { hash: "0xaa" }) { id } }', {
    block: 9,
    rootFields: ROOT,
    pageSize: 250,
  });
  assert.deepEqual(fieldOf(q.document()).args, { block: '{hash: "0xaa"}', first: '250', orderBy: 'id', orderDirection: 'asc' });
  assert.doesNotMatch(q.document(), /\$first|\$skip/);
});

test('fragments: top-level ones are flattened, the ones a field uses come along (and only those)', () => {
  const queries = fieldQueries(
    `query Q { ...Top ... on Query { ping(id: "1") { ...P } } }
     fragment Top on Query { pings { ...P } _meta { deployment } }
     fragment P on Ping { n from }
     fragment Unused on Ping { id }`,
    { block: 5, rootFields: ROOT },
  );
  assert.deepEqual(
    queries.map((q) => q.key),
    ['pings', 'ping'],
  );
  for (const q of queries) {
    const { doc, args } = fieldOf(q.document());
    assert.equal(args.block, '{number: 5}');
    assert.deepEqual(
      doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => d.name.value),
      ['P'],
    );
  }
});

test('a field the schema does not list is pinned and sent as is; an unknown schema pins all fields', () => {
  const [q] = fieldQueries('{other(first: 5) {id}}', { block: 2, rootFields: ROOT });
  assert.equal(q.paged, false);
  assert.deepEqual(fieldOf(q.document()).args, { first: '5', block: '{number: 2}' });
  const [noSchema] = fieldQueries('{pings {id}}', { block: 2 });
  assert.deepEqual(fieldOf(noSchema.document()).args, { block: '{number: 2}' });
});

test('queries that cannot be compared say why in one line', () => {
  const cases: [string, RegExp][] = [
    ['{ pings { id ', /not GraphQL/],
    ['query A { pings { id } } query B { ping(id: "1") { id } }', /2 operations: name the one/],
    ['mutation { x }', /Only a query/],
    ['{_meta {block {number}}}', /no entity field/],
    ['{pings {id} pings {n}}', /'pings' twice/],
    ['{...Missing}', /unknown fragment 'Missing'/],
  ];
  for (const [query, message] of cases) {
    assert.throws(
      () => fieldQueries(query, { block: 1, rootFields: ROOT }),
      (err: Error) => message.test(err.message) && !err.message.includes('\n'),
      query,
    );
  }
  assert.throws(() => fieldQueries('{pings {id}}', { block: 1, pageSize: 1001 }), /1 to 1000/);
  assert.equal(fieldQueries('query A { pings { id } } query B { ping(id: "1") { id } }', { block: 1, operationName: 'B' })[0].key, 'ping');
});
