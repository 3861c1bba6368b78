/**
 * A scripted JSON-RPC node on loopback (node:http): each call (one object, or every element of a
 * batch) is answered from a table of methods, unknown ones with -32601; a test may instead
 * script the whole HTTP reply (status, headers, any body). Every request is recorded.
 */
import * as http from 'node:http';
import type * as net from 'node:net';

export interface RpcCallSeen {
  jsonrpc?: string;
  id?: unknown;
  method: string;
  params?: unknown;
}

export interface RpcRequestSeen {
  /** Path and query as received. */
  url: string;
  authorization?: string;
  text: string;
}

/** A whole HTTP reply: `body` is sent as is when a string, as JSON otherwise. */
export interface HttpReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Hold the reply this long first (the timer is cleared when the server closes). */
  delayMs?: number;
}

/** The answer to one call: its result, or a JSON-RPC error object. */
export type CallAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

export interface RpcServer {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  readonly requests: RpcRequestSeen[];
  /** The calls received, batch elements one by one, in order. */
  readonly calls: RpcCallSeen[];
  /** Answers for methods: a function of the params or a fixed answer. */
  methods: Record<string, CallAnswer | ((params: unknown) => CallAnswer)>;
  /** When set, answers every request with this instead (the calls are still recorded). */
  reply?: (request: RpcRequestSeen, attempt: number) => HttpReply | undefined;
  clear(): void;
  close(): Promise<void>;
}

export async function startRpcServer(methods: RpcServer['methods'] = {}): Promise<RpcServer> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state: RpcServer = {
    url: '',
    requests: [],
    calls: [],
    methods,
    clear() {
      state.requests.length = 0;
      state.calls.length = 0;
      state.reply = undefined;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const answerCall = (call: RpcCallSeen): unknown => {
    const entry = state.methods[call.method];
    const answer: CallAnswer = entry === undefined ? { error: { code: -32601, message: 'Method not found' } } : typeof entry === 'function' ? entry(call.params) : entry;
    return { jsonrpc: '2.0', id: call.id ?? null, ...answer };
  };

  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => {
      const seen: RpcRequestSeen = { url: req.url ?? '', authorization: req.headers.authorization, text };
      state.requests.push(seen);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const list = Array.isArray(json) ? (json as RpcCallSeen[]) : json ? [json as RpcCallSeen] : [];
      state.calls.push(...list);
      const scripted = state.reply?.(seen, state.requests.length);
      const reply: HttpReply = scripted ?? { body: Array.isArray(json) ? list.map(answerCall) : answerCall(json as RpcCallSeen) };
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      const send = () => {
        if (!res.destroyed) res.writeHead(reply.status ?? 200, { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json', ...reply.headers }).end(body);
      };
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return state;
}

