/**
 * Loopback stand-ins for a graph-node host, speaking the wire contract verified with the real
 * graph CLI (shared/notes/graph-cli.md):
 *  - an IPFS API: `POST <base>/add?stream-channels=true&progress=false` (multipart, one part
 *    name="file") → `{"Hash":"<CID>"}\n`; `POST <base>/pin/add?recursive=true&stream=true&arg=<CID>`
 *    → `{"Pins":["<CID>"]}\n`. <base> is /api/v0, or the URL's own path (/<KEY>/api/v0) when the
 *    IPFS URL has one, as the CLI's IPFS client does;
 *  - graph-node's admin JSON-RPC: `subgraph_deploy {name, ipfs_hash, version_label}` and
 *    `subgraph_create {name}`, a deploy key as `Authorization: Bearer <key>`;
 *  - a subgraph GraphQL endpoint serving the tutorial's ApprovalQuery records the way graph-node
 *    names things (approvalQuery, approvalQueries with first/skip/orderBy/orderDirection/where,
 *    _meta). Its schema is written out here by hand, not derived by the code under test.
 * Each takes scripted faults, answered in order, one per request.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type * as net from 'node:net';
import { encodeBase58 } from 'ethers';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';

// ---------------------------------------------------------------------------------------------
// plumbing shared by the three servers

interface Listening {
  server: http.Server;
  sockets: Set<net.Socket>;
  port: number;
}

async function listen(handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void): Promise<Listening> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks), res));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, sockets, port: (server.address() as net.AddressInfo).port };
}

async function shut({ server, sockets }: Listening): Promise<void> {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** An answer to send instead of the normal one. */
export type HttpFault =
  | { status: number; body?: string; contentType?: string }
  /** Destroy the connection without answering. */
  | { reset: true }
  /** Hold the request this long, then answer normally. */
  | { delayMs: number };

function sendFault(fault: HttpFault, req: http.IncomingMessage, res: http.ServerResponse, normal: () => void): void {
  if ('reset' in fault) req.socket.destroy();
  else if ('delayMs' in fault) setTimeout(normal, fault.delayMs);
  else res.writeHead(fault.status, { 'content-type': fault.contentType ?? 'text/plain' }).end(fault.body ?? '');
}

/** A CIDv0 (Qm…) of the bytes: sha2-256 multihash in base58btc, as IPFS names content. */
export function cidOf(bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest();
  return encodeBase58(Buffer.concat([Buffer.from([0x12, 0x20]), digest]));
}

// ---------------------------------------------------------------------------------------------
// IPFS

export interface IpfsRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  contentType: string;
  /** For add: the multipart parts' names and the uploaded file's bytes. */
  partNames?: string[];
  file?: Buffer;
}

export type IpfsFault = HttpFault | { emptyReply: true };

export interface IpfsServer {
  /** What to pass as --ipfs (with the key in the path when one was asked for). */
  url: string;
  port: number;
  readonly requests: IpfsRequest[];
  /** Files added, by CID. */
  readonly files: Map<string, Buffer>;
  /** Pinned CIDs, in order. */
  readonly pins: string[];
  fail(...faults: IpfsFault[]): void;
  clear(): void;
  close(): Promise<void>;
}

function multipart(body: Buffer, contentType: string): { name: string; data: Buffer }[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) return [];
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: { name: string; data: Buffer }[] = [];
  let at = body.indexOf(marker);
  while (at >= 0) {
    const start = at + marker.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(marker, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // drop the CRLF after the marker and before the next
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString('utf8');
    parts.push({ name: /name="([^"]*)"/i.exec(headers)?.[1] ?? '', data: part.subarray(split + 4) });
    at = next;
  }
  return parts;
}

export async function startIpfsServer(options: { key?: string } = {}): Promise<IpfsServer> {
  const base = options.key ? `/${options.key}/api/v0` : '/api/v0';
  let requests: IpfsRequest[] = [];
  let faults: IpfsFault[] = [];
  const files = new Map<string, Buffer>();
  let pins: string[] = [];
  const listening = await listen((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: IpfsRequest = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), contentType: req.headers['content-type'] ?? '' };
    requests.push(record);
    const normal = () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (url.pathname === `${base}/add`) {
        const parts = multipart(body, record.contentType);
        record.partNames = parts.map((p) => p.name);
        const file = parts.find((p) => p.name === 'file');
        if (!file) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('no file part');
        record.file = file.data;
        const cid = cidOf(file.data);
        files.set(cid, file.data);
        res.writeHead(200, { 'content-type': 'application/json' }).end(`${JSON.stringify({ Hash: cid })}\n`);
      } else if (url.pathname === `${base}/pin/add`) {
        const cid = url.searchParams.get('arg') ?? '';
        pins.push(cid);
        res.writeHead(200, { 'content-type': 'application/json' }).end(`${JSON.stringify({ Pins: [cid] })}\n`);
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
      }
    };
    const fault = faults.shift();
    if (!fault) return normal();
    if ('emptyReply' in fault) return void res.writeHead(200, { 'content-type': 'application/json' }).end('');
    sendFault(fault, req, res, normal);
  });
  return {
    url: `http://127.0.0.1:${listening.port}${options.key ? `/${options.key}/api/v0` : ''}`,
    port: listening.port,
    get requests() {
      return requests;
    },
    files,
    get pins() {
      return pins;
    },
    fail: (...more) => void faults.push(...more),
    clear: () => {
      requests = [];
      faults = [];
      pins = [];
      files.clear();
    },
    close: () => shut(listening),
  };
}

