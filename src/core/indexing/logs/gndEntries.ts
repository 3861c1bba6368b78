/**
 * gnd's output turned into log entries per deployment. graph-node writes what a mapping logs
 * (`log.info(…)`) with its data source only; which block, handler and transaction it ran for is
 * told around it, per deployment (each indexes its blocks one after the other):
 * - "Start processing block, …, block_number: N" (info) before a block's triggers;
 * - "Done processing trigger, …, handler: H, …, transaction: 0x…" (debug, from graph-node's wasm
 *   runtime) after each handler ran, so a handler's lines wait for it;
 * - "Handler skipped due to execution failure, transaction: …, handler: H" (error) when it aborted.
 * Lines that are the node's own become entries when they are warnings or worse (a failure, its
 * reason); its info chatter (blocks, write batches, JSON-RPC calls) does not.
 */
import { handlerIn, sourceIn, type LogEntry } from './entry';
import { parseGndLine, type GndLine } from './gndLine';

/** How long a reader waits after gnd's last line before it tells the entries still waiting (flushAll). */
export const IDLE_FLUSH_MS = 2000;
/** How many of a trigger's mapping lines wait for its handler's name at most. */
const MAX_PENDING = 10_000;
const TX = /^0x[0-9a-fA-F]{64}$/;
const TX_IN_TEXT = /\btransaction (?:0x)?([0-9a-f]{64})\b/;

interface DeploymentState {
  block?: number;
  /** The mapping's entries of the trigger running now, waiting for its handler and transaction. */
  pending: LogEntry[];
}

export class GndEntries {
  private readonly states = new Map<string, DeploymentState>();

  /**
   * @param emit receives each entry once it is complete, in gnd's order per deployment.
   * @param ignore deployments whose lines are not entries (gnd dev's placeholder subgraph).
   */
  constructor(
    private readonly emit: (entry: LogEntry) => void,
    private readonly ignore: (deployment: string) => boolean = () => false,
  ) {}

  /** Reads one line of gnd's output. */
  line(raw: string, now?: Date): void {
    // Most of gnd's lines (JSON-RPC calls, block ingestion) are no deployment's: not parsed.
    if (!raw.includes('subgraph_id: ')) return;
    const line = parseGndLine(raw, now);
    const deployment = line?.fields.get('subgraph_id');
    if (!line || !deployment || this.ignore(deployment)) return;
    let state = this.states.get(deployment);
    if (!state) this.states.set(deployment, (state = { pending: [] }));
    if (line.fields.get('component')?.endsWith('UserMapping')) {
      state.pending.push({ ...this.base(line, deployment, state), origin: 'mapping' });
      // A handler that logs without end is told as it goes, without its name, rather than held.
      if (state.pending.length >= MAX_PENDING) this.flush(state);
      return;
    }
    const handler = line.fields.get('handler');
    const tx = this.txOf(line);
    if (line.message === 'Start processing block') {
      this.flush(state);
      state.block = numberOf(line.fields.get('block_number'));
    } else if (line.message === 'Done processing trigger' || line.message === 'Handler skipped due to execution failure') {
      for (const entry of state.pending) Object.assign(entry, definedOnly({ handler: entry.handler ?? handler, tx: entry.tx ?? tx }));
      this.flush(state);
    } else if (/^Applying \d+ entity operation/.test(line.message)) {
      // The block's triggers are done (at info level no "Done processing trigger" says so). Not "Committed write
      // batch": the store's writer logs it on its own, for an earlier block, in the middle of a handler's lines.
      this.flush(state);
    }
    if (line.level === 'debug' || line.level === 'info') return;
    const entry: LogEntry = { ...this.base(line, deployment, state), origin: 'graph-node' };
    const error = line.fields.get('error');
    const text = error ?? line.message;
    const block = numberOf(line.fields.get('block_number'));
    Object.assign(entry, definedOnly({ handler: handler ?? handlerIn(text), tx, block: block ?? entry.block, source: sourceIn(text) }));
    if (error) entry.message = `${line.message}: ${error}`;
    this.emit(entry);
  }

  /** Emits the entries still waiting (the output ended, or nothing came for a while). */
  flushAll(): void {
    for (const state of this.states.values()) this.flush(state);
  }

  private flush(state: DeploymentState): void {
    const pending = state.pending.splice(0);
    for (const entry of pending) this.emit(entry);
  }

  private base(line: GndLine, deployment: string, state: DeploymentState): Omit<LogEntry, 'origin'> {
    return {
      time: line.time,
      level: line.level,
      message: line.message,
      deployment,
      ...definedOnly({ block: state.block, dataSource: line.fields.get('data_source'), source: sourceIn(line.message) }),
    };
  }

  private txOf(line: GndLine): string | undefined {
    const tx = line.fields.get('transaction');
    if (tx && TX.test(tx)) return tx.toLowerCase();
    const inError = TX_IN_TEXT.exec(line.fields.get('error') ?? line.message)?.[1];
    return inError ? `0x${inError}` : undefined;
  }
}

function numberOf(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;
}

/** Every entry of a whole output (a saved log), the last ones included. */
export function entriesOfLines(lines: Iterable<string>, ignore?: (deployment: string) => boolean, now?: Date): LogEntry[] {
  const entries: LogEntry[] = [];
  const reader = new GndEntries((e) => entries.push(e), ignore);
  for (const line of lines) reader.line(line, now);
  reader.flushAll();
  return entries;
}
