/**
 * The JSON-RPC 2.0 client over HTTP(S): single calls, batches, REST GETs (the beacon API) and the
 * raw exchange behind the editor's response view. Ids are generated and checked; idempotent
 * reads are retried on HTTP 429 and 5xx; one timeout (or a deadline shared by a whole command)
 * covers a call's attempts and the waits between them; every failure is an RpcFailure with a
 * redacted, actionable message.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';
import type { KnobHints } from '../knobs';
import type { ResolvedEndpoint } from './endpoint';
import { isIdempotentRead } from './reads';
import { Deadline } from './deadline';
import { cancelledFailure, failure, httpFailure, notJsonFailure, RpcFailure, type FailureContext } from './failure';
import { httpExchange, type HttpReply } from './http';
import { checkSingle, errorOf, isResponse, makeRequest, matchBatch, resultOf, type BatchItem } from './jsonrpc';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryPlan, sleep, type RetryPolicy } from './retry';
import { DEFAULT_TIMEOUT_MS, type CallOptions, type JsonRpcResponse, type RawExchange, type RpcCall } from './types';

export type Params = unknown[] | Record<string, unknown>;

export interface ClientOptions {
  /** Default timeout of each call, retries included, in ms. */
  timeoutMs?: number;
  /** One limit for every call of this client (the CLI's --timeout for the whole command). */
  deadline?: Deadline;
  retry?: Partial<RetryPolicy>;
  /** The caller's words for raising the limits, which failure messages end with. */
  hints?: KnobHints;
}

/** Options of a raw exchange: by default a POST of the payload to the endpoint's URL. */
export interface ExchangeOptions extends Omit<CallOptions, 'retries'> {
  httpMethod?: 'GET' | 'POST';
  /** Appended to the endpoint's path, e.g. `/eth/v1/node/version` for a beacon node. */
  path?: string;
}

/** Params must be a JSON array (positional) or object (named): anything else is refused unsent. */
export function checkParams(params: unknown, ctx: Pick<FailureContext, 'secrets'> = { secrets: [] }): Params {
  if (params === undefined) return [];
  if (typeof params === 'object' && params !== null) return params as Params;
  throw failure('invalid-request', `Params must be a JSON array (positional) or a JSON object (named), not ${params === null ? 'null' : typeof params}.`, ctx);
}

