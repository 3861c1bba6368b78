/**
 * schema.graphql rule by rule: the exact finding (code, severity, the text it marks, message, fix)
 * and what the manifest rules read from the schema (entities, their flags, feature offsets).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeSchema, graphqlTooDeepAt, MAX_SCHEMA_DEPTH, type SchemaInfo } from '../../../../../src/core/subgraph/schema/schema';
import { boundedDistance, brief, closest, didYouMean, LineIndex } from '../../../../../src/core/subgraph/text';

const E = '@entity(immutable: true)';

/** Each finding as `code severity [marked text] message`, a fix as `  fix: title: [replaced]@offset → text`. */
function findings(text: string, info: SchemaInfo = analyzeSchema(text, 'schema.graphql')): string[] {
  const at = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) => [info.lines.offset(r.start), info.lines.offset(r.end)];
  const out: string[] = [];
  for (const f of info.findings) {
    assert.equal(f.file, 'schema.graphql');
    const [s, e] = at(f.range);
    out.push(`${f.code} ${f.severity} [${text.slice(s, e)}] ${f.message}`);
    for (const edit of f.fix?.edits ?? []) {
      assert.equal(f.fix!.file, 'schema.graphql');
      const [es, ee] = at(edit.range);
      out.push(`  fix: ${f.fix!.title}: [${text.slice(es, ee)}]@${es} → ${edit.text}`);
    }
  }
  return out;
}

/** Entities with their flags and fields, and the marked text of each feature the manifest checks. */
function summary(text: string): string {
  const info = analyzeSchema(text, 'schema.graphql');
  const part = (r?: { start: number; end: number }) => (r ? text.slice(r.start, r.end) : '-');
  const entities = [...info.entities.values()].map((e) => {
    const fields = [...e.fields.values()].map((f) => `${f.name}:${f.type}${f.list ? '[]' : ''}`).join(' ');
    assert.equal(text.slice(e.nameStart, e.nameEnd), e.name);
    return `${e.name}${e.immutable ? ' immutable' : ''}${e.timeseries ? ' timeseries' : ''} (${fields})`;
  });
  return `${entities.join('; ')} | fulltext=${part(info.fulltext)} aggregation=${part(info.aggregation)} int8Id=${part(info.int8Id)}`;
}

