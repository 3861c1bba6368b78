/**
 * The same query at the same block against two subgraph endpoints, and what differs. Each
 * endpoint is first asked its indexed block and its Query fields (one request); the block is the
 * one given, else the lower of the two heads (so both can answer); then each top-level field is
 * read page by page (fieldQueries) up to a bound, and the answers are compared by id (diffField).
 * A failure of one endpoint (HTTP status, not JSON, GraphQL errors, not indexed that far) is that
 * endpoint's one line; the URLs in every message are redacted.
 */
import { isCancellation } from '../../cancel';
import { formatBytes } from '../../files';
import { inertLine, oneLine } from '../../inert';
import { redactText, redactUrl } from '../../redact';
import { errorMessages, postGraphql, type GraphqlCallOptions } from '../../subgraph/query/client';
import { DEFAULT_MAX_ENTITIES, MAX_ENTITIES_LIMIT } from './bounds';
import { diffField, differs, type FieldAnswer, type FieldDiff } from './diff';
import { CompareQueryError, fieldQueries, type RootField } from './rewrite';

export type Side = 'a' | 'b';
export const SIDES: readonly Side[] = ['a', 'b'];

/** An endpoint to compare: its URL (secrets and all) and what keeps them out of messages. */
export interface CompareEndpoint {
  url: string;
  headers?: Record<string, string>;
  /** Secret values to mask in every message (the key in the URL). */
  secrets?: readonly string[];
  /** How the endpoint is named in messages (default: its redacted URL). */
  label?: string;
}

