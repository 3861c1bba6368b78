/**
 * `chaindeck graph-node logs --graphql URL --deployment ID|NAME [--level L] [--follow] [--format text|json]`:
 * a deployment's log, each entry with its time, level, handler, block and transaction. A Chaindeck
 * local graph-node on this machine is read from its data folder (gnd dev keeps no `_logs`); any
 * other graph-node through `_logs`. An action of `chaindeck graph-node`.
 */
import { inertJson, inertLine } from '../core/inert';
import { parseLevel, type LogEntry } from '../core/indexing/logs/entry';
import { deploymentQueryUrl, fetchLogsPage, LOGS_MAX_FIRST, LOGS_MAX_SKIP, LogsCursor, LogsNotEnabled } from '../core/indexing/logs/graphqlLogs';
import { localNodeDataFolder, readLocalLog } from '../core/indexing/logs/localLog';
import { matches, type LogFilter } from '../core/indexing/logs/store';
import { redactText, redactUrl } from '../core/redact';
import { postGraphql } from '../core/subgraph/query/client';
import { UsageError, type OptionTable } from './args';
import { abortOnSignals, defineCommand, EXIT, type CliIO } from './command';

const options = {
  graphql: { type: 'string', value: 'URL', help: "the graph-node's GraphQL URL, without /subgraphs/… (a local node: http://127.0.0.1:PORT)" },
  deployment: { type: 'string', value: 'ID|NAME', help: 'the deployment id (Qm…) or the subgraph name' },
  level: { type: 'string', value: 'L', help: 'only entries at this level and above: debug, info, warning, error or critical (default debug: all)' },
  handler: { type: 'string', value: 'NAME', help: 'only the entries of this handler (e.g. handleTransfer)' },
  follow: { type: 'boolean', help: 'after what is there, print each new entry as it comes, until Ctrl+C' },
  format: { type: 'string', value: 'text|json', help: 'text (default): one aligned line per entry; json: one object per line with time, level, handler, block, tx and message' },
  timeout: { type: 'string', value: 'MS', help: 'how long one request to the node may take (default 15000)' },
} satisfies OptionTable;

interface LogsArgs {
  graphql: string;
  deployment: string;
  filter: LogFilter;
  follow: boolean;
  json: boolean;
  timeoutMs: number;
}

/** How often `--follow` asks a node's `_logs` for what is new. */
const FOLLOW_POLL_MS = 2000;

/** One entry as `--format json` prints it: exactly these keys, null where unknown. */
export function entryJson(e: LogEntry): Record<string, unknown> {
  return { time: e.time, level: e.level, handler: e.handler ?? null, block: e.block ?? null, tx: e.tx ?? null, message: redactText(e.message) };
}

/** One entry as a line of text: time, level, handler, #block, transaction, message. */
export function entryText(e: LogEntry): string {
  const cells = [e.time, e.level.toUpperCase().padEnd(8), (e.handler ?? '-').padEnd(14), e.block === undefined ? '-' : `#${e.block}`, e.tx ?? '-', redactText(e.message)];
  return inertLine(cells.join('  '));
}

function printer(io: CliIO, args: LogsArgs): (e: LogEntry) => void {
  return (e) => {
    if (e.deployment !== args.deployment || !matches(e, args.filter)) return;
    io.out(args.json ? `${inertJson(entryJson(e), 0)}\n` : `${entryText(e)}\n`);
  };
}

/** The deployment id: as given, or what the name's query URL says it serves. */
async function deploymentId(args: LogsArgs): Promise<string> {
  if (/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(args.deployment)) return args.deployment;
  const answer = await postGraphql(deploymentQueryUrl(args.graphql, args.deployment), { query: '{ _meta { deployment } }' }, { timeoutMs: args.timeoutMs });
  const id = (answer.data as { _meta?: { deployment?: unknown } } | undefined)?._meta?.deployment;
  if (typeof id !== 'string')
    throw new Error(`No subgraph named '${inertLine(args.deployment)}' answers at ${redactUrl(args.graphql)}: check the name (graph create NAME) and that it is deployed.`);
  return id;
}

