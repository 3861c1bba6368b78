/**
 * What every `chaindeck` subcommand is made of, and the one way each runs: its command line read
 * by its option table, checked (a usage error: exit 2, the message and the usage on stderr), then
 * its work (exit 0 done, 1 failed). An error that ends a command is mapped to its exit status and
 * its one line here, and nowhere else. A new command is one module that calls defineCommand, plus
 * its line in ./commands.ts.
 */
import { inertJson, inertText, QUOTE_MAX_CHARS } from '../core/inert';
import { maskedLine } from '../core/redact';
import { StorageRangeError } from '../core/storage/errors';
import { errorText } from '../core/systemError';
import { readArgs, UsageError, type ArgRules, type OptionTable, type ReadArgs } from './args';
import { renderUsage, type CommandHelp } from './help';

/** Where a command prints, and the environment it reads its secrets and settings from. */
export interface CliIO {
  out(text: string): void;
  /** stdout for what the user asked to see unredacted (--show-secrets): only registered secrets (an API key) are masked. */
  outRevealed?(text: string): void;
  err(text: string): void;
  /**
   * stdout: a JSON value with its strings masked as `out` (or, `revealed`, as `outRevealed`)
   * masks text, then serialised: masking the serialised text would cut into its escapes (a URL
   * followed by `\n` or `\"`) and print JSON that does not parse. Tests' collectors may leave it
   * out: `printJson` then writes the value as it is through `out` or `outRevealed`.
   */
  json?(value: unknown, revealed?: boolean): void;
  env: NodeJS.ProcessEnv;
}

/** Rows as aligned columns under a header, two spaces apart, trailing spaces trimmed (every table the CLI prints). */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  // A loop, not Math.max(...column): a spread of a 100,000-row column would overflow the stack.
  const widths = header.map((h) => h.length);
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** Prints a JSON value on stdout through `io.json` (see there). */
export function printJson(io: CliIO, value: unknown, revealed = false): void {
  if (io.json) return io.json(value, revealed);
  const print = revealed && io.outRevealed ? io.outRevealed.bind(io) : io.out.bind(io);
  print(`${inertJson(value)}\n`);
}

/** A line quotes this much of its message at most: whole for every message Chaindeck writes, bounded for a runaway one (a flag's value of 100 KB). */
const LINE_MAX_CHARS = 10 * QUOTE_MAX_CHARS;

/**
 * The line the CLI prints for a usage error or a failure: `chaindeck NAME: message`, the message
 * on one line whatever it quotes (a file name or a node's words with a line break would otherwise
 * print a second, forged line: a fake finding or `::error` command). Made inert first (an escape
 * sequence inside a secret would otherwise hide it from the mask), masked of every URL's secrets
 * and every registered secret, then cut: cut first, half a secret would no longer be one.
 */
export function errorLine(name: string, message: string): string {
  return `chaindeck${name ? ` ${name}` : ''}: ${maskedLine(inertText(message), [], LINE_MAX_CHARS)}\n`;
}

/** A warning on stderr, one line like errorLine's: a name from a file or a node cannot print a second, forged line. */
export function warningLine(message: string): string {
  return `Warning: ${maskedLine(inertText(message), [], LINE_MAX_CHARS)}\n`;
}

/** The exit statuses of every command. */
export const EXIT = {
  done: 0,
  failed: 1,
  /** The command line cannot run as written (a UsageError). */
  usage: 2,
} as const;

/** The exit status of an error that ended a command: 2 for a UsageError, 1 for any other. */
export function exitCodeOf(err: unknown): number {
  return err instanceof UsageError ? EXIT.usage : EXIT.failed;
}

/**
 * The line an error that ended a command (`name`; '' for the CLI itself) prints: its cause in
 * words (a system error by its cause, a storage failure with its detail), as errorLine says it.
 */
export function failureLine(name: string, err: unknown): string {
  const message = errorText(err);
  const detail = err instanceof StorageRangeError && err.detail && !message.includes(err.detail) ? `: ${err.detail}` : '';
  return errorLine(name, `${message}${detail}`);
}

/** An error that ended a command, said on stderr in its one line; returns the exit status. */
export function reportFailure(io: Pick<CliIO, 'err'>, name: string, err: unknown): number {
  io.err(failureLine(name, err));
  return exitCodeOf(err);
}

/**
 * Aborts `abort` on Ctrl+C, SIGTERM or SIGHUP (the terminal closed), so a command that started
 * programs stops them before it exits; returns the function that stops listening.
 */
export function abortOnSignals(abort: AbortController): () => void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handler = () => abort.abort();
  for (const sig of signals) process.on(sig, handler);
  return () => signals.forEach((sig) => process.off(sig, handler));
}

/** One subcommand of the `chaindeck` command line, as main runs it. */
export interface CliCommand {
  name: string;
  /** Its line in the list of commands, and the first line of its usage after the forms. */
  summary: string;
  /** The whole text of `chaindeck NAME --help`. */
  usage: string;
  /** The help for these words (a command with actions: the named action's); default `usage`. */
  usageOf?(args: string[]): string;
  run(args: string[], io: CliIO): Promise<number>;
}

export interface CommandSpec<O extends OptionTable, A> extends CommandHelp, ArgRules<O> {
  /**
   * The command line as read, checked and turned into what `work` needs; throws a UsageError
   * for anything that cannot run as written. Nothing is sent or written before it returns.
   */
  check(read: ReadArgs<O>, io: CliIO): A;
  /**
   * The command's work: 0 when done, 1 when it failed (the reason on stderr). An error it throws
   * is reported by reportFailure: exit 1, or 2 for a UsageError (a choice the command line missed).
   */
  work(args: A, io: CliIO): Promise<number>;
}

export function defineCommand<O extends OptionTable, A>(spec: CommandSpec<O, A>): CliCommand {
  const usage = renderUsage(spec, spec.options);
  return {
    name: spec.name,
    summary: spec.summary,
    usage,
    async run(argv, io) {
      let args: A;
      try {
        args = spec.check(readArgs(argv, spec), io);
      } catch (err) {
        if (!(err instanceof UsageError)) return reportFailure(io, spec.name, err);
        io.err(`${errorLine(spec.name, err.message)}\n${usage}`);
        return EXIT.usage;
      }
      try {
        return await spec.work(args, io);
      } catch (err) {
        return reportFailure(io, spec.name, err);
      }
    },
  };
}
