/**
 * schema.graphql at the edges the main schema tests leave out: odd or partial directives
 * (@import, @aggregation, @aggregate), definitions that are not types, @fulltext and @derivedFrom
 * pointing at types that are no entities, and unclosed block strings in the depth guard. The
 * validator must report these, or accept them, and never throw.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSchema, graphqlTooDeepAt } from '../../src/core/subgraph/schema/schema';

const E = '@entity(immutable: true)';

/** Each finding as `code [marked text]`. */
function marks(text: string): string[] {
  const info = analyzeSchema(text, 'schema.graphql');
  return info.findings.map((f) => `${f.code} [${text.slice(info.lines.offset(f.range.start), info.lines.offset(f.range.end))}]`);
}

describe('@import: only on _Schema_, only its types argument brings names', () => {
  test('@import on another type brings no names: its types stay unknown', () => {
    assert.deepEqual(marks(`type Foo ${E} @import(types: ["Bar"]) { id: ID! ref: Bar! }`), ['schema-type-directive [@import(types: ["Bar"])]', 'unknown-field-type [Bar!]']);
  });

  test('another directive on _Schema_ with a types argument (a misspelled @imports) brings no names', () => {
    assert.deepEqual(marks(`type _Schema_ @imports(types: ["Bar"])\ntype Foo ${E} { id: ID! ref: Bar! }`), ['schema-type-directive [@imports(types: ["Bar"])]', 'unknown-field-type [Bar!]']);
  });

  test('the types argument is found by name, after other arguments', () => {
    assert.deepEqual(marks(`type _Schema_ @import(from: {id: "QmX"}, types: ["Bar"])\ntype Foo ${E} { id: ID! ref: Bar! }`), []);
  });

  test('@import without types (bare, or only from:) brings nothing and does not throw', () => {
    assert.deepEqual(marks(`type _Schema_ @import\ntype Foo ${E} { id: ID! ref: Bar! }`), ['unknown-field-type [Bar!]']);
    assert.deepEqual(marks(`type _Schema_ @import(from: {id: "QmX"})\ntype Foo ${E} { id: ID! }`), []);
  });
});

describe('definitions that are not types', () => {
  test('an anonymous operation ({ a }) has no name and gives no finding, no throw', () => {
    assert.deepEqual(marks(`{ a }\ntype Foo ${E} { id: ID! }`), []);
  });
});

describe('@fulltext include: only @entity types', () => {
  const fulltext = (entity: string) => `type _Schema_ @fulltext(name: "search", language: en, algorithm: rank, include: [{entity: "${entity}", fields: [{name: "label"}]}])`;

  test('an @aggregation type is no entity to search', () => {
    const text = `${fulltext('Stats')}\ntype Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! label: String! }\ntype Stats @aggregation(intervals: ["hour"], source: "Data") { id: Int8! timestamp: Timestamp! label: String! }`;
    assert.deepEqual(marks(text), ['fulltext-entity ["Stats"]']);
  });

  test('a type without any directive is no entity to search', () => {
    assert.deepEqual(marks(`${fulltext('Plain')}\ntype Plain { id: ID! label: String! }`), ['fulltext-entity ["Plain"]', 'missing-entity-directive [Plain]']);
  });

  test('an @entity type is searchable', () => {
    assert.deepEqual(marks(`${fulltext('Doc')}\ntype Doc ${E} { id: ID! label: String! }`), []);
  });
});

describe('@aggregation and @aggregate', () => {
  test('@aggregation without source does not throw, is refused; the aggregation feature is still seen', () => {
    const text = 'type Stats @aggregation(intervals: ["hour"]) { id: Int8! timestamp: Timestamp! }';
    const info = analyzeSchema(text, 'schema.graphql');
    assert.deepEqual(marks(text), ['aggregation-source-argument [@aggregation]']);
    assert.equal(text.slice(info.aggregation!.start, info.aggregation!.end), '@aggregation(intervals: ["hour"])');
  });

  test('a field with @aggregate is not read as @derivedFrom', () => {
    const text = `type Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! price: BigDecimal! }
type Stats @aggregation(intervals: ["hour"], source: "Data") { id: Int8! timestamp: Timestamp! sum: BigDecimal! @aggregate(fn: "sum", arg: "price") }`;
    assert.deepEqual(marks(text), []);
  });
});

describe('@derivedFrom back references to types that are no entities', () => {
  test('on a type without @entity, deriving from a field pointing back at it is refused', () => {
    assert.deepEqual(marks(`type A { id: ID! bs: [B!]! @derivedFrom(field: "a") }\ntype B ${E} { id: ID! a: A! }`), ['missing-entity-directive [A]', 'derived-from-wrong-type ["a"]']);
  });

  test('implementing an object type (not an interface) does not throw; it and the back reference are refused', () => {
    const text = `type B ${E} { id: ID! }\ntype A implements B ${E} { id: ID! ts: [T!]! @derivedFrom(field: "b") }\ntype T ${E} { id: ID! b: B! }`;
    assert.deepEqual(marks(text), ['implements-not-interface [B]', 'derived-from-wrong-type ["b"]']);
  });
});

describe('graphqlTooDeepAt: an unclosed block string hides the rest of the text', () => {
  test('at the very start of the text, and after an escaped closing quote', () => {
    assert.equal(graphqlTooDeepAt(`"""\n${'['.repeat(10)}`, 2), -1);
    assert.equal(graphqlTooDeepAt(`"""a\\"""\n${'('.repeat(10)}`, 2), -1);
  });

  test('analyzeSchema reports the syntax error, not the depth', () => {
    assert.deepEqual(
      analyzeSchema(`"""\n${'['.repeat(40)}`, 'schema.graphql').findings.map((f) => f.code),
      ['graphql-syntax'],
    );
  });
});
