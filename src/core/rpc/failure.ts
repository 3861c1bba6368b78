/**
 * Every way a node call can fail, as one error type with a kind and a message a user can act on.
 * Messages name the URL only redacted and are scrubbed of the endpoint's secrets, so any of them
 * may be shown, logged or printed as is. Text the node chose (its error message, reason phrase)
 * is quoted on one line, masked and then cut (maskedLine), so one failure is one line of bounded length.
 */
import { CANCELLED, type Cancellable } from '../cancel';
import type { KnobHints } from '../knobs';
import { maskedLine, redactText, redactUrl, type SecretList } from '../redact';
import type { AuthForm } from './endpoint';
import type { JsonRpcErrorObject, JsonRpcId } from './types';

/** Why a call failed, so the editor and the CLI can say what to do about it. */
export type RpcFailureKind =
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'cancelled'
  | 'auth'
  | 'rate-limited'
  | 'server'
  | 'http'
  | 'not-json'
  /** The reply (or a WebSocket message) is larger than the response cap. */
  | 'too-large'
  | 'mismatch'
  | 'rpc'
  | 'invalid-request';

export interface FailureDetails {
  status?: number;
  code?: number;
  data?: unknown;
  retryAfterMs?: number;
  /** The system error code behind a network failure, e.g. ECONNREFUSED. */
  errno?: string;
  /** The operation's whole time budget (its deadline) is spent: no further request can succeed. */
  outOfTime?: boolean;
}

export class RpcFailure extends Error implements Cancellable {
  override readonly name = 'RpcFailure';
  readonly kind: RpcFailureKind;
  /** HTTP status of the reply, when there was one. */
  readonly status?: number;
  /** JSON-RPC error code, for kind 'rpc'. */
  readonly code?: number;
  /** JSON-RPC error data, for kind 'rpc'. */
  readonly data?: unknown;
  /** How long the node asked to wait (Retry-After), for kinds 'rate-limited' and 'server'. */
  readonly retryAfterMs?: number;
  readonly errno?: string;
  /** The deadline of the whole operation ran out (not just this request's own timeout). */
  readonly outOfTime: boolean;

  constructor(kind: RpcFailureKind, message: string, details: FailureDetails = {}) {
    super(message);
    this.kind = kind;
    this.status = details.status;
    this.code = details.code;
    this.data = details.data;
    this.retryAfterMs = details.retryAfterMs;
    this.errno = details.errno;
    this.outOfTime = details.outOfTime === true;
  }

  get cancelled(): boolean {
    return this.kind === CANCELLED;
  }
}

/** What a failure message may mention about the request: all of it is redacted before use. */
export interface FailureContext {
  /** The real URL, key included: only ever shown through redaction. */
  url: string;
  auth: AuthForm;
  secrets: readonly string[];
  timeoutMs: number;
  /** Who answers at the URL, as messages name it: 'the node' unless given (e.g. 'the platform API'). */
  peer?: string;
  /** The caller's words for changing the timeout and the response cap. */
  hints?: KnobHints;
}

/** Builds a failure whose message is scrubbed of the context's secrets and of keys in URLs. */
export function failure(kind: RpcFailureKind, message: string, ctx: Pick<FailureContext, 'secrets'>, details: FailureDetails = {}): RpcFailure {
  return new RpcFailure(kind, redactText(message, ctx.secrets), details);
}

function shownUrl(ctx: FailureContext): string {
  return redactUrl(ctx.url, ctx.secrets);
}

/** The words failure messages use for each auth form. */
export function describeAuth(auth: AuthForm): string {
  switch (auth) {
    case 'key':
      return 'access key in the URL path';
    case 'basic':
      return 'HTTP Basic username and password';
    case 'none':
      return 'no credentials';
  }
}

const AUTH_HINT: Record<AuthForm, string> = {
  key: 'Check that the access key is right and belongs to this node (copy the endpoint again from the console).',
  basic: 'Check the username and password (the console shows them with the node).',
  none: 'This endpoint needs credentials: an access key in the URL path, or a username and password.',
};

