/**
 * A real loopback HTTP server in front of a real node (anvil, ganache), standing in for the
 * provider's gateway: it can demand an access key in the path (/<KEY>, /ws/<KEY>) or HTTP Basic
 * auth, add latency, answer with faults (any status, HTML, garbage, a reset connection, a
 * rewritten reply), pass WebSocket upgrades through, and drop every open connection on demand.
 * In front of another HTTP service (graph-node's ports, IPFS) it forwards every request as it
 * came, after taking the key off the front of the path and checking a deploy key.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export type Fault =
  /** Answer with this instead of forwarding. */
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Destroy the connection without answering. */
  | { reset: true }
  /** Hold the request this long, then forward it. */
  | { delayMs: number }
  /** Forward, then rewrite the node's JSON reply. */
  | { rewrite(reply: unknown): unknown };

export interface ProxyOptions {
  /** The node's HTTP URL, e.g. http://127.0.0.1:8545. */
  target: string;
  /** Latency added to every HTTP request. */
  delayMs?: number;
  /** Demand these Basic credentials (HTTP and WebSocket upgrade). */
  basicAuth?: { username: string; password: string };
  /**
   * Demand this key as the path: /<key> for HTTP, /ws/<key> for WebSocket. With `service`, the
   * path's first segment instead, taken off before forwarding (/<key>/api/v0/add → /api/v0/add).
   */
  key?: string;
  /**
   * Forward every request as it came (method, path, query, headers, body as bytes) instead of
   * JSON-RPC POSTs to the node's root: the gateway of an HTTP service such as graph-node or
   * IPFS. `paths` maps a path (after the key) to the target's, e.g. a host's /deploy to
   * graph-node's admin root.
   */
  service?: { paths?: Record<string, string> };
  /** Demand `Authorization: Bearer <token>` (401 otherwise), as a host checks a deploy key; the header is not forwarded. */
  bearer?: string;
}

/** A JSON-RPC call as the proxy sees it, for call rules. */
export interface SeenCall {
  method: string;
  params: unknown;
}

/** Decides, per JSON-RPC call (alone or inside a batch), an error to answer instead of the node's reply. */
export type CallRule = (call: SeenCall) => { code: number; message: string } | undefined;

export interface RecordedRequest {
  method: string;
  /** As received, key included. */
  path: string;
  /** The body as text (a JSON-RPC call, a GraphQL query). */
  body: string;
  contentType?: string;
  /** JSON-RPC method names in the body (several for a batch). */
  methods: string[];
  authorization?: string;
}

export interface Proxy {
  url: string;
  wsUrl: string;
  port: number;
  /** HTTP requests received since start or the last clear(). */
  readonly requests: RecordedRequest[];
  /** TCP connections accepted since start or the last clear(). */
  readonly connections: number;
  /** WebSocket upgrades passed through since start or the last clear(). */
  readonly upgrades: number;
  /** Queues faults: each one answers the next HTTP request, in order. */
  fail(...faults: Fault[]): void;
  /**
   * Until cleared: every call the rule picks, alone or inside a batch, is answered with the
   * rule's error object (same id) instead of the node's reply; the others pass through.
   */
  failCalls(rule: CallRule | undefined): void;
  /** Until cleared: every batch (array body) is answered with this instead of being forwarded. */
  refuseBatches(reply: { status: number; body?: string } | undefined): void;
  /** Forgets queued faults, call rules, batch refusal and counters. */
  clear(): void;
  /** Destroys every open connection, HTTP keep-alive and WebSocket alike. */
  dropConnections(): void;
  close(): Promise<void>;
}

function methodsOf(body: string): string[] {
  try {
    const json = JSON.parse(body) as unknown;
    const list = Array.isArray(json) ? json : [json];
    return list.map((r) => String((r as { method?: unknown })?.method ?? ''));
  } catch {
    return [];
  }
}

