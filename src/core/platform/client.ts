/**
 * The platform API client: the organization, and list / get of projects, networks, nodes and
 * identities, over core/rpc's HTTP exchange (keep-alive, a timeout on every request, an
 * AbortSignal). Lists follow `next` through every page. GETs are retried on 429 and 5xx like
 * the JSON-RPC client's reads, unless the API asks to wait longer than the retry policy allows.
 *
 * A list whose page N > 1 fails is an error naming the page, never a shorter result; the
 * objects read before are attached to the error as `partial`, for a caller that wants to show
 * them marked as incomplete.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../json';
import type { KnobHints } from '../knobs';
import { RpcFailure, type FailureContext } from '../rpc/failure';
import { Deadline } from '../rpc/deadline';
import { httpExchange, type HttpReply } from '../rpc/http';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryPlan, sleep, type RetryPolicy } from '../rpc/retry';
import { DEFAULT_TIMEOUT_MS } from '../rpc/types';
import { redactUrl, registerPublicUrl } from '../redact';
import { DEFAULT_API_URL, normaliseApiUrl } from './apiUrl';
import { badReplyError, notJsonError, platformError, PlatformError, SET_KEY_HINT, statusError, type RequestSubject } from './errors';
import { isPlatformId, PLATFORM_ID_RULE } from './ids';
import { parseObject, parsePage, ShapeError } from './parse';
import {
  LIST_FILTERS,
  SINGULAR,
  type FilterName,
  type Identity,
  type ListKind,
  type ListQuery,
  type Network,
  type Organization,
  type PlatformNode,
  type PlatformObjects,
  type Project,
} from './types';

/** More pages than this is a `next` link gone wrong, not a real organization. */
const DEFAULT_MAX_PAGES = 1000;

export interface PlatformClientOptions {
  /** The API key, sent as `Authorization: Bearer <key>`; never shown in any message. */
  apiKey: string;
  /** The API's base URL; default https://api.chainstack.com. */
  apiUrl?: string;
  /** Default timeout of each call (a list: all its pages and retries), in ms (default 15 000). */
  timeoutMs?: number;
  /** One limit for every call of this client (the CLI's --timeout for the whole command). */
  deadline?: Deadline;
  /** Retries of a GET after 429 or 5xx (default: core/rpc's policy, 2 retries). */
  retry?: Partial<RetryPolicy>;
  /** What a 401 tells the user to do (default: the editor's "Set Platform API Key" command). */
  keyHint?: string;
  /** Give up a list after this many pages (default 1000). */
  maxPages?: number;
  /** The caller's words for changing the API URL and the limits, which failure messages end with. */
  hints?: KnobHints;
}

export interface PlatformRequestOptions {
  signal?: AbortSignal;
  /** Timeout of this call, all its pages and retries included, in ms. */
  timeoutMs?: number;
  /** A limit shared with other calls. */
  deadline?: Deadline;
  /** Called after each page of a list, e.g. for a progress message. */
  onPage?(progress: { page: number; read: number; count?: number }): void;
}

export class PlatformClient {
  /** The base URL, without a trailing slash. */
  readonly apiUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly keyHint: string;
  private readonly maxPages: number;
  private readonly deadline?: Deadline;
  private readonly hints: KnobHints;

  constructor(options: PlatformClientOptions) {
    this.apiUrl = normaliseApiUrl(options.apiUrl ?? DEFAULT_API_URL);
    // Its routes hold ids, not keys (the key travels in a header): errors may show them.
    registerPublicUrl(this.apiUrl, { prefix: true });
    this.apiKey = options.apiKey.trim();
    if (!this.apiKey) throw platformError('invalid-request', `No platform API key: ${options.keyHint ?? SET_KEY_HINT}.`, []);
    if (/\s/.test(this.apiKey)) throw platformError('invalid-request', 'The platform API key holds a space or line break: copy it again from the console.', [this.apiKey]);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.keyHint = options.keyHint ?? SET_KEY_HINT;
    this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    this.deadline = options.deadline;
    this.hints = options.hints ?? {};
  }