/** The first ~80 characters of a body, on one line, quoted; masked before it is cut (see maskedLine). */
export function quoteStart(text: string, max = 80, secrets: SecretList = []): string {
  const flat = redactText(text, secrets).replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

export function rpcErrorFailure(error: JsonRpcErrorObject, ctx: Pick<FailureContext, 'secrets'>, status?: number, prefix = ''): RpcFailure {
  return failure('rpc', `${prefix}JSON-RPC error ${error.code}: ${maskedLine(error.message, ctx.secrets)}`, ctx, { code: error.code, data: error.data, status });
}

/** No answer in time; `unread`: the last message that is no JSON the node sent meanwhile (a WebSocket carries any), so the cause is named. */
export function timeoutFailure(ctx: FailureContext, outOfTime = false, unread?: string): RpcFailure {
  const sent = unread === undefined ? '' : `; it sent a message that is not JSON: ${quoteStart(unread, 80, ctx.secrets)}`;
  return failure('timeout', `No answer from ${shownUrl(ctx)} within ${ctx.timeoutMs} ms${sent}.${ctx.hints?.timeout ? ` Raise the limit with ${ctx.hints.timeout}.` : ''}`, ctx, {
    outOfTime,
  });
}

export function cancelledFailure(ctx: FailureContext): RpcFailure {
  return failure(CANCELLED, `The request to ${shownUrl(ctx)} was cancelled.`, ctx);
}

export function mismatchFailure(sentId: JsonRpcId, gotId: unknown, ctx: FailureContext): RpcFailure {
  return failure(
    'mismatch',
    `The node at ${shownUrl(ctx)} answered with id ${JSON.stringify(gotId)} to request id ${JSON.stringify(sentId)}: the reply does not belong to this request (a proxy or load balancer may be mixing up replies).`,
    ctx,
  );
}

/** A reply that is not JSON, or JSON that is not a JSON-RPC response. */
export function notJsonFailure(reply: { status: number; contentType: string; text: string }, ctx: FailureContext, isJson = false): RpcFailure {
  const what = isJson
    ? 'is JSON but not a JSON-RPC response'
    : `is not JSON (HTTP ${reply.status}, ${/html/i.test(reply.contentType) || /^\s*</.test(reply.text) ? 'an HTML page' : reply.contentType || 'no content type'})`;
  const body = reply.text.trim() ? quoteStart(reply.text, 80, ctx.secrets) : 'an empty body';
  return failure('not-json', `The reply from ${shownUrl(ctx)} ${what}: ${body}. This does not look like a JSON-RPC endpoint; check the URL.`, ctx, { status: reply.status });
}

/** A reply whose HTTP status is not 2xx. `rpcError` is the JSON-RPC error the body held, if any. */
export function httpFailure(reply: { status: number; statusText: string; text: string }, ctx: FailureContext, retryAfterMs?: number, rpcError?: JsonRpcErrorObject): RpcFailure {
  const { status } = reply;
  const head = `HTTP ${status}${reply.statusText ? ` ${maskedLine(reply.statusText, ctx.secrets)}` : ''} from ${shownUrl(ctx)}`;
  const said = rpcError ? `: JSON-RPC error ${rpcError.code}: ${maskedLine(rpcError.message, ctx.secrets)}` : reply.text.trim() ? `: ${quoteStart(reply.text, 80, ctx.secrets)}` : '';
  const details: FailureDetails = { status, retryAfterMs, code: rpcError?.code, data: rpcError?.data };
  if (status === 401 || status === 403) {
    return failure('auth', `The node refused the credentials (${head}). Credentials used: ${describeAuth(ctx.auth)}. ${AUTH_HINT[ctx.auth]}`, ctx, details);
  }
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` The node asks to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After).` : '';
    return failure('rate-limited', `Rate limited by the node (${head}).${wait} Slow down, or send calls in batches.`, ctx, details);
  }
  if (status >= 500) {
    return failure('server', `The node's server failed (${head})${said}. Try again later; if it persists, check the node's status in the console.`, ctx, details);
  }
  if (rpcError) return rpcErrorFailure(rpcError, ctx, status);
  return failure('http', `Unexpected ${head}${said}. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.`, ctx, details);
}

const TLS_CODE = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_TLS_|ERR_SSL_|ERR_OSSL_|EPROTO$)/;

/** The system error code of a network error; happy-eyeballs connects wrap several in one. */
export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; errors?: unknown[] } | undefined;
  if (e && typeof e.code === 'string') return e.code;
  if (e && Array.isArray(e.errors)) return e.errors.map(errorCode).find(Boolean);
  return undefined;
}

