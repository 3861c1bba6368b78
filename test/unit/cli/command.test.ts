/**
 * The one place errors become exit statuses and lines (src/cli/command.ts): 2 for a UsageError,
 * 1 for anything else, whichever command and whichever class; the line an error prints is its
 * cause in words, on one inert line, masked of every secret (an unexpected error's too, as the
 * CLI's entry prints it), and a command's own work needs no mapping of its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../../src/cli/args';
import { abortOnSignals, defineCommand, errorLine, EXIT, exitCodeOf, failureLine, renderTable, reportFailure, type CliIO } from '../../../src/cli/command';
import { PlatformError } from '../../../src/core/platform/errors';
import { registerSecret } from '../../../src/core/redact';
import { RpcFailure } from '../../../src/core/rpc/failure';
import { StorageRangeError } from '../../../src/core/storage/errors';
import { buildCli, runCli, runMain } from '../../support/cli';
import { startRpcServer } from '../../support/rpcNode';

const SECRET = 'Zq9-registered-s3cret';
registerSecret(SECRET);

test('exit statuses: 0 done, 1 failed, 2 usage; a UsageError is 2, every other error (or a thrown non-error) 1', () => {
  assert.deepEqual(EXIT, { done: 0, failed: 1, usage: 2 });
  assert.equal(exitCodeOf(new UsageError('--rpc is required')), 2);
  for (const err of [new Error('x'), new TypeError('x'), new RpcFailure('unreachable', 'x'), new PlatformError('auth', 'x'), new StorageRangeError('x', 'connect'), 'a string', undefined]) {
    assert.equal(exitCodeOf(err), 1, String(err));
  }
});

test('the failure line: the cause in words, a storage failure with its detail, a system error by its cause', () => {
  assert.equal(failureLine('rpc', new Error('boom')), 'chaindeck rpc: boom\n');
  assert.equal(failureLine('', 'thrown text'), 'chaindeck: thrown text\n');
  assert.equal(failureLine('storage-decode', new StorageRangeError('Cannot reach the node', 'connect', 'ECONNREFUSED')), 'chaindeck storage-decode: Cannot reach the node: ECONNREFUSED\n');
  assert.equal(
    failureLine('storage-decode', new StorageRangeError('Cannot reach the node (ECONNREFUSED)', 'connect', 'ECONNREFUSED')),
    'chaindeck storage-decode: Cannot reach the node (ECONNREFUSED)\n',
  );
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  assert.equal(failureLine('validate', enospc), 'chaindeck validate: no space left on device (ENOSPC)\n');
});

test('an unexpected error prints one inert line, masked: a URL key, a registered secret, one split by an escape sequence', () => {
  const err = new Error(`failed at https://h.example/URLKEY12345?t=1\n::error::forged line \x1b]0;title\x07 ${SECRET.slice(0, 9)}\x1b[0m${SECRET.slice(9)} and ${SECRET}`);
  const line = failureLine('', err);
  assert.equal(line.split('\n').length, 2, line);
  assert.equal(line, 'chaindeck: failed at https://h.example/***?***\\n::error::forged line  *** and ***\n');
  for (const part of ['URLKEY12345', SECRET, '\x1b']) assert.ok(!line.includes(part), line);
});

test('a runaway message is cut, saying how much', () => {
  const line = failureLine('rpc', new Error('x'.repeat(50_000)));
  assert.equal(line, `chaindeck rpc: ${'x'.repeat(10_000)}… (40,000 more characters cut)\n`);
});

test('reportFailure prints the line and returns the status', () => {
  let err = '';
  const io = { err: (t: string) => void (err += t) };
  assert.equal(reportFailure(io, 'platform', new PlatformError('auth', 'The API key was refused')), 1);
  assert.equal(reportFailure(io, 'validate', new UsageError('subgraph.yaml does not exist')), 2);
  assert.equal(err, 'chaindeck platform: The API key was refused\nchaindeck validate: subgraph.yaml does not exist\n');
});

test("a command's work and check: whatever they throw is reported and mapped here, the usage printed only for the check's usage errors", async () => {
  const command = (check: () => void, work: () => Promise<number>) =>
    defineCommand({ name: 'demo', summary: 'Demo', usage: ['demo'], options: {}, exit: { done: 'done', failed: 'failed' }, examples: ['chaindeck demo'], check, work });
  const run = async (c: ReturnType<typeof command>) => {
    let out = '';
    let err = '';
    const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {} };
    return { code: await c.run([], io), out, err };
  };
  const ok = () => undefined;
  assert.deepEqual(await run(command(ok, async () => 0)), { code: 0, out: '', err: '' });
  assert.deepEqual(await run(command(ok, async () => Promise.reject(new RpcFailure('unreachable', `Cannot reach ${SECRET}`)))), {
    code: 1,
    out: '',
    err: 'chaindeck demo: Cannot reach ***\n',
  });
  assert.deepEqual(await run(command(ok, async () => Promise.reject(new UsageError('pick a contract with --contract')))), {
    code: 2,
    out: '',
    err: 'chaindeck demo: pick a contract with --contract\n',
  });
  const checkFails = await run(
    command(
      () => {
        throw new UsageError('--rpc is required');
      },
      async () => 0,
    ),
  );
  assert.equal(checkFails.code, 2);
  assert.match(checkFails.err, /^chaindeck demo: --rpc is required\n\nUsage: chaindeck demo/);
  const checkBreaks = await run(
    command(
      () => {
        throw new TypeError('undefined is not a function');
      },
      async () => 0,
    ),
  );
  assert.deepEqual(checkBreaks, { code: 1, out: '', err: 'chaindeck demo: undefined is not a function\n' });
});

test("a command's failure line is masked by the map itself: a node's words that split the URL's key with an escape sequence show no key", async () => {
  const KEY = 'Kk3y-path-0123456789abcdef';
  const node = await startRpcServer();
  try {
    // HTTP 400 with a JSON-RPC error: an RpcFailure the command does not print itself.
    node.reply = () => ({ status: 400, body: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: `rejected ${KEY.slice(0, 12)}\x1b[0m${KEY.slice(12)}` } } });
    // Printed as the command wrote it (no redacting writer on the way): the line itself must be safe.
    const run = await runMain(['rpc', '--rpc', `${node.url}/${KEY}`, 'eth_call']);
    assert.equal(run.code, 1, run.err);
    assert.match(run.err, /^chaindeck rpc: .*rejected \*\*\*/);
    assert.equal(run.err.split('\n').length, 2, run.err);
    assert.ok(!run.err.includes(KEY) && !run.err.includes('\x1b'), run.err);
  } finally {
    await node.close();
  }
});

