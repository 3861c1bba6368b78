/**
 * One HTTP exchange with node:http/https over keep-alive agents (reused connections are what make
 * many small calls cheap), bounded by a timeout, an optional deadline and AbortSignal, and the
 * response cap. Failures below HTTP come back as RpcFailure; every HTTP status comes back as a
 * reply for the caller to judge. node:http follows no redirect, so headers (a Bearer key, Basic
 * credentials) only ever go to the URL given. Every body read from outside is read here.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { responseLimit, type Deadline } from './deadline';
import { cancelledFailure, errorCode, networkFailure, RpcFailure, timeoutFailure, tooLargeFailure, type FailureContext } from './failure';

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Shared with the other requests of one operation: the attempt ends when it runs out. */
  deadline?: Deadline;
  signal?: AbortSignal;
  /** Refuse a body larger than this (default: the response cap, 64 MiB unless set). */
  maxBytes?: number;
  /** Whether a request that died on a stale keep-alive connection may be sent again once. */
  idempotent: boolean;
}

export interface HttpReply {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  contentType: string;
  text: string;
  bytes: number;
  timeMs: number;
}

/** Closes idle keep-alive connections (tests and benchmarks call it before they finish). */
export function closeIdleConnections(): void {
  for (const agent of Object.values(agents)) agent.destroy();
}

/** Sends one HTTP request; rejects only with RpcFailure (unreachable, tls, timeout, cancelled). */
export async function httpExchange(req: HttpRequest, ctx: FailureContext): Promise<HttpReply> {
  try {
    return await attempt(req, ctx);
  } catch (err) {
    // A server may close an idle keep-alive connection just as it is reused; Node's docs advise
    // sending again on a fresh connection. Only reads: a write may have arrived before the reset.
    if (!(err instanceof StaleSocketError && req.idempotent)) throw asFailure(err, ctx);
  }
  // The other idle connections are likely just as stale (a server that restarted or timed them
  // out): closed, so the second try opens a new one, which the pool keeps.
  closeFreeSockets();
  try {
    return await attempt(req, ctx);
  } catch (err) {
    throw asFailure(err, ctx);
  }
}

function asFailure(err: unknown, ctx: FailureContext): unknown {
  return err instanceof StaleSocketError ? networkFailure(err.original, ctx) : err;
}

/** Destroys the idle keep-alive connections only (closeIdleConnections ends those in use too). */
function closeFreeSockets(): void {
  for (const agent of Object.values(agents)) {
    for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }
}

class StaleSocketError extends Error {
  constructor(readonly original: unknown) {
    super('stale keep-alive connection');
  }
}

function attempt(req: HttpRequest, ctx: FailureContext): Promise<HttpReply> {
  return new Promise<HttpReply>((resolve, reject) => {
    if (req.signal?.aborted) return reject(cancelledFailure(ctx));
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return reject(networkFailure(new Error('the URL is not valid'), ctx));
    }
    const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!lib) return reject(networkFailure(new Error(`HTTP requests need an http or https URL, not ${url.protocol.replace(/:$/, '')}`), ctx));

    const limitMs = req.deadline ? req.deadline.limit(req.timeoutMs) : req.timeoutMs;
    // When the deadline, not this request's own timeout, ends the attempt, the operation is over.
    const byDeadline = req.deadline?.shared === true && limitMs < req.timeoutMs;
    if (limitMs <= 0) return reject(timeoutFailure(ctx, req.deadline?.shared === true));
    const maxBytes = req.maxBytes ?? responseLimit();
    const started = performance.now();
    let settled = false;
    let gotResponse = false;
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
    const request = lib.request(url, { method: req.method, headers, agent: agents[url.protocol as 'http:' | 'https:'] });

    const finish = (outcome: HttpReply | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) {
        request.destroy();
        reject(outcome);
      } else {
        resolve(outcome);
      }
    };
    const timer = setTimeout(() => finish(timeoutFailure(ctx, byDeadline)), limitMs);
    const onAbort = () => finish(cancelledFailure(ctx));
    req.signal?.addEventListener('abort', onAbort, { once: true });

    request.on('error', (err) => {
      if (settled) return;
      const code = errorCode(err);
      if (!gotResponse && request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        finish(new StaleSocketError(err));
      } else {
        finish(err instanceof RpcFailure ? err : networkFailure(err, ctx));
      }
    });
    request.on('response', (res) => {
      gotResponse = true;
      // Refused up front when the announced size is over the cap, else as soon as the running
      // count passes it: memory stays bounded by the cap whatever the server sends.
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) return finish(tooLargeFailure(ctx, maxBytes, declared));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) return finish(tooLargeFailure(ctx, maxBytes));
        chunks.push(c);
      });
      res.on('error', (err) => finish(networkFailure(err, ctx)));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        finish({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: flat,
          contentType: flat['content-type'] ?? '',
          text: body.toString('utf8'),
          bytes: body.length,
          timeMs: performance.now() - started,
        });
      });
    });
    request.end(req.body);
  });
}
