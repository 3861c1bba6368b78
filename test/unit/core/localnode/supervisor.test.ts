/**
 * The supervisor's own behaviour in seconds, with stand-ins for gnd and Postgres's programs
 * (small node scripts; the real ones are in test/integration): who is blamed when gnd exits, the
 * temporary folder removed on stop, a cancelled start ending `stopped`, a panic while gnd starts
 * failing at once in one line, the RPC URL's secrets masked in gnd's echo of it, the Postgres
 * start recorded in the lock before pg_ctl runs, a user's Postgres checked before gnd starts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { failureLine } from '../../../../src/core/localnode/gndLog';
import { LOCK_FILE } from '../../../../src/core/localnode/lock';
import { placeholderManifest } from '../../../../src/core/localnode/placeholder';
import { chainHead, LocalGraphNode, type LocalNodeOptions, type LocalNodeState } from '../../../../src/core/localnode/supervisor';
import { redactText } from '../../../../src/core/redact';
import { serve } from '../../../support/httpRoutes';
import { repoPath } from '../../../support/paths';
import { startRpcServer } from '../../../support/rpcNode';
import { standinOptions, writeStandins } from '../../../support/standinGraphNode';

let tmp: string;
let gnd: string;
let pgBin: string;
let chain: { url: string; close(): Promise<void> };
const nodes: LocalGraphNode[] = [];

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-standin-'));
  chmodSync(tmp, 0o711); // as root, Postgres's programs run as the postgres user
  ({ gnd, pgBin } = writeStandins(tmp));
  chain = await startRpcServer({ eth_blockNumber: { result: '0x10' } });
});

after(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await chain?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function node(options: Partial<LocalNodeOptions> & { standin?: string } = {}): LocalGraphNode {
  const { standin = 'serve', ...rest } = options;
  const n = new LocalGraphNode({ ...standinOptions({ gnd, pgBin }, chain.url, path.join(tmp, 'cache'), standin), ...rest });
  nodes.push(n);
  return n;
}

const failed = (n: LocalGraphNode) => new Promise<string>((resolve) => n.on('state', (s: LocalNodeState) => s.kind === 'failed' && resolve(s.reason)));

test('gnd that exits by itself while its Postgres runs is blamed, in one line', async () => {
  const n = node({ dataDir: path.join(tmp, 'gnd-exits'), standin: 'exit:3' });
  const reason = failed(n);
  await n.start();
  assert.equal(await reason, 'gnd exited unexpectedly (status 3): the stand-in ends by itself');
});

test('gnd that exits because its Postgres was killed: Postgres is blamed', async () => {
  const dataDir = path.join(tmp, 'pg-killed');
  const n = node({ dataDir });
  const reason = failed(n);
  await n.start();
  const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGKILL');
  assert.match(await reason, new RegExp(`^Postgres \\(pid ${postmaster}\\) exited unexpectedly`));
});

test('the Postgres start is in the lock before initdb and pg_ctl run (a supervisor killed then never learns its pid)', async () => {
  const dataDir = path.join(tmp, 'intent');
  const n = node({ dataDir });
  let atInitdb: { postgres?: string; processes: unknown[] } | undefined;
  n.on('log', (line) => {
    if (line.startsWith('chaindeck: initdb')) atInitdb = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as typeof atInitdb;
  });
  await n.start();
  assert.equal(atInitdb?.postgres, path.join(dataDir, 'pg'));
  assert.deepEqual(atInitdb?.processes, []);
  await n.stop();
});

test('a gnd on the folder’s own manifest that no lock names (its supervisor killed just after spawning it) is stopped by the next start', async () => {
  const dataDir = path.join(tmp, 'unlocked-gnd');
  const n = node({ dataDir });
  await n.start();
  await n.stop();
  const orphan = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'dev', '--manifests', placeholderManifest(dataDir)], { stdio: 'ignore' });
  const sibling = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'dev', '--manifests', placeholderManifest(`${dataDir}1`)], { stdio: 'ignore' });
  const exited = new Promise((resolve) => orphan.once('exit', resolve));
  try {
    const lines: string[] = [];
    n.on('log', (l) => lines.push(l));
    await n.start();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    assert.ok(lines.includes(`chaindeck: stopped gnd (pid ${orphan.pid}) left running from ${dataDir}`), lines.join('\n'));
    assert.equal(sibling.exitCode, null, 'a gnd of another folder runs on');
    await n.stop();
  } finally {
    orphan.kill('SIGKILL');
    sibling.kill('SIGKILL');
  }
});

test('a temporary data folder is removed on stop', async () => {
  const n = node();
  await n.start();
  const dir = n.dataFolder!;
  assert.ok(existsSync(dir));
  await n.stop();
  assert.equal(existsSync(dir), false, 'the temporary folder is still there');
});

test('a cancelled start ends stopped, not failed; so does a stop() while it starts', async () => {
  for (const how of ['abort', 'stop'] as const) {
    const n = node({ standin: 'silent', dataDir: path.join(tmp, `cancelled-${how}`) });
    const abort = new AbortController();
    n.on('state', (s) => {
      if (s.kind === 'starting' && s.step === 'waiting for gnd to answer') void (how === 'abort' ? abort.abort() : n.stop());
    });
    await assert.rejects(n.start(abort.signal), { message: 'The start was cancelled.' });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(n.state, { kind: 'stopped' }, how);
  }
});

test('gnd that panics while it starts (and goes on running) fails the start at once, with the panic’s message as the one line', async () => {
  const n = node({ standin: 'panic', dataDir: path.join(tmp, 'panic') });
  const began = Date.now();
  await assert.rejects(n.start(), { message: 'gnd failed while starting: failed to parse Postgres connection string `garbage`: invalid connection string' });
  // At once: well before the 20 s gnd is given to answer (with room for a loaded machine).
  assert.ok(Date.now() - began < 10_000, `took ${Date.now() - began} ms`);
  assert.equal(n.state.kind, 'failed');
});

test('gnd’s echo of the RPC endpoint shows no key, password or Basic credentials once redacted', async () => {
  const url = new URL(chain.url);
  const secretUrl = `http://chainuser:pa55word@${url.host}/k3yPathSecret?token=t0kenSecret`;
  const lines: string[] = [];
  const n = node({ standin: 'echo', rpcUrl: secretUrl, dataDir: path.join(tmp, 'echo') });
  n.on('log', (l) => lines.push(redactText(l)));
  await n.start();
  await n.stop();
  const echoed = lines.find((l) => l.includes('Creating transport'));
  assert.ok(echoed, lines.join('\n'));
  for (const secret of ['k3yPathSecret', 't0kenSecret', 'pa55word', 'chainuser', Buffer.from('chainuser:pa55word').toString('base64')]) assert.ok(!echoed.includes(secret), echoed);
});

test('a Postgres URL of the user’s is checked before gnd starts: not a URL, no password, nothing listening', async () => {
  let server: Server | undefined;
  try {
    server = createServer((s) => s.end());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    server.close();
    for (const [postgresUrl, message] of [
      ['garbage', /^The Postgres URL is not a URL \(postgresql:\/\/USER:PASSWORD@HOST:PORT\/DATABASE\): give it as/],
      ['mysql://a:b@127.0.0.1:5/x', /^The Postgres URL does not start with postgresql:\/\/: give it as/],
      [`postgresql://graph@127.0.0.1:${port}/graphnode`, /^The Postgres URL needs a user, a password/],
      [`postgresql://graph:pw@127.0.0.1:${port}/graphnode`, new RegExp(`^The Postgres at 127\\.0\\.0\\.1:${port} cannot be reached \\(connect ECONNREFUSED`)],
    ] as const) {
      const n = node({ postgresUrl, dataDir: path.join(tmp, 'users-pg') });
      const began = Date.now();
      await assert.rejects(n.start(), (err: Error) => message.test(err.message) && !err.message.includes('\n'));
      assert.ok(Date.now() - began < 10_000);
    }
  } finally {
    server?.close();
  }
});

test('the one line of gnd’s output: a panic’s message, an Error:, the first ERRO, never a backtrace frame', () => {
  assert.equal(
    failureLine([
      'Nov 28 17:52:16.528 WARN Expensive queries file not set',
      "thread 'tokio-rt-worker' (18838) panicked at store/postgres/src/pool/foreign_server.rs:63:23:",
      'failed to parse Postgres connection string `garbage`: invalid connection string',
      'stack backtrace:',
      'Nov 28 17:52:16.593 ERRO Failed to connect notification listener: invalid connection string',
      '   0: __rustc::rust_begin_unwind',
    ]),
    'failed to parse Postgres connection string `garbage`: invalid connection string',
  );
  assert.equal(
    failureLine(['Error: Manifest path does not exist: /x', '', 'Caused by:', '    No such file or directory (os error 2)', 'Stack backtrace:', '   0: frame']),
    'Manifest path does not exist: /x',
  );
  assert.equal(failureLine(['Nov 28 17:52:16.593 INFO fine', 'Nov 28 17:52:16.594 ERRO Store gone, code: 1', 'Nov 28 17:52:16.595 INFO later']), 'Store gone, code: 1');
  assert.equal(failureLine(['   0: frame', '             at ./csu/x.c:1:2', 'Nov 28 17:52:16.594 INFO last words']), 'last words');
  assert.equal(failureLine(['   1: frame']), undefined);
});

/** `chaindeck graph-node start` from the sources, on the stand-ins (Postgres's programs first on PATH). */
function cli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', repoPath('src/cli.ts'), 'graph-node', 'start', '--gnd', gnd, ...args], {
    env: { PATH: `${pgBin}:${process.env.PATH}`, XDG_CACHE_HOME: path.join(tmp, 'cache'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const seen = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (stderr.includes(text)) {
          clearInterval(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`exited before '${text}':\n${stderr}`));
        }
      }, 20);
    });
  return { child, exit, seen, stderr: () => stderr };
}

