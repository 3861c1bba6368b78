/**
 * A subgraph query endpoint on loopback that answers as graph-node does for one entity, Ping
 * (graphql-js over a graph-node-shaped schema: block, first/skip, orderBy, where with id_gt and
 * and, _meta), so every document a client sends is checked by a real GraphQL validator. A store
 * can instead answer with a fixed status and body (401, 429, an HTML page).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql } from 'graphql';

const SCHEMA = buildSchema(`
  input Block_height { number: Int hash: String }
  enum OrderDirection { asc desc }
  enum Ping_orderBy { id n }
  input Ping_filter { id_gt: String n: String and: [Ping_filter] }
  type Ping { id: String! n: String! version: String! }
  type _Block_ { number: Int! }
  type _Meta_ { block: _Block_! deployment: String! }
  type Query {
    pings(block: Block_height, first: Int = 100, skip: Int = 0, orderBy: Ping_orderBy, orderDirection: OrderDirection, where: Ping_filter): [Ping!]!
    ping(id: ID!, block: Block_height): Ping
    _meta(block: Block_height): _Meta_
  }
`);

export interface Store {
  head: number;
  pings: { id: string; n: string; version: string; block: number }[];
  /** Answers instead of GraphQL (a status, a body). */
  raw?: { status: number; body: string };
  documents: string[];
}

function matches(p: Store['pings'][number], where: Record<string, unknown> | undefined): boolean {
  if (!where) return true;
  if (Array.isArray(where.and) && !where.and.every((w) => matches(p, w as Record<string, unknown>))) return false;
  if (typeof where.id_gt === 'string' && !(p.id > where.id_gt)) return false;
  return where.n === undefined || p.n === where.n;
}

export async function startSubgraphEndpoint(store: Store, path = '/subgraphs/name/x'): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (store.raw) {
      res.writeHead(store.raw.status, { 'content-type': 'text/plain' });
      return res.end(store.raw.body);
    }
    const { query, variables } = JSON.parse(body) as { query: string; variables?: Record<string, unknown> };
    store.documents.push(query);
    const at = (block?: { number?: number }) => {
      const n = block?.number ?? store.head;
      if (n > store.head) throw new Error(`subgraph has only indexed up to block number ${store.head}`);
      return store.pings.filter((p) => p.block <= n);
    };
    const rootValue = {
      pings: (a: { block?: { number?: number }; first: number; skip: number; where?: Record<string, unknown> }) =>
        at(a.block)
          .filter((p) => matches(p, a.where))
          .sort((x, y) => (x.id < y.id ? -1 : 1))
          .slice(a.skip, a.skip + Math.min(a.first, 1000)),
      ping: (a: { id: string; block?: { number?: number } }) => at(a.block).find((p) => p.id === a.id) ?? null,
      _meta: () => ({ block: { number: store.head }, deployment: 'QmX' }),
    };
    const result = await graphql({ schema: SCHEMA, source: query, rootValue, variableValues: variables });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export const pings = (count: number, block = 1) => Array.from({ length: count }, (_, i) => ({ id: `0x${i.toString(16).padStart(5, '0')}-0`, n: String(i), version: 'v1', block }));
export const store = (head: number, list: Store['pings']): Store => ({ head, pings: list, documents: [] });