  /** The call's options with its one deadline: pages, retries and their waits all count against it. */
  private timed(options: PlatformRequestOptions): PlatformRequestOptions & { deadline: Deadline } {
    return { ...options, deadline: options.deadline ?? this.deadline ?? new Deadline(options.timeoutMs ?? this.timeoutMs, false) };
  }

  organization(options: PlatformRequestOptions = {}): Promise<Organization> {
    return this.getOne('organization', `${this.apiUrl}/v1/organization/`, { action: 'read the organization' }, this.timed(options));
  }

  listProjects(query: Pick<ListQuery, 'organization' | 'order_by'> = {}, options?: PlatformRequestOptions): Promise<Project[]> {
    return this.list('projects', query, options);
  }
  getProject(id: string, options?: PlatformRequestOptions): Promise<Project> {
    return this.get('projects', id, options);
  }
  listNetworks(query: Omit<ListQuery, 'network'> = {}, options?: PlatformRequestOptions): Promise<Network[]> {
    return this.list('networks', query, options);
  }
  getNetwork(id: string, options?: PlatformRequestOptions): Promise<Network> {
    return this.get('networks', id, options);
  }
  listNodes(query: ListQuery = {}, options?: PlatformRequestOptions): Promise<PlatformNode[]> {
    return this.list('nodes', query, options);
  }
  getNode(id: string, options?: PlatformRequestOptions): Promise<PlatformNode> {
    return this.get('nodes', id, options);
  }
  listIdentities(query: Pick<ListQuery, 'organization' | 'order_by'> = {}, options?: PlatformRequestOptions): Promise<Identity[]> {
    return this.list('identities', query, options);
  }
  getIdentity(id: string, options?: PlatformRequestOptions): Promise<Identity> {
    return this.get('identities', id, options);
  }

  /** One object by id: `GET /v1/<kind>/<id>/`. A 404 says "no such <object> <id>". */
  get<K extends ListKind>(kind: K, id: string, options: PlatformRequestOptions = {}): Promise<PlatformObjects[K]> {
    const singular = SINGULAR[kind];
    const trimmed = id.trim();
    if (!isPlatformId(trimmed)) {
      return Promise.reject(
        platformError('invalid-request', `${JSON.stringify(id)} is not ${/^[aeiou]/.test(singular) ? 'an' : 'a'} ${singular} id: ${PLATFORM_ID_RULE} (e.g. ${EXAMPLE_IDS[kind]}).`, [
          this.apiKey,
        ]),
      );
    }
    // Encoded as well, so the id stays one path segment whatever the pattern lets through.
    const url = `${this.apiUrl}/v1/${kind}/${encodeURIComponent(trimmed)}/`;
    return this.getOne(kind, url, { action: `get ${singular} ${trimmed}`, object: { singular, id: trimmed } }, this.timed(options));
  }