// ---------------------------------------------------------------------------------------------
// graph-node admin JSON-RPC

export interface AdminRequest {
  path: string;
  authorization?: string;
  contentType: string;
  /** The parsed JSON-RPC body. */
  body: { jsonrpc?: string; method?: string; params?: Record<string, unknown>; id?: unknown };
}

export type AdminFault =
  | HttpFault
  /** Answer with this JSON-RPC result (e.g. {} to make the CLI crash on a missing playground). */
  | { result: unknown }
  /** Answer with this JSON-RPC error. */
  | { error: { code: number; message: string } };

export interface AdminServerOptions {
  /** Demand this key in the path: the deploy URL is http://127.0.0.1:<port>/<key>/deploy. */
  key?: string;
  /** Demand `Authorization: Bearer <deployKey>`; anything else gets HTTP 401. */
  deployKey?: string;
  /** Names that exist; deploying another name is a JSON-RPC error, as on graph-node. Default: any. */
  subgraphs?: string[];
  /**
   * Base of the returned URLs. Default ':8000', graph-node's own relative form, which the CLI
   * completes with http://<deploy host>.
   */
  queryBase?: string;
}

export interface AdminServer {
  /** What to pass as --node. */
  url: string;
  port: number;
  readonly requests: AdminRequest[];
  fail(...faults: AdminFault[]): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startGraphNodeAdmin(options: AdminServerOptions = {}): Promise<AdminServer> {
  const path = options.key ? `/${options.key}/deploy` : '/';
  const base = options.queryBase ?? ':8000';
  const known = options.subgraphs ? new Set(options.subgraphs) : undefined;
  let requests: AdminRequest[] = [];
  let faults: AdminFault[] = [];
  const listening = await listen((req, raw, res) => {
    let body: AdminRequest['body'] = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as AdminRequest['body'];
    } catch {
      // recorded as empty; answered below as a parse error
    }
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'] ?? '', body });
    const reply = (payload: Record<string, unknown>) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, ...payload }));
    const normal = () => {
      if (req.url !== path) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      if (options.deployKey !== undefined && req.headers.authorization !== `Bearer ${options.deployKey}`) {
        return void res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
      }
      const params = body.params ?? {};
      const name = String(params.name ?? '');
      if (body.method === 'subgraph_create') {
        known?.add(name);
        return reply({ result: { id: `sg-${name}` } });
      }
      if (body.method !== 'subgraph_deploy') return reply({ error: { code: -32601, message: 'Method not found' } });
      if (known && !known.has(name)) return reply({ error: { code: -32603, message: `subgraph name not found: ${name}` } });
      reply({ result: { playground: `${base}/subgraphs/name/${name}/graphql`, queries: `${base}/subgraphs/name/${name}`, subscriptions: `${base}/subgraphs/name/${name}` } });
    };
    const fault = faults.shift();
    if (!fault) return normal();
    if ('result' in fault) return reply({ result: fault.result });
    if ('error' in fault) return reply({ error: fault.error });
    sendFault(fault, req, res, normal);
  });
  return {
    url: `http://127.0.0.1:${listening.port}${path}`,
    port: listening.port,
    get requests() {
      return requests;
    },
    fail: (...more) => void faults.push(...more),
    clear: () => {
      requests = [];
      faults = [];
    },
    close: () => shut(listening),
  };
}

// ---------------------------------------------------------------------------------------------
// GraphQL query endpoint for the tutorial entity

export interface ApprovalRecord {
  id: string;
  owner: string;
  spender: string;
  /** BigInt as graph-node sends it: a decimal string. */
  value: string;
}

/**
 * The query schema graph-node generates for the tutorial's ApprovalQuery entity, spelled out.
 * (`where` is cut down to the filters the tests use.)
 */
const TUTORIAL_QUERY_SDL = `
scalar BigInt
scalar Bytes
scalar BigDecimal
enum OrderDirection { asc desc }
enum ApprovalQuery_orderBy { id owner spender value }
input ApprovalQuery_filter { id: ID id_gt: ID owner: Bytes spender: Bytes value: BigInt value_gt: BigInt }
type ApprovalQuery { id: ID! owner: Bytes! spender: Bytes! value: BigInt! }
type _Block_ { hash: Bytes number: Int! timestamp: Int parentHash: Bytes }
type _Meta_ { block: _Block_! deployment: String! hasIndexingErrors: Boolean! }
type Query {
  approvalQuery(id: ID!): ApprovalQuery
  approvalQueries(skip: Int = 0, first: Int = 100, orderBy: ApprovalQuery_orderBy, orderDirection: OrderDirection, where: ApprovalQuery_filter): [ApprovalQuery!]!
  _meta: _Meta_
}
`;

