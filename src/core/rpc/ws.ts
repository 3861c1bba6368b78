/**
 * JSON-RPC over one WebSocket (package `ws`): calls, batches and subscriptions (eth_subscribe by
 * default) share the connection. When an open connection drops, calls in flight fail, and if
 * subscriptions are active the client reconnects with backoff and subscribes them again; the
 * node hands out new subscription ids, which are mapped to the same Subscription objects, so
 * their listeners keep receiving notifications.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';
import type { KnobHints } from '../knobs';
import WebSocket from 'ws';
import type { ResolvedEndpoint } from './endpoint';
import { checkParams, type Params } from './client';
import { responseLimit, type Deadline } from './deadline';
import { cancelledFailure, failure, httpFailure, networkFailure, notWebSocketFailure, rpcErrorFailure, RpcFailure, timeoutFailure, tooLargeFailure, type FailureContext } from './failure';
import { checkSingle, errorOf, isResponse, makeRequest, matchBatch, resultOf, type BatchItem } from './jsonrpc';
import { parseRetryAfter, retryDelay } from './retry';
import { DEFAULT_TIMEOUT_MS, type CallOptions, type JsonRpcRequest, type JsonRpcResponse, type RpcCall } from './types';

export type WsStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface WsClientOptions {
  /** Default timeout of each call, connecting included, in ms. */
  timeoutMs?: number;
  /** One limit for every call of this client (the CLI's --timeout for the whole command). */
  deadline?: Deadline;
  reconnect?: {
    /** Delay before the first reconnect attempt; doubles (with jitter) up to maxDelayMs. */
    initialDelayMs?: number;
    maxDelayMs?: number;
    /** Attempts before giving up; subscriptions then get onError. Default: unlimited. */
    maxAttempts?: number;
  };
  /** Ping period to detect a dead connection (no pong by the next ping); 0 turns it off. Default 30 s. */
  pingIntervalMs?: number;
  onStatus?(status: WsStatus, problem?: RpcFailure): void;
  /** The caller's words for raising the limits, which failure messages end with. */
  hints?: KnobHints;
}

export interface SubscribeOptions extends CallOptions {
  /** Default eth_subscribe. */
  method?: string;
  /** Default eth_unsubscribe. */
  unsubscribeMethod?: string;
  /** Told when subscribing again after a reconnect fails. */
  onError?(problem: RpcFailure): void;
}

export interface Subscription {
  /** The node's current id for this subscription; changes after a reconnect. */
  readonly id: string | number | undefined;
  readonly params: Params;
  /** Stops notifications at once and asks the node to drop the subscription. */
  unsubscribe(): Promise<void>;
}

/** A call or batch waiting for its answer: `answer` runs synchronously in the message handler. */
interface Waiter {
  ids: number[];
  answer(message: unknown): void;
  fail(problem: RpcFailure): void;
}

class ActiveSubscription implements Subscription {
  id: string | number | undefined;
  ended = false;
  constructor(
    private readonly client: WsRpcClient,
    readonly params: Params,
    readonly listener: (result: unknown) => void,
    readonly options: SubscribeOptions,
  ) {}

  unsubscribe(): Promise<void> {
    return this.client.endSubscription(this);
  }
}