  /**
   * Every object of a list, following `next` through all pages, with the query's filters and
   * order. Objects are de-duplicated by id (one that moved between pages while they were read
   * would otherwise show twice).
   */
  async list<K extends ListKind>(kind: K, query: ListQuery = {}, given: PlatformRequestOptions = {}): Promise<PlatformObjects[K][]> {
    const options = this.timed(given);
    let url: string | undefined = `${this.apiUrl}/v1/${kind}/${this.queryString(kind, query)}`;
    const subject: RequestSubject = { action: `list ${kind}` };
    const items: PlatformObjects[K][] = [];
    const ids = new Set<string>();
    const seenUrls = new Set<string>();
    for (let page = 1; url !== undefined; page++) {
      const pageUrl: string = url;
      try {
        if (page > this.maxPages) throw badReplyError(this.shown(pageUrl), `more than ${this.maxPages} pages of ${kind}`, [this.apiKey], this.hints.apiUrl);
        seenUrls.add(pageUrl);
        const body = await this.getJson(pageUrl, subject, options);
        const { results, next, count } = this.readPage(body, pageUrl);
        // The whole page is read before any of it counts, so `partial` holds whole pages only.
        const objects = results.map((raw, i) => this.readObject(kind, raw, pageUrl, `object ${i + 1} of page ${page}`));
        for (const object of objects) {
          if (!ids.has(object.id)) {
            ids.add(object.id);
            items.push(object);
          }
        }
        options.onPage?.({ page, read: items.length, count });
        url = next === undefined ? undefined : this.nextUrl(next, pageUrl);
        if (url !== undefined && seenUrls.has(url))
          throw badReplyError(this.shown(pageUrl), `its next link ${this.shown(url)} points back at a page already read`, [this.apiKey], this.hints.apiUrl);
      } catch (err) {
        if (!(err instanceof PlatformError) || page === 1) throw err;
        const { status, retryAfterMs, apiCode, fields } = err;
        throw new PlatformError(err.kind, `Listing ${kind} failed at page ${page}, after ${items.length} read: ${err.message}`, {
          status,
          retryAfterMs,
          apiCode,
          fields,
          page,
          partial: items,
        });
      }
    }
    return items;
  }

  private async getOne<K extends keyof PlatformObjects>(kind: K, url: string, subject: RequestSubject, options: PlatformRequestOptions): Promise<PlatformObjects[K]> {
    return this.readObject(kind, await this.getJson(url, subject, options), url, 'the object');
  }