test('a usage error or failure quoting a runaway value is one bounded line, masked before it is cut (no half secret at the cut)', () => {
  const line = errorLine('rpc', `--timeout needs a number, not '${'9'.repeat(9_960)}${SECRET}'`);
  assert.ok(line.length < 10_100, `${line.length} characters`);
  assert.match(line, /^chaindeck rpc: --timeout needs a number, not '9+\*\*\*'\n$/);
  assert.ok(!line.includes(SECRET.slice(0, 4)), line.slice(-80));
});

test('the real CLI: a 100 KB flag value, environment value or command name is quoted on one bounded line, exit 2', async () => {
  await buildCli();
  const huge = 'Q'.repeat(100_000);
  for (const [args, env] of [
    [['rpc', '--rpc', 'http://127.0.0.1:1/', '--timeout', huge, 'eth_blockNumber'], {}],
    [['rpc', '--rpc', 'http://127.0.0.1:1/', 'eth_blockNumber'], { CHAINDECK_PUBLIC_PATH: huge }],
    [[huge], {}],
  ] as const) {
    const run = await runCli([...args], env);
    assert.equal(run.code, 2, run.stderr.slice(0, 200));
    const first = run.stderr.split('\n')[0];
    assert.ok(first.length < 10_100, `${first.length} characters`);
    assert.match(first, /… \(\d[\d,]* more characters cut\)$/);
  }
});

test('a table: columns aligned under the header, no trailing spaces', () => {
  assert.equal(
    renderTable(
      ['PATH', 'VALUE'],
      [
        ['total', '42'],
        ['balances[0xAb]', '7'],
      ],
    ),
    'PATH            VALUE\ntotal           42\nbalances[0xAb]  7\n',
  );
});

test('a table of 300,000 rows: aligned all the same (the widths are not a spread of a whole column)', () => {
  const rows = Array.from({ length: 300_000 }, (_, i) => [`v${i}`, String(i)]);
  const lines = renderTable(['PATH', 'VALUE'], rows).split('\n');
  assert.equal(lines.length, 300_002);
  assert.equal(lines[1], 'v0       0');
  assert.equal(lines[300_000], 'v299999  299999');
});

test('abortOnSignals: SIGINT, SIGTERM or SIGHUP aborts the command; once it stops listening, its handlers are gone', () => {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const before = process.listenerCount(sig);
    const abort = new AbortController();
    const stop = abortOnSignals(abort);
    assert.equal(process.listenerCount(sig), before + 1);
    process.emit(sig, sig);
    assert.equal(abort.signal.aborted, true, sig);
    stop();
    assert.equal(process.listenerCount(sig), before);
  }
});
