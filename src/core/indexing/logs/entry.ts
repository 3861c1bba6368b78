/**
 * One entry of a deployment's log, whatever it came from (gnd's output on this machine, or the
 * `_logs` query of another graph-node): what a subgraph developer reads in the Subgraph Logs
 * panel and in `chaindeck graph-node logs`.
 */

/** graph-node's levels, lowest first (slog's DEBG…CRIT; `_logs` answers them in capitals). */
export const LOG_LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type EntryLevel = (typeof LOG_LEVELS)[number];

/** Where a line of the mapping's source is, as graph-node names it ("at src/mapping.ts, line 23, column 3"). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface LogEntry {
  /** The node's own id for it (`_logs`), which tells an entry seen before. */
  id?: string;
  /** ISO 8601, in UTC. */
  time: string;
  level: EntryLevel;
  /** The handler that was running, when known. */
  handler?: string;
  block?: number;
  tx?: string;
  message: string;
  /** The deployment id (Qm…). */
  deployment: string;
  dataSource?: string;
  /** Where the mapping's source says it happened, when the text names it. */
  source?: SourceLocation;
  /** Whether the mapping logged it (`log.info` …), or graph-node did (a handler failed …). */
  origin: 'mapping' | 'graph-node';
}

export const levelRank = (level: EntryLevel): number => LOG_LEVELS.indexOf(level);

/** The level a user typed (`warn`, `ERROR`, `crit` …), or undefined when it is none. */
export function parseLevel(text: string): EntryLevel | undefined {
  const t = text.trim().toLowerCase();
  const alias: Record<string, EntryLevel> = { debg: 'debug', warn: 'warning', erro: 'error', err: 'error', crit: 'critical' };
  return (LOG_LEVELS as readonly string[]).includes(t) ? (t as EntryLevel) : alias[t];
}

/** graph-node's "Mapping aborted at src/mapping.ts, line 23, column 3" (also in a `_logs` text). */
export function sourceIn(text: string): SourceLocation | undefined {
  const m = /\bat ([^\s,:]+\.ts), line (\d{1,7}), column (\d{1,7})/.exec(text);
  return m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : undefined;
}

/** Whether `name` can be a mapping's handler (an AssemblyScript function's name): what a node says otherwise is no handler. */
export const isHandlerName = (name: string | undefined): name is string => name !== undefined && /^[A-Za-z_$][\w$]{0,199}$/.test(name);

/** The handler named in graph-node's failure text ("in handler `handleX`", or the wasm frame "!src/mapping/handleX:"). */
export function handlerIn(text: string): string | undefined {
  return /\bin handler `([A-Za-z_$][\w$]{0,199})`/.exec(text)?.[1] ?? /![^\s!:]*\/([A-Za-z_$][\w$]{0,199}): /.exec(text)?.[1];
}
