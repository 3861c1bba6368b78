/**
 * One line of gnd's output as graph-node's slog writes it to a pipe:
 * `Nov 29 07:25:50.178 WARN warn ping 0x…-0, data_source: Emitter, runner_index: 1, sgd: 2,
 * subgraph_id: Qm…, component: SubgraphInstanceManager > UserMapping`: a local time without a
 * year, a four-letter level, the message, then its `key: value` pairs and the logger's context.
 */
import { boundedLine } from '../../localnode/gndLogFile';
import type { EntryLevel } from './entry';

export interface GndLine {
  /** ISO 8601 in UTC: gnd writes the machine's local time, which this process shares. */
  time: string;
  level: EntryLevel;
  message: string;
  /** The pairs after the message, in order; a value may hold ", " (an error's text does). */
  fields: Map<string, string>;
}

const SLOG_LEVELS: Record<string, EntryLevel> = { TRCE: 'debug', DEBG: 'debug', INFO: 'info', WARN: 'warning', ERRO: 'error', CRIT: 'critical' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HEAD = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d)\.(\d{3}) (TRCE|DEBG|INFO|WARN|ERRO|CRIT) /;
const KEY = /^([a-z_][a-z0-9_]{0,63}): /;
/** The context graph-node puts after what the mapping logged, last first: never part of the user's text. */
const MAPPING_CONTEXT = ['component', 'subgraph_id', 'sgd', 'runner_index', 'data_source'];
/** The logger's context, at the end of every line of a deployment's: a key of it met before (in a message) is not it. */
const LOGGER_CONTEXT = new Set(['component', 'subgraph_id', 'sgd', 'runner_index']);

/** The time of a slog stamp, in the year that puts it at most a day after `now` (slog omits the year). */
function isoTime(month: number, day: number, h: number, m: number, s: number, ms: number, now: Date): string {
  let date = new Date(now.getFullYear(), month, day, h, m, s, ms);
  if (date.getTime() - now.getTime() > 86_400_000) date = new Date(now.getFullYear() - 1, month, day, h, m, s, ms);
  return date.toISOString();
}

/** The line's parts, or undefined when it is not a slog line (a panic's text, a backtrace frame). */
export function parseGndLine(raw: string, now: Date = new Date()): GndLine | undefined {
  const line = boundedLine(raw);
  const head = HEAD.exec(line);
  if (!head) return undefined;
  const month = MONTHS.indexOf(head[1]);
  if (month < 0) return undefined;
  const time = isoTime(month, Number(head[2]), Number(head[3]), Number(head[4]), Number(head[5]), Number(head[6]), now);
  // Split at ", " before a `key: `; a piece that starts with none belongs to the value before it.
  const pieces = line.slice(head[0].length).split(', ');
  const parts: { key?: string; text: string }[] = [];
  for (const piece of pieces) {
    const key = KEY.exec(piece);
    if (key && parts.length) parts.push({ key: key[1], text: piece.slice(key[0].length) });
    else if (parts.length) parts[parts.length - 1].text += `, ${piece}`;
    else parts.push({ text: piece });
  }
  // What a mapping logged may itself hold ", key: " text: only graph-node's context follows it.
  let messageEnd = 1;
  if (parts.at(-1)?.key === 'component' && parts.at(-1)!.text.endsWith('UserMapping')) {
    messageEnd = parts.length;
    for (const key of MAPPING_CONTEXT) if (messageEnd > 1 && parts[messageEnd - 1].key === key) messageEnd--;
  }
  const message = parts
    .slice(0, messageEnd)
    .map((p) => (p.key ? `${p.key}: ${p.text}` : p.text))
    .join(', ');
  // A key's first value is graph-node's (an error's text, which a mapping's abort message is in,
  // comes after its own keys), but for the logger's context: graph-node writes it last of all.
  const fields = new Map<string, string>();
  for (const p of parts.slice(messageEnd)) if (!fields.has(p.key!) || LOGGER_CONTEXT.has(p.key!)) fields.set(p.key!, p.text);
  return { time, level: SLOG_LEVELS[head[7]], message, fields };
}