export interface GraphqlRequest {
  path: string;
  contentType: string;
  body: { query?: string; variables?: Record<string, unknown>; operationName?: string };
}

export type GraphqlFault = HttpFault | { errors: unknown[]; data?: unknown };

export interface GraphqlServer {
  /** The query URL (with the key in the path when one was asked for). */
  url: string;
  port: number;
  readonly requests: GraphqlRequest[];
  records: ApprovalRecord[];
  meta: { number: number; hash: string; deployment: string; hasIndexingErrors: boolean };
  fail(...faults: GraphqlFault[]): void;
  clear(): void;
  close(): Promise<void>;
}

function compareBy(field: keyof ApprovalRecord, direction: string) {
  const sign = direction === 'desc' ? -1 : 1;
  return (a: ApprovalRecord, b: ApprovalRecord) => {
    const x = a[field];
    const y = b[field];
    const order = field === 'value' ? Number(BigInt(x) - BigInt(y) > 0n) - Number(BigInt(x) - BigInt(y) < 0n) : x < y ? -1 : x > y ? 1 : 0;
    return order * sign;
  };
}

export async function startGraphqlServer(records: ApprovalRecord[], options: { key?: string; subgraph?: string } = {}): Promise<GraphqlServer> {
  const path = `${options.key ? `/${options.key}` : ''}/subgraphs/name/${options.subgraph ?? 'my/erc20-approvals'}`;
  const schema: GraphQLSchema = buildSchema(TUTORIAL_QUERY_SDL);
  let requests: GraphqlRequest[] = [];
  let faults: GraphqlFault[] = [];
  const state = {
    records,
    meta: { number: 19_000_000, hash: `0x${'ab'.repeat(32)}`, deployment: 'QmTutorialDeployment', hasIndexingErrors: false },
  };
  const root = {
    approvalQuery: ({ id }: { id: string }) => state.records.find((r) => r.id === id) ?? null,
    approvalQueries: (args: { skip: number; first: number; orderBy?: keyof ApprovalRecord; orderDirection?: string; where?: Record<string, string> }) => {
      // graph-node caps `first` at 1000 and `skip` at 5000.
      if (args.first > 1000) throw new Error('The `first` argument must be between 0 and 1000, but is ' + args.first);
      if (args.skip > 5000) throw new Error('The `skip` argument must be between 0 and 5000, but is ' + args.skip);
      let rows = [...state.records].sort(compareBy(args.orderBy ?? 'id', args.orderDirection ?? 'asc'));
      for (const [filter, wanted] of Object.entries(args.where ?? {})) {
        if (filter === 'id_gt') rows = rows.filter((r) => r.id > wanted);
        else if (filter === 'value_gt') rows = rows.filter((r) => BigInt(r.value) > BigInt(wanted));
        else rows = rows.filter((r) => r[filter as keyof ApprovalRecord] === wanted);
      }
      return rows.slice(args.skip, args.skip + args.first);
    },
    _meta: () => ({
      block: { number: state.meta.number, hash: state.meta.hash, timestamp: null, parentHash: null },
      deployment: state.meta.deployment,
      hasIndexingErrors: state.meta.hasIndexingErrors,
    }),
  };
  const listening = await listen((req, raw, res) => {
    let body: GraphqlRequest['body'] = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as GraphqlRequest['body'];
    } catch {
      // answered below
    }
    requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body });
    const normal = () => {
      if (req.url !== path) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (typeof body.query !== 'string') {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'The "query" field is missing in request data' }] }));
      }
      void graphql({ schema, source: body.query, rootValue: root, variableValues: body.variables, operationName: body.operationName }).then((result) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    };
    const fault = faults.shift();
    if (!fault) return normal();
    if ('errors' in fault) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fault));
    sendFault(fault, req, res, normal);
  });
  return {
    url: `http://127.0.0.1:${listening.port}${path}`,
    port: listening.port,
    get requests() {
      return requests;
    },
    get records() {
      return state.records;
    },
    set records(next) {
      state.records = next;
    },
    meta: state.meta,
    fail: (...more) => void faults.push(...more),
    clear: () => {
      requests = [];
      faults = [];
    },
    close: () => shut(listening),
  };
}

/** `count` tutorial records with distinct ids, owners and values (one of them uint256's maximum). */
export function approvalRecords(count: number): ApprovalRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `0x${(i + 1).toString(16).padStart(64, '0')}-${i % 3}`,
    owner: `0x${(0xa0 + (i % 16)).toString(16).padStart(40, '0')}`,
    spender: `0x${(0xb0 + (i % 16)).toString(16).padStart(40, '0')}`,
    value: i === 0 ? (2n ** 256n - 1n).toString() : String(BigInt(i) * 10n ** 18n),
  }));
}
