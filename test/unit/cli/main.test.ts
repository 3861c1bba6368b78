/**
 * `main` itself: the help text (exact), where it goes and the exit status for no command, help,
 * --version, an unknown command, each command's --help, and CHAINDECK_MAX_RESPONSE_MB checked
 * before any command runs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { helpText } from '../../../src/cli/main';
import { platformCommand } from '../../../src/cli/platform';
import { rpcCommand } from '../../../src/cli/rpc';
import { storageDecodeCommand } from '../../../src/cli/storageDecode';
import { storageDiffCommand } from '../../../src/cli/storageDiff';
import { storageRangeCommand } from '../../../src/cli/storageRange';
import { validateCommand } from '../../../src/cli/validate';
import { DEFAULT_MAX_RESPONSE_MB, responseLimit, setResponseLimitMB } from '../../../src/core/rpc/deadline';
import { runMain } from '../../support/cli';

const HELP = `chaindeck: the checks and calls of the Chaindeck VS Code extension, on the command line.

Usage: chaindeck <command> [options]

Commands:
  rpc             Call a JSON-RPC method on a node and print the response
  platform        List the organization, projects, networks, nodes or identities of the platform API
  storage-range   Print a contract's storage at a block (debug_storageRangeAt, or its emulation)
  storage-decode  Print a contract's state variables at a block, decoded by its storage layout
  storage-diff    Print what changed in a contract's storage between two blocks or in a transaction
  storage-compat  Check that an upgrade keeps the storage layout, by OpenZeppelin's rules
  proxy-history   Print a proxy's implementation history from its upgrade events
  validate        Check subgraph.yaml, its schema, ABIs and mappings
  graph-node      Run a real graph-node here (gnd, Postgres, IPFS), or print a deployment's log
  subgraph        Work on a subgraph project: its tests, run by graph-node; its endpoints compared

Run \`chaindeck <command> --help\` for the options of one command.

Every reply body and WebSocket message is refused above ${DEFAULT_MAX_RESPONSE_MB} MiB; the environment
variable CHAINDECK_MAX_RESPONSE_MB sets another cap (whole MiB, 1 to 4096).
`;

test('the help text, exactly', () => assert.equal(helpText(), HELP));

test('no command: the help on stderr only, exit 2', async () => {
  assert.deepEqual(await runMain([]), { code: 2, out: '', revealed: '', err: HELP });
});

test('--help, -h, help: the help on stdout only, exit 0', async () => {
  for (const flag of ['--help', '-h', 'help']) assert.deepEqual(await runMain([flag]), { code: 0, out: HELP, revealed: '', err: '' }, flag);
});

test('--version: the version line, exit 0 (no version is built into the source: 0.0.0-dev)', async () => {
  assert.deepEqual(await runMain(['--version']), { code: 0, out: '0.0.0-dev\n', revealed: '', err: '' });
});

test('an unknown command: named, then the help, on stderr; exit 2; names are exact', async () => {
  for (const name of ['deploy', 'RPC', 'storage', '-v', 'validate ']) {
    assert.deepEqual(await runMain([name, '--url', 'x']), { code: 2, out: '', revealed: '', err: `chaindeck: unknown command '${name}'\n\n${HELP}` }, name);
  }
});

test('a command with --help or -h anywhere: its usage on stdout, exit 0, the command not run', async () => {
  for (const command of [rpcCommand, platformCommand, storageRangeCommand, storageDecodeCommand, storageDiffCommand, validateCommand]) {
    for (const args of [['--help'], ['-h'], ['--bogus', 'x', '-h']]) {
      const run = await runMain([command.name, ...args]);
      assert.deepEqual(run, { code: 0, out: `${command.usage.trimEnd()}\n`, revealed: '', err: '' }, `${command.name} ${args.join(' ')}`);
    }
  }
});

test('CHAINDECK_MAX_RESPONSE_MB: checked before the command (even an unknown one); empty means the default', async () => {
  try {
    for (const bad of ['0', '4097', '1.5', '1e3', 'lots', '-1', ' ']) {
      const run = await runMain(['no-such-command'], { CHAINDECK_MAX_RESPONSE_MB: bad });
      assert.deepEqual(run, { code: 2, out: '', revealed: '', err: `chaindeck: CHAINDECK_MAX_RESPONSE_MB: the response cap is a whole number of MiB from 1 to 4096, not '${bad}'\n` }, bad);
    }
    const empty = await runMain(['no-such-command'], { CHAINDECK_MAX_RESPONSE_MB: '' });
    assert.match(empty.err, /^chaindeck: unknown command 'no-such-command'/);
    assert.equal(responseLimit(), DEFAULT_MAX_RESPONSE_MB * 1024 * 1024);
    for (const [value, mb] of [
      ['4096', 4096],
      [' 3 ', 3],
      ['1', 1],
    ] as const) {
      const run = await runMain(['no-such-command'], { CHAINDECK_MAX_RESPONSE_MB: value });
      assert.equal(run.code, 2);
      assert.match(run.err, /^chaindeck: unknown command/, value);
      assert.equal(responseLimit(), mb * 1024 * 1024, value);
    }
    // --help and --version are answered before the cap is read.
    assert.equal((await runMain(['--version'], { CHAINDECK_MAX_RESPONSE_MB: 'lots' })).code, 0);
  } finally {
    setResponseLimitMB(DEFAULT_MAX_RESPONSE_MB);
  }
});

test('the process streams: what main prints is made inert, then redacted, on the real stdout and stderr', async () => {
  const { main } = await import('../../../src/cli/main');
  const written = { out: '', err: '' };
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  process.stdout.write = ((chunk: string) => ((written.out += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((written.err += chunk), true)) as typeof process.stderr.write;
  let codes: number[];
  try {
    // A URL in colour: the escape before it would hide it from the URL pattern if it stayed.
    codes = [await main(['--version']), await main(['\x1b[31mhttps://h.example/SECRETKEY\x1b[0m\x07'])];
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  assert.deepEqual(codes, [0, 2]);
  assert.equal(written.out, '0.0.0-dev\n');
  assert.ok(written.err.startsWith("chaindeck: unknown command 'https://h.example/***'\n\nchaindeck: the checks and calls"), written.err.slice(0, 120));
});