test('Ctrl+C while the chain head is read (a chain that never answers) stops at once, exit 0', async () => {
  const silent = createServer(() => undefined); // accepts, never answers
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const run = cli(['--rpc', `http://127.0.0.1:${(silent.address() as { port: number }).port}`, '--data', path.join(tmp, 'cli-head')], { STANDIN: 'serve' });
    await run.seen('chaindeck graph-node: reading the chain head\n');
    const began = Date.now();
    run.child.kill('SIGINT');
    assert.deepEqual(await run.exit, { code: 0, signal: null }, run.stderr());
    assert.ok(Date.now() - began < 5000, `stopped in ${Date.now() - began} ms`);
    assert.match(run.stderr(), /chaindeck graph-node: stopped\n$/);
  } finally {
    silent.close();
  }
});

test('a second Ctrl+C while it stops is held and said: the stop ends with its last line, exit 0', async () => {
  const run = cli(['--rpc', chain.url, '--data', path.join(tmp, 'cli-twice')], { STANDIN: 'serve', STANDIN_STOP_MS: '1500' });
  await run.seen('Ctrl+C stops it');
  run.child.kill('SIGINT');
  await run.seen('chaindeck graph-node: stopping\n');
  run.child.kill('SIGINT');
  assert.deepEqual(await run.exit, { code: 0, signal: null }, run.stderr());
  assert.match(run.stderr(), /chaindeck graph-node: still stopping gnd and Postgres \(at most a few seconds\)\n(.|\n)*chaindeck graph-node: stopped in \d+\.\d s\n$/);
});