/** The endpoint's URL with a REST path appended to its own path (which may hold the key). */
export function joinPath(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  const [pathname, query] = path.split('?', 2);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${pathname.replace(/^\/+/, '')}`;
  if (query !== undefined) url.search = query;
  return url.toString();
}

export class RpcClient {
  private nextId = 1;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly deadline?: Deadline;
  private readonly hints?: KnobHints;

  constructor(
    readonly endpoint: ResolvedEndpoint,
    options: ClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.deadline = options.deadline;
    this.hints = options.hints;
  }

  /** Calls `method` and returns its result; a JSON-RPC error object rejects as kind 'rpc'. */
  async call<T = unknown>(method: string, params?: Params, options: CallOptions = {}): Promise<T> {
    return resultOf<T>(await this.callResponse(method, params, options), this.context(options));
  }

  /** Calls `method` and returns the node's whole response, error object included. */
  async callResponse(method: string, params?: Params, options: CallOptions = {}): Promise<JsonRpcResponse> {
    const ctx = this.context(options);
    const request = makeRequest(this.nextId++, { method, params: checkParams(params, ctx) });
    const reply = await this.send('POST', this.endpoint.httpUrl, JSON.stringify(request), isIdempotentRead(method), options);
    if (!isResponse(reply)) throw notJsonFailure({ status: 200, contentType: 'application/json', text: JSON.stringify(reply) }, ctx, true);
    return checkSingle(request, reply, ctx);
  }

  /**
   * Sends the calls as one batch and returns one item per call, in call order, each with its own
   * result or failure. Retried (on 429/5xx) only when every call is an idempotent read.
   */
  async batch(calls: readonly RpcCall[], options: CallOptions = {}): Promise<BatchItem[]> {
    const ctx = this.context(options);
    if (calls.length === 0) throw failure('invalid-request', 'A batch needs at least one call.', ctx);
    const requests = calls.map((c) => makeRequest(this.nextId++, { method: c.method, params: checkParams(c.params, ctx) }));
    const idempotent = calls.every((c) => isIdempotentRead(c.method));
    const reply = await this.send('POST', this.endpoint.httpUrl, JSON.stringify(requests), idempotent, options);
    return matchBatch(requests, reply, ctx);
  }

  /** GETs a REST path below the endpoint (the beacon API) and returns the JSON body. */
  async getJson<T = unknown>(path: string, options: CallOptions = {}): Promise<T> {
    return (await this.send('GET', joinPath(this.endpoint.httpUrl, path), undefined, true, options)) as T;
  }

  /**
   * Sends a payload exactly as the user wrote it (a string goes out verbatim, so malformed JSON
   * can be sent on purpose) and returns the reply as it came. Never retried; HTTP errors are
   * part of the result, only failures below HTTP reject.
   */
  async exchange(payload: string | object | undefined, options: ExchangeOptions = {}): Promise<RawExchange> {
    const method = options.httpMethod ?? 'POST';
    const url = options.path ? joinPath(this.endpoint.httpUrl, options.path) : this.endpoint.httpUrl;
    const body = method === 'GET' || payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
    const deadline = options.deadline ?? this.deadline;
    const reply = await httpExchange({ ...this.httpRequest(method, url, body, false, options), deadline }, this.context(options, url));
    return { ...reply, body: parseJson(reply.text) };
  }

  private context(options: CallOptions, url = this.endpoint.httpUrl): FailureContext {
    const deadline = options.deadline ?? this.deadline;
    return { url, auth: this.endpoint.auth, secrets: this.endpoint.secrets, timeoutMs: deadline?.totalMs ?? options.timeoutMs ?? this.timeoutMs, hints: this.hints };
  }

  private httpRequest(method: 'GET' | 'POST', url: string, body: string | undefined, idempotent: boolean, options: CallOptions) {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.endpoint.headers };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return { url, method, headers, body, idempotent, timeoutMs: options.timeoutMs ?? this.timeoutMs, signal: options.signal };
  }

  /** One request with its retries; resolves with the parsed JSON of a 2xx reply. */
  private async send(method: 'GET' | 'POST', url: string, body: string | undefined, idempotent: boolean, options: CallOptions): Promise<unknown> {
    const ctx = this.context(options, url);
    const retries = idempotent ? (options.retries ?? this.retry.retries) : 0;
    // Attempts and the waits between them draw on one budget: the call's timeout, or the
    // deadline shared with the other calls of a command.
    const deadline = options.deadline ?? this.deadline ?? new Deadline(options.timeoutMs ?? this.timeoutMs, false);
    for (let attempt = 0; ; attempt++) {
      const reply = await httpExchange({ ...this.httpRequest(method, url, body, idempotent, options), deadline }, ctx);
      if (reply.status >= 200 && reply.status < 300) {
        if (tooDeepAt(reply.text, MAX_JSON_DEPTH.response) !== -1) throw failure('mismatch', TOO_DEEP, ctx);
        const json = parseJson(reply.text);
        if (json === undefined) throw notJsonFailure(reply, ctx);
        return json;
      }
      const failed = statusFailure(reply, ctx);
      if (attempt >= retries || !isRetryableStatus(reply.status)) throw failed;
      const wait = retryPlan(attempt, this.retry, failed.retryAfterMs, deadline.remainingMs());
      if (wait === 'deadline') throw outOfTime(failed, ctx, deadline.shared);
      if (wait === 'policy') throw failed;
      await sleep(wait, options.signal, () => cancelledFailure(ctx));
    }
  }
}

/** A retryable failure whose wait would end after the timeout: fail now, saying why. */
function outOfTime(failed: RpcFailure, ctx: FailureContext, shared: boolean): RpcFailure {
  const { status, code, data, retryAfterMs, errno } = failed;
  const knobs = ctx.hints?.timeoutBrief ? ` (${ctx.hints.timeoutBrief})` : '';
  return new RpcFailure(failed.kind, `${failed.message} Gave up: waiting to retry would go past the ${ctx.timeoutMs} ms timeout${knobs}.`, {
    status,
    code,
    data,
    retryAfterMs,
    errno,
    outOfTime: shared,
  });
}

/** The failure for a non-2xx reply, with the node's Retry-After and JSON-RPC error when present. */
function statusFailure(reply: HttpReply, ctx: FailureContext) {
  const json = parseJson(reply.text);
  const rpcError = isResponse(json) ? errorOf(json) : undefined;
  return httpFailure(reply, ctx, parseRetryAfter(reply.headers['retry-after']), rpcError);
}

const TOO_DEEP = `The node's answer is nested more than ${MAX_JSON_DEPTH.response} levels deep: refused, no JSON-RPC result needs that.`;

/** Undefined for no JSON, and for JSON too deep to walk (the raw text is still shown). */
function parseJson(text: string): unknown {
  if (!text.trim() || tooDeepAt(text, MAX_JSON_DEPTH.response) !== -1) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
