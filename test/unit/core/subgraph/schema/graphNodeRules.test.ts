/**
 * Two schema rules graph-node enforces and the validator used to miss: `implements` naming
 * something that is not an interface of the schema (graph-node's InterfaceUndefined), and an
 * @aggregation without a usable `source` or `intervals` argument (AggregationMissingSource,
 * AggregationMissingIntervals and their siblings). Each finding is checked with its code,
 * severity, message and line/character range; valid schemas must get none of them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeSchema } from '../../../../../src/core/subgraph/schema/schema';
import type { Finding } from '../../../../../src/core/subgraph/types';

const E = '@entity(immutable: true)';
const NEW_CODES = new Set(['implements-not-interface', 'aggregation-source-argument', 'aggregation-intervals-argument', 'aggregation-interval-unsupported']);

function run(text: string): { findings: Finding[]; marked: (f: Finding) => string } {
  const info = analyzeSchema(text, 'schema.graphql');
  return { findings: info.findings, marked: (f) => text.slice(info.lines.offset(f.range.start), info.lines.offset(f.range.end)) };
}

/** The one finding with `code`; fails when there are none or several. */
function only(text: string, code: string): Finding & { marked: string } {
  const { findings, marked } = run(text);
  const hits = findings.filter((f) => f.code === code);
  assert.equal(hits.length, 1, `one ${code} expected, got: ${findings.map((f) => f.code).join(', ') || 'none'}`);
  return { ...hits[0], marked: marked(hits[0]) };
}

const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });

describe('implements-not-interface: graph-node InterfaceUndefined', () => {
  test('implementing an object type marks the name in the implements list', () => {
    const text = `type A ${E} { id: ID! }\ntype B implements A ${E} { id: ID! }`;
    const f = only(text, 'implements-not-interface');
    assert.equal(f.severity, 'error');
    assert.equal(f.file, 'schema.graphql');
    assert.deepEqual(f.range, range(1, 18, 19));
    assert.equal(f.marked, 'A');
    assert.equal(
      f.message,
      "Type 'B' implements 'A', which is an object type, not an interface; only interfaces can be implemented: declare 'interface A' instead, or remove it from the implements list of 'B' (graph-node rejects the schema)",
    );
    assert.equal(f.fix, undefined);
    assert.deepEqual(
      run(text).findings.map((x) => x.code),
      ['implements-not-interface'],
    );
  });

  test('an unknown name is flagged, with a fix when an interface of that spelling is near', () => {
    const unknown = only(`type B implements Missing ${E} {\n  id: ID!\n}`, 'implements-not-interface');
    assert.deepEqual(unknown.range, range(0, 18, 25));
    assert.equal(
      unknown.message,
      "Type 'B' implements 'Missing', which is not defined in this schema; define 'interface Missing' or remove it from the implements list of 'B' (graph-node rejects the schema)",
    );
    assert.equal(unknown.fix, undefined);

    const text = `interface Named { id: ID! }\n\ntype Owner implements Namd ${E} { id: ID! }`;
    const near = only(text, 'implements-not-interface');
    assert.deepEqual(near.range, range(2, 22, 26));
    assert.equal(near.message, "Type 'Owner' implements 'Namd', which is not defined in this schema; did you mean 'Named'? (graph-node rejects the schema)");
    assert.equal(near.fix?.title, "Implement 'Named'");
    assert.deepEqual(near.fix?.edits, [{ range: range(2, 22, 26), text: 'Named' }]);
  });

  test('each wrong name of a list is its own finding; enums, scalars and imported types are no interfaces either', () => {
    const text = `type _Schema_ @import(types: ["Far"], from: { id: "Qm" })\ninterface I { id: ID! }\nenum K { X }\ntype B implements I & K & String & Far ${E} { id: ID! }`;
    const { findings, marked } = run(text);
    const hits = findings.filter((f) => f.code === 'implements-not-interface');
    assert.deepEqual(hits.map(marked), ['K', 'String', 'Far']);
    assert.deepEqual(
      hits.map((f) => f.range.start),
      [
        { line: 3, character: 22 },
        { line: 3, character: 26 },
        { line: 3, character: 35 },
      ],
    );
    assert.match(hits[0].message, /^Type 'B' implements 'K', which is an enum, not an interface; /);
    assert.match(hits[1].message, /^Type 'B' implements 'String', which is a scalar, not an interface; /);
    assert.match(hits[2].message, /^Type 'B' implements 'Far', which is imported from another subgraph, not an interface of this schema; /);
  });

  test('implementing a real interface, defined before or after the type, gets no finding', () => {
    assert.deepEqual(run(`interface I { id: ID! }\ntype B implements I ${E} { id: ID! }`).findings, []);
    assert.deepEqual(run(`type B implements I & J ${E} { id: ID! }\ninterface I { id: ID! }\ninterface J { id: ID! }`).findings, []);
  });
});

