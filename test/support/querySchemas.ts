/** Subgraph schemas the GraphQL query tests build their entity models and query schemas from. */
import { readFileSync } from 'node:fs';
import { repoPath } from './paths';

/** The tutorial subgraph's schema (one entity). */
export const TUTORIAL_SCHEMA = readFileSync(repoPath('test/fixtures/subgraphs/tutorial/schema.graphql'), 'utf8');

/** Entities, an interface, an enum, references both ways, @derivedFrom, an immutable entity and Int8. */
export const RICH_SCHEMA = `
enum Kind { MINT BURN }
interface Event { id: ID! block: BigInt! }
type Token @entity { id: Bytes! symbol: String! decimals: Int! holders: [Account!]! transfers: [Transfer!]! @derivedFrom(field: "token") }
type Account @entity { id: Bytes! balances: [BigDecimal!]! }
type Transfer implements Event @entity(immutable: true) { id: ID! block: BigInt! token: Token! kind: Kind! amount: BigDecimal! }
type Stats @entity { id: ID! count: Int8! }
`;