test('a 32 MB add is streamed to disk: the IPFS endpoint’s memory stays far below the upload’s size', async () => {
  // The endpoint alone in a process of its own, so its peak memory (VmHWM) is its own.
  const dir = path.join(tmp, 'big-add');
  const endpoint = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('${repoPath('src/core/localnode/ipfs.ts')}').then((m) => (m.startIpfsEndpoint ?? m.default.startIpfsEndpoint)({ blocksDir: '${dir}/blocks', filesDir: '${dir}/files' })).then((e) => console.log(e.url))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const url = await new Promise<string>((resolve) => endpoint.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
    const SIZE = 32 * 1024 * 1024;
    const boundary = 'standinboundary';
    const chunk = Buffer.alloc(1024 * 1024, 7);
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      for (let sent = 0; sent < SIZE; sent += chunk.length) yield chunk;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const res = await fetch(`${url}/api/v0/add`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const answer = (await res.json()) as { Hash: string; Size: string };
    assert.equal(res.status, 200);
    assert.match(answer.Hash, /^Qm/);
    const file = path.join(dir, 'files', answer.Hash);
    assert.equal(statSync(file).size, SIZE, 'the bridge file holds the whole upload');
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${endpoint.pid}/status`, 'utf8'))![1]);
    console.log(`IPFS endpoint peak memory after a 32 MB add: ${Math.round(peakKb / 1024)} MB`);
    assert.ok(peakKb < 240 * 1024, `peak ${Math.round(peakKb / 1024)} MB`);
  } finally {
    endpoint.kill('SIGKILL');
  }
});

test('the chain head of an RPC URL with user:password is asked with HTTP Basic, the password never printed', async () => {
  const rpc = await serve({
    '/v1': (req, res) => {
      res.writeHead(req.headers.authorization === `Basic ${Buffer.from('me:p@ss').toString('base64')}` ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2a' }));
    },
  });
  try {
    const withCredentials = rpc.url.replace('http://', 'http://me:p%40ss@');
    assert.equal(await chainHead(`${withCredentials}/v1`), 42);
    await assert.rejects(
      chainHead(`${withCredentials.replace('p%40ss', 'wrong')}/v2`),
      (err: Error) => err.message.startsWith('The chain at the RPC URL did not answer eth_blockNumber') && !err.message.includes('wrong'),
    );
  } finally {
    await rpc.close();
  }
});
