import { errorText } from './core/systemError';
import { main, unexpectedErrorLine } from './cli/main';

// Output that cannot be written (a full disk, a closed pipe) fails the command with its cause in
// words, once, instead of an unhandled 'error' event's stack trace.
let outputFailed = false;
process.stdout.on('error', (err: unknown) => {
  process.exitCode = 1;
  if (outputFailed) return;
  outputFailed = true;
  process.stderr.write(`chaindeck: cannot write the output: ${errorText(err)}\n`);
});
// Nowhere left to say why: the exit code does.
process.stderr.on('error', () => {
  process.exitCode = 1;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = outputFailed ? 1 : code;
  },
  (err: unknown) => {
    process.stderr.write(unexpectedErrorLine('chaindeck', err));
    process.exitCode = 1;
  },
);
