/**
 * A deployment's log from a graph-node that keeps one (`_logs`, graph-node 0.44+ with a
 * `[log_store]` in its config), read through the subgraph's query URL a page at a time
 * (graph-node allows first ≤ 1000, skip ≤ 10000) and mapped to the same entries as gnd's output.
 * gnd dev has no log store: it answers "Not supported: the `_logs` query is not enabled on this
 * indexer", which becomes LogsNotEnabled.
 */
import { inertLine, oneLine } from '../../inert';
import { errorMessages, postGraphql, type GraphqlCallOptions, type GraphqlResponse } from '../../subgraph/query/client';
import { handlerIn, isHandlerName, parseLevel, sourceIn, type EntryLevel, type LogEntry } from './entry';

export const LOGS_MAX_FIRST = 1000;
export const LOGS_MAX_SKIP = 10_000;

/** The node keeps no log store (or refuses to show it). */
export class LogsNotEnabled extends Error {}
/** The node answered something that is no page of `_logs`. */
export class LogsQueryError extends Error {}

/** The `_logs` query of one page (variables from logsVariables). */
export const LOGS_QUERY = `query Logs($first: Int!, $skip: Int!, $search: String, $from: String) {
  _logs(first: $first, skip: $skip, search: $search, from: $from, orderDirection: asc) { id timestamp level text arguments { key value } meta { module line column } }
}`;

export interface LogsPageRequest {
  first: number;
  skip: number;
  search?: string;
  /** From this time on (ISO 8601): how a follow asks only for what is new. */
  from?: string;
}

/** The query URL of a deployment by id (Qm…) or by name, under a node's GraphQL URL. */
export function deploymentQueryUrl(graphqlUrl: string, deployment: string): string {
  const base = graphqlUrl.replace(/\/+$/, '');
  return /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(deployment) ? `${base}/subgraphs/id/${deployment}` : `${base}/subgraphs/name/${deployment}`;
}

const asString = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** One `_logs` item as an entry of `deployment`, or undefined when it is not one. */
export function entryOfLogItem(item: unknown, deployment: string): LogEntry | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const text = asString(o.text);
  const level = parseLevel(asString(o.level) ?? '');
  if (text === undefined || !level) return undefined;
  const args = new Map<string, string>();
  if (Array.isArray(o.arguments))
    for (const a of o.arguments as unknown[]) {
      const key = asString((a as Record<string, unknown> | null)?.key);
      const value = asString((a as Record<string, unknown> | null)?.value);
      if (key && value !== undefined && !args.has(key)) args.set(key, value);
    }
  const stamp = asString(o.timestamp) ?? '';
  // A time that is none is shown as the node said it, inert and short.
  const time = Number.isNaN(Date.parse(stamp)) ? inertLine(oneLine(stamp, 40)) : new Date(stamp).toISOString();
  const entry: LogEntry = {
    ...(asString(o.id) ? { id: asString(o.id) } : {}),
    time,
    level: level as EntryLevel,
    message: text,
    deployment,
    origin: args.has('data_source') ? 'mapping' : 'graph-node',
  };
  const handler = [args.get('handler')].find(isHandlerName) ?? handlerIn(text);
  const block = args.get('block_number') ?? args.get('block');
  const tx = args.get('transaction') ?? args.get('tx');
  const meta = o.meta as { module?: unknown; line?: unknown; column?: unknown } | null | undefined;
  const module = asString(meta?.module);
  const line = Number(meta?.line);
  if (handler) entry.handler = handler;
  if (block && /^\d{1,15}$/.test(block)) entry.block = Number(block);
  if (tx && /^0x[0-9a-fA-F]{64}$/.test(tx)) entry.tx = tx.toLowerCase();
  if (args.get('data_source')) entry.dataSource = args.get('data_source');
  const source = module && module.endsWith('.ts') && line > 0 ? { file: module, line, column: Number(meta?.column) || 1 } : sourceIn(text);
  if (source) entry.source = source;
  return entry;
}

/** The variables of a page, within graph-node's bounds. */
export function logsVariables(page: LogsPageRequest): Record<string, unknown> {
  const first = Math.max(1, Math.min(LOGS_MAX_FIRST, Math.floor(page.first)));
  const skip = Math.max(0, Math.min(LOGS_MAX_SKIP, Math.floor(page.skip)));
  return { first, skip, ...(page.search ? { search: page.search } : {}), ...(page.from ? { from: page.from } : {}) };
}

/** One page of a deployment's `_logs`, oldest first. */
export async function fetchLogsPage(queryUrl: string, deployment: string, page: LogsPageRequest, options: GraphqlCallOptions): Promise<LogEntry[]> {
  return logsOfAnswer(await postGraphql(queryUrl, { query: LOGS_QUERY, variables: logsVariables(page) }, options), deployment);
}

/** The entries of a node's answer to LOGS_QUERY; its refusal as LogsNotEnabled or LogsQueryError. */
export function logsOfAnswer(answer: Pick<GraphqlResponse, 'data' | 'errors'>, deployment: string): LogEntry[] {
  if (answer.errors?.length) {
    const said = errorMessages(answer.errors).join('; ');
    if (/`?_logs`? query is not enabled/i.test(said)) throw new LogsNotEnabled('This graph-node keeps no subgraph logs: it answered that the `_logs` query is not enabled on this indexer.');
    throw new LogsQueryError(`The node refused the _logs query: ${inertLine(oneLine(said, 300))}`);
  }
  const items = (answer.data as { _logs?: unknown } | undefined)?._logs;
  if (!Array.isArray(items)) throw new LogsQueryError('The node answered without a _logs list: is this a graph-node 0.44 or later?');
  return items.map((item) => entryOfLogItem(item, deployment)).filter((e): e is LogEntry => e !== undefined);
}

/** How many ids a LogsCursor remembers (entries told already), oldest forgotten first. */
const SEEN_IDS = 20_000;
/** A time later than this past the clock is no real entry's (a broken node): never what the next page starts from. */
const FUTURE_SLACK_MS = 3_600_000;

/**
 * Where a reader of `_logs` is: the entries told already (by id) and the time the next page asks
 * from. It passes only what is new, also from a node that ignores `skip` or `from` (the same page
 * again) or answers a time that is garbage or far ahead: never an entry twice, never one older
 * than what was told.
 */
export class LogsCursor {
  private readonly seen = new Set<string>();
  private lastMs = -Infinity;
  private lastTime: string | undefined;

  /** The entries of `page` not told before, in order (none older than a page before told); the cursor moves past them. */
  fresh(page: readonly LogEntry[], now = Date.now()): LogEntry[] {
    const told = this.lastMs;
    const fresh: LogEntry[] = [];
    for (const e of page) {
      const ms = Date.parse(e.time);
      if ((e.id !== undefined && this.seen.has(e.id)) || ms < told) continue;
      fresh.push(e);
      if (e.id !== undefined) {
        this.seen.add(e.id);
        if (this.seen.size > SEEN_IDS) this.seen.delete(this.seen.values().next().value!);
      }
      if (ms > this.lastMs && ms <= now + FUTURE_SLACK_MS) {
        this.lastMs = ms;
        this.lastTime = e.time;
      }
    }
    return fresh;
  }

  /** The next page of a follow: what came from the last time told on. */
  next(): LogsPageRequest {
    return { first: LOGS_MAX_FIRST, skip: 0, ...(this.lastTime ? { from: this.lastTime } : {}) };
  }
}