function messageText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export class WsRpcClient {
  private socket?: WebSocket;
  /** The socket still in its handshake, so close() can abort it. */
  private handshaking?: WebSocket;
  private opening?: Promise<WebSocket>;
  private readonly waiters = new Map<number, Waiter>();
  private readonly subscriptions = new Set<ActiveSubscription>();
  private readonly byServerId = new Map<string, ActiveSubscription>();
  private nextId = 1;
  /** Messages that are not JSON, and the start of the last: a call that times out names them as the cause. */
  private unreadCount = 0;
  private lastUnread = '';
  private closed = false;
  private reconnectTimer?: ReturnType<typeof setTimeout>;
  private reconnectAttempt = 0;
  private heartbeat?: ReturnType<typeof setInterval>;
  private readonly timeoutMs: number;
  private currentStatus: WsStatus = 'closed';

  constructor(
    readonly endpoint: ResolvedEndpoint,
    private readonly options: WsClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get status(): WsStatus {
    return this.currentStatus;
  }

  async call<T = unknown>(method: string, params?: Params, options: CallOptions = {}): Promise<T> {
    return resultOf<T>(await this.callResponse(method, params, options), this.context(options));
  }

  /** The node's whole response, error object included. */
  async callResponse(method: string, params?: Params, options: CallOptions = {}): Promise<JsonRpcResponse> {
    const ctx = this.context(options);
    const request = makeRequest(this.nextId++, { method, params: checkParams(params, ctx) });
    return (await this.send([request], false, options)) as JsonRpcResponse;
  }

  /** A batch over the socket: one item per call, in call order, matched by id. */
  async batch(calls: readonly RpcCall[], options: CallOptions = {}): Promise<BatchItem[]> {
    const ctx = this.context(options);
    if (calls.length === 0) throw failure('invalid-request', 'A batch needs at least one call.', ctx);
    const requests = calls.map((c) => makeRequest(this.nextId++, { method: c.method, params: checkParams(c.params, ctx) }));
    return (await this.send(requests, true, options)) as BatchItem[];
  }

  /** Subscribes (eth_subscribe by default) and calls `listener` with each notification's result. */
  async subscribe(params: Params, listener: (result: unknown) => void, options: SubscribeOptions = {}): Promise<Subscription> {
    const subscription = new ActiveSubscription(this, checkParams(params, this.context(options)), listener, options);
    await this.subscribeOnServer(subscription, options);
    return subscription;
  }

  /** Closes the connection for good: calls in flight are cancelled, subscriptions end. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
    this.failWaiters(failure('cancelled', 'The WebSocket client was closed before the node answered.', this.context({})));
    this.subscriptions.clear();
    this.byServerId.clear();
    this.handshaking?.terminate();
    await this.opening?.catch(() => undefined);
    const socket = this.socket;
    this.socket = undefined;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
        setTimeout(() => socket.terminate(), 1000).unref();
      });
    }
    this.setStatus('closed');
  }

  /** @internal Used by Subscription.unsubscribe. */
  async endSubscription(subscription: ActiveSubscription): Promise<void> {
    if (subscription.ended) return;
    subscription.ended = true;
    this.subscriptions.delete(subscription);
    const id = subscription.id;
    if (id === undefined) return;
    this.byServerId.delete(String(id));
    if (this.socket?.readyState === WebSocket.OPEN) {
      // The listener is already detached; the node's answer only tidies up its side.
      await this.call(subscription.options.unsubscribeMethod ?? 'eth_unsubscribe', [id]).catch(() => undefined);
    }
  }

  private context(options: CallOptions): FailureContext {
    return {
      url: this.endpoint.wsUrl,
      auth: this.endpoint.auth,
      secrets: this.endpoint.secrets,
      timeoutMs: (options.deadline ?? this.options.deadline)?.totalMs ?? options.timeoutMs ?? this.timeoutMs,
      hints: this.options.hints,
    };
  }

  private setStatus(status: WsStatus, problem?: RpcFailure): void {
    if (status === this.currentStatus && !problem) return;
    this.currentStatus = status;
    this.options.onStatus?.(status, problem);
  }

  private async subscribeOnServer(subscription: ActiveSubscription, options: CallOptions): Promise<void> {
    const method = subscription.options.method ?? 'eth_subscribe';
    const request = makeRequest(this.nextId++, { method, params: subscription.params });
    // Bound in the message handler itself, so a notification right behind the answer is not lost.
    const bind = (response: JsonRpcResponse) => {
      const id = response.result;
      if (errorOf(response) || subscription.ended || (typeof id !== 'string' && typeof id !== 'number')) return;
      subscription.id = id;
      this.byServerId.set(String(id), subscription);
      this.subscriptions.add(subscription);
    };
    const response = (await this.send([request], false, options, bind)) as JsonRpcResponse;
    const error = errorOf(response);
    if (error) throw rpcErrorFailure(error, this.context(options));
    if (subscription.id === undefined && !subscription.ended) {
      throw failure('rpc', `The node answered ${method} without a subscription id: ${JSON.stringify(response.result)}`, this.context(options));
    }
  }

  /**
   * Sends requests (one call, or a batch) and waits for the answer, within the timeout (which
   * covers connecting too) and until the signal fires.
   */
  private send(requests: JsonRpcRequest[], asBatch: boolean, options: CallOptions, onAnswer?: (r: JsonRpcResponse) => void): Promise<JsonRpcResponse | BatchItem[]> {
    const ctx = this.context(options);
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(failure('cancelled', 'The WebSocket client is closed.', ctx));
      if (options.signal?.aborted) return reject(cancelledFailure(ctx));
      let done = false;
      const waiter: Waiter = {
        ids: requests.map((r) => r.id),
        answer: (message) => {
          try {
            if (asBatch) return settle(matchBatch(requests, message, ctx));
            const response = checkSingle(requests[0], message as JsonRpcResponse, ctx);
            onAnswer?.(response);
            settle(response);
          } catch (err) {
            settle(err instanceof RpcFailure ? err : failure('mismatch', String(err), ctx));
          }
        },
        fail: (problem) => settle(problem),
      };
      const settle = (outcome: JsonRpcResponse | BatchItem[] | RpcFailure) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        for (const id of waiter.ids) if (this.waiters.get(id) === waiter) this.waiters.delete(id);
        if (outcome instanceof RpcFailure) reject(outcome);
        else resolve(outcome);
      };
      const deadline = options.deadline ?? this.options.deadline;
      const limitMs = deadline ? deadline.limit(options.timeoutMs ?? this.timeoutMs) : ctx.timeoutMs;
      const unreadBefore = this.unreadCount;
      const timer = setTimeout(() => settle(timeoutFailure(ctx, limitMs < (options.timeoutMs ?? this.timeoutMs), this.unreadCount > unreadBefore ? this.lastUnread : undefined)), limitMs);
      const onAbort = () => settle(cancelledFailure(ctx));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.open().then(
        (socket) => {
          if (done) return;
          for (const id of waiter.ids) this.waiters.set(id, waiter);
          const payload = asBatch ? requests : requests[0];
          socket.send(JSON.stringify(payload), (err) => {
            if (err) settle(networkFailure(err, ctx));
          });
        },
        (problem: RpcFailure) => settle(problem),
      );
    });
  }

  /** The open socket, connecting first when there is none. Concurrent callers share one attempt. */
  private open(): Promise<WebSocket> {
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve(this.socket);
    if (this.closed) return Promise.reject(failure('cancelled', 'The WebSocket client is closed.', this.context({})));
    this.opening ??= this.connect().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private connect(): Promise<WebSocket> {
    const ctx = this.context({});
    this.setStatus(this.subscriptions.size ? 'reconnecting' : 'connecting');
    return new Promise<WebSocket>((resolve, reject) => {
      let socket: WebSocket;
      try {
        // Headers (Basic auth) go on the upgrade request; the key, if any, is in the URL path.
        // maxPayload: a message over the response cap closes the connection before it is buffered.
        const handshakeTimeout = this.options.deadline ? Math.max(1, this.options.deadline.limit(this.timeoutMs)) : this.timeoutMs;
        socket = new WebSocket(this.endpoint.wsUrl, { headers: this.endpoint.headers, handshakeTimeout, perMessageDeflate: false, maxPayload: responseLimit() });
      } catch {
        return reject(failure('invalid-request', `${this.endpoint.wsUrl} is not a usable WebSocket URL: it needs the scheme ws or wss, a host, and no fragment.`, ctx));
      }
      this.handshaking = socket;
      let opened = false;
      let problem: RpcFailure | undefined;
      socket.on('unexpected-response', (_req, res) => {
        const reply = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: '' };
        // Refused credentials, rate limits and server failures read as such; any other answer
        // (a web page, a 404, a redirect) means no WebSocket endpoint at this URL.
        problem =
          [401, 403, 429].includes(reply.status) || reply.status >= 500
            ? httpFailure(reply, ctx, parseRetryAfter(res.headers['retry-after'] as string | undefined))
            : notWebSocketFailure(reply, ctx);
        res.resume();
        socket.terminate();
      });
      socket.on('error', (err) => {
        const code = (err as { code?: string }).code;
        if (opened) {
          // A message over the cap: ws closes the connection (1009); say why before the drop.
          if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.failWaiters(tooLargeFailure(ctx, responseLimit()));
          return; // a 'close' follows and handles the drop
        }
        problem ??= /handshake has timed out/i.test(err.message)
          ? timeoutFailure(ctx)
          : code && !code.startsWith('WS_ERR_')
            ? networkFailure(err, ctx)
            : failure(
                'unreachable',
                `The WebSocket handshake with ${this.endpoint.wsUrl} failed: the server's answer is not a valid WebSocket upgrade. Is this the node's WebSocket endpoint?`,
                ctx,
              );
      });
      socket.on('open', () => {
        opened = true;
        this.handshaking = undefined;
        if (this.closed) {
          socket.close();
          return reject(failure('cancelled', 'The WebSocket client was closed.', ctx));
        }
        this.socket = socket;
        this.reconnectAttempt = 0;
        this.startHeartbeat(socket);
        this.setStatus('open');
        resolve(socket);
        this.resubscribe();
      });
      socket.on('message', (data) => this.onMessage(messageText(data)));
      socket.on('close', () => {
        if (!opened) {
          if (this.handshaking === socket) this.handshaking = undefined;
          if (this.closed) return reject(failure('cancelled', 'The WebSocket client was closed while connecting.', ctx));
          reject(problem ?? failure('unreachable', `The connection to ${this.endpoint.wsUrl} closed during the WebSocket handshake.`, ctx));
        } else {
          this.onDrop(socket);
        }
      });
    });
  }

  private onMessage(text: string): void {
    if (tooDeepAt(text, MAX_JSON_DEPTH.response) !== -1) {
      // Which call it answers cannot be told without walking it: every waiting call fails.
      this.failWaiters(failure('mismatch', `The node sent a message nested more than ${MAX_JSON_DEPTH.response} levels deep: refused, no JSON-RPC result needs that.`, this.context({})));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      // Not JSON: nothing can be matched to it, but a call that times out says it came.
      this.unreadCount++;
      this.lastUnread = text.slice(0, 1000);
      return;
    }
    if (Array.isArray(message)) {
      const first = message.find((m) => isResponse(m) && typeof m.id === 'number' && this.waiters.has(m.id)) as JsonRpcResponse | undefined;
      if (first) this.waiters.get(first.id as number)!.answer(message);
      return;
    }
    if (isResponse(message)) {
      if (typeof message.id === 'number') this.waiters.get(message.id)?.answer(message);
      return;
    }
    const note = message as { id?: unknown; params?: { subscription?: unknown; result?: unknown } };
    if (note && note.id === undefined && note.params && note.params.subscription !== undefined) {
      const subscription = this.byServerId.get(String(note.params.subscription));
      if (!subscription) return;
      try {
        subscription.listener(note.params.result);
      } catch {
        // a failing listener must not break the connection for the others
      }
    }
  }

  /** An open connection closed without close(): fail what was in flight, reconnect if subscribed. */
  private onDrop(socket: WebSocket): void {
    if (this.socket === socket) this.socket = undefined;
    this.stopHeartbeat();
    const ctx = this.context({});
    this.failWaiters(failure('unreachable', `The WebSocket connection to ${this.endpoint.wsUrl} dropped before the node answered.`, ctx));
    for (const subscription of this.subscriptions) subscription.id = undefined;
    this.byServerId.clear();
    if (this.closed) return this.setStatus('closed');
    if (this.subscriptions.size === 0) return this.setStatus('closed'); // the next call reconnects
    this.setStatus('reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    // The last subscription ended while reconnecting: stop, like a drop with none (the next call connects).
    if (this.subscriptions.size === 0) return this.setStatus('closed');
    const { initialDelayMs = 250, maxDelayMs = 10_000, maxAttempts = Infinity } = this.options.reconnect ?? {};
    if (this.reconnectAttempt >= maxAttempts) {
      const problem = failure('unreachable', `Gave up reconnecting to ${this.endpoint.wsUrl} after ${maxAttempts} attempts.`, this.context({}));
      for (const subscription of this.subscriptions) subscription.options.onError?.(problem);
      this.subscriptions.clear();
      return this.setStatus('closed', problem);
    }
    const delay = retryDelay(this.reconnectAttempt++, { retries: 0, baseDelayMs: initialDelayMs, maxDelayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.open().catch((problem: RpcFailure) => {
        this.setStatus('reconnecting', problem);
        this.scheduleReconnect();
      });
    }, delay);
  }

  /** After a reconnect: subscribe again everything that lost its server-side id. */
  private resubscribe(): void {
    for (const subscription of this.subscriptions) {
      if (subscription.id !== undefined || subscription.ended) continue;
      this.subscribeOnServer(subscription, {}).catch((problem: RpcFailure) => subscription.options.onError?.(problem));
    }
  }

  private failWaiters(problem: RpcFailure): void {
    for (const waiter of new Set(this.waiters.values())) waiter.fail(problem);
    this.waiters.clear();
  }

  private startHeartbeat(socket: WebSocket): void {
    const period = this.options.pingIntervalMs ?? 30_000;
    if (!period) return;
    let alive = true;
    const live = () => {
      alive = true;
    };
    socket.on('pong', live);
    socket.on('message', live);
    this.heartbeat = setInterval(() => {
      if (!alive) return socket.terminate(); // 'close' follows, then the reconnect
      alive = false;
      socket.ping();
    }, period);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