/** The node's reply with the calls the rule picks answered by the rule's error instead. */
function applyCallRule(body: string, reply: unknown, rule: CallRule): unknown {
  const sent = JSON.parse(body) as unknown;
  const calls = (Array.isArray(sent) ? sent : [sent]) as { id?: unknown; method?: unknown; params?: unknown }[];
  const errorFor = new Map<unknown, { code: number; message: string }>();
  for (const c of calls) {
    const error = c && typeof c === 'object' ? rule({ method: String(c.method), params: c.params }) : undefined;
    if (error) errorFor.set(c.id, error);
  }
  const swap = (r: unknown) => {
    const id = (r as { id?: unknown })?.id;
    return errorFor.has(id) ? { jsonrpc: '2.0', id, error: errorFor.get(id) } : r;
  };
  return Array.isArray(reply) ? reply.map(swap) : swap(reply);
}

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const target = new URL(options.target);
  const upstream = new http.Agent({ keepAlive: true });
  const sockets = new Set<net.Socket>();
  let faults: Fault[] = [];
  let callRule: CallRule | undefined;
  let batchRefusal: { status: number; body?: string } | undefined;
  let requests: RecordedRequest[] = [];
  let connections = 0;
  let upgrades = 0;

  /** The path to forward to a service: the request's without the key, mapped; undefined when the key is not in front. */
  const servicePath = (url: string): string | undefined => {
    let rest = url;
    if (options.key !== undefined) {
      const prefix = `/${options.key}`;
      if (!(url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`))) return undefined;
      rest = url.slice(prefix.length);
    }
    const query = rest.indexOf('?');
    const pathname = (query < 0 ? rest : rest.slice(0, query)) || '/';
    const search = query < 0 ? '' : rest.slice(query);
    return `${options.service?.paths?.[pathname] ?? pathname}${search}`;
  };

  /** Why a request is refused (401), or undefined when its credentials are right. */
  const refusal = (req: http.IncomingMessage, upgrade: boolean): string | undefined => {
    if (options.service && !upgrade) {
      if (servicePath(req.url ?? '/') === undefined) return 'invalid or missing access key';
    } else if (options.key !== undefined && req.url !== `${upgrade ? '/ws' : ''}/${options.key}`) return 'invalid or missing access key';
    if (options.bearer !== undefined && req.headers.authorization !== `Bearer ${options.bearer}`) return 'invalid or missing deploy key';
    if (options.basicAuth) {
      const { username, password } = options.basicAuth;
      if (req.headers.authorization !== `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`) return 'bad username or password';
    }
    return undefined;
  };

  const forward = (req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse, rewrite?: (reply: unknown) => unknown) => {
    const body = raw.toString('utf8');
    let request: http.RequestOptions = {
      host: target.hostname,
      port: target.port,
      path: '/',
      method: 'POST',
      agent: upstream,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    };
    if (options.service) {
      const headers = { ...req.headers, host: target.host, 'content-length': String(raw.length) };
      delete headers['transfer-encoding'];
      if (options.bearer !== undefined) delete headers.authorization;
      request = { ...request, path: servicePath(req.url ?? '/'), method: req.method, headers };
    }
    const out = http.request(request, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        let reply = Buffer.concat(chunks);
        if (rewrite) reply = Buffer.from(JSON.stringify(rewrite(JSON.parse(reply.toString('utf8')))));
        if (res.destroyed) return;
        res.writeHead(up.statusCode ?? 502, { 'content-type': up.headers['content-type'] ?? 'application/json' });
        res.end(reply);
      });
    });
    out.on('error', (err) => {
      if (!res.destroyed) res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${err.message}`);
    });
    out.end(options.service ? raw : body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', body, contentType: req.headers['content-type'], methods: methodsOf(body), authorization: req.headers.authorization });
      const handle = () => {
        const refused = refusal(req, false);
        if (refused) {
          res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="node"' }).end(refused);
          return;
        }
        const fault = faults.shift();
        if (!fault && batchRefusal && body.trimStart().startsWith('[')) {
          res.writeHead(batchRefusal.status, { 'content-type': 'application/json' }).end(batchRefusal.body ?? '');
          return;
        }
        // The rule as it stands when the request arrives: a test may clear it before the reply.
        const rule = callRule;
        if (!fault) return forward(req, raw, res, rule ? (reply) => applyCallRule(body, reply, rule) : undefined);
        if ('status' in fault) {
          res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers }).end(fault.body ?? '');
        } else if ('reset' in fault) {
          req.socket.destroy();
        } else if ('delayMs' in fault) {
          setTimeout(() => forward(req, raw, res), fault.delayMs);
        } else {
          forward(req, raw, res, fault.rewrite);
        }
      };
      if (options.delayMs) setTimeout(handle, options.delayMs);
      else handle();
    });
  });

  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  // WebSocket: check the credentials, then splice the client's socket to the node's.
  server.on('upgrade', (req, socket: net.Socket, head: Buffer) => {
    const refused = refusal(req, true);
    if (refused) {
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: ${refused.length}\r\nConnection: close\r\n\r\n${refused}`);
      return;
    }
    upgrades++;
    const node = net.connect(Number(target.port), target.hostname, () => {
      const lines = [`GET / HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i];
        if (name.toLowerCase() === 'authorization') continue;
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? target.host : req.rawHeaders[i + 1]}`);
      }
      node.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) node.write(head);
      socket.pipe(node).pipe(socket);
    });
    sockets.add(node);
    node.on('close', () => {
      sockets.delete(node);
      socket.destroy();
    });
    socket.on('close', () => node.destroy());
    node.on('error', () => socket.destroy());
    socket.on('error', () => node.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const keyPath = options.key !== undefined ? `/${options.key}` : '/';
  return {
    url: `http://127.0.0.1:${port}${keyPath}`,
    wsUrl: `ws://127.0.0.1:${port}${options.key !== undefined ? `/ws/${options.key}` : '/'}`,
    port,
    get requests() {
      return requests;
    },
    get connections() {
      return connections;
    },
    get upgrades() {
      return upgrades;
    },
    failCalls: (rule) => {
      callRule = rule;
    },
    refuseBatches: (reply) => {
      batchRefusal = reply;
    },
    fail: (...more) => {
      faults.push(...more);
    },
    clear: () => {
      faults = [];
      callRule = undefined;
      batchRefusal = undefined;
      requests = [];
      connections = 0;
      upgrades = 0;
    },
    dropConnections: () => {
      for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      upstream.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
