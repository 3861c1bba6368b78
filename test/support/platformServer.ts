/**
 * A loopback HTTP server that speaks the platform API's documented contract
 * (the project's shared notes on the platform API): `Authorization: Bearer <key>`; GET /v1/organization/,
 * /v1/{projects,networks,nodes,identities}/ and /v1/<kind>/<id>/; lists paginated as
 * `{count, next, previous, results}` with absolute `next`/`previous` URLs carrying `?page=N`,
 * filters (project, organization, network, protocol, status) and `order_by`; errors as
 * `{error: {code, message, fields?}}` with 401, 403, 404 (and 400, 405). Tests change the data
 * directly (fields missing or added) and script faults per path and page.
 */
import * as http from 'node:http';
import type * as net from 'node:net';

export type Json = Record<string, unknown>;

export interface PlatformData {
  organization: Json;
  projects: Json[];
  networks: Json[];
  nodes: Json[];
  identities: Json[];
}

export type ListName = Exclude<keyof PlatformData, 'organization'>;

export type PlatformFault =
  /** Answer with this instead of the real reply (a JSON body when `body` is an object). */
  | { status: number; body?: string | Json | unknown[]; headers?: Record<string, string> }
  /** Hold the request this long, then answer normally. */
  | { delayMs: number }
  /** Destroy the connection without answering. */
  | { reset: true };

export interface FaultRule {
  /** The request path without query, e.g. /v1/nodes/ or /v1/nodes/ND-1/. */
  path: string;
  /** Only this page of a list (1 when the request has no page parameter). */
  page?: number;
  /** How many requests it answers; every matching request when absent. */
  times?: number;
  fault: PlatformFault;
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  authorization?: string;
  accept?: string;
  userAgent?: string;
}

export interface PlatformServerOptions {
  /** The key that is accepted. */
  apiKey: string;
  /** A key that authenticates but may only read the organization: 403 on everything else. */
  forbiddenKey?: string;
  /** Objects per page (default 2). */
  pageSize?: number;
  data?: PlatformData;
}

export interface PlatformServer {
  /** Base URL, e.g. http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  port: number;
  /** The served data; tests may change it between requests. */
  data: PlatformData;
  pageSize: number;
  readonly requests: RecordedRequest[];
  /** Adds a scripted fault. */
  fail(rule: FaultRule): void;
  /** Forgets faults and recorded requests. */
  clear(): void;
  close(): Promise<void>;
}

export interface SampleOptions {
  /** Nodes to create (default 5). */
  nodes?: number;
  /** The `details` of node i (0-based); default: a key-in-path https endpoint on example.com. */
  details?(i: number, id: string): Json;
}

/** Three-part ids like the provider's: ND-123-456-789. */
const idOf = (prefix: string, i: number, parts = 3) => `${prefix}-${[101 + i, 202 + i, 303 + i].slice(0, parts).join('-')}`;

/** The 32-hex-digit access key of sample node i. */
export function sampleKey(i: number): string {
  return (i + 1).toString(16).padStart(2, '0').repeat(16);
}

/**
 * An organization with two projects, three networks (Ethereum and Polygon in the first project,
 * Bitcoin in the second), nodes spread over them round-robin, and two identities. Node i has
 * status 'running' except every third one ('stopped').
 */
