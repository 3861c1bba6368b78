/**
 * Errors graph-cli 0.98 or graph-node raise that Chaindeck used to miss (issue 12, findings 8-10),
 * on small schemas and manifests written for these tests, and which manifests the editor treats
 * as copies (build/ and dist/ outputs).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSchema } from '../../src/core/subgraph/schema/schema';
import { isManifestCopy, isManifestFile } from '../../src/core/subgraph/copies';

const codes = (schema: string) => analyzeSchema(schema, 'schema.graphql').findings.map((f) => f.code);
const findings = (schema: string, code: string) => analyzeSchema(schema, 'schema.graphql').findings.filter((f) => f.code === code);

describe('@derivedFrom must point back at the deriving type (graph-cli validateDerivedFromDirective, graph-node validate_derived_from)', () => {
  const base = (owner: string, extra = '') => `
type Token @entity(immutable: false) { id: ID! holder: Holder! other: Other! tag: String! }
type Other @entity(immutable: false) { id: ID! }
interface Party { id: ID! tokens: [Token!]! }
${owner}
${extra}`;

  test('a back reference of the deriving type, also through lists, is fine', () => {
    assert.deepEqual(codes(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "holder") }')), []);
    assert.deepEqual(codes(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "holders") }').replace('holder: Holder!', 'holders: [Holder!]!')), []);
  });

  test('a back reference of another entity is an error', () => {
    const [f] = findings(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "other") }'), 'derived-from-wrong-type');
    assert.equal(f?.severity, 'error');
    assert.match(f.message, /'other' on type 'Token' has type 'Other' but must point back at 'Holder'.*graph build fails/);
  });

  test('a scalar back reference is an error, and so is deriving from id (graph-cli has no exception for it)', () => {
    assert.equal(findings(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "tag") }'), 'derived-from-wrong-type').length, 1);
    assert.equal(findings(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "id") }'), 'derived-from-wrong-type').length, 1);
  });

  test('an interface the deriving type implements is fine when it declares the field; otherwise graph-node refuses', () => {
    const viaInterface = (iface: string) =>
      `type Token @entity(immutable: false) { id: ID! party: Party! }\n${iface}\ntype Holder implements Party @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "party") }`;
    assert.deepEqual(codes(viaInterface('interface Party { id: ID! tokens: [Token!]! }')), []);
    const [f] = findings(viaInterface('interface Party { id: ID! }'), 'derived-from-wrong-type');
    assert.match(f?.message ?? '', /interface 'Party', which does not declare 'tokens'.*graph-node/);
    // An interface the type does not implement is graph-cli's error.
    const other = `type Token @entity(immutable: false) { id: ID! party: Party! }\ninterface Party { id: ID! tokens: [Token!]! }\ntype Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "party") }`;
    assert.match(findings(other, 'derived-from-wrong-type')[0]?.message ?? '', /graph build fails/);
  });

  test('extra arguments, and a scalar type under @derivedFrom', () => {
    assert.equal(findings(base('type Holder @entity(immutable: false) { id: ID! tokens: [Token!]! @derivedFrom(field: "holder", other: "x") }'), 'derived-from-argument').length, 1);
    assert.equal(findings(base('type Holder @entity(immutable: false) { id: ID! names: [String!]! @derivedFrom(field: "holder") }'), 'derived-from-type').length, 1);
  });
});

describe('@fulltext as graph-cli (validateFulltext) and graph-node (validate_fulltext_directives) check it', () => {
  const schema = (directive: string) => `type _Schema_ ${directive}
type Post @entity(immutable: false) { id: ID! title: String! body: String tags: [String!]! score: BigInt! }
type Author @entity(immutable: false) { id: ID! name: String! }`;
  const ok = '@fulltext(name: "postSearch", language: en, algorithm: rank, include: [{entity: "Post", fields: [{name: "title"}, {name: "body"}, {name: "tags"}, {name: "id"}]}])';
  const codesOf = (directive: string) => codes(schema(directive));

  test('a well-formed directive, and two with different names, give nothing', () => {
    assert.deepEqual(codesOf(ok), []);
    assert.deepEqual(codesOf(`${ok} @fulltext(name: "authorSearch", language: simple, algorithm: proximityRank, include: [{entity: "Author", fields: [{name: "name"}]}])`), []);
  });

  test('unknown language or algorithm, or a quoted one', () => {
    assert.deepEqual(codesOf(ok.replace('language: en', 'language: english')), ['fulltext-language']);
    assert.deepEqual(codesOf(ok.replace('algorithm: rank', 'algorithm: fast')), ['fulltext-algorithm']);
    const quoted = findings(schema(ok.replace('language: en', 'language: "en"')), 'fulltext-language')[0];
    assert.match(quoted.message, /without quotes: en/);
    // The range is the value, for the editor to point at.
    const text = schema(ok.replace('algorithm: rank', 'algorithm: fast'));
    const f = findings(text, 'fulltext-algorithm')[0];
    assert.equal(text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.end.character), 'fast');
  });

  test('an included entity or field that does not exist, or a field that is not a string', () => {
    const entity = findings(schema(ok.replace('entity: "Post"', 'entity: "Posts"')), 'fulltext-entity')[0];
    assert.match(entity.message, /'Posts'.*did you mean 'Post'/);
    assert.match(findings(schema(ok.replace('{name: "body"}', '{name: "bodi"}')), 'fulltext-field')[0].message, /'bodi' does not exist on 'Post'; did you mean 'body'/);
    assert.match(findings(schema(ok.replace('{name: "body"}', '{name: "score"}')), 'fulltext-field')[0].message, /is BigInt; only String/);
  });

  test('missing or unknown arguments and malformed include', () => {
    assert.deepEqual(codesOf('@fulltext(name: "s", language: en, algorithm: rank)'), ['fulltext-argument']);
    assert.deepEqual(codesOf(ok.replace('name: "postSearch", ', '')), ['fulltext-argument']);
    assert.deepEqual(codesOf(ok.replace('algorithm: rank', 'algorithm: rank, weight: 2')), ['fulltext-argument']);
    assert.deepEqual(codesOf(ok.replace(/include: .*\)$/, 'include: [])')), ['fulltext-include']);
    assert.deepEqual(codesOf(ok.replace('{entity: "Post", ', '{entity: "Post", extra: 1, ')), ['fulltext-include']);
  });

  test('name collisions: two directives with one name, or a query field', () => {
    assert.deepEqual(codesOf(`${ok} ${ok}`), ['fulltext-name']);
    assert.deepEqual(codesOf(ok.replace('"postSearch"', '"title"')), ['fulltext-name']);
    assert.deepEqual(codesOf(ok.replace('"postSearch"', '"titles"')), ['fulltext-name']);
  });

  test('@fulltext or @import on an entity type is graph-cli error', () => {
    assert.deepEqual(codes('type Post @entity(immutable: true) @fulltext(name: "s", language: en, algorithm: rank, include: []) { id: ID! }'), ['schema-type-directive']);
  });
});

describe('compiled manifests are copies: build/ and dist/', () => {
  test('a manifest directly in build/ or dist/, or in node_modules, is a copy', () => {
    for (const p of ['/w/build/subgraph.yaml', '/w/dist/subgraph.yaml', 'C:\\w\\dist\\subgraph.yaml', '/w/node_modules/x/subgraph.yaml']) assert.equal(isManifestCopy(p), true, p);
    for (const p of ['/w/subgraph.yaml', '/w/distribution/subgraph.yaml', '/w/dist/sub/subgraph.yaml']) assert.equal(isManifestCopy(p), false, p);
  });
  test('a manifest file is subgraph.yaml or <name>.subgraph.yaml outside the copies', () => {
    for (const p of ['/w/subgraph.yaml', '/w/a/sepolia.subgraph.yaml', 'C:\\w\\subgraph.yaml', 'subgraph.yaml', '/w/dist/sub/subgraph.yaml']) assert.equal(isManifestFile(p), true, p);
    for (const p of ['/w/build/subgraph.yaml', '/w/node_modules/x/subgraph.yaml', '/w/subgraph.yml', '/w/mysubgraph.yaml', '/w/subgraph.yaml.bak', '/w/subgraph-sepolia.yaml'])
      assert.equal(isManifestFile(p), false, p);
  });
});