describe('@derivedFrom through an implemented object type', () => {
  test('the message does not call the object type an interface', () => {
    const text = `type A ${E} { id: ID! }\ntype B implements A ${E} { id: ID! cs: [C!]! @derivedFrom(field: "owner") }\ntype C ${E} { id: ID! owner: A! }`;
    const f = only(text, 'derived-from-wrong-type');
    assert.equal(f.marked, '"owner"');
    assert.doesNotMatch(f.message, /interface 'A'/);
    assert.equal(
      f.message,
      "Field 'cs': @derivedFrom field 'owner' on type 'C' points at 'A', which is an object type, not an interface 'B' can implement; make 'owner' point at 'B' (or make 'A' an interface declaring 'cs') (graph-node rejects the schema)",
    );
    assert.deepEqual(
      run(text).findings.map((x) => x.code),
      ['implements-not-interface', 'derived-from-wrong-type'],
    );
  });

  test('the list of interfaces the type implements leaves out what is no interface', () => {
    const text = `interface I { id: ID! }\ntype A ${E} { id: ID! }\ntype B implements I & A ${E} { id: ID! cs: [C!]! @derivedFrom(field: "x") }\ntype C ${E} { id: ID! x: String! }`;
    const f = only(text, 'derived-from-wrong-type');
    assert.match(f.message, /or an interface it implements \(I\) \(graph build fails\)$/);
  });

  test('an interface that does not declare the field is still named an interface', () => {
    const text = `interface I { id: ID! }\ntype B implements I ${E} { id: ID! cs: [C!]! @derivedFrom(field: "owner") }\ntype C ${E} { id: ID! owner: I! }`;
    assert.match(only(text, 'derived-from-wrong-type').message, /points at interface 'I', which does not declare 'cs'/);
  });
});

