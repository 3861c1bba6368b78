/**
 * The `chaindeck` command line: the help, --version, the response cap from the environment, then
 * the command named first. Commands print through a CliIO, so tests run them in-process.
 */
import { inertJson, inertText } from '../core/inert';
import { redactKnownInValue, redactKnownSecrets, redactText, redactValue } from '../core/redact';
import { DEFAULT_MAX_RESPONSE_MB, setResponseLimitMB } from '../core/rpc/deadline';
import { errorLine, EXIT, type CliIO } from './command';
import { commands } from './commands';
import { renderRows, type Row } from './help';
import { MAX_RESPONSE_ENV } from './knobs';

export function helpText(): string {
  const lines = [
    'chaindeck: the checks and calls of the Chaindeck VS Code extension, on the command line.',
    '',
    'Usage: chaindeck <command> [options]',
    '',
    'Commands:',
    renderRows(
      commands.map((c): Row => [c.name, c.summary]),
      Math.max(...commands.map((c) => c.name.length), 8),
    ),
    '',
    'Run `chaindeck <command> --help` for the options of one command.',
    '',
    `Every reply body and WebSocket message is refused above ${DEFAULT_MAX_RESPONSE_MB} MiB; the environment`,
    `variable ${MAX_RESPONSE_ENV} sets another cap (whole MiB, 1 to 4096).`,
  ];
  return lines.join('\n') + '\n';
}

/**
 * The CLI's printing over two writers: everything printed is redacted and made inert, since
 * nodes and APIs choose much of this text; JSON values are masked before they are serialised.
 */
export function redactingIO(stdout: (text: string) => void, stderr: (text: string) => void, env: NodeJS.ProcessEnv): CliIO {
  return {
    out: (t) => stdout(redactText(inertText(t))),
    outRevealed: (t) => stdout(redactKnownSecrets(inertText(t))),
    err: (t) => stderr(redactText(inertText(t))),
    json: (value, revealed) => stdout(`${inertJson(revealed ? redactKnownInValue(value) : redactValue(value))}\n`),
    env,
  };
}

/** The process's own stdout and stderr, as every command prints to them: redacted and inert. */
export const processIO = redactingIO(
  (t) => void process.stdout.write(t),
  (t) => void process.stderr.write(t),
  process.env,
);

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    // No command is a usage error: the help goes to stderr, so a script's output stays empty.
    io.err(helpText());
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return EXIT.done;
  }
  if (name === '--version') {
    io.out(`${VERSION}\n`);
    return EXIT.done;
  }
  const cap = io.env[MAX_RESPONSE_ENV];
  const capProblem = cap === undefined || cap === '' ? undefined : setResponseLimitMB(/^\d+$/.test(cap.trim()) ? Number(cap) : NaN);
  if (capProblem) {
    io.err(errorLine('', `${MAX_RESPONSE_ENV}: ${capProblem.replace(/not .*$/, `not '${cap}'`)}`));
    return EXIT.usage;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`${errorLine('', `unknown command '${name}'`)}\n${helpText()}`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usageOf?.(rest) ?? command.usage);
    return EXIT.done;
  }
  // Every error it ends with is reported and mapped to its exit status in command.ts.
  return command.run(rest, io);
}

declare const CHAINDECK_VERSION: string | undefined;
const VERSION = typeof CHAINDECK_VERSION === 'string' ? CHAINDECK_VERSION : '0.0.0-dev';
