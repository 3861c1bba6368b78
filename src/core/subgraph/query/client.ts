/**
 * Sending a GraphQL query to a subgraph's query URL: POST {query, variables?} as
 * application/json over the shared HTTP exchange (keep-alive, timeout, cancel). What the
 * endpoint says about the query (`errors`, `data`) comes back exactly as sent; failures of the
 * transport or the URL become RpcFailures whose messages say what to check.
 */
import { MAX_JSON_DEPTH, tooDeepAt } from '../../json';
import type { KnobHints } from '../../knobs';
import { failure, quoteStart, type FailureContext, type RpcFailure } from '../../rpc/failure';
import { httpExchange } from '../../rpc/http';
import { redactUrl } from '../../redact';
import type { GraphQLSchema } from 'graphql';
import { validateQuery, type QueryDiagnostic } from './apiSchema';
import { HEALTH_QUERY } from './build';
import { flattenFields, type FieldTable } from './flatten';

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** The endpoint's answer as sent: `errors` untouched, so the user sees graph-node's own words. */
export interface GraphqlResponse {
  status: number;
  data?: unknown;
  errors?: unknown[];
  /** Anything else the endpoint put beside data and errors (extensions, …). */
  extensions?: unknown;
  timeMs: number;
  bytes: number;
}

export interface GraphqlCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Secret values to keep out of every message (the access key in the URL). */
  secrets?: readonly string[];
  headers?: Record<string, string>;
  /** The caller's words for raising the limits, which failure messages end with. */
  hints?: KnobHints;
}

const PEER = 'the subgraph query endpoint';

/**
 * JSON.parse that keeps integers too large for a double as strings (BigInt-like values sent as
 * JSON numbers would otherwise lose digits silently). graph-node sends BigInt/BigDecimal/Bytes
 * as strings already; this guards other hosts and Int8.
 */