describe('@aggregation arguments: graph-node AggregationMissingSource, AggregationMissingIntervals', () => {
  const SOURCE = 'type Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! price: BigDecimal! }\n';
  const FIELDS = '{ id: Int8! timestamp: Timestamp! sum: BigDecimal! @aggregate(fn: "sum", arg: "price") }';

  test('without source: marks @aggregation, says what to add', () => {
    const text = `${SOURCE}type Stats @aggregation(intervals: ["hour"]) ${FIELDS}`;
    const f = only(text, 'aggregation-source-argument');
    assert.equal(f.severity, 'error');
    assert.deepEqual(f.range, range(1, 11, 23));
    assert.equal(f.marked, '@aggregation');
    assert.equal(
      f.message,
      `@aggregation on 'Stats' has no source argument; add source: "<Timeseries>", naming the @entity(timeseries: true) type it aggregates (graph-node rejects the schema)`,
    );
    assert.deepEqual(
      run(text).findings.map((x) => x.code),
      ['aggregation-source-argument'],
    );
  });

  test('without intervals: marks @aggregation, names the supported intervals', () => {
    const text = `${SOURCE}type Stats @aggregation(source: "Data") ${FIELDS}`;
    const f = only(text, 'aggregation-intervals-argument');
    assert.deepEqual(f.range, range(1, 11, 23));
    assert.equal(f.message, `@aggregation on 'Stats' has no intervals argument; add intervals: ["hour", "day"] or a part of it (graph-node rejects the schema)`);
    assert.deepEqual(
      run(text).findings.map((x) => x.code),
      ['aggregation-intervals-argument'],
    );
  });

  test('with no arguments at all: both findings, and the feature is still seen', () => {
    for (const directive of ['@aggregation', '@aggregation @aggregate(fn: "sum")']) {
      const text = `type Stats ${directive} { id: Int8! timestamp: Timestamp! }`;
      const info = analyzeSchema(text, 'schema.graphql');
      assert.deepEqual(
        info.findings.map((f) => [f.code, f.range]),
        [
          ['aggregation-source-argument', range(0, 11, 23)],
          ['aggregation-intervals-argument', range(0, 11, 23)],
        ],
      );
      assert.equal(text.slice(info.aggregation!.start, info.aggregation!.end), '@aggregation');
    }
  });

  test('a source that is no string marks the value (AggregationInvalidSource)', () => {
    const enumLike = only(`${SOURCE}type Stats @aggregation(intervals: ["day"], source: Data) ${FIELDS}`, 'aggregation-source-argument');
    assert.equal(enumLike.marked, 'Data');
    assert.deepEqual(enumLike.range, range(1, 52, 56));
    assert.equal(enumLike.message, `@aggregation source on 'Stats' must be a string naming a timeseries type; write source: "Data" (graph-node rejects the schema)`);
    const list = only(`${SOURCE}type Stats @aggregation(intervals: ["day"], source: ["Data"]) ${FIELDS}`, 'aggregation-source-argument');
    assert.equal(list.marked, '["Data"]');
    assert.equal(list.message, `@aggregation source on 'Stats' must be a string naming a timeseries type (graph-node rejects the schema)`);
  });

  test('intervals that are not a non-empty list of strings mark the value (AggregationWrongIntervals)', () => {
    for (const [value, marked] of [
      ['"hour"', '"hour"'],
      ['[]', '[]'],
      ['[hour]', 'hour'],
      ['["hour", 1]', '1'],
    ]) {
      const f = only(`${SOURCE}type Stats @aggregation(intervals: ${value}, source: "Data") ${FIELDS}`, 'aggregation-intervals-argument');
      assert.equal(f.marked, marked, value);
      assert.match(
        f.message,
        /^@aggregation intervals on 'Stats' must be (a non-empty list of strings, such as \["hour"\]|strings: write each interval in quotes, one of "hour", "day") \(graph-node rejects the schema\)$/,
      );
    }
  });

  test('an interval graph-node does not know marks that string (AggregationInvalidInterval)', () => {
    const text = `${SOURCE}type Stats @aggregation(intervals: ["hour", "week"], source: "Data") ${FIELDS}`;
    const f = only(text, 'aggregation-interval-unsupported');
    assert.equal(f.marked, '"week"');
    assert.deepEqual(f.range, range(1, 44, 50));
    assert.equal(f.message, `@aggregation interval 'week' on 'Stats' is not supported; use "hour" or "day" (graph-node rejects the schema)`);
  });

  test('source and intervals given: no finding', () => {
    assert.deepEqual(run(`${SOURCE}type Stats @aggregation(intervals: ["hour", "day"], source: "Data") ${FIELDS}`).findings, []);
    assert.deepEqual(run(`${SOURCE}type Stats @aggregation(source: "Data", intervals: ["day"]) ${FIELDS}`).findings, []);
  });
});