async function untilAborted(signal: AbortSignal): Promise<void> {
  if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

async function viaLogsQuery(args: LogsArgs, print: (e: LogEntry) => void, signal: AbortSignal): Promise<void> {
  const url = deploymentQueryUrl(args.graphql, args.deployment);
  const call = { timeoutMs: args.timeoutMs, signal };
  const cursor = new LogsCursor();
  for (let skip = 0; skip <= LOGS_MAX_SKIP; skip += LOGS_MAX_FIRST) {
    const page = await fetchLogsPage(url, args.deployment, { first: LOGS_MAX_FIRST, skip }, call);
    cursor.fresh(page).forEach(print);
    if (page.length < LOGS_MAX_FIRST) break;
  }
  while (args.follow && !signal.aborted) {
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
    if (signal.aborted) break;
    const page = await fetchLogsPage(url, args.deployment, cursor.next(), call).catch((err) => {
      if (signal.aborted) return [];
      throw err;
    });
    cursor.fresh(page).forEach(print);
  }
}

async function logs(args: LogsArgs, io: CliIO): Promise<number> {
  const abort = new AbortController();
  const release = abortOnSignals(abort);
  try {
    const local = localNodeDataFolder(args.graphql);
    args.deployment = await deploymentId(args);
    const print = printer(io, args);
    if (local) {
      const reader = readLocalLog(local, print, { follow: args.follow, signal: abort.signal });
      await reader.read;
      if (args.follow) await untilAborted(abort.signal);
      reader.stop();
      return EXIT.done;
    }
    await viaLogsQuery(args, print, abort.signal).catch((err) => {
      if (err instanceof LogsNotEnabled)
        throw new Error(
          `${redactUrl(args.graphql)} is no Chaindeck local graph-node on this machine, and it keeps no subgraph logs: it answered that the \`_logs\` query is not enabled on this indexer.`,
        );
      throw err;
    });
    return EXIT.done;
  } finally {
    release();
  }
}

export const graphNodeLogsCommand = defineCommand({
  name: 'graph-node logs',
  summary: "Print a deployment's log: each entry's time, level, handler, block, transaction and message",
  usage: ['--graphql URL --deployment ID|NAME [--level L] [--handler NAME] [--follow]\n[--format text|json] [--timeout MS]'],
  description:
    "What the deployment's mappings logged (log.debug … log.critical) and graph-node's warnings and errors about it (a handler that aborted, with its source line), oldest first. A Chaindeck local graph-node on this machine (`chaindeck graph-node start` or the editor's) is read from the log it keeps in its data folder, each entry with the handler, block and transaction it ran for; any other graph-node through its `_logs` query (graph-node 0.44 and later with a log store).",
  options,
  notes: 'Text from the node is printed inert (no terminal control sequences), URLs and known secrets masked.',
  exit: {
    done: 'the log was printed (with --follow: until Ctrl+C)',
    failed: 'the node could not be read, or keeps no log (the line on stderr says why)',
    usageExample: 'no --deployment',
  },
  examples: [
    'chaindeck graph-node logs --graphql http://127.0.0.1:8000 --deployment my-subgraph --level warning',
    'chaindeck graph-node logs --graphql http://127.0.0.1:8000 --deployment QmaSGUNZKigtRCXTE2eTfRLF7evEiLqF2a5L4VnKyVgiNj --follow --format json',
  ],

  check({ values, positionals }): LogsArgs {
    if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    if (!values.graphql) throw new UsageError("--graphql URL is required: the graph-node's GraphQL URL");
    if (!/^https?:\/\/[^/]/i.test(values.graphql)) throw new UsageError(`--graphql takes an http or https URL, not '${redactUrl(values.graphql)}'`);
    if (!values.deployment?.trim()) throw new UsageError('--deployment ID|NAME is required: the deployment id (Qm…) or the subgraph name');
    if (!/^[\w./-]{1,200}$/.test(values.deployment)) throw new UsageError(`--deployment takes a deployment id (Qm…) or a subgraph name, not '${inertLine(values.deployment.slice(0, 80))}'`);
    const level = values.level === undefined ? undefined : parseLevel(values.level);
    if (values.level !== undefined && !level) throw new UsageError(`--level takes debug, info, warning, error or critical, not '${inertLine(values.level.slice(0, 40))}'`);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format takes text or json, not '${inertLine(format.slice(0, 40))}'`);
    const timeout = values.timeout ?? '15000';
    if (!/^\d{1,7}$/.test(timeout) || Number(timeout) < 100) throw new UsageError(`--timeout takes milliseconds from 100, not '${inertLine(timeout.slice(0, 40))}'`);
    const filter: LogFilter = { ...(level ? { level } : {}), ...(values.handler ? { handler: values.handler } : {}) };
    return { graphql: values.graphql.replace(/\/+$/, ''), deployment: values.deployment.trim(), filter, follow: values.follow === true, json: format === 'json', timeoutMs: Number(timeout) };
  },

  work: logs,
});