export function parseJsonLossless(text: string): unknown {
  // Too deep to walk or show: treated as no JSON (the status and text still tell).
  if (tooDeepAt(text, MAX_JSON_DEPTH.response) !== -1) throw new SyntaxError(`nested more than ${MAX_JSON_DEPTH.response} levels deep`);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Copy a string literal through, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const literal = m ? m[0] : c;
      const digits = literal
        .replace(/^-/, '')
        .replace(/[.eE].*$/, '')
        .replace(/^0+/, '');
      out += !m?.[1] && !m?.[2] && digits.length > 15 && !Number.isSafeInteger(Number(literal)) ? `"${literal}"` : literal;
      i += literal.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

function contextFor(url: string, options: GraphqlCallOptions): FailureContext {
  const secrets = options.secrets ?? [];
  return { url, auth: secrets.length ? 'key' : 'none', secrets, timeoutMs: options.timeoutMs, peer: PEER, hints: options.hints };
}

function replyFailure(reply: { status: number; statusText: string; text: string; contentType: string }, ctx: FailureContext): RpcFailure {
  const shown = redactUrl(ctx.url, ctx.secrets);
  const head = `HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''} from ${shown}`;
  const said = reply.text.trim() ? `: ${quoteStart(reply.text)}` : '';
  const details = { status: reply.status };
  if (reply.status === 401 || reply.status === 403) {
    return failure('auth', `The query endpoint refused the request (${head}). Check the access key in the query URL (copy the query URL again from the console).`, ctx, details);
  }
  if (reply.status === 404) {
    return failure('http', `No subgraph answers at ${shown} (HTTP 404): check the subgraph name and version label in the query URL, and that the subgraph is deployed.`, ctx, details);
  }
  if (reply.status === 429) return failure('rate-limited', `Rate limited by the query endpoint (${head}). Wait, then query again.`, ctx, details);
  if (reply.status >= 500) return failure('server', `The query endpoint failed (${head})${said}. Try again later.`, ctx, details);
  if (reply.status >= 300) return failure('http', `Unexpected ${head}${said}. Check the query URL.`, ctx, details);
  const what = /html/i.test(reply.contentType) || /^\s*</.test(reply.text) ? 'an HTML page' : reply.text.trim() ? quoteStart(reply.text) : 'an empty body';
  return failure('not-json', `${shown} answered with ${what}, not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`, ctx, details);
}

/** POSTs one GraphQL request; resolves with the endpoint's answer, rejects with an RpcFailure. */
export async function postGraphql(url: string, request: GraphqlRequest, options: GraphqlCallOptions): Promise<GraphqlResponse> {
  const ctx = contextFor(url, options);
  const body: GraphqlRequest = { query: request.query };
  if (request.variables && Object.keys(request.variables).length) body.variables = request.variables;
  if (request.operationName) body.operationName = request.operationName;
  const reply = await httpExchange(
    {
      url,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      // Queries only read: safe to send again after a stale keep-alive connection.
      idempotent: true,
    },
    ctx,
  );
  let json: unknown;
  try {
    json = reply.text.trim() ? parseJsonLossless(reply.text) : undefined;
  } catch {
    json = undefined;
  }
  // graph-node answers query errors with a JSON body (sometimes with a 4xx status): pass it on as sent.
  if (json && typeof json === 'object' && !Array.isArray(json) && ('data' in json || 'errors' in json)) {
    const { data, errors, extensions } = json as { data?: unknown; errors?: unknown; extensions?: unknown };
    return {
      status: reply.status,
      ...(data !== undefined ? { data } : {}),
      ...(errors !== undefined ? { errors: Array.isArray(errors) ? errors : [errors] } : {}),
      ...(extensions !== undefined ? { extensions } : {}),
      timeMs: reply.timeMs,
      bytes: reply.bytes,
    };
  }
  throw replyFailure(reply, ctx);
}

/** The messages of a GraphQL `errors` array, one per entry (for a notification). */
export function errorMessages(errors: readonly unknown[]): string[] {
  return errors.map((e) => (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : JSON.stringify(e)));
}

export interface SubgraphHealth {
  /** The latest block the subgraph has indexed. */
  blockNumber: number;
  hasIndexingErrors: boolean;
}

/** Asks `_meta` for the indexed block and indexing errors; rejects when the endpoint errs. */
export async function subgraphHealth(url: string, options: GraphqlCallOptions): Promise<SubgraphHealth> {
  const reply = await postGraphql(url, { query: HEALTH_QUERY }, options);
  const meta = (reply.data as { _meta?: { block?: { number?: unknown }; hasIndexingErrors?: unknown } } | undefined)?._meta;
  if (reply.errors?.length || !meta || typeof meta.block?.number !== 'number') {
    const why = reply.errors?.length ? errorMessages(reply.errors).join('; ') : 'the reply has no _meta block';
    throw failure('rpc', `The subgraph at ${redactUrl(url, options.secrets ?? [])} did not report its health: ${why}`, contextFor(url, options), { status: reply.status });
  }
  return { blockNumber: meta.block.number, hasIndexingErrors: meta.hasIndexingErrors === true };
}

export type QueryOutcome =
  /** The query does not fit the subgraph's schema: nothing was sent. */
  | { kind: 'invalid'; diagnostics: QueryDiagnostic[] }
  /** The endpoint answered: its errors as sent, and each top-level field of the data as a table, in the query's order. */
  | { kind: 'answered'; response: GraphqlResponse; fields: FieldTable[] };

/**
 * Checks a query against the subgraph's query schema (when one is known), then sends it and
 * turns the answer into tables, one per top-level field. Transport and URL failures reject with an RpcFailure.
 */
export async function querySubgraph(url: string, request: GraphqlRequest, options: GraphqlCallOptions & { schema?: GraphQLSchema }): Promise<QueryOutcome> {
  if (options.schema) {
    const diagnostics = validateQuery(options.schema, request.query);
    if (diagnostics.length) return { kind: 'invalid', diagnostics };
  }
  const response = await postGraphql(url, request, options);
  return { kind: 'answered', response, fields: flattenFields(response.data) };
}