describe('schema.graphql findings, exactly', () => {
  test('a type defined twice: the second name', () => {
    assert.deepEqual(findings(`type A ${E} { id: ID! }\ntype A ${E} { id: ID! }`), ["duplicate-type error [A] Type 'A' is defined more than once"]);
  });

  test('reserved names: built-in scalars, Query, the API schema, introspection, generated filter types', () => {
    assert.deepEqual(findings(`type Query ${E} { id: ID! }`), [
      "reserved-type-name error [Query] Type name 'Query' is reserved: graph-node generates the Query type of the subgraph's API; rename it",
    ]);
    assert.deepEqual(findings(`type Subscription ${E} { id: ID! }`), [
      "reserved-type-name error [Subscription] Type name 'Subscription' is reserved: graph-node generates the Subscription type of the subgraph's API; rename it",
    ]);
    assert.deepEqual(findings(`type BigInt ${E} { id: ID! }`), ["reserved-type-name error [BigInt] Type name 'BigInt' is reserved: BigInt is a built-in scalar of graph-node; rename it"]);
    assert.deepEqual(findings('enum Float { A }'), ["reserved-type-name error [Float] Type name 'Float' is reserved: Float is a built-in scalar of graph-node; rename it"]);
    assert.deepEqual(findings(`type _Meta_ ${E} { id: ID! }`), ["reserved-type-name error [_Meta_] Type name '_Meta_' is reserved: graph-node's generated API defines it; rename it"]);
    assert.deepEqual(findings(`type __X ${E} { id: ID! }`), [
      "reserved-type-name error [__X] Type name '__X' is reserved: names starting with __ belong to GraphQL introspection; rename it",
    ]);
    assert.deepEqual(findings(`type _X ${E} { id: ID! }`), []);
  });

  test('T_filter and T_orderBy: an error beside a type or interface T, a warning otherwise', () => {
    assert.deepEqual(findings(`type A ${E} { id: ID! }\ntype A_filter ${E} { id: ID! }`), [
      "reserved-type-name error [A_filter] Type name 'A_filter' is reserved: graph-node generates A_filter for type 'A'; rename it",
    ]);
    assert.deepEqual(findings(`interface I { id: ID! }\ntype I_orderBy ${E} { id: ID! }`), [
      "reserved-type-name error [I_orderBy] Type name 'I_orderBy' is reserved: graph-node generates I_orderBy for type 'I'; rename it",
    ]);
    assert.deepEqual(findings(`enum En { X }\ntype En_filter ${E} { id: ID! }`), [
      "reserved-type-name warning [En_filter] Type name 'En_filter' is reserved: graph-node generates <Type>_filter types, and would for a type 'En'; rename it",
    ]);
    assert.deepEqual(findings(`type B_orderBy ${E} { id: ID! }`), [
      "reserved-type-name warning [B_orderBy] Type name 'B_orderBy' is reserved: graph-node generates <Type>_orderBy types, and would for a type 'B'; rename it",
    ]);
    assert.deepEqual(findings(`type B_filters ${E} { id: ID! }\ntype B ${E} { id: ID! }`), []);
  });

  test('directive and schema definitions are not type names', () => {
    assert.deepEqual(findings(`directive @Query on OBJECT\ntype A ${E} { id: ID! }`), []);
    assert.deepEqual(findings(`schema { query: A }\ntype A ${E} { id: ID! }`), []);
  });

  test('_Schema_: only @import and @fulltext, no fields; @import brings its names and aliases', () => {
    const text = `type _Schema_ @foo @import(types: ["X", {name: "Y", as: "Z"}]) @import(types: "W")\ntype A ${E} { id: ID! x: X z: Z y: Y w: W }`;
    assert.deepEqual(findings(text), [
      'schema-type-directive error [@foo] _Schema_ only takes @import and @fulltext directives, not @foo',
      "unknown-field-type error [Y] Field 'y': unknown type 'Y'; did you mean 'A'?",
      `  fix: Change the type to A: [Y]@${text.indexOf('y: Y') + 3} → A`,
      "unknown-field-type error [W] Field 'w': unknown type 'W'; did you mean 'A'?",
      `  fix: Change the type to A: [W]@${text.indexOf('W }')} → A`,
    ]);
    assert.deepEqual(findings('type _Schema_ { a: Int }'), ['schema-type-fields error [_Schema_] _Schema_ must not have fields']);
    // Only `as` names a type here.
    assert.deepEqual(
      findings(`type _Schema_ @import(types: [{name: "Y", alias: "Z"}])\ntype A ${E} { id: ID! z: Z }`)[0],
      "unknown-field-type error [Z] Field 'z': unknown type 'Z'; did you mean 'A'?",
    );
  });

  test('@fulltext and @import on an entity', () => {
    assert.deepEqual(findings(`type A ${E} @fulltext(name: "s") @import { id: ID! }`), [
      `schema-type-directive error [@fulltext(name: "s")] @fulltext belongs on the _Schema_ type, not on 'A' (graph build fails)`,
      "schema-type-directive error [@import] @import belongs on the _Schema_ type, not on 'A' (graph build fails)",
    ]);
  });

  test('@fulltext on _Schema_ is the fulltext feature', () => {
    const text = `type _Schema_ @fulltext(name: "search", language: en, algorithm: rank, include: [{entity: "A", fields: [{name: "n"}]}])\ntype A ${E} { id: ID! n: String! }`;
    assert.deepEqual(findings(text), []);
    assert.match(summary(text), /fulltext=@fulltext\(name: "search"/);
  });

  test('no @entity: the fix adds it after the name or the last interface', () => {
    const text = `type A { id: ID! }\ninterface I { id: ID! }\ninterface J { id: ID! }\ntype B implements I & J { id: ID! }`;
    assert.deepEqual(findings(text), [
      "missing-entity-directive error [A] Type 'A' is defined without @entity or @aggregation",
      '  fix: Add @entity(immutable: true) to A: []@6 →  @entity(immutable: true)',
      "missing-entity-directive error [B] Type 'B' is defined without @entity or @aggregation",
      `  fix: Add @entity(immutable: true) to B: []@${text.lastIndexOf('J {') + 1} →  @entity(immutable: true)`,
    ]);
    assert.equal(summary(text), ' | fulltext=- aggregation=- int8Id=-');
  });

  test('@entity arguments: booleans only; immutable required unless timeseries', () => {
    assert.deepEqual(findings('type A @entity(immutable: 1, timeseries: "x") { id: ID! }'), [
      'entity-argument-not-boolean error [1] @entity(immutable:) takes true or false',
      'entity-argument-not-boolean error ["x"] @entity(timeseries:) takes true or false',
    ]);
    const text = 'type A @entity { id: ID! }\ntype B @entity(timeseries: true) { id: Int8! timestamp: Timestamp! }\ntype C @entity(immutable: false) { id: ID! }';
    assert.deepEqual(findings(text), [
      "entity-immutable-missing error [@entity] @entity on 'A' needs an immutable argument: @entity(immutable: true) for records never updated, false otherwise",
      '  fix: Write @entity(immutable: true): [@entity]@7 → @entity(immutable: true)',
    ]);
    assert.equal(summary(text), 'A (id:ID); B timeseries (id:Int8 timestamp:Timestamp); C (id:ID) | fulltext=- aggregation=- int8Id=Int8!');
    assert.equal(summary('type A @entity(immutable: 1, timeseries: "x") { id: ID! }'), 'A (id:ID) | fulltext=- aggregation=- int8Id=-');
    assert.equal(summary('type A @entity(immutable: true, timeseries: false) { id: ID! }'), 'A immutable (id:ID) | fulltext=- aggregation=- int8Id=-');
  });

  test('@aggregation: its source must be a type; the first one is the feature; it is no entity', () => {
    const text = `type S @entity(timeseries: true, immutable: true) { id: Int8! timestamp: Timestamp! }\ntype G @aggregation(intervals: ["hour"], source: "Nope") { id: Int8! }\ntype H @aggregation(intervals: ["hour"], source: "S") { id: Int8! }`;
    assert.deepEqual(findings(text), [`aggregation-source-missing error ["Nope"] @aggregation source 'Nope' is not a type of this schema`]);
    assert.equal(summary(text), 'S immutable timeseries (id:Int8 timestamp:Timestamp) | fulltext=- aggregation=@aggregation(intervals: ["hour"], source: "Nope") int8Id=Int8!');
    assert.deepEqual(findings('type G @aggregation(intervals: ["hour"], source: S) { id: Int8! }'), [
      `aggregation-source-argument error [S] @aggregation source on 'G' must be a string naming a timeseries type; write source: "S" (graph-node rejects the schema)`,
    ]);
  });

  test('ids: present, non-null, one of four scalars; the first Int8 id is the feature', () => {
    const text = `type A ${E} { name: String }\ntype B ${E} { id: Int! }\ntype C ${E} { id: ID }\ntype D ${E} { id: [ID!]! }\ntype F ${E} { id: Int8! }\ntype G ${E} { id: Bytes! }\ntype H ${E} { id: String! }\ntype K ${E} { id: Int8! }`;
    const idType = "Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)";
    assert.deepEqual(findings(text), [
      "entity-missing-id error [A] Type 'A' has no id field (add id: Bytes!, or ID!, String!, Int8!)",
      `entity-id-type error [Int!] ${idType}`,
      `entity-id-type error [ID] ${idType}`,
      `entity-id-type error [[ID!]!] ${idType}`,
    ]);
    const info = analyzeSchema(text, 'schema.graphql');
    assert.equal(info.int8Id?.start, text.indexOf('Int8!'));
  });

  test('unknown field types: a hint from case, Solidity spellings or a near name; the fix renames the inner type', () => {
    const names = [
      'address',
      'bytes32',
      'uint8',
      'int24',
      'int160',
      'uint',
      'bool',
      'double',
      'text',
      'datetime',
      'i64',
      'string',
      'Strin',
      'myaddress',
      'xint16',
      'Int16x',
      'boolx',
      'xtext',
    ];
    const text = `type A ${E} { id: ID! ${names.map((n, i) => `f${i}: ${n}`).join(' ')} list: [address!]! }`;
    const hint: Record<string, string | undefined> = {
      address: 'Bytes',
      bytes32: 'Bytes',
      uint8: 'Int',
      int24: 'Int',
      int160: 'BigInt',
      uint: 'BigInt',
      bool: 'Boolean',
      double: 'BigDecimal',
      text: 'String',
      datetime: 'Timestamp',
      i64: 'Int8',
      string: 'String',
      Strin: 'String',
    };
    const expected = names.flatMap((n, i) => {
      const h = hint[n];
      const line = `unknown-field-type error [${n}] Field 'f${i}': unknown type '${n}'${h ? `; did you mean '${h}'?` : ''}`;
      return h ? [line, `  fix: Change the type to ${h}: [${n}]@${text.indexOf(`f${i}: ${n}`) + `f${i}: `.length} → ${h}`] : [line];
    });
    expected.push(
      "unknown-field-type error [[address!]!] Field 'list': unknown type 'address'; did you mean 'Bytes'?",
      `  fix: Change the type to Bytes: [address]@${text.indexOf('[address') + 1} → Bytes`,
    );
    assert.deepEqual(findings(text), expected);
  });

  test('a name differing only in case is suggested before a Solidity spelling', () => {
    const text = `type Address ${E} { id: ID! }\ntype A ${E} { id: ID! owner: address! }`;
    assert.deepEqual(findings(text), [
      "unknown-field-type error [address!] Field 'owner': unknown type 'address'; did you mean 'Address'?",
      `  fix: Change the type to Address: [address]@${text.indexOf('address!')} → Address`,
    ]);
  });

  test('field arguments', () => {
    assert.deepEqual(findings(`type A ${E} { id: ID! name(first: Int): String }`), ["field-arguments error [name(first: Int): String] Field 'name': field arguments are not supported"]);
  });

  test('lists with null elements: always for [X], for [X]! only on a stored non-primitive field', () => {
    const text = `type A ${E} { id: ID! a: [String] b: [String]! c: [Int]! c2: [Boolean]! c3: [Int8]! c4: [Timestamp]! d: [A]! @derivedFrom(field: "id") e: [String!] f: [[String!]!]! }\ninterface I { id: ID! g: [String]! h: [String] }`;
    assert.deepEqual(findings(text), [
      "nullable-list-element error [[String]] Field 'a': lists with null elements are not supported; write [String!]",
      "nullable-list-element error [[String]!] Field 'b': lists with null elements are not supported; write [String!]",
      "derived-from-wrong-type error [\"id\"] Field 'd': @derivedFrom field 'id' on type 'A' has type 'ID' but must point back at 'A' (graph build fails)",
      "nullable-list-element error [[String]] Field 'h': lists with null elements are not supported; write [String!]",
    ]);
    assert.deepEqual(findings(`type A ${E} { id: ID! b: [BigInt]! }`), ["nullable-list-element error [[BigInt]!] Field 'b': lists with null elements are not supported; write [BigInt!]"]);
    assert.match(summary(text), /^A immutable \(id:ID a:String\[\] b:String\[\] c:Int\[\] c2:Boolean\[\] c3:Int8\[\] c4:Timestamp\[\] d:A\[\] e:String\[\] f:String\[\]\)/);
  });

  test('@derivedFrom: its argument, its target type and the field it names', () => {
    const text = `type A ${E} { id: ID! a: [B!]! @derivedFrom b: [B!]! @derivedFrom(field: 1) c: [B!]! @derivedFrom(field: "owner", x: 1) d: [String!]! @derivedFrom(field: "a") e: [B!]! @derivedFrom(field: "ownr") f: [B!]! @derivedFrom(field: "zzzzzzz") g: [B!]! @derivedFrom(field: "owner") h: [Nope!]! @derivedFrom(field: "a") }\ntype B ${E} { id: ID! owner: A! }`;
    assert.deepEqual(findings(text), [
      `derived-from-argument error [@derivedFrom] Field 'a': @derivedFrom needs a field: "name" argument`,
      `derived-from-argument error [@derivedFrom(field: 1)] Field 'b': @derivedFrom needs a field: "name" argument`,
      `derived-from-argument error [@derivedFrom(field: "owner", x: 1)] Field 'c': @derivedFrom takes only the field argument (graph build fails otherwise)`,
      "derived-from-type error [[String!]!] Field 'd': a @derivedFrom field's type must be an entity or interface, not 'String' (graph-node rejects the schema)",
      `derived-from-missing-field error ["ownr"] Field 'e': @derivedFrom field 'ownr' does not exist on type 'B'; did you mean 'owner'?`,
      `  fix: Derive from 'owner': ["ownr"]@${text.indexOf('"ownr"')} → "owner"`,
      "derived-from-missing-field error [\"zzzzzzz\"] Field 'f': @derivedFrom field 'zzzzzzz' does not exist on type 'B'",
      "unknown-field-type error [[Nope!]!] Field 'h': unknown type 'Nope'",
    ]);
  });

  test('@derivedFrom back references: the wrong type, an interface missing the field, a type without @entity', () => {
    assert.deepEqual(findings(`type A ${E} { id: ID! xs: [B!]! @derivedFrom(field: "other") }\ntype C ${E} { id: ID! }\ntype B ${E} { id: ID! other: C! }`), [
      `derived-from-wrong-type error ["other"] Field 'xs': @derivedFrom field 'other' on type 'B' has type 'C' but must point back at 'A' (graph build fails)`,
    ]);
    assert.deepEqual(
      findings(
        `interface I { id: ID! }\ninterface J { id: ID! }\ntype A implements I & J ${E} { id: ID! xs: [B!]! @derivedFrom(field: "other") }\ntype C ${E} { id: ID! }\ntype B ${E} { id: ID! other: C! }`,
      ),
      [
        `derived-from-wrong-type error ["other"] Field 'xs': @derivedFrom field 'other' on type 'B' has type 'C' but must point back at 'A' or an interface it implements (I, J) (graph build fails)`,
      ],
    );
    assert.deepEqual(findings(`interface I { id: ID! }\ntype A implements I ${E} { id: ID! xs: [B!]! @derivedFrom(field: "other") }\ntype B ${E} { id: ID! other: I! }`), [
      `derived-from-wrong-type error ["other"] Field 'xs': @derivedFrom field 'other' on type 'B' points at interface 'I', which does not declare 'xs' (graph-node rejects the schema)`,
    ]);
    assert.deepEqual(
      findings(
        `interface I { id: ID! xs: [B!]! @derivedFrom(field: "other") }\ntype A implements I ${E} { id: ID! xs: [B!]! @derivedFrom(field: "other") }\ntype B ${E} { id: ID! other: I! }`,
      ),
      [],
    );
    assert.deepEqual(findings(`type A @aggregation(intervals: ["hour"], source: "A") { id: Int8! xs: [B!]! @derivedFrom(field: "owner") }\ntype B ${E} { id: ID! owner: A! }`), [
      `derived-from-wrong-type error ["owner"] Field 'xs': @derivedFrom fields are only allowed on @entity types, and 'A' is not one (graph build fails)`,
    ]);
    assert.deepEqual(findings(`type A ${E} { id: ID! xs: [B!]! @derivedFrom(field: "owner") }\ntype B ${E} { id: ID! owner: A! }`), []);
    assert.deepEqual(findings(`type A ${E} { id: ID! xs: [I!]! @derivedFrom(field: "owner") }\ninterface I { id: ID! owner: A! }`), []);
  });

  test('a syntax error marks the word where graphql stopped, or one character, or nothing at the end', () => {
    assert.deepEqual(findings('type A { id: }\ntype B'), ['graphql-syntax error [}] Syntax Error: Expected Name, found "}".']);
    assert.deepEqual(findings('type A { id ID_2! }'), ['graphql-syntax error [ID_2] Syntax Error: Expected ":", found Name "ID_2".']);
    assert.deepEqual(findings('type A {'), ['graphql-syntax error [] Syntax Error: Expected Name, found <EOF>.']);
    const info = analyzeSchema('type A {', 'schema.graphql');
    assert.equal(info.parsed, false);
    assert.equal(analyzeSchema(`type A ${E} { id: ID! }`, 'schema.graphql').parsed, true);
  });

  test('a file that is not a schema (the error at its first token): named as such, its first token never quoted', () => {
    const notSchema = (token: string) => [`graphql-syntax error [${token}] the file is not a GraphQL schema (it does not start with a definition)`];
    assert.deepEqual(findings('ghp_TOKENSECRET1234567890\n'), notSchema('ghp_TOKENSECRET1234567890'));
    assert.deepEqual(findings('root:x:0:0:root:/root:/bin/bash\n'), notSchema('root'));
    // JSON: `{` may start a query, so graphql stops at the key; still no schema.
    assert.deepEqual(findings('{"token": "secret"}'), notSchema('{'));
    assert.deepEqual(findings('\u0001secret'), notSchema('\u0001'));
    assert.deepEqual(findings('# only a comment\n'), ['graphql-syntax error [] the file is not a GraphQL schema (it holds no definition)']);
    // A schema that starts with a description keeps graphql's message for a typo further on.
    assert.deepEqual(findings(`"An account" type A ${E} { id ID! }`), ['graphql-syntax error [ID] Syntax Error: Expected ":", found Name "ID".']);
  });

  test('nesting past the bound: one finding at the bracket, nothing parsed', () => {
    // The type's braces are the first level.
    const text = `type A ${E} { id: ID! f: ${'['.repeat(MAX_SCHEMA_DEPTH - 1)}Int${']'.repeat(MAX_SCHEMA_DEPTH - 1)} }`;
    const deeper = text.replace('[Int', '[[Int').replace('] }', ']] }');
    const info = analyzeSchema(deeper, 'schema.graphql');
    assert.equal(info.parsed, false);
    assert.deepEqual(findings(deeper, info), [
      `graphql-too-deep error [[] The schema nests brackets more than ${MAX_SCHEMA_DEPTH} levels deep here (real schemas need three or four); it is not read further`,
    ]);
    assert.equal(info.lines.offset(info.findings[0].range.start), deeper.indexOf('[') + MAX_SCHEMA_DEPTH - 1);
    assert.ok(analyzeSchema(text, 'schema.graphql').parsed);
    assert.ok(!findings(text).some((f) => f.startsWith('graphql-too-deep')));
  });
});

describe('@fulltext on _Schema_, exactly (graph-cli validateFulltext, graph-node validate_fulltext_directives)', () => {
  const entities = `\ntype Post ${E} { id: ID! title: String! score: BigInt! post_title: String old__name: String Summary: String postBody: String }\ntype Author ${E} { id: ID! title: String! }`;
  const inc = 'include: [{entity: "Post", fields: [{name: "title"}]}]';
  const schema = (directives: string) => findings(`type _Schema_ ${directives}${entities}`);
  const LANGUAGES = 'simple, da, nl, en, fi, fr, de, hu, it, no, pt, ro, ru, es, sv, tr';
  const INCLUDE_ITEM = '{entity: "Name", fields: [{name: "field"}]}';
  const withInclude = (include: string) => schema(`@fulltext(name: "s", language: en, algorithm: rank, include: ${include})`);

  test('a missing name, language, algorithm or include marks the directive name and lists the choices', () => {
    assert.deepEqual(schema(`@fulltext(language: en, algorithm: rank, ${inc})`), ['fulltext-argument error [fulltext] @fulltext needs a name argument: the query field it creates']);
    assert.deepEqual(schema(`@fulltext(name: "s", algorithm: rank, ${inc})`), [`fulltext-argument error [fulltext] @fulltext needs a language argument: one of ${LANGUAGES}`]);
    assert.deepEqual(schema(`@fulltext(name: "s", language: en, ${inc})`), ['fulltext-argument error [fulltext] @fulltext needs an algorithm argument: one of rank, proximityRank']);
    assert.deepEqual(schema('@fulltext(name: "s", language: en, algorithm: rank)'), [`fulltext-argument error [fulltext] @fulltext needs an include argument: include: [${INCLUDE_ITEM}]`]);
  });

  test('an unknown argument, and a name that is no string', () => {
    assert.deepEqual(schema(`@fulltext(name: postSearch, language: en, algorithm: rank, ${inc}, weight: 2)`), [
      "fulltext-argument error [weight] @fulltext takes only name, language, algorithm and include, not 'weight'",
      'fulltext-argument error [postSearch] @fulltext name must be a string in double quotes',
    ]);
  });

  test('language and algorithm: unquoted, one of the list; a hint for a quoted or near value, none otherwise', () => {
    assert.deepEqual(schema(`@fulltext(name: "s", language: english, algorithm: fast, ${inc})`), [
      `fulltext-language error [english] @fulltext language must be one of ${LANGUAGES} (unquoted)`,
      'fulltext-algorithm error [fast] @fulltext algorithm must be one of rank, proximityRank (unquoted)',
    ]);
    assert.deepEqual(schema(`@fulltext(name: "s", language: "en", algorithm: "rankk", ${inc})`), [
      `fulltext-language error ["en"] @fulltext language must be one of ${LANGUAGES} (unquoted); write it without quotes: en`,
      'fulltext-algorithm error ["rankk"] @fulltext algorithm must be one of rank, proximityRank (unquoted); did you mean rank?',
    ]);
    assert.deepEqual(schema(`@fulltext(name: "s", language: fe, algorithm: proximityrank, ${inc})`), [
      `fulltext-language error [fe] @fulltext language must be one of ${LANGUAGES} (unquoted); did you mean fi?`,
      'fulltext-algorithm error [proximityrank] @fulltext algorithm must be one of rank, proximityRank (unquoted); did you mean proximityRank?',
    ]);
    // Neither a string nor a name: no word to suggest from.
    assert.deepEqual(schema(`@fulltext(name: "s", language: true, algorithm: 1, ${inc})`), [
      `fulltext-language error [true] @fulltext language must be one of ${LANGUAGES} (unquoted)`,
      'fulltext-algorithm error [1] @fulltext algorithm must be one of rank, proximityRank (unquoted)',
    ]);
    assert.deepEqual(schema(`@fulltext(name: "s", language: zzzzzz, algorithm: rank, ${inc})`), [
      `fulltext-language error [zzzzzz] @fulltext language must be one of ${LANGUAGES} (unquoted)`,
    ]);
  });

  test('names: unique, and none of the query fields of entity fields (as written, camel case, plural); the first field taking a query name is named', () => {
    const twice = `@fulltext(name: "title", language: en, algorithm: rank, ${inc})`;
    assert.deepEqual(schema(`${twice} ${twice}`), [
      'fulltext-name error ["title"] @fulltext name \'title\' collides with the query field of Post.title (graph-node rejects the schema)',
      'fulltext-name error ["title"] Another @fulltext is named \'title\'; each needs its own name (graph-node rejects the schema)',
    ]);
    const named = (name: string) => schema(`@fulltext(name: "${name}", language: en, algorithm: rank, ${inc})`);
    assert.deepEqual(named('postTitle'), ['fulltext-name error ["postTitle"] @fulltext name \'postTitle\' collides with the query field of Post.post_title (graph-node rejects the schema)']);
    assert.deepEqual(named('oldName'), ['fulltext-name error ["oldName"] @fulltext name \'oldName\' collides with the query field of Post.old__name (graph-node rejects the schema)']);
    assert.deepEqual(named('summary'), ['fulltext-name error ["summary"] @fulltext name \'summary\' collides with the query field of Post.Summary (graph-node rejects the schema)']);
    assert.deepEqual(named('scores'), ['fulltext-name error ["scores"] @fulltext name \'scores\' collides with the query field of Post.score (graph-node rejects the schema)']);
    // Only a leading capital is lowered; a name ending in s, x, z, ch, sh or y gets no plural.
    assert.deepEqual(named('posttitle'), []);
    assert.deepEqual(named('postbody'), []);
    assert.deepEqual(schema(`@fulltext(name: "summarys", language: en, algorithm: rank, ${inc})`), []);
  });

  test('include: a non-empty list of {entity, fields}, in either order', () => {
    assert.deepEqual(withInclude('"Post"'), [`fulltext-include error ["Post"] @fulltext include must be a non-empty list: include: [${INCLUDE_ITEM}]`]);
    assert.deepEqual(withInclude('["Post"]'), [`fulltext-include error ["Post"] @fulltext include items must have the form ${INCLUDE_ITEM}`]);
    assert.deepEqual(withInclude('[{fields: [{name: "title"}], entity: "Post"}]'), []);
    const exactly = (item: string) => `fulltext-include error [${item}] @fulltext include items take exactly entity (a string) and fields (a list): ${INCLUDE_ITEM}`;
    for (const item of [
      '{entity: Post, fields: [{name: "title"}]}',
      '{fields: [{name: "title"}], fields: [{name: "title"}]}',
      '{entity: "Post", entity: "Post"}',
      '{entity: "Post", fields: {name: "title"}}',
    ]) {
      assert.deepEqual(withInclude(`[${item}]`), [exactly(item)], item);
    }
  });

  test('include: the entity and each field must exist, fields of the form {name: "field"}, String or ID', () => {
    assert.deepEqual(
      withInclude(
        '[{entity: "Zzzzzz", fields: [{name: "title"}]}, {entity: "Post", fields: ["title", {name: "title", x: 1}, {nam: "title"}, {name: title}, {name: "zzzzzz"}, {name: "score"}, {name: "id"}]}]',
      ),
      [
        'fulltext-entity error ["Zzzzzz"] @fulltext includes \'Zzzzzz\', which is not an @entity type of the schema (graph-node rejects the schema)',
        'fulltext-include error ["title"] @fulltext fields items must have the form {name: "field"}',
        'fulltext-include error [{name: "title", x: 1}] @fulltext fields items must have the form {name: "field"}',
        'fulltext-include error [{nam: "title"}] @fulltext fields items must have the form {name: "field"}',
        'fulltext-include error [{name: title}] @fulltext fields items must have the form {name: "field"}',
        "fulltext-field error [\"zzzzzz\"] @fulltext field 'zzzzzz' does not exist on 'Post' (graph-node rejects the schema)",
        "fulltext-field error [\"score\"] @fulltext field 'score' of 'Post' is BigInt; only String fields can be searched (graph-node rejects the schema)",
      ],
    );
  });
});

describe('graphqlTooDeepAt: brackets counted outside strings and comments', () => {
  const cases: [string, number][] = [
    ['[[[', 2],
    ['({[', 2],
    ['[[][', -1],
    ['[[)][[', -1],
    ['# [[[\n[[[', 8],
    ['# [[[', -1],
    ['"[[[" [[[', 8],
    ['"\\"[[[" [[[', 10],
    ['"[[\n[[[', 6],
    ['"""[[[""" [[[', 12],
    ['"""a"b[[["""[[[', 14],
    ['"""[[[', -1],
    ['"[[[', -1],
    // graphql's lexer ends a comment at \r too, and reads \""" inside a block string as text.
    ['# x\r[[[', 6],
    ['# x\r\n[[[', 7],
    ['"""a\\"""b"""[[[', 14],
    ['"""a\\\\"""b"""[[[', 15],
    ['"""\\"""[[[', -1],
  ];
  for (const [text, at] of cases) {
    test(JSON.stringify(text), () => assert.equal(graphqlTooDeepAt(text, 2), at));
  }
});

describe('text helpers', () => {
  test('LineIndex: positions on every line, the text end, empty text', () => {
    const lines = new LineIndex('ab\n\ncd');
    assert.deepEqual(
      [0, 2, 3, 4, 6].map((o) => lines.position(o)),
      [
        { line: 0, character: 0 },
        { line: 0, character: 2 },
        { line: 1, character: 0 },
        { line: 2, character: 0 },
        { line: 2, character: 2 },
      ],
    );
    assert.deepEqual(lines.position(-5), { line: 0, character: 0 });
    assert.equal(lines.offset({ line: 9, character: 1 }), 5);
    assert.equal(lines.offset({ line: 1, character: 5 }), 3);
    assert.equal(lines.offset({ line: 0, character: -3 }), 0);
    assert.deepEqual(lines.end(), { start: { line: 2, character: 2 }, end: { line: 2, character: 2 } });
    assert.deepEqual(lines.range(4, 1), { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } });
    assert.deepEqual(new LineIndex('').end(), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });

  test('closest: up to a third of the length in edits (1 to 3), case ignored, the nearest wins', () => {
    assert.equal(closest('Strng', ['String', 'Bytes']), 'String');
    assert.equal(closest('ab', ['ac']), 'ac');
    assert.equal(closest('ab', ['cd']), undefined);
    assert.equal(closest('abcdef', ['abcxyz']), undefined);
    assert.equal(closest('abcdef', ['abcdxy']), 'abcdxy');
    assert.equal(closest('abcdefghijklmnop', ['abcdefghijklmXYZ']), 'abcdefghijklmXYZ');
    assert.equal(closest('abcdefghijklmnop', ['abcdefghijklWXYZ']), undefined);
    assert.equal(closest('abcdefghi', ['abcdefghiXYZ']), 'abcdefghiXYZ');
    assert.equal(closest('abcdefghi', ['abcdefghiWXYZ']), undefined);
    assert.equal(closest('string', ['Strinx', 'STRING', 'Stri']), 'STRING');
    assert.equal(closest('abcdef', ['abcdxx', 'abcdex']), 'abcdex');
    assert.equal(closest('same', ['same']), undefined);
    assert.equal(closest('x'.repeat(201), ['x'.repeat(201).replace(/x$/, 'y')]), undefined);
    assert.equal(closest('x'.repeat(200), ['x'.repeat(199) + 'y']), 'x'.repeat(199) + 'y');
  });

  test('closest: bounded work per word, so a suggestion past the bounds is missed', () => {
    const far = Array.from({ length: 1999 }, (_, i) => `zz${i}`.padEnd(12, 'q'));
    assert.equal(closest('abcdefgh', [...far, 'abcdefgx']), 'abcdefgx');
    assert.equal(closest('abcdefgh', [...far, 'zz', 'abcdefgx']), undefined);
    const compared = Array.from({ length: 499 }, (_, i) => `y${String(i).padStart(7, '0')}`);
    assert.equal(closest('abcdefgh', [...compared, 'abcdefgx']), 'abcdefgx');
    assert.equal(closest('abcdefgh', [...compared, 'y9999999', 'abcdefgx']), undefined);
  });

  test('boundedDistance: exact up to the bound, bound + 1 beyond', () => {
    assert.equal(boundedDistance('kitten', 'sitting', 3), 3);
    assert.equal(boundedDistance('kitten', 'sitting', 2), 3);
    assert.equal(boundedDistance('abc', 'abc', 0), 0);
    assert.equal(boundedDistance('abc', 'abd', 0), 1);
    assert.equal(boundedDistance('', 'abc', 3), 3);
    assert.equal(boundedDistance('abc', '', 3), 3);
    assert.equal(boundedDistance('abcdef', 'a', 2), 3);
    assert.equal(boundedDistance('abcdefgh', 'hgfedcba', 8), 8);
    assert.equal(boundedDistance('abcdefgh', 'bcdefgha', 2), 2);
    assert.equal(boundedDistance('xbcdefgh', 'abcdefgh', 1), 1);
    assert.equal(boundedDistance('abcdefgx', 'abcdefgh', 1), 1);
    assert.equal(boundedDistance('xxxdefgh', 'abcdefgh', 2), 3);
    assert.equal(boundedDistance('abcd', 'abdc', 2), 2);
  });

  test('didYouMean and brief', () => {
    assert.equal(didYouMean('Strng', ['String']), "; did you mean 'String'?");
    assert.equal(didYouMean('zzzz', ['String']), '');
    assert.equal(brief('  a \n\t b  '), 'a b');
    assert.equal(brief('abcdef', 6), 'abcdef');
    assert.equal(brief('abcdefg', 6), 'abcde…');
    assert.equal(brief('x'.repeat(61)), `${'x'.repeat(59)}…`);
    assert.equal(brief('x'.repeat(60)), 'x'.repeat(60));
  });
});

describe('odd directives, definitions that are not types, unclosed block strings', () => {
  /**
   * schema.graphql at the edges the main schema tests leave out: odd or partial directives
   * (@import, @aggregation, @aggregate), definitions that are not types, @fulltext and @derivedFrom
   * pointing at types that are no entities, and unclosed block strings in the depth guard. The
   * validator must report these, or accept them, and never throw.
   */
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
      assert.deepEqual(marks(`type _Schema_ @imports(types: ["Bar"])\ntype Foo ${E} { id: ID! ref: Bar! }`), [
        'schema-type-directive [@imports(types: ["Bar"])]',
        'unknown-field-type [Bar!]',
      ]);
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
});
