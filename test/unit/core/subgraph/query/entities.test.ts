import { parse } from 'graphql';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entityModel } from '../../../../../src/core/subgraph/query/entities';

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
