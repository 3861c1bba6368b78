import { main } from './cli/main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`chaindeck: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