export function sampleData(options: SampleOptions = {}): PlatformData {
  const organization = { id: 'RG-123-456', name: 'Acme Chains' };
  const projects = [
    {
      id: 'PR-101-202',
      name: 'Mainnet apps',
      description: 'Production',
      type: 'public',
      members: ['alice', 'bob'],
      networks: ['NW-101-202-303', 'NW-102-203-304'],
      creator: 'alice',
      created_at: '2024-02-01T10:00:00Z',
    },
    { id: 'PR-102-203', name: 'Bitcoin tools', description: '', type: 'public', members: ['alice'], networks: ['NW-103-204-305'], creator: 'alice', created_at: '2024-01-15T10:00:00Z' },
  ];
  const networks = [
    {
      id: 'NW-101-202-303',
      name: 'Ethereum Mainnet',
      project: 'PR-101-202',
      protocol: 'ethereum',
      configuration: { network: 'mainnet' },
      status: 'running',
      nodes: [] as string[],
      created_at: '2024-02-01T10:05:00Z',
    },
    {
      id: 'NW-102-203-304',
      name: 'Polygon PoS',
      project: 'PR-101-202',
      protocol: 'polygon-pos',
      configuration: { network: 'mainnet' },
      status: 'running',
      nodes: [] as string[],
      created_at: '2024-02-02T10:05:00Z',
    },
    {
      id: 'NW-103-204-305',
      name: 'Bitcoin',
      project: 'PR-102-203',
      protocol: 'bitcoin',
      configuration: { network: 'mainnet' },
      status: 'running',
      nodes: [] as string[],
      created_at: '2024-01-15T10:05:00Z',
    },
  ];
  const count = options.nodes ?? 5;
  const nodes = Array.from({ length: count }, (_, i) => {
    const id = idOf('ND', i);
    const network = networks[i % networks.length];
    network.nodes.push(id);
    const host = `nd-${101 + i}-${202 + i}-${303 + i}.p2pify.example.com`;
    const details = options.details?.(i, id) ?? {
      mode: 'full',
      version: '1.0',
      api_namespaces: ['eth', 'net', 'web3'],
      https_endpoint: `https://${host}/${sampleKey(i)}`,
      wss_endpoint: `wss://ws-${host}/${sampleKey(i)}`,
      auth_username: `user-${i}`,
      auth_password: `pass-${i}-Xy7!q`,
      auth_key: sampleKey(i),
    };
    return {
      id,
      name: `node-${String(i).padStart(2, '0')}`,
      network: network.id,
      organization: organization.id,
      type: i % 2 ? 'dedicated' : 'shared',
      role: 'peer',
      provider: 'gcloud',
      region: i % 2 ? 'europe-west3' : 'us-east1',
      status: i % 3 === 2 ? 'stopped' : 'running',
      configuration: { archive: i % 2 === 1 },
      details,
      created_at: `2024-03-${String(28 - (i % 28)).padStart(2, '0')}T12:00:00Z`,
      creator: 'alice',
    };
  });
  const identities = [
    { id: 'ID-101-202', name: 'deploy-bot', type: 'api', status: 'active', created_at: '2024-02-03T09:00:00Z' },
    { id: 'ID-102-203', name: 'ci', type: 'api', status: 'active', created_at: '2024-02-04T09:00:00Z' },
  ];
  return { organization, projects, networks, nodes, identities };
}

const LISTS: readonly ListName[] = ['projects', 'networks', 'nodes', 'identities'];
const ORDER_FIELDS = ['name', 'created_at'];

function errorBody(code: string, message: string, fields?: Json): string {
  return JSON.stringify({ error: { code, message, ...(fields ? { fields } : {}) } });
}

/** Whether an object passes one filter; nodes reach their project and protocol through their network. */
function matches(list: ListName, item: Json, filter: string, value: string, data: PlatformData): boolean {
  const networkOf = (id: unknown) => data.networks.find((n) => n.id === id);
  switch (filter) {
    case 'organization':
      return list === 'nodes' ? item.organization === value : data.organization.id === value;
    case 'project':
      if (list === 'networks') return item.project === value;
      if (list === 'nodes') return networkOf(item.network)?.project === value;
      return true;
    case 'protocol':
      if (list === 'networks') return item.protocol === value;
      if (list === 'nodes') return networkOf(item.network)?.protocol === value;
      return true;
    case 'network':
      return list === 'nodes' ? item.network === value : true;
    case 'status':
      return list === 'networks' || list === 'nodes' ? item.status === value : true;
    default:
      return true; // unknown parameters are ignored, as web APIs commonly do
  }
}

