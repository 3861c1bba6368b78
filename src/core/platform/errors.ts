/**
 * Every way a platform API request can fail, as one error type with a kind and a message that
 * says what to do. Messages quote the API's own `{error: {code, message, fields}}` text when it
 * sends one, and are scrubbed of the API key (and the secret parts of any URL) before they exist,
 * so any of them may be shown, logged or printed as is.
 */
import { CANCELLED, type Cancellable } from '../cancel';
import { quoteStart } from '../rpc/failure';
import { maskedLine, redactText, registerPublicUrl } from '../redact';
import { isRecord } from './parse';

export type PlatformErrorKind =
  /** 401: the API key is wrong, revoked or missing. */
  | 'auth'
  /** 403: the key may not do this (e.g. a member's role). */
  | 'forbidden'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  /** Any other HTTP status. */
  | 'http'
  | 'not-json'
  /** The reply is larger than the response cap. */
  | 'too-large'
  /** JSON, but not the shape the API documents (no `results`, an object without id…). */
  | 'bad-reply'
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'cancelled'
  /** Refused before sending: an API URL or key that cannot be used, a bad filter or id. */
  | 'invalid-request';

export interface PlatformErrorDetails {
  status?: number;
  retryAfterMs?: number;
  /** The API's `error.code`. */
  apiCode?: string;
  /** The API's `error.fields` (which input was wrong, and why). */
  fields?: Record<string, unknown>;
  /** For a list that failed after some pages: the number of the page that failed (1-based). */
  page?: number;
  /**
   * For a list that failed after some pages: the objects of the pages read before. A failed
   * list never returns them as its result; a caller may show them, marked as incomplete.
   */
  partial?: readonly unknown[];
}

export class PlatformError extends Error implements Cancellable {
  override readonly name = 'PlatformError';
  readonly kind: PlatformErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly apiCode?: string;
  readonly fields?: Record<string, unknown>;
  readonly page?: number;
  readonly partial?: readonly unknown[];

  constructor(kind: PlatformErrorKind, message: string, details: PlatformErrorDetails = {}) {
    super(message);
    this.kind = kind;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.apiCode = details.apiCode;
    this.fields = details.fields;
    this.page = details.page;
    this.partial = details.partial;
  }

  get cancelled(): boolean {
    return this.kind === CANCELLED;
  }
}

/** What the 401 message tells the user to do; the CLI says where its key comes from instead. */
export const SET_KEY_HINT = 'set a new one with "Chaindeck: Set Platform API Key"';

/** What to do about a URL that is not the API's; `where` is the caller's words for where that URL is set. */
function checkUrl(where: string | undefined): string {
  return `Check the platform API URL${where ? ` (${where})` : ''}: it is the API's base, e.g. https://api.chainstack.com.`;
}

/* A `shownUrl` below is a platform API route the client already redacted: its path holds ids, not keys, and is registered as public so the scrub keeps it. */

/** Builds an error whose message is scrubbed of the given secrets and of keys in URLs. */
export function platformError(kind: PlatformErrorKind, message: string, secrets: readonly string[], details: PlatformErrorDetails = {}): PlatformError {
  return new PlatformError(kind, redactText(message, secrets), details);
}

/** What the API said about a failure: its `error` object, or a DRF-style `detail`. */
export interface ApiErrorText {
  code?: string;
  message?: string;
  fields?: Record<string, unknown>;
}

/** Reads `{error: {code, message, fields?}}` (or `{detail}`, `{message}`) from a reply body. */
export function apiErrorOf(body: unknown): ApiErrorText | undefined {
  if (!isRecord(body)) return undefined;
  const error = isRecord(body.error) ? body.error : undefined;
  if (error) {
    return {
      code: typeof error.code === 'string' || typeof error.code === 'number' ? String(error.code) : undefined,
      message: typeof error.message === 'string' ? error.message : undefined,
      fields: isRecord(error.fields) ? error.fields : undefined,
    };
  }
  if (typeof body.error === 'string') return { message: body.error };
  if (typeof body.detail === 'string') return { message: body.detail };
  if (typeof body.message === 'string') return { message: body.message };
  return undefined;
}

/** `name: why; other: why` from the API's `fields` (values may be strings or lists of them). */
function fieldsText(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([name, why]) => `${name}: ${Array.isArray(why) ? why.map(String).join(' ') : typeof why === 'string' ? why : JSON.stringify(why)}`)
    .join('; ');
}