export interface CompareOptions {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  /** The block to compare at; default: the lower of the two endpoints' indexed blocks. */
  block?: number;
  /** Entities read per collection and endpoint at most (default 10,000). */
  maxEntities?: number;
  /** Entities per request (1–1000, default 1000). */
  pageSize?: number;
  /** Bytes of answers read from each endpoint at most (default MAX_SIDE_BYTES). */
  maxBytes?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface EndpointReport {
  /** The URL as shown: redacted. */
  shown: string;
  /** Its indexed block when asked, and the deployment it serves. */
  head?: number;
  deployment?: string;
  /** Why it could not be compared, in one line; absent when it answered. */
  failure?: string;
}

export interface CompareResult {
  block: number;
  /** Whether the block was given, or the lower of the two heads. */
  blockFrom: 'given' | 'heads';
  a: EndpointReport;
  b: EndpointReport;
  fields: FieldDiff[];
  /** Both answered and nothing differs. */
  equal: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * What one endpoint may send in all: its answers are held until both are compared, and each
 * reply's own cap (64 MiB) times 1,000 pages would exhaust memory. 1 KB entities fit 250,000.
 */
export const MAX_SIDE_BYTES = 256 * 1024 * 1024;

const PROBE = '{ _meta { block { number } deployment } __schema { queryType { fields { name args { name } type { kind ofType { kind } } } } } }';

/** A failure that is one endpoint's, in its words. */
class SideFailure extends Error {}

interface Probe {
  head: number;
  deployment?: string;
  rootFields: Map<string, RootField>;
}

function callOptions(endpoint: CompareEndpoint, options: CompareOptions): GraphqlCallOptions {
  return { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: options.signal, secrets: endpoint.secrets, headers: endpoint.headers };
}

const shownOf = (endpoint: CompareEndpoint) => endpoint.label ?? redactUrl(endpoint.url, endpoint.secrets ?? []);

/** Posts and returns `data` (its size added to `read`); the endpoint's GraphQL errors become a SideFailure. */
async function ask(endpoint: CompareEndpoint, options: CompareOptions, query: string, variables?: Record<string, unknown>, read?: { bytes: number }): Promise<Record<string, unknown>> {
  const reply = await postGraphql(endpoint.url, { query, variables }, callOptions(endpoint, options));
  if (read) read.bytes += reply.bytes;
  if (reply.errors?.length) throw new SideFailure(`GraphQL error: ${errorMessages(reply.errors).join('; ')}`);
  if (!reply.data || typeof reply.data !== 'object') throw new SideFailure(`the answer has no data (HTTP ${reply.status})`);
  return reply.data as Record<string, unknown>;
}

async function probe(endpoint: CompareEndpoint, options: CompareOptions): Promise<Probe> {
  const data = await ask(endpoint, options, PROBE);
  const meta = data._meta as { block?: { number?: unknown }; deployment?: unknown } | undefined;
  const head = meta?.block?.number;
  // A head that is no block number (-3, 2.5, 1e99) would be sent on as the block to compare at.
  if (typeof head !== 'number' || !Number.isSafeInteger(head) || head < 0) throw new SideFailure('it does not report its indexed block (_meta): is this a subgraph query URL?');
  type TypeRef = { kind?: string; ofType?: TypeRef | null };
  const fields = ((data.__schema as { queryType?: { fields?: { name: string; args?: { name: string }[]; type?: TypeRef }[] } })?.queryType?.fields ?? []).map((f) => {
    const type = f.type?.kind === 'NON_NULL' ? f.type.ofType : f.type;
    return [f.name, { list: type?.kind === 'LIST', args: new Set((f.args ?? []).map((a) => a.name)) }] as const;
  });
  return { head, deployment: typeof meta?.deployment === 'string' ? meta.deployment : undefined, rootFields: new Map(fields) };
}

/** Every top-level field's answer at the block, collections paged by id up to the bound. */
async function readAll(endpoint: CompareEndpoint, options: CompareOptions, block: number, rootFields: Map<string, RootField>): Promise<Map<string, FieldAnswer>> {
  const max = options.maxEntities ?? DEFAULT_MAX_ENTITIES;
  const maxBytes = options.maxBytes ?? MAX_SIDE_BYTES;
  const read = { bytes: 0 };
  const answers = new Map<string, FieldAnswer>();
  for (const field of fieldQueries(options.query, { block, rootFields, operationName: options.operationName, variables: options.variables, pageSize: options.pageSize })) {
    if (!field.paged) {
      answers.set(field.key, { kind: 'value', value: (await ask(endpoint, options, field.document(), field.variables, read))[field.key] ?? null });
      continue;
    }
    const entities: Record<string, unknown>[] = [];
    // Every id read so far: a node that ignores id_gt or repeats itself is caught, not counted twice.
    const ids = new Set<string>();
    const pageSize = options.pageSize ?? 1000;
    let after: string | undefined;
    for (;;) {
      const page = (await ask(endpoint, options, field.document(after), field.variables, read))[field.key];
      if (read.bytes > maxBytes) throw new SideFailure(`it answered more than ${formatBytes(maxBytes)} in all: compare fewer entities or select fewer fields`);
      if (!Array.isArray(page)) throw new SideFailure(`'${field.key}' did not answer a list`);
      if (page.length > pageSize) throw new SideFailure(`'${field.key}' answered ${page.length} entities when asked for ${pageSize} at most`);
      for (const entity of page as unknown[]) {
        const id = (entity as { id?: unknown } | null)?.id;
        if (!entity || typeof entity !== 'object' || (typeof id !== 'string' && typeof id !== 'number'))
          throw new SideFailure(`'${field.key}' answered an entry that is not an entity with an id`);
        if (ids.has(String(id))) throw new SideFailure(`'${field.key}' answered the entity ${oneLine(JSON.stringify(id), 100)} twice: its pages cannot be trusted`);
        ids.add(String(id));
        entities.push(entity as Record<string, unknown>);
      }
      const full = page.length === pageSize;
      if (!full || entities.length >= max) {
        answers.set(field.key, { kind: 'list', entities: entities.slice(0, max), truncated: full && entities.length >= max });
        break;
      }
      after = String(entities[entities.length - 1].id);
    }
  }
  return answers;
}

/** One line for a failure of one endpoint: its own words for a SideFailure or an HTTP failure, redacted. */
function failureLine(err: unknown, endpoint: CompareEndpoint): string {
  const said = err instanceof Error ? err.message : String(err);
  // Inert first (an escape inside a key would hide it from the mask), cut last (half a key is no longer one).
  return oneLine(redactText(inertLine(said), [...(endpoint.secrets ?? [])]));
}

/** Runs `work` on both sides at once; a side's failure is kept as its line (a cancellation or a query error ends the compare). */
async function onBoth<T>(endpoints: Record<Side, CompareEndpoint>, reports: Record<Side, EndpointReport>, work: (side: Side) => Promise<T>): Promise<Partial<Record<Side, T>>> {
  const out: Partial<Record<Side, T>> = {};
  await Promise.all(
    SIDES.map(async (side) => {
      try {
        out[side] = await work(side);
      } catch (err) {
        if (isCancellation(err) || err instanceof CompareQueryError || err instanceof RangeError) throw err;
        reports[side].failure = failureLine(err, endpoints[side]);
      }
    }),
  );
  return out;
}

/** Compares the query's answers of endpoints a and b at one block. Rejects only on a bad query, bad options or a cancel. */
export async function compareEndpoints(endpoints: Record<Side, CompareEndpoint>, options: CompareOptions): Promise<CompareResult> {
  const max = options.maxEntities ?? DEFAULT_MAX_ENTITIES;
  if (!Number.isInteger(max) || max < 1 || max > MAX_ENTITIES_LIMIT) throw new RangeError(`The bound on entities must be 1 to ${MAX_ENTITIES_LIMIT}.`);
  if (options.block !== undefined && (!Number.isSafeInteger(options.block) || options.block < 0)) throw new RangeError('The block must be a block number (0 or more).');
  // The query is checked before anything is sent.
  fieldQueries(options.query, { block: options.block ?? 0, operationName: options.operationName, pageSize: options.pageSize });
  const reports: Record<Side, EndpointReport> = { a: { shown: shownOf(endpoints.a) }, b: { shown: shownOf(endpoints.b) } };
  const probes = await onBoth(endpoints, reports, (side) => probe(endpoints[side], options));
  for (const side of SIDES) {
    if (probes[side]) Object.assign(reports[side], { head: probes[side].head, ...(probes[side].deployment ? { deployment: probes[side].deployment } : {}) });
  }
  const heads = SIDES.map((s) => probes[s]?.head).filter((h): h is number => h !== undefined);
  const block = options.block ?? (heads.length ? Math.min(...heads) : 0);
  const result = (fields: FieldDiff[]): CompareResult => ({
    block,
    blockFrom: options.block === undefined ? 'heads' : 'given',
    a: reports.a,
    b: reports.b,
    fields,
    equal: !reports.a.failure && !reports.b.failure && !fields.some(differs),
  });
  for (const side of SIDES) {
    const head = probes[side]?.head;
    if (head !== undefined && head < block) reports[side].failure = `it has indexed only to block ${head}, behind block ${block}: wait for it to catch up, or compare at an earlier --block`;
  }
  if (reports.a.failure || reports.b.failure) return result([]);
  const answers = await onBoth(endpoints, reports, (side) => readAll(endpoints[side], options, block, probes[side]!.rootFields));
  if (!answers.a || !answers.b) return result([]);
  const keys = [...new Set([...answers.a.keys(), ...answers.b.keys()])];
  return result(keys.map((key) => diffField(key, answers.a!.get(key) ?? { kind: 'value', value: null }, answers.b!.get(key) ?? { kind: 'value', value: null })));
}