export async function startPlatformServer(options: PlatformServerOptions): Promise<PlatformServer> {
  let rules: (FaultRule & { used: number })[] = [];
  let requests: RecordedRequest[] = [];
  const sockets = new Set<net.Socket>();

  const state = {
    data: options.data ?? sampleData(),
    pageSize: options.pageSize ?? 2,
  };

  /** The real answer: status and JSON text. */
  const answer = (req: http.IncomingMessage, url: URL): [number, string] => {
    const auth = req.headers.authorization;
    const bearer = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
    if (!auth) return [401, errorBody('not_authenticated', 'Authentication credentials were not provided.')];
    if (bearer !== options.apiKey && bearer !== options.forbiddenKey) return [401, errorBody('authentication_failed', 'Invalid API key.')];
    if (req.method !== 'GET') return [405, errorBody('method_not_allowed', `Method "${req.method}" not allowed.`)];

    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1' || !url.pathname.endsWith('/') || parts.length < 2 || parts.length > 3) return [404, errorBody('not_found', 'Not found.')];
    if (parts[1] === 'organization' && parts.length === 2) return [200, JSON.stringify(state.data.organization)];
    if (bearer === options.forbiddenKey) return [403, errorBody('permission_denied', 'You do not have permission to perform this action.')];
    const list = parts[1] as ListName;
    if (!LISTS.includes(list)) return [404, errorBody('not_found', 'Not found.')];
    const items = state.data[list];

    if (parts.length === 3) {
      const id = decodeURIComponent(parts[2]);
      const item = items.find((o) => o.id === id);
      return item ? [200, JSON.stringify(item)] : [404, errorBody('not_found', 'Not found.')];
    }

    let selected = items.filter((item) => [...url.searchParams].every(([name, value]) => name === 'page' || name === 'order_by' || matches(list, item, name, value, state.data)));
    const orderBy = url.searchParams.get('order_by');
    if (orderBy) {
      const field = orderBy.replace(/^-/, '');
      if (!ORDER_FIELDS.includes(field)) {
        return [400, errorBody('invalid_parameter', `Cannot order by "${orderBy}".`, { order_by: [`Choose one of: ${ORDER_FIELDS.join(', ')}, with - for descending.`] })];
      }
      const sign = orderBy.startsWith('-') ? -1 : 1;
      selected = [...selected].sort((a, b) => sign * String(a[field] ?? '').localeCompare(String(b[field] ?? '')));
    }

    const pageText = url.searchParams.get('page') ?? '1';
    const page = Number(pageText);
    const pages = Math.max(1, Math.ceil(selected.length / state.pageSize));
    if (!Number.isInteger(page) || page < 1 || page > pages) return [404, errorBody('not_found', 'Invalid page.')];
    const link = (n: number) => {
      const u = new URL(`http://${req.headers.host}${url.pathname}${url.search}`);
      u.searchParams.set('page', String(n));
      return u.toString();
    };
    return [
      200,
      JSON.stringify({
        count: selected.length,
        next: page < pages ? link(page + 1) : null,
        previous: page > 1 ? link(page - 1) : null,
        results: selected.slice((page - 1) * state.pageSize, page * state.pageSize),
      }),
    ];
  };

  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, accept: req.headers.accept, userAgent: req.headers['user-agent'] });
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const page = Number(url.searchParams.get('page') ?? '1');
      const rule = rules.find((r) => r.path === url.pathname && (r.page === undefined || r.page === page) && (r.times === undefined || r.used < r.times));
      if (rule) rule.used++;
      const fault = rule?.fault;
      const reply = () => {
        const [status, body] = answer(req, url);
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      };
      if (!fault) return reply();
      if ('reset' in fault) return req.socket.destroy();
      if ('delayMs' in fault) return void setTimeout(reply, fault.delayMs);
      const body = typeof fault.body === 'object' ? JSON.stringify(fault.body) : (fault.body ?? '');
      res.writeHead(fault.status, { 'content-type': typeof fault.body === 'object' ? 'application/json' : 'text/plain', ...fault.headers }).end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get data() {
      return state.data;
    },
    set data(value: PlatformData) {
      state.data = value;
    },
    get pageSize() {
      return state.pageSize;
    },
    set pageSize(value: number) {
      state.pageSize = value;
    },
    get requests() {
      return requests;
    },
    fail: (rule) => {
      rules.push({ ...rule, used: 0 });
    },
    clear: () => {
      rules = [];
      requests = [];
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
