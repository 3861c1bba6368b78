import { errorLine, reportFailure } from './cli/command';
import { main, processIO } from './cli/main';
import { errorText } from './core/systemError';

// Output that cannot be written (a full disk, a closed pipe) fails the command with its cause in
// words, once, instead of an unhandled 'error' event's stack trace.
let outputFailed = false;
process.stdout.on('error', (err: unknown) => {
  process.exitCode = 1;
  if (outputFailed) return;
  outputFailed = true;
  processIO.err(errorLine('', `cannot write the output: ${errorText(err)}`));
});
// Nowhere left to say why: the exit code does.
process.stderr.on('error', () => {
  process.exitCode = 1;
});

// An error thrown where no command catches it (a callback, a promise nobody awaits) is said as
// every failure is — redacted, one inert line — instead of Node's stack trace, which would show
// the URL's key it may quote; then the process ends, exit 1, since its state is unknown.
process.on('uncaughtException', (err: unknown) => {
  reportFailure(processIO, '', err);
  process.exit(1);
});

// An error no command reported is said as every failure is: redacted, one inert line, exit 1.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = outputFailed ? 1 : code;
  },
  (err: unknown) => {
    process.exitCode = reportFailure(processIO, '', err);
  },
);
