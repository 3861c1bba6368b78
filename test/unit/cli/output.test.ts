/**
 * What the CLI prints when a node's text is hostile or its output cannot be written: JSON that
 * still parses after masking (values masked, then serialised), one line per finding however many
 * line breaks or megabytes a node's message holds, a Retry-After past what Chaindeck waits failing
 * at once, and a full disk named in words instead of a stack trace.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { oneLine } from '../../../src/core/inert';
import { closeIdleConnections } from '../../../src/core/rpc/http';
import { errorText, systemErrorText } from '../../../src/core/systemError';
import { buildCli, runMain } from '../../support/cli';
import { reply, startScriptedNode, type ScriptedNode } from '../../support/rpcNode';
import { repoPath } from '../../support/paths';

const KEY = 'k3yInPath0123456789abcdef';

describe('rpc: JSON on stdout parses after masking', () => {
  let node: ScriptedNode;
  before(async () => {
    node = await startScriptedNode();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  test('a URL followed by \\n, \\" or \\\\ in a string: masked, and the JSON still parses', async () => {
    const result = {
      newline: 'see https://evil.example.com/SECRETPATH\nnext line',
      quote: 'a "https://evil.example.com/SECRETPATH" quoted',
      quoteAfter: 'https://evil.example.com/SECRETPATH"',
      backslash: 'https://evil.example.com/SECRETPATH\\tail',
      tab: 'https://evil.example.com/SECRETPATH\tx',
      [`key https://evil.example.com/SECRETPATH\n`]: 1,
      echo: `the key ${KEY}`,
    };
    node.script = (r) => ({ body: reply(r, { result }) });
    const run = await runMain(['rpc', '--url', `${node.url}${KEY}`, 'eth_getThing'], {}, true);
    assert.equal(run.code, 0, run.err);
    const printed = JSON.parse(run.out) as { result: Record<string, unknown> };
    assert.deepEqual(printed.result, {
      newline: 'see https://evil.example.com/***\nnext line',
      quote: 'a "https://evil.example.com/***" quoted',
      quoteAfter: 'https://evil.example.com/***"',
      backslash: 'https://evil.example.com/***\\***',
      tab: 'https://evil.example.com/***\tx',
      ['key https://evil.example.com/***\n']: 1,
      echo: 'the key ***',
    });
    assert.ok(!run.out.includes('SECRETPATH') && !run.out.includes(KEY), run.out);
  });

  test('a secret shorter than 4 characters is masked where it stands whole: a whole value, a URL part', async () => {
    node.script = (r) => ({ body: reply(r, { result: { whole: 'k9', inUrl: 'postgres://u:k9@db.example.com/x?token=k9', word: 'k9x stays, as does ak9' } }) });
    const run = await runMain(['rpc', '--url', `${node.url}k9`, 'eth_getThing'], {}, true);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual((JSON.parse(run.out) as { result: unknown }).result, {
      whole: '***',
      inUrl: 'postgres://u:***@db.example.com/x?token=***',
      word: 'k9x stays, as does ak9',
    });
  });

  test('short path segments and query values of the URL are masked as whole values and URL parts, the error message too', async () => {
    node.script = (r) => ({ body: reply(r, { result: { a: 'k9z', f: 't7', inUrl: 'https://x.example.com/v?k=t7', word: 'k9zz t7x' } }) });
    const run = await runMain(['rpc', '--url', `${node.url}k9z?q=t7`, 'eth_getThing'], {}, true);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual((JSON.parse(run.out) as { result: unknown }).result, { a: '***', f: '***', inUrl: 'https://x.example.com/***?***', word: 'k9zz t7x' });
    node.script = (r) => ({ body: reply(r, { error: { code: -32000, message: 'k9z' } }) });
    const failed = await runMain(['rpc', '--url', `${node.url}k9z?q=t7`, 'eth_getThing'], {}, true);
    assert.equal(failed.err, 'chaindeck rpc: JSON-RPC error -32000: ***\n');
    assert.ok(!failed.out.includes('k9z'), failed.out);
  });
});

describe('rpc: one finding, one line, of bounded length', () => {
  let node: ScriptedNode;
  before(async () => {
    node = await startScriptedNode();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  test("a node's multi-line error message is one stderr line, its breaks escaped", async () => {
    node.script = (r) => ({ body: reply(r, { error: { code: -32000, message: 'first\nchaindeck rpc: forged line\r\nthird\u2028fourth' } }) });
    const run = await runMain(['rpc', '--url', node.url, 'eth_call'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(run.err, 'chaindeck rpc: JSON-RPC error -32000: first\\nchaindeck rpc: forged line\\nthird\\u2028fourth\n');
  });

  test('the same in a batch, one line per failed call', async () => {
    node.script = (r) => ({
      body: (JSON.parse(r.body) as { id: number }[]).map((c) => ({ jsonrpc: '2.0', id: c.id, error: { code: -32000, message: `bad\n${c.id}` } })),
    });
    const run = await runMain(['rpc', '--url', node.url, '--batch', '[{"method":"a"},{"method":"b"}]'], {}, true);
    assert.equal(run.code, 1);
    assert.deepEqual(run.err.split('\n').slice(0, -1), ['chaindeck rpc: call 0 (a): JSON-RPC error -32000: bad\\n1', 'chaindeck rpc: call 1 (b): JSON-RPC error -32000: bad\\n2']);
  });

  test('a 5 MiB error message is cut on stderr, saying how much was cut; stdout keeps the whole response', async () => {
    const message = 'x'.repeat(5 * 1024 * 1024);
    node.script = (r) => ({ body: reply(r, { error: { code: -32000, message } }) });
    const run = await runMain(['rpc', '--url', node.url, 'eth_call'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(run.err, `chaindeck rpc: JSON-RPC error -32000: ${'x'.repeat(1000)}… (5,241,880 more characters cut)\n`);
    assert.equal((JSON.parse(run.out) as { error: { message: string } }).error.message, message);
  });

  test('the same message behind an HTTP 500: the failure quotes it cut and on one line', async () => {
    node.script = (r) => ({ status: 500, body: reply(r, { error: { code: -32603, message: `a\nb${'y'.repeat(3000)}` } }) });
    const run = await runMain(['rpc', '--url', node.url, 'eth_call'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(run.err.split('\n').length, 2, run.err);
    assert.match(run.err, /JSON-RPC error -32603: a\\nby+… \(2,003 more characters cut\)\. Try again later/);
  });

  test('a secret across the 1,000-character cut: masked before the cut, so no start of it shows', async () => {
    node.script = (r) => ({ body: reply(r, { error: { code: -32000, message: `${'A'.repeat(993)} SECRETKEY123 tail` } }) });
    const run = await runMain(['rpc', '--url', `${node.url}SECRETKEY123`, 'eth_call'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(run.err, `chaindeck rpc: JSON-RPC error -32000: ${'A'.repeat(993)} *** ta… (2 more characters cut)\n`);
    assert.ok(!run.err.includes('SECRET'), run.err);
  });

  test('a URL before an escaped line break: its path masked, the rest of the message kept', async () => {
    node.script = (r) => ({ body: reply(r, { error: { code: -32000, message: `line one ${node.url}SECRETKEY123\n::error file=a::forged` } }) });
    const run = await runMain(['rpc', '--url', `${node.url}SECRETKEY123`, 'eth_call'], {}, true);
    assert.equal(run.err, `chaindeck rpc: JSON-RPC error -32000: line one ${node.url}***\\n::error file=a::forged\n`);
  });

  test('oneLine: each kind of line break escaped, a surrogate pair never split, short text kept whole', () => {
    assert.equal(oneLine('a\rb\vc\fd\x85e\u2029f'), 'a\\rb\\u000bc\\u000cd\\u0085e\\u2029f');
    assert.equal(oneLine('ab😀cd', 3), 'ab… (4 more characters cut)');
    assert.equal(oneLine('x'.repeat(10), 10), 'x'.repeat(10));
  });
});

describe('rpc: Retry-After past what Chaindeck waits', () => {
  let node: ScriptedNode;
  before(async () => {
    node = await startScriptedNode();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  test('Retry-After: 3600 with the default timeout fails at once, after one request, naming the wait', async () => {
    node.script = () => ({ status: 429, headers: { 'Retry-After': '3600' } });
    const run = await runMain(['rpc', '--url', node.url, 'eth_blockNumber'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(node.seen.length, 1, 'not retried after a wait cut to 10 s');
    assert.equal(
      run.err,
      `chaindeck rpc: Rate limited by the node (HTTP 429 Too Many Requests from ${node.url}). The node asks to wait 3600 s (Retry-After). Slow down, or send calls in batches.\n`,
    );
  });

  test('Retry-After: -1 is no Retry-After: retried with backoff, and no "asks to wait 0 s"', async () => {
    node.script = () => ({ status: 429, headers: { 'Retry-After': '-1' } });
    const sent = node.seen.length;
    const run = await runMain(['rpc', '--url', node.url, 'eth_blockNumber'], {}, true);
    assert.equal(run.code, 1);
    assert.equal(node.seen.length - sent, 3, 'the default 2 retries');
    assert.equal(run.err, `chaindeck rpc: Rate limited by the node (HTTP 429 Too Many Requests from ${node.url}). Slow down, or send calls in batches.\n`);
  });
});

describe('output that cannot be written', () => {
  before(() => buildCli());

  /** Runs dist/cli.js with stdout on /dev/full. */
  function runToFullDisk(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const full = fs.openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [repoPath('dist', 'cli.js'), ...args], { stdio: ['ignore', full, 'pipe'] });
    fs.closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  test('a full disk under stdout: exit 1 and the cause in words on one line, no stack trace', async () => {
    const run = await runToFullDisk(['--help']);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, 'chaindeck: cannot write the output: no space left on device (ENOSPC)\n');
  });

  test('system errors are named by their cause, the code after it; other errors by their message', () => {
    let enospc: unknown;
    try {
      fs.writeFileSync('/dev/full', 'x');
    } catch (err) {
      enospc = err;
    }
    assert.equal(systemErrorText(enospc), 'no space left on device (ENOSPC)');
    const denied = Object.assign(new Error("EACCES: permission denied, open '/data/out.json'"), { code: 'EACCES', path: '/data/out.json' });
    assert.equal(systemErrorText(denied), 'permission denied (EACCES): /data/out.json');
    const unknownCode = Object.assign(new Error("EWEIRD: something odd happened, open '/x'"), { code: 'EWEIRD' });
    assert.equal(systemErrorText(unknownCode), 'something odd happened (EWEIRD)');
    assert.equal(systemErrorText(new Error('plain')), undefined);
    assert.equal(errorText(new Error('plain')), 'plain');
  });
});

describe('usage errors and failures: one line on stderr, whatever they quote', () => {
  test('a file name with a line break: the message stays one line, no forged second line', async () => {
    const run = await runMain(['validate', 'a\nb/none.yaml'], {}, true);
    assert.equal(run.code, 2);
    const first = run.err.split('\n\n')[0];
    assert.match(first, /^chaindeck validate: .*a\\nb\/none\.yaml.*$/);
    assert.ok(!run.err.split('\n').some((l) => l.startsWith('b/none.yaml')), run.err);
  });

  test('an unknown command or a bad cap with a line break: one line too', async () => {
    const run = await runMain(['x\n::error file=a::forged'], {}, true);
    assert.equal(run.code, 2);
    assert.match(run.err, /^chaindeck: unknown command 'x\\n::error file=a::forged'\n\n/);
    const cap = await runMain(['rpc'], { CHAINDECK_MAX_RESPONSE_MB: '1\nforged' }, true);
    assert.equal(cap.code, 2);
    assert.equal(cap.err.split('\n').length, 2, cap.err);
  });
});