test('odd shapes around these rules never throw', () => {
  const odd = [
    'type A implements @entity { id: ID! }',
    `type A implements A ${E} { id: ID! }`,
    `type A implements ${'I & '.repeat(200)}I ${E} { id: ID! }`,
    `interface I implements J { id: ID! }\ntype A implements I ${E} { id: ID! }`,
    'type S @aggregation(source: null, intervals: null) { id: Int8! }',
    'type S @aggregation(source: "", intervals: [[], {a: 1}, null, ""]) { id: Int8! }',
    'type S @aggregation(source: "S", intervals: ["hour"]) @aggregation { id: Int8! }',
    'extend type S @aggregation { id: Int8! }',
    `type _Schema_ implements X @fulltext { id: ID! }`,
  ];
  for (const text of odd) {
    const { findings } = run(text);
    assert.ok(Array.isArray(findings), text);
  }
  // A duplicate @aggregation is read from the first one only.
  const dup = run(
    'type S @entity(timeseries: true) { id: Int8! timestamp: Timestamp! }\ntype T @aggregation(source: "S", intervals: ["hour"]) @aggregation { id: Int8! timestamp: Timestamp! }',
  );
  assert.deepEqual(
    dup.findings.filter((f) => NEW_CODES.has(f.code)),
    [],
  );
});

test('every finding of these rules is an error (graph-node rejects the schema), and the spelling fix replaces the name', () => {
  const SOURCE = 'type Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! price: BigDecimal! }\n';
  const texts = [
    `type B implements Missing ${E} { id: ID! }`,
    `interface Named { id: ID! }\ntype B implements Namd ${E} { id: ID! }`,
    `${SOURCE}type S @aggregation(source: "Data") { id: Int8! timestamp: Timestamp! }`,
    `${SOURCE}type S @aggregation(source: "Data", intervals: []) { id: Int8! timestamp: Timestamp! }`,
    `${SOURCE}type S @aggregation(source: "Data", intervals: [hour]) { id: Int8! timestamp: Timestamp! }`,
    `${SOURCE}type S @aggregation(source: "Data", intervals: ["week"]) { id: Int8! timestamp: Timestamp! }`,
  ];
  const found = texts.flatMap((text) => run(text).findings.filter((f) => NEW_CODES.has(f.code)));
  assert.deepEqual(
    found.map((f) => f.code),
    [
      'implements-not-interface',
      'implements-not-interface',
      'aggregation-intervals-argument',
      'aggregation-intervals-argument',
      'aggregation-intervals-argument',
      'aggregation-interval-unsupported',
    ],
  );
  assert.deepEqual(
    found.map((f) => f.severity),
    found.map(() => 'error'),
  );
  assert.equal(found[1].fix?.kind, 'replace');
});

test('an unknown field type named like a Solidity or common type gets the graph-node scalar, only for the whole name', () => {
  const hint = (type: string) => /did you mean '([^']+)'/.exec(run(`type T ${E} { id: ID! f: ${type} }`).findings.find((f) => f.code === 'unknown-field-type')?.message ?? '')?.[1];
  const cases: [string, string | undefined][] = [
    ['address', 'Bytes'],
    ['addresses', undefined],
    ['myaddress', undefined],
    ['bytes32', 'Bytes'],
    ['bytes', 'Bytes'],
    ['bytes32x', undefined],
    ['bytes1024', 'Bytes'],
    ['tokenbytes', undefined],
    ['uint8', 'Int'],
    ['int32', 'Int'],
    ['int64', 'Int8'],
    ['i64', 'Int8'],
    ['long', 'Int8'],
    ['longer', undefined],
    ['xlong', undefined],
    ['uint64', 'BigInt'],
    ['uint256', 'BigInt'],
    ['bool', 'Boolean'],
    ['boolx', undefined],
    ['xbool', undefined],
    ['float', 'BigDecimal'],
    ['floaty', undefined],
    ['xfloat', undefined],
    ['text', 'String'],
    ['textual', undefined],
    ['timestamp', 'Timestamp'],
    ['xdate', undefined],
    ['dated', undefined],
  ];
  assert.deepEqual(
    cases.map(([type]) => [type, hint(type)]),
    cases,
  );
});

test('every type graph-node adds to the API schema is a reserved name, the last of the list too', () => {
  for (const name of ['_Meta_', 'BlockChangedFilter', 'OrderDirection', 'Aggregation_interval', 'Aggregation_current']) {
    const f = run(`type ${name} ${E} { id: ID! }`).findings;
    assert.deepEqual(
      f.map((x) => x.message),
      [`Type name '${name}' is reserved: graph-node's generated API defines it; rename it`],
      name,
    );
  }
});

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