function tlsDetail(err: Error): string {
  if (/wrong version number|packet length too long|unknown protocol/i.test(err.message)) {
    return 'the server did not answer with TLS (is it a plain http endpoint?)';
  }
  const text = err.message.replace(/^[^:]*\d+:error:[0-9A-F]+:/, '').split('\n')[0];
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** A request that failed below HTTP: no connection, TLS, a reset. */
export function networkFailure(err: unknown, ctx: FailureContext): RpcFailure {
  const url = shownUrl(ctx);
  const peer = ctx.peer ?? 'the node';
  const code = errorCode(err) ?? 'unknown';
  const message = err instanceof Error ? err.message : String(err);
  const details = { errno: code };
  if (TLS_CODE.test(code) || /certificate|ssl|tls/i.test(message)) {
    return failure(
      'tls',
      `TLS failure talking to ${url}: ${tlsDetail(err instanceof Error ? err : new Error(message))} (${code}). The certificate is not trusted or the TLS handshake failed; check that the URL's scheme (https or http) is right and that ${peer}'s certificate is valid.`,
      ctx,
      details,
    );
  }
  let host = ctx.url;
  try {
    host = new URL(ctx.url).host;
  } catch {
    // keep the whole (redacted) URL
  }
  const reasons: Record<string, string> = {
    ECONNREFUSED: `connection refused (ECONNREFUSED). Is ${peer} running, and are the host and port right?`,
    ENOTFOUND: `the host name ${host} was not found (ENOTFOUND). Check the host name in the URL, and your network or DNS.`,
    EAI_AGAIN: `the host name ${host} could not be looked up (EAI_AGAIN). Check your network or DNS.`,
    EHOSTUNREACH: `there is no route to ${host} (EHOSTUNREACH). Check your network, VPN or firewall.`,
    ENETUNREACH: `the network is unreachable (ENETUNREACH). Check your network, VPN or firewall.`,
    ETIMEDOUT: `connecting to ${host} timed out (ETIMEDOUT). Check your network, VPN or firewall.`,
    ECONNRESET: `the connection was reset before ${peer} answered (ECONNRESET): ${peer}, a proxy or a firewall closed it. Try again.`,
    EPIPE: `the connection was closed while the request was being sent (EPIPE). Try again.`,
  };
  // Node's own words (`socket hang up`, `getaddrinfo …`) say little to a user: ours name the cause.
  // llhttp's codes (HPE_…): something answered, but not in HTTP (another protocol on this port).
  const notHttp = code.startsWith('HPE_')
    ? `the server's answer is not valid HTTP (${code}): is this ${peer}'s endpoint, with the right port and scheme${/^wss?:/i.test(ctx.url) ? ', and does it speak WebSocket' : ''}?`
    : undefined;
  // An error without a system code is ours (a URL no HTTP request can use): its words are the reason.
  const why = code === 'unknown' ? (message ? `: ${maskedLine(message.replace(/\.$/, ''), ctx.secrets)}` : '') : ` (${code})`;
  const reason = reasons[code] ?? notHttp ?? `the connection failed${why}. Check the URL, your network, and that ${peer} is running.`;
  return failure('unreachable', `Cannot reach ${peer} at ${url}: ${reason}`, ctx, details);
}

const MIB = 1024 * 1024;

function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${(bytes / MIB).toFixed(1)} MiB`;
}

/** A reply larger than the response cap: refused, and the rest of it never read. */
export function tooLargeFailure(ctx: FailureContext, limitBytes: number, declaredBytes?: number): RpcFailure {
  const peer = ctx.peer ?? 'the node';
  const announced = declaredBytes !== undefined ? ` (it announced ${sizeText(declaredBytes)})` : '';
  return failure(
    'too-large',
    `The reply from ${shownUrl(ctx)} is larger than the ${sizeText(limitBytes)} response cap${announced}: refused without reading the rest. Ask ${peer} for less (a narrower range, fewer results)${ctx.hints?.responseCap ? `, or raise the cap with ${ctx.hints.responseCap}` : ''}.`,
    ctx,
  );
}

/** A ws:// or wss:// URL whose server answered the upgrade request with a plain HTTP reply. */
export function notWebSocketFailure(reply: { status: number; statusText: string }, ctx: FailureContext): RpcFailure {
  const status = `HTTP ${reply.status}${reply.statusText ? ` ${maskedLine(reply.statusText, ctx.secrets)}` : ''}`;
  return failure(
    'http',
    `${shownUrl(ctx)} answered ${status} instead of upgrading to WebSocket: is this the node's WebSocket endpoint? (It often differs from the HTTPS endpoint by port or path.)`,
    ctx,
    { status: reply.status },
  );
}
