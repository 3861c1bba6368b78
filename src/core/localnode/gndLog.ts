/**
 * gnd's log lines as the output channel files them: graph-node writes each with its level after
 * the time ("Nov 28 17:49:01.123 ERRO Subgraph failed…"); an error or a warning of gnd's must
 * read as one, not as info.
 */

export type LogLevel = 'error' | 'warning' | 'info';

// slog's level words; colour codes are dropped first (gnd writes none to a pipe, but a TTY wrapper might).
// eslint-disable-next-line no-control-regex
const COLOUR = /\u001b\[[0-9;]*m/g;
const LEVEL = /^\S[^\n]{0,40}?\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+(CRIT|ERRO|WARN|INFO|DEBG|TRCE)\b/;

/** ERRO and CRIT are errors, WARN a warning, anything else (other levels, lines without one) info. */
export function gndLogLevel(line: string): LogLevel {
  const level = LEVEL.exec(line.slice(0, 120).replace(COLOUR, ''))?.[1];
  return level === 'ERRO' || level === 'CRIT' ? 'error' : level === 'WARN' ? 'warning' : 'info';
}
