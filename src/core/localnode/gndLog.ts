/**
 * gnd's output read as graph-node writes it: each line with its time and slog level first
 * (`Nov 28 17:52:16.593 ERRO Subgraph failed…`). The output channel files a line at its level
 * (an error of gnd's reads as one, not as info), and a failed start is told in the one line that
 * says why: a Rust panic's message (the line after "thread '…' panicked at …"), an `Error: …` that
 * ended its main, else its first ERRO or CRIT line, else its last line that is not a backtrace
 * frame. Never several lines.
 */

export type LogLevel = 'error' | 'warning' | 'info' | 'debug';

/**
 * GRAPH_LOG for gnd: info, and debug for graph-node's wasm runtime only, whose "Done processing
 * trigger" line after each handler names it and its transaction (and which writes the mappings'
 * log.debug): one line per trigger more, what attributes each mapping line to its handler.
 */
export const GND_LOG_FILTER = 'info,graph_runtime_wasm=debug';

// Colour codes are dropped first (gnd writes none to a pipe, but a TTY wrapper might).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** slog's timestamp and level at the start of a line. */
const LEVELED = /^[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d\.\d{3} ([A-Z]{4}) (.*)$/;
const PANIC = /^thread '[^']*'(?: \(\d+\))? panicked at /;
/** Backtrace frames and the words around them: never the reason. */
const NOISE = /^(?:\s*\d+: |\s+at |\s*(?:stack|Stack) backtrace:|note: run with `RUST_BACKTRACE|Caused by:\s*$|\s*$)/;
const MAX_LENGTH = 300;

const clean = (line: string) => line.replace(ANSI, '').replace(/\s+$/, '');
const bounded = (line: string) => (line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line);

/** ERRO and CRIT are errors, WARN a warning, DEBG and TRCE debug, anything else (INFO, lines without a level) info. */
export function gndLogLevel(line: string): LogLevel {
  const level = LEVELED.exec(clean(line.slice(0, 200)))?.[1];
  return level === 'ERRO' || level === 'CRIT' ? 'error' : level === 'WARN' ? 'warning' : level === 'DEBG' || level === 'TRCE' ? 'debug' : 'info';
}

/** gnd dev's own manifest, deployed as subgraph-0 from the data folder's dev/build (see placeholder.ts). */
const PLACEHOLDER = /(?:^|[\s:=])\S*[/\\]dev[/\\]build[/\\]subgraph\.yaml\b|\bname: subgraph-0\b/;
export const PLACEHOLDER_LABEL = "[gnd dev's placeholder subgraph, harmless]";

/**
 * A line of gnd's for a log channel that stamps its own time and level: gnd's stamp and level
 * left out (the level is the channel's), and a line about gnd dev's placeholder subgraph (its
 * restart failures included) labelled as such and never an error or a warning.
 */
export function gndChannelLine(line: string): { level: LogLevel; text: string } {
  const text = clean(line);
  const leveled = LEVELED.exec(text);
  const level = gndLogLevel(line);
  const body = leveled ? leveled[2] : text;
  if (leveled && PLACEHOLDER.test(body)) return { level: level === 'debug' ? 'debug' : 'info', text: `${PLACEHOLDER_LABEL} ${body}` };
  return { level, text: body };
}

/** Whether `line` starts a Rust panic report (its message is on the next line). */
export function isPanicStart(line: string): boolean {
  return PANIC.test(clean(line));
}

/** The one meaningful line of what gnd printed, or undefined when it printed nothing but noise. */
export function failureLine(lines: readonly string[]): string | undefined {
  const text = lines.map(clean);
  for (let i = 0; i < text.length; i++) {
    if (PANIC.test(text[i])) {
      const message = text.slice(i + 1).find((l) => !NOISE.test(l) && !LEVELED.test(l));
      if (message) return bounded(message.trim());
    }
    if (text[i].startsWith('Error: ')) return bounded(text[i].slice('Error: '.length).trim());
  }
  for (const line of text) {
    const leveled = LEVELED.exec(line);
    if (leveled && (leveled[1] === 'ERRO' || leveled[1] === 'CRIT')) return bounded(leveled[2].trim());
  }
  const last = [...text].reverse().find((l) => !NOISE.test(l));
  return last === undefined ? undefined : bounded((LEVELED.exec(last)?.[2] ?? last).trim());
}