  /** `?page` is never sent on the first request: the API starts at 1, and `next` carries it after. */
  private queryString(kind: ListKind, query: ListQuery): string {
    const params = new URLSearchParams();
    const allowed = LIST_FILTERS[kind];
    for (const [name, value] of Object.entries(query) as [keyof ListQuery, string | undefined][]) {
      if (value === undefined || value === '') continue;
      if (name === 'order_by') {
        if (!/^-?[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
          throw platformError('invalid-request', `order_by takes a field name, with a leading - for descending (e.g. name, -created_at), not ${JSON.stringify(value)}.`, [this.apiKey]);
        }
      } else if (!allowed.includes(name as FilterName)) {
        throw platformError('invalid-request', `The ${kind} list has no ${name} filter; it takes ${allowed.length ? allowed.join(', ') : 'none'} (and order_by).`, [this.apiKey]);
      } else if (ID_FILTERS.includes(name) && !isPlatformId(value)) {
        throw platformError('invalid-request', `The ${name} filter takes a ${name} id: ${PLATFORM_ID_RULE}, not ${JSON.stringify(value)}.`, [this.apiKey]);
      }
      params.set(name, value);
    }
    const text = params.toString();
    return text ? `?${text}` : '';
  }

  /**
   * The URL of the next page. Only its query is new, on the configured API's origin and the
   * list's own path: the key is sent there and nowhere else, whatever a `next` link names.
   */
  private nextUrl(next: string, current: string): string {
    let url: URL;
    try {
      url = new URL(next, current);
    } catch {
      throw badReplyError(this.shown(current), `its next link ${JSON.stringify(next)} is not a URL`, [this.apiKey], this.hints.apiUrl);
    }
    // Pages of one list differ only in their query: a next link to another path (`..` segments
    // included, which URL parsing has resolved by now) would take the key off the list's route.
    if (url.pathname !== new URL(current).pathname) {
      throw badReplyError(this.shown(current), `its next link ${this.shown(url.toString())} leaves the list's path ${new URL(current).pathname}`, [this.apiKey], this.hints.apiUrl);
    }
    return `${new URL(this.apiUrl).origin}${url.pathname}${url.search}`;
  }

  private readPage(body: unknown, url: string) {
    try {
      return parsePage(body);
    } catch (err) {
      if (err instanceof ShapeError) throw badReplyError(this.shown(url), err.message, [this.apiKey], this.hints.apiUrl);
      throw err;
    }
  }

  private readObject<K extends keyof PlatformObjects>(kind: K, raw: unknown, url: string, where: string): PlatformObjects[K] {
    try {
      return parseObject(kind, raw);
    } catch (err) {
      if (err instanceof ShapeError) throw badReplyError(this.shown(url), `${where}: ${err.message}`, [this.apiKey], this.hints.apiUrl);
      throw err;
    }
  }

  private shown(url: string): string {
    return redactUrl(url, [this.apiKey], { publicPath: true, publicQuery: true });
  }

  /** GET with retries on 429/5xx; resolves with the parsed JSON of a 2xx reply. */
  private async getJson(url: string, subject: RequestSubject, options: PlatformRequestOptions): Promise<unknown> {
    const deadline = options.deadline ?? this.timed(options).deadline;
    const timeoutMs = deadline.totalMs;
    const ctx: FailureContext = { url, auth: 'none', secrets: [this.apiKey], timeoutMs, peer: 'the platform API', hints: this.hints };
    for (let attempt = 0; ; attempt++) {
      let reply: HttpReply;
      try {
        reply = await httpExchange(
          {
            url,
            method: 'GET',
            headers: { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json', 'User-Agent': 'chaindeck' },
            timeoutMs,
            deadline,
            signal: options.signal,
            idempotent: true,
          },
          ctx,
        );
      } catch (err) {
        // Below HTTP (unreachable, TLS, timeout, cancelled): the same kinds and words as for nodes.
        if (err instanceof RpcFailure) throw new PlatformError(err.kind as PlatformError['kind'], err.message);
        throw err;
      }
      const body = jsonOf(reply.text);
      if (reply.status >= 200 && reply.status < 300) {
        if (tooDeep(reply.text)) throw badReplyError(this.shown(url), `it nests more than ${MAX_JSON_DEPTH.response} levels deep`, [this.apiKey], this.hints.apiUrl);
        if (body === undefined) throw notJsonError(reply, this.shown(url), [this.apiKey], this.hints.apiUrl);
        return body;
      }
      const retryAfterMs = parseRetryAfter(reply.headers['retry-after']);
      const error = statusError({ ...reply, body, retryAfterMs }, this.shown(url), subject, [this.apiKey], this.keyHint, this.hints.apiUrl);
      if (!isRetryableStatus(reply.status) || attempt >= this.retry.retries) throw error;
      const wait = retryPlan(attempt, this.retry, retryAfterMs, deadline.remainingMs());
      // A wait longer than the policy allows is the user's to decide: fail now and say how long.
      if (wait === 'policy') throw error;
      if (wait === 'deadline') {
        throw new PlatformError(error.kind, `${error.message} Gave up: waiting to retry would go past the ${timeoutMs} ms timeout.`, {
          status: error.status,
          retryAfterMs,
          apiCode: error.apiCode,
          fields: error.fields,
        });
      }
      await sleep(wait, options.signal, () => platformError('cancelled', `The request to ${this.shown(url)} was cancelled.`, []));
    }
  }
}

/** The list filters whose values are ids. */
const ID_FILTERS: readonly string[] = ['organization', 'project', 'network'];

const EXAMPLE_IDS: Readonly<Record<ListKind, string>> = {
  projects: 'PR-123-456',
  networks: 'NW-123-456-7',
  nodes: 'ND-123-456-789',
  identities: 'ID-123-456',
};

const tooDeep = (text: string) => tooDeepAt(text, MAX_JSON_DEPTH.response) !== -1;

/** Undefined for no JSON, and for JSON nested too deep to walk (secretsOf and scrub recurse). */
function jsonOf(text: string): unknown {
  if (!text.trim() || tooDeep(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
