/**
 * `chaindeck subgraph compare`: one GraphQL query at one block against two subgraph endpoints
 * (local and hosted, two providers, v1 and v2 of a name), and the entities that differ: a few
 * lines per field, or with --format json the whole result on stdout. Exit 0 equal, 1 differ or
 * an endpoint failed, 2 usage. The URLs' secrets (anything after the host) are never printed.
 */
import { FILE_CAPS, readTextFile } from '../../core/files';
import { inertLine, oneLine } from '../../core/inert';
import { EndpointError, endpointFromUrl, registerUrlEndpoint } from '../../core/nodes/endpoint';
import { DEFAULT_MAX_ENTITIES, MAX_ENTITIES_LIMIT } from '../../core/indexing/compare/bounds';
import type { CompareEndpoint, CompareResult, Side } from '../../core/indexing/compare/compare';
import type { FieldDiff } from '../../core/indexing/compare/diff';
import { UsageError, type OptionTable } from '../args';
import { abortOnSignals, defineCommand, errorLine, EXIT, printJson, reportFailure, type CliIO } from '../command';
import { parseTimeout } from '../endpointFlags';

const FORMATS = ['text', 'json'] as const;
/** Entities listed per field and kind in the text report; --format json lists them all. */
const SHOWN_PER_KIND = 20;

const options = {
  query: { type: 'string', value: 'FILE', help: 'the GraphQL query file (a .graphql file; `# …` comment lines are fine)' },
  a: { type: 'string', value: 'URL', help: "the first endpoint: a subgraph's query URL (…/subgraphs/name/NAME, …/subgraphs/id/Qm…, a gateway URL with its key)" },
  b: { type: 'string', value: 'URL', help: 'the second endpoint, the same way' },
  block: { type: 'string', value: 'N', help: "compare at block N (default: the lower of the two endpoints' indexed blocks, so both can answer)" },
  operation: { type: 'string', value: 'NAME', help: 'the operation to run, when the file holds several' },
  'max-entities': { type: 'string', value: 'N', help: `read at most N entities of each collection from each endpoint, 1 to ${MAX_ENTITIES_LIMIT} (default ${DEFAULT_MAX_ENTITIES})` },
  format: { type: 'string', value: 'FORMAT', help: 'text (default): a summary per field and the first entities that differ; json: the whole result on stdout' },
  timeout: { type: 'string', value: 'MS', help: 'give up a request after MS milliseconds (default 30000)' },
} satisfies OptionTable;

interface CompareArgs {
  query: string;
  endpoints: Record<Side, CompareEndpoint>;
  block?: number;
  operationName?: string;
  maxEntities: number;
  format: (typeof FORMATS)[number];
  timeoutMs?: number;
}

/** A query URL from --a or --b: http(s) only, its secrets registered so no line shows them. */
function endpointFlag(flag: string, url: string | undefined): CompareEndpoint {
  if (!url) throw new UsageError(`--${flag} is required: the ${flag === 'a' ? 'first' : 'second'} endpoint's query URL`);
  let endpoint;
  try {
    endpoint = endpointFromUrl(url);
  } catch (err) {
    if (err instanceof EndpointError) throw new UsageError(`--${flag}: ${err.message}`);
    throw err;
  }
  // Not its short path parts as whole values (`id`, `name` of …/subgraphs/id/Qm…): they would mask the entities' own keys and values.
  registerUrlEndpoint({ ...endpoint, wholeSecrets: [] });
  if (endpoint.isWs) throw new UsageError(`--${flag} takes the query URL over http(s), not a WebSocket URL`);
  return { url: endpoint.httpUrl, headers: endpoint.headers, secrets: endpoint.secrets };
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(Number.isSafeInteger(n) && n >= min && n <= max)) throw new UsageError(`--${flag} takes a whole number from ${min} to ${max}, not '${value}'`);
  return n;
}

const quoted = (v: unknown) => oneLine(typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null), 80);

/** The text report of one field: its counts, then the first entities of each kind. */
function fieldLines(d: FieldDiff): string[] {
  const kinds = [d.onlyInA.length && `${d.onlyInA.length} only in A`, d.onlyInB.length && `${d.onlyInB.length} only in B`, d.changed.length && `${d.changed.length} changed`].filter(Boolean);
  const lines = [
    `${inertLine(d.field)}: ${d.countA} in A, ${d.countB} in B${d.truncated ? ' (stopped at --max-entities: compared up to the last id both read)' : ''}: ${kinds.length ? kinds.join(', ') : 'equal'}`,
  ];
  const list = <T>(items: readonly T[], line: (item: T) => string) => {
    lines.push(...items.slice(0, SHOWN_PER_KIND).map((i) => `  ${inertLine(line(i))}`));
    if (items.length > SHOWN_PER_KIND) lines.push(`  … ${items.length - SHOWN_PER_KIND} more (--format json lists them all)`);
  };
  const idOf = (e: Record<string, unknown>) => (typeof e.id === 'string' ? oneLine(e.id, 200) : quoted(e.id ?? e));
  list(d.onlyInA, (e) => `only in A  ${idOf(e)}`);
  list(d.onlyInB, (e) => `only in B  ${idOf(e)}`);
  list(d.changed, (c) => `changed    ${oneLine(c.id, 200)}  ${c.changes.map((ch) => `${ch.path}: ${quoted(ch.a)} → ${quoted(ch.b)}`).join(', ')}`);
  return lines;
}

