/**
 * Type names graph-node reserves are errors at the name: the built-in scalars, Query and
 * Subscription, `<T>_filter` / `<T>_orderBy` of a type T, its API schema's own types, `__…`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSchema } from '../../../../../src/core/subgraph/schema/schema';

const entity = (name: string) => `type ${name} @entity(immutable: true) {\n  id: ID!\n}\n`;

function reserved(schema: string) {
  return analyzeSchema(schema, 'schema.graphql').findings.filter((f) => f.code === 'reserved-type-name');
}

const SCALARS = ['Bytes', 'BigInt', 'BigDecimal', 'Int8', 'Timestamp', 'ID', 'String', 'Int', 'Float', 'Boolean'];

for (const name of ['Query', 'Subscription', ...SCALARS]) {
  test(`type ${name}: an error at the name`, () => {
    const [finding, ...more] = reserved(`${entity('Token')}${entity(name)}`);
    assert.equal(more.length, 0);
    assert.equal(finding.severity, 'error');
    assert.deepEqual(finding.range, { start: { line: 3, character: 5 }, end: { line: 3, character: 5 + name.length } });
    assert.match(finding.message, new RegExp(`^Type name '${name}' is reserved: .*; rename it$`));
    assert.match(finding.message, ['Query', 'Subscription'].includes(name) ? /generates the \w+ type/ : /built-in scalar/);
  });
}

test('an enum or a scalar declaration with a reserved name is refused too', () => {
  assert.equal(reserved('enum Query { A }\nscalar BigInt\n').length, 2);
});

test('<T>_filter and <T>_orderBy of a type of the schema: errors (graph-node generates them)', () => {
  const found = reserved(`${entity('Token')}${entity('Token_filter')}${entity('Token_orderBy')}interface Pool { id: ID! }\nenum Pool_filter { A }\n`);
  assert.deepEqual(
    found.map((f) => [f.severity, f.range.start.line, f.message]),
    [
      ['error', 3, "Type name 'Token_filter' is reserved: graph-node generates Token_filter for type 'Token'; rename it"],
      ['error', 6, "Type name 'Token_orderBy' is reserved: graph-node generates Token_orderBy for type 'Token'; rename it"],
      ['error', 10, "Type name 'Pool_filter' is reserved: graph-node generates Pool_filter for type 'Pool'; rename it"],
    ],
  );
});

test('a _filter/_orderBy name without its base type: a warning (graph-node accepts it today)', () => {
  const [finding] = reserved(entity('Other_orderBy'));
  assert.equal(finding.severity, 'warning');
  assert.match(finding.message, /would for a type 'Other'/);
});

test("graph-node's API types and introspection names are reserved; _Schema_ and ordinary names are not", () => {
  const names = ['_Meta_', '_Block_', '_SubgraphErrorPolicy_', 'BlockChangedFilter', 'Block_height', 'OrderDirection', 'Aggregation_interval', '__Thing'];
  assert.deepEqual(
    reserved(names.map(entity).join('')).map((f) => f.message.slice(0, f.message.indexOf(' is reserved'))),
    names.map((n) => `Type name '${n}'`),
  );
  assert.deepEqual(
    reserved(
      `${entity('Filter')}${entity('QueryLog')}${entity('Token_filters')}type _Schema_ @fulltext(name: "s", language: en, algorithm: rank, include: [{entity: "Filter", fields: [{name: "id"}]}])\n`,
    ),
    [],
  );
});
