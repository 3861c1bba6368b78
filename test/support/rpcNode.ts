/**
 * A scripted JSON-RPC node on loopback for the unit layer: every request is recorded (method,
 * path, headers, body) and answered by the test's `script`, which may give any status, headers
 * and body, answer late, or not at all. `startRpcServer` puts a table of methods on top (for the
 * CLI tests). Each test closes it (or its suite does in `after`).
 */
import { after, afterEach, before } from 'node:test';
import { closeIdleConnections } from '../../src/core/rpc/http';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcFailure } from '../../src/core/rpc/failure';

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status?: number;
  /** The reason phrase of the status line (Node's own for the status unless given; may be empty). */
  statusText?: string;
  headers?: Record<string, string>;
  /** A string goes out verbatim; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the node closes). */
  silent?: boolean;
}

export type Script = (request: SeenRequest, index: number) => Answer;

export interface ScriptedNode {
  /** http://127.0.0.1:<port> followed by `path` (default `/`). */
  url: string;
  port: number;
  seen: SeenRequest[];
  script: Script;
  close(): Promise<void>;
}

/** A script answering single calls and batches from `results` by method; a method missing from it gets JSON-RPC error -32601 `no METHOD`. */
export function answerFrom(results: Record<string, unknown>): (request: SeenRequest) => Answer {
  const one = (c: { id: unknown; method: string }) =>
    c.method in results ? { jsonrpc: '2.0', id: c.id, result: results[c.method] } : { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: `no ${c.method}` } };
  return (r) => {
    const body = JSON.parse(r.body) as { id: unknown; method: string } | { id: unknown; method: string }[];
    return { body: Array.isArray(body) ? body.map(one) : one(body) };
  };
}

/** The JSON-RPC reply to a single request: `extra` (result or error) with the request's own id. */
export function reply(request: SeenRequest, extra: object): object {
  return { jsonrpc: '2.0', id: (JSON.parse(request.body) as { id: unknown }).id, ...extra };
}

export async function startScriptedNode(script: Script = (r) => ({ body: reply(r, { result: '0x1' }) }), path = '/'): Promise<ScriptedNode> {
  const node = { seen: [] as SeenRequest[], script } as ScriptedNode;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      node.seen.push(seen);
      const answer = node.script(seen, node.seen.length - 1);
      if (answer.silent) return;
      const send = () => {
        const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        const headers = { ...(typeof answer.body === 'string' || answer.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...answer.headers };
        if (answer.statusText === undefined) res.writeHead(answer.status ?? 200, headers);
        else res.writeHead(answer.status ?? 200, answer.statusText, headers);
        res.end(text);
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) send();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.port = (server.address() as AddressInfo).port;
  node.url = `http://127.0.0.1:${node.port}${path}`;
  node.close = () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return node;
}

/** The error of class `kind` a promise rejects with (fails the test if it resolves or rejects otherwise). */
export async function rejectionOf<E extends Error>(promise: Promise<unknown>, kind: new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof kind, `expected a${/^[AEIOU]/.test(kind.name) ? 'n' : ''} ${kind.name}, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a failure');
}

/** The RpcFailure a promise rejects with (fails the test if it resolves or rejects otherwise). */
export const failureOf = (promise: Promise<unknown>): Promise<RpcFailure> => rejectionOf(promise, RpcFailure);

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
  reply?: (request: RpcRequestSeen, attempt: number) => Answer | undefined;
  clear(): void;
  close(): Promise<void>;
}

/**
 * A node that answers each call (one object, or every element of a batch) from a table of
 * methods, unknown ones with -32601, unless the test scripts the whole reply with `reply`.
 */
export async function startRpcServer(methods: RpcServer['methods'] = {}): Promise<RpcServer> {
  const answerCall = (call: RpcCallSeen): unknown => {
    const entry = state.methods[call.method];
    const answer: CallAnswer = entry === undefined ? { error: { code: -32601, message: 'Method not found' } } : typeof entry === 'function' ? entry(call.params) : entry;
    return { jsonrpc: '2.0', id: call.id ?? null, ...answer };
  };
  const node = await startScriptedNode((request) => {
    const seen: RpcRequestSeen = { url: request.path, authorization: request.headers.authorization, text: request.body };
    state.requests.push(seen);
    let json: unknown;
    try {
      json = JSON.parse(request.body);
    } catch {
      json = undefined;
    }
    const list = Array.isArray(json) ? (json as RpcCallSeen[]) : json ? [json as RpcCallSeen] : [];
    state.calls.push(...list);
    const answer = state.reply?.(seen, state.requests.length) ?? { body: Array.isArray(json) ? list.map(answerCall) : answerCall(json as RpcCallSeen) };
    // A text body goes out as text/plain unless the script says otherwise.
    return typeof answer.body === 'string' ? { ...answer, headers: { 'content-type': 'text/plain', ...answer.headers } } : answer;
  }, '');
  const state: RpcServer = {
    url: node.url,
    requests: [],
    calls: [],
    methods,
    clear() {
      state.requests.length = 0;
      state.calls.length = 0;
      state.reply = undefined;
    },
    close: () => node.close(),
  };
  return state;
}

/**
 * A scripted node for the tests of a file or describe: started before them (`started` is handed
 * it), idle connections closed after each test (after `afterEachTest`), and the node closed after all.
 */
export function useScriptedNode(started: (node: ScriptedNode) => void, afterEachTest: (node: ScriptedNode) => void = () => {}): void {
  let node: ScriptedNode;
  before(async () => {
    node = await startScriptedNode();
    started(node);
  });
  afterEach(() => {
    afterEachTest(node);
    closeIdleConnections();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });
}