/** The text report: the block, each endpoint, each field; the verdict last. */
export function textReport(result: CompareResult): string {
  const failed = result.a.failure || result.b.failure;
  // Nothing was compared when an endpoint failed: its line on stderr says why (and at which block, when it is behind).
  const lines = failed ? [] : [`Compared at block ${result.block}${result.blockFrom === 'heads' ? " (the lower of the endpoints' indexed blocks)" : ''}`];
  for (const side of ['a', 'b'] as const) {
    const r = result[side];
    const facts = [r.head !== undefined && `indexed to block ${r.head}`, r.deployment && `deployment ${r.deployment}`].filter(Boolean).join(', ');
    lines.push(`${side.toUpperCase()}  ${inertLine(r.shown)}${facts ? `  ${inertLine(facts)}` : ''}`);
  }
  for (const d of result.fields) lines.push(...fieldLines(d));
  lines.push(failed ? 'Not compared: an endpoint failed.' : result.equal ? 'Equal.' : 'The endpoints differ.');
  return `${lines.join('\n')}\n`;
}

/** The result as --format json prints it (documented in the help's notes). */
export function jsonResult(result: CompareResult): Record<string, unknown> {
  const side = (r: CompareResult['a']) => ({ url: r.shown, head: r.head ?? null, deployment: r.deployment ?? null, failure: r.failure ?? null });
  return { equal: result.equal, block: result.block, blockFrom: result.blockFrom, a: side(result.a), b: side(result.b), fields: result.fields };
}

async function run(args: CompareArgs, io: CliIO): Promise<number> {
  const { compareEndpoints } = await import('../../core/indexing/compare/compare');
  const { CompareQueryError } = await import('../../core/indexing/compare/rewrite');
  const abort = new AbortController();
  const stopListening = abortOnSignals(abort);
  try {
    const result = await compareEndpoints(args.endpoints, {
      query: args.query,
      operationName: args.operationName,
      block: args.block,
      maxEntities: args.maxEntities,
      timeoutMs: args.timeoutMs,
      signal: abort.signal,
    });
    for (const side of ['a', 'b'] as const) {
      const failure = result[side].failure;
      if (failure) io.err(errorLine('subgraph compare', `${side.toUpperCase()} (${result[side].shown}): ${failure}`));
    }
    if (args.format === 'json') printJson(io, jsonResult(result));
    else io.out(textReport(result));
    return result.equal ? EXIT.done : EXIT.failed;
  } catch (err) {
    if (abort.signal.aborted) {
      io.err(errorLine('subgraph compare', 'cancelled'));
      return EXIT.failed;
    }
    // A query that cannot be compared is the command line's fault: the file given.
    if (err instanceof CompareQueryError) {
      io.err(errorLine('subgraph compare', `${err.message} (--query)`));
      return EXIT.usage;
    }
    return reportFailure(io, 'subgraph compare', err);
  } finally {
    stopListening();
  }
}

export const subgraphCompareCommand = defineCommand({
  name: 'subgraph compare',
  summary: 'Run one query at one block against two endpoints and show the entities that differ',
  usage: ['--query FILE --a URL --b URL [--block N] [--operation NAME] [--max-entities N] [--format text|json] [--timeout MS]'],
  description:
    "Both endpoints answer at the same block (`block: { number: N }` added to each top-level field, unless the field gives its own block), so a redeployed subgraph (a new host, a new provider, v2 of a name) can be checked against the old one. Each collection is read whole, page by page by id (first 1000, orderBy id, where id_gt), keeping the query's where filter; the query's own first, skip and order are replaced. Entities are compared by id; values by meaning (BigInt and BigDecimal spellings, Bytes in either case).",
  options,
  notes:
    '_meta is not compared (it differs between endpoints by nature). --format json prints {"equal", "block", "blockFrom": "given"|"heads", "a": {"url", "head", "deployment", "failure"}, "b": {…}, "fields": [{"field", "countA", "countB", "truncated", "onlyInA": [entity…], "onlyInB": [entity…], "changed": [{"id", "changes": [{"path", "a", "b"}]}]}]}; URLs are shown with everything after the host masked, and "failure" is the one line saying why that endpoint could not be compared (HTTP 401/403/429/5xx, not JSON, GraphQL errors, not indexed to the block), else null. A URL holding a key is best passed from a variable, as in the examples: the shell history keeps what is typed.',
  exit: { done: 'the endpoints answer the same at the block', failed: 'they differ, or an endpoint failed (its reason on stderr)', usageExample: '--a URL without --b' },
  examples: [
    'chaindeck subgraph compare --query pings.graphql --a "$OLD_QUERY_URL" --b "$NEW_QUERY_URL"',
    'chaindeck subgraph compare --query pings.graphql --a "$OLD_QUERY_URL" --b "$NEW_QUERY_URL" --block 19000000 --format json',
  ],

  check({ values }): CompareArgs {
    const format = values.format ?? 'text';
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format takes text or json, not '${format}'`);
    if (!values.query) throw new UsageError('--query is required: the GraphQL query file');
    const endpoints = { a: endpointFlag('a', values.a), b: endpointFlag('b', values.b) };
    let query: string;
    try {
      query = readTextFile(values.query, FILE_CAPS.text);
    } catch (err) {
      throw new UsageError(`--query: ${(err as Error).message}`);
    }
    return {
      query,
      endpoints,
      block: wholeNumber('block', values.block, 0, Number.MAX_SAFE_INTEGER),
      operationName: values.operation || undefined,
      maxEntities: wholeNumber('max-entities', values['max-entities'], 1, MAX_ENTITIES_LIMIT) ?? DEFAULT_MAX_ENTITIES,
      format: format as CompareArgs['format'],
      timeoutMs: parseTimeout(values.timeout),
    };
  },
  work: run,
});