/** The API's words, e.g. `Invalid token. (authentication_failed)`, or the start of the body. */
export function describeApiError(api: ApiErrorText | undefined, text: string, secrets: readonly string[] = []): string {
  if (api && (api.message || api.code || api.fields)) {
    const parts = [api.message, api.code && `(${api.code})`].filter(Boolean).join(' ');
    const fields = api.fields && Object.keys(api.fields).length ? `${parts ? ' ' : ''}[${fieldsText(api.fields)}]` : '';
    // The API's words on one line, masked then cut: a multi-line or megabyte message stays one bounded line.
    return maskedLine(`${parts}${fields}`, secrets);
  }
  return text.trim() ? quoteStart(text, 80, secrets) : 'an empty body';
}

/** What the request was for, so messages can say "no such node ND-1". */
export interface RequestSubject {
  /** e.g. "list nodes", "get node ND-1", "read the organization". */
  action: string;
  /** For a get: the object's singular name and id. */
  object?: { singular: string; id: string };
}

export interface ReplyFacts {
  status: number;
  statusText: string;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  body: unknown;
  retryAfterMs?: number;
}

/** The error for a reply whose HTTP status is not 2xx. */
export function statusError(reply: ReplyFacts, shownUrl: string, subject: RequestSubject, secrets: readonly string[], keyHint = SET_KEY_HINT, apiUrlHint?: string): PlatformError {
  registerPublicUrl(shownUrl);
  const { status } = reply;
  const api = apiErrorOf(reply.body);
  const said = describeApiError(api, reply.text, secrets);
  const head = `HTTP ${status}${reply.statusText ? ` ${maskedLine(reply.statusText, secrets)}` : ''} from ${shownUrl}: ${said}`;
  const details: PlatformErrorDetails = { status, retryAfterMs: reply.retryAfterMs, apiCode: api?.code, fields: api?.fields };
  const make = (kind: PlatformErrorKind, message: string) => platformError(kind, message, secrets, details);
  if (status === 401) {
    return make('auth', `The platform API did not accept the API key (${head}). The key is wrong or was revoked: ${keyHint}.`);
  }
  if (status === 403) {
    return make(
      'forbidden',
      `The API key is not allowed to ${subject.action} (${head}). Keys of users with a restricted role (e.g. member) cannot do everything: ask an organization admin, or use an admin's key.`,
    );
  }
  if (status === 404) {
    if (subject.object) {
      return make('not-found', `No such ${subject.object.singular} ${subject.object.id} (${head}). Check the id: it may have been deleted, or belong to another organization.`);
    }
    return make('not-found', `The platform API has nothing at ${shownUrl} (${head}). ${checkUrl(apiUrlHint)}`);
  }
  if (status === 429) {
    const wait = reply.retryAfterMs !== undefined ? `It asks to wait ${Math.ceil(reply.retryAfterMs / 1000)} s (Retry-After); try again after that.` : 'Wait a moment and try again.';
    return make('rate-limited', `The platform API is rate limiting this key (${head}). ${wait}`);
  }
  if (status >= 500) {
    return make('server', `The platform API's server failed (${head}). Try again later; if it persists, check the provider's status page.`);
  }
  return make('http', `The platform API refused to ${subject.action} (${head}).`);
}

/** The error for a 2xx reply that is not JSON. */
export function notJsonError(reply: { status: number; contentType: string; text: string }, shownUrl: string, secrets: readonly string[], apiUrlHint?: string): PlatformError {
  registerPublicUrl(shownUrl);
  const what = /html/i.test(reply.contentType) || /^\s*</.test(reply.text) ? 'an HTML page' : reply.contentType || 'no content type';
  const body = reply.text.trim() ? quoteStart(reply.text, 80, secrets) : 'an empty body';
  return platformError('not-json', `The reply from ${shownUrl} is not JSON (HTTP ${reply.status}, ${what}): ${body}. ${checkUrl(apiUrlHint)}`, secrets, { status: reply.status });
}

/** The error for JSON that is not what the API documents. */
export function badReplyError(shownUrl: string, why: string, secrets: readonly string[], apiUrlHint?: string): PlatformError {
  registerPublicUrl(shownUrl);
  return platformError('bad-reply', `The reply from ${shownUrl} is not what the platform API sends: ${maskedLine(why, secrets)}. ${checkUrl(apiUrlHint)}`, secrets);
}
