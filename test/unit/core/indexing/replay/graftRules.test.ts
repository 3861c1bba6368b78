import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graftProblems } from '../../../../../src/core/indexing/replay/graftRules';
import { changeOf, planReplay, rebuildFilesOf } from '../../../../../src/core/indexing/replay/replay';

const BASE = `
enum Kind { A B }
type Token @entity { id: Bytes! owner: Account! kind: Kind! note: String tags: [String!]! holders: [Account!]! @derivedFrom(field: "token") }
type Account @entity(immutable: true) { id: ID! token: Token }
`;

test('the same schema, a new type, a new nullable field and a dropped type all graft', () => {
  assert.deepEqual(graftProblems(BASE, BASE), []);
  assert.deepEqual(graftProblems(BASE, `${BASE}\ntype Extra @entity { id: ID! n: Int! }`), []);
  assert.deepEqual(graftProblems(BASE, BASE.replace('note: String', 'note: String memo: BigInt')), []);
  assert.deepEqual(graftProblems(BASE, BASE.replace(/type Account[^}]*}/, 'type Account @entity(immutable: true) { id: ID! }').replace('owner: Account!', 'owner: String!')), []);
  // A derived field has no column: dropping or adding one does not matter.
  assert.deepEqual(graftProblems(BASE, BASE.replace('holders: [Account!]! @derivedFrom(field: "token")', '')), []);
});

test('graph-node refuses: a new non-nullable field, a type change, a list change, a nullable field made non-nullable, immutability changed', () => {
  assert.deepEqual(graftProblems(BASE, BASE.replace('note: String', 'note: String memo: BigInt!')), ['Token.memo is non-nullable, but the base has no such field']);
  assert.deepEqual(graftProblems(BASE, BASE.replace('note: String', 'note: Int')), ['Token.note is Int now, and String in the base']);
  assert.deepEqual(graftProblems(BASE, BASE.replace('tags: [String!]!', 'tags: String!')), ['Token.tags is String now, and [String] in the base']);
  assert.deepEqual(graftProblems(BASE, BASE.replace('note: String', 'note: String!')), ['Token.note is non-nullable now, and nullable in the base']);
  assert.deepEqual(graftProblems(BASE, BASE.replace('@entity(immutable: true)', '@entity')), ['Account is not immutable now, and was immutable in the base']);
  // A reference is stored as the referenced entity's id: pointing at an entity with another id type changes the column.
  assert.deepEqual(graftProblems(BASE, BASE.replace('token: Token', 'token: Account')), ['Account.token is String now, and Bytes in the base']);
});

test('the plan grafts at N−1 when allowed, else starts at N, always under the debug name', () => {
  const input = { projectDir: '/p', manifest: '/p/subgraph.yaml', block: 7, name: 'me/sub', schema: BASE };
  const base = { deployment: 'QmBase', schema: BASE, queryUrl: 'http://127.0.0.1:1/subgraphs/id/QmBase' };
  const graft = planReplay({ ...input, base });
  assert.deepEqual(graft.start, { kind: 'graft', base: 'QmBase', block: 6 });
  assert.equal(graft.name, 'me/sub-debug');
  assert.equal(planReplay({ ...input, name: 'me/sub-debug', base }).name, 'me/sub-debug');
  const refused = planReplay({ ...input, base, schema: BASE.replace('note: String', 'note: Int') });
  assert.deepEqual(refused.start, { kind: 'startBlock', block: 7 });
  assert.match(refused.reason, /cannot graft \(Token\.note is Int now/);
  assert.deepEqual(planReplay(input).start, { kind: 'startBlock', block: 7 });
  assert.deepEqual(planReplay({ ...input, base, schema: 'type {' }).start, { kind: 'startBlock', block: 7 });
});

test('a save of a mapping compiles it alone; the manifest, its schema or an ABI rebuild all; other files do nothing', () => {
  const manifest = `schema:\n  file: ./schema.graphql\ndataSources:\n  - mapping:\n      abis:\n        - name: T\n          file: "./abis/Token.json" # the token\n      file: ./src/mapping.ts\n`;
  const rebuild = rebuildFilesOf('/p/subgraph.yaml', manifest);
  assert.deepEqual([...rebuild].sort(), ['/p/abis/Token.json', '/p/schema.graphql', '/p/subgraph.yaml']);
  assert.equal(changeOf('/p', '/p/src/mapping.ts', rebuild), 'mapping');
  assert.equal(changeOf('/p', '/p/schema.graphql', rebuild), 'all');
  assert.equal(changeOf('/p', '/p/subgraph.yaml', rebuild), 'all');
  assert.equal(changeOf('/p', '/p/abis/Token.json', rebuild), 'all');
  assert.equal(changeOf('/p', '/p/transfers.graphql', rebuild), undefined);
  assert.equal(changeOf('/p', '/p/build/subgraph.yaml', rebuild), undefined);
  assert.equal(changeOf('/p', '/p/generated/schema.ts', rebuild), undefined);
  assert.equal(changeOf('/p', '/p/tests/token.test.ts', rebuild), undefined);
  assert.equal(changeOf('/p', '/q/src/mapping.ts', rebuild), undefined);
});
