/**
 * The supervisor (LocalGraphNode) on stand-ins for gnd, Postgres's programs and psql, for what
 * only the integration layer's real gnd and Postgres checked before: its states as events (the
 * starting steps, ready with its URLs, stopping then stopped) with statuses and a restart; gnd
 * killed by a signal under a ready node; Postgres killed under a gnd that hangs without it (gnd
 * killed at once, one failure); a Postgres of the user's, used and never started or stopped here;
 * the subgraph names read with psql from the node's own Postgres or the user's.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { isAlive, readLock } from '../../../../src/core/localnode/lock';
import { LocalGraphNode, type LocalNodeOptions, type LocalNodeState } from '../../../../src/core/localnode/supervisor';
import { redactText } from '../../../../src/core/redact';
import { processesUsing } from '../../../support/processes';
import { startRpcServer } from '../../../support/rpcNode';
import { standinOptions, writeStandins, type Standins } from '../../../support/standinGraphNode';
import { until } from '../../../support/until';

let tmp: string;
let standins: Standins;
/** A folder holding only the stand-in psql (for PATH). */
let psqlDir: string;
let chain: { url: string; close(): Promise<void> };
const nodes: LocalGraphNode[] = [];

/** The stand-in psql: `select 1` answers 1; the names query answers one name that says where psql was sent (never the password). */
const PSQL = `#!${process.execPath}
const sql = process.argv[process.argv.indexOf('--command') + 1];
if (sql === 'select 1') { console.log(1); process.exit(0); }
const e = process.env;
console.log(JSON.stringify([{ name: 'asked/' + e.PGUSER + '@' + e.PGHOST + ':' + e.PGPORT + '/' + e.PGDATABASE + (e.PGPASSWORD ? '+password' : ''), current: 'QmCurrent', pending: null }]));
`;

before(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-supervisor-'));
  chmodSync(tmp, 0o711); // as root, Postgres's programs run as the postgres user
  standins = writeStandins(tmp);
  psqlDir = path.join(tmp, 'psqlbin');
  mkdirSync(psqlDir, { mode: 0o755 });
  writeFileSync(path.join(psqlDir, 'psql'), PSQL, { mode: 0o755 });
  chain = await startRpcServer({ eth_blockNumber: { result: '0x10' } });
});

after(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await chain?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function node(options: Partial<LocalNodeOptions> & { standin?: string; env?: NodeJS.ProcessEnv } = {}): LocalGraphNode {
  const { standin = 'serve', env = {}, ...rest } = options;
  const base = standinOptions(standins, chain.url, path.join(tmp, 'cache'), standin);
  const n = new LocalGraphNode({ ...base, ...rest, env: { ...base.env, ...env } });
  nodes.push(n);
  return n;
}

const failures = (n: LocalGraphNode) => {
  const reasons: string[] = [];
  n.on('state', (s: LocalNodeState) => void (s.kind === 'failed' && reasons.push(s.reason)));
  return reasons;
};

/** The pid the lock names for `role` (gnd or postgres). */
function lockedPid(dataDir: string, role: 'gnd' | 'postgres'): number {
  const pid = readLock(dataDir)?.processes.find((p) => p.role === role)?.pid;
  assert.ok(pid, `the lock names no ${role}`);
  return pid;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Nothing runs from `dataDir` any more (a SIGKILLed watchdog takes a moment to go). */
const nothingLeft = (dataDir: string) => until(`nothing running from ${dataDir}`, () => (processesUsing(dataDir).length === 0 ? true : undefined), 10_000);

/** The states as the steps and kinds they are. */
const trail = (states: LocalNodeState[]) => states.map((s) => (s.kind === 'starting' ? s.step : s.kind));

const STEPS = ['preparing the data folder', 'starting Postgres', 'starting the IPFS endpoint', 'reading the chain head', 'starting gnd', 'waiting for gnd to answer'];

test('states as events: the steps in order, then ready with its URLs; gnd’s lines streamed; statuses while ready; a restart; stop says stopping then stopped', async () => {
  const dataDir = path.join(tmp, 'events');
  const graphql = await freePort();
  const n = node({ dataDir, ports: { graphql } });
  const states: LocalNodeState[] = [];
  const lines: string[] = [];
  n.on('state', (s) => states.push(s));
  n.on('log', (l) => lines.push(l));
  assert.deepEqual(n.state, { kind: 'stopped' });

  const urls = await n.start();
  assert.deepEqual(trail(states), [...STEPS, 'ready']);
  assert.deepEqual(n.state, { kind: 'ready', urls });
  assert.deepEqual(n.urls, urls);
  assert.equal(urls.graphql, `http://127.0.0.1:${graphql}`, 'the port picked');
  for (const [name, url] of Object.entries(urls)) assert.match(url, name === 'indexNode' ? /^http:\/\/127\.0\.0\.1:\d+\/graphql$/ : /^http:\/\/127\.0\.0\.1:\d+$/, name);
  assert.equal(new Set(Object.values(urls).map((u) => new URL(u).port)).size, 5, 'a port each');
  assert.equal(n.dataFolder, dataDir);
  assert.equal(n.gndPath, standins.gnd);
  assert.ok(lines.includes('Nov 28 17:52:16.339 INFO Starting Graph Node Dev'), lines.join('\n'));

  const seen: unknown[] = [];
  n.on('statuses', (s) => seen.push(s));
  assert.deepEqual(await n.statuses(), []);
  assert.deepEqual(seen, [[]], 'statuses() emits what it read');
  const stopWatching = n.watchStatuses(20);
  await until('watchStatuses to emit', () => (seen.length > 2 ? true : undefined), 10_000);
  stopWatching();
  const watched = seen.length;
  await new Promise((r) => setTimeout(r, 600));
  // An answer asked for before the end may still come (late on a loaded machine); a watch going on would bring dozens.
  assert.ok(seen.length - watched <= 2, `${seen.length - watched} statuses after the watch ended`);

  states.length = 0;
  assert.deepEqual(await n.start(), urls, 'a start while ready gives the same URLs');
  assert.equal(states.length, 0, 'and starts nothing');

  const again = await n.restart();
  assert.deepEqual(trail(states), ['stopping', 'stopped', ...STEPS, 'ready']);
  assert.equal(again.graphql, urls.graphql, 'the picked port again');
  assert.deepEqual(n.state, { kind: 'ready', urls: again });

  states.length = 0;
  await n.stop();
  assert.deepEqual(states, [{ kind: 'stopping' }, { kind: 'stopped' }]);
  assert.equal(n.urls, undefined);
  assert.equal(n.dataFolder, undefined);
  assert.equal(readLock(dataDir), undefined, 'the lock is removed');
  assert.ok(existsSync(path.join(dataDir, 'pg')), 'a data folder of the user’s is kept');
  await nothingLeft(dataDir);
  await assert.rejects(n.statuses(), { message: 'The local graph-node is not running.' });
  await assert.rejects(n.subgraphNames(), { message: 'The local graph-node is not running.' });
  states.length = 0;
  await n.stop();
  assert.equal(states.length, 0, 'a second stop says nothing');
});

test('gnd killed by a signal under a ready node: failed naming gnd and the signal, its Postgres stopped too, and the node starts again', async () => {
  const dataDir = path.join(tmp, 'gnd-killed');
  const n = node({ dataDir });
  const reasons = failures(n);
  await n.start();
  const gnd = lockedPid(dataDir, 'gnd');
  const postmaster = lockedPid(dataDir, 'postgres');
  process.kill(gnd, 'SIGKILL');
  await until('the failure', () => (n.state.kind === 'failed' ? true : undefined), 15_000);
  assert.deepEqual(reasons, ['gnd exited unexpectedly (SIGKILL): Starting Graph Node Dev']);
  assert.equal(isAlive(postmaster), false, 'Postgres was stopped');
  assert.equal(readLock(dataDir), undefined, 'the lock is removed');
  assert.equal(n.urls, undefined);
  await n.start();
  assert.equal(n.state.kind, 'ready', 'a failed node starts again');
  await n.stop();
  await nothingLeft(dataDir);
});

test('Postgres killed under a gnd that hangs without it: gnd is killed at once (not asked to stop, then waited for), one failure naming Postgres, nothing left running', async () => {
  const dataDir = path.join(tmp, 'pg-killed');
  // This gnd neither notices its database go nor ends within the stop's grace (5 s) on SIGINT.
  const interrupted = path.join(tmp, 'pg-killed-sigint');
  const n = node({ dataDir, env: { STANDIN_DEAF_TO_POSTGRES: '1', STANDIN_STOP_MS: '60000', STANDIN_SIGINT_FILE: interrupted } });
  const reasons = failures(n);
  await n.start();
  const gnd = lockedPid(dataDir, 'gnd');
  const postmaster = lockedPid(dataDir, 'postgres');
  process.kill(postmaster, 'SIGKILL');
  await until('the failure', () => (n.state.kind === 'failed' ? true : undefined), 15_000);
  assert.equal(existsSync(interrupted), false, 'gnd was asked to stop (SIGINT) and waited for, not killed at once');
  assert.deepEqual(reasons, [`Postgres (pid ${postmaster}) exited unexpectedly; its log is ${path.join(dataDir, 'pg', 'server.log')}`]);
  assert.equal(isAlive(gnd), false, 'gnd was killed');
  await new Promise((r) => setTimeout(r, 1200)); // the Postgres watch's next tick
  assert.equal(reasons.length, 1, 'seen by Postgres’s watch and by gnd’s end, it is one failure');
  await nothingLeft(dataDir);
});

test('a Postgres of the user’s: checked, given to gnd (its password masked in gnd’s echo), never started or stopped here; the names are read from it', async () => {
  let server: Server | undefined;
  try {
    server = createServer((s) => s.end());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const postgresUrl = `postgresql://someone:pgS3cretWord@127.0.0.1:${port}/theirdb`;
    // psql on PATH: it checks the URL first (select 1), and reads the names later.
    const n = node({ postgresUrl, standin: 'echo', env: { PATH: psqlDir } });
    const steps: string[] = [];
    const lines: string[] = [];
    n.on('state', (s) => void (s.kind === 'starting' && steps.push(s.step)));
    n.on('log', (l) => lines.push(redactText(l)));
    await n.start();
    assert.deepEqual(steps, ['preparing the data folder', 'checking Postgres', 'starting the IPFS endpoint', 'reading the chain head', 'starting gnd', 'waiting for gnd to answer']);
    const dataDir = n.dataFolder!;
    assert.deepEqual(
      readLock(dataDir)?.processes.map((p) => p.role),
      ['gnd'],
      'no Postgres of ours runs',
    );
    assert.equal(existsSync(path.join(dataDir, 'pg')), false, 'no cluster is made');
    const echoed = lines.find((l) => l.includes('Connecting to Postgres'));
    assert.ok(echoed, lines.join('\n'));
    assert.ok(echoed.includes(`@127.0.0.1:${port}/`), `gnd is given the user's Postgres: ${echoed}`);
    assert.ok(!echoed.includes('pgS3cretWord'), echoed);

    // Sent to the user's database, with its user and password.
    assert.deepEqual(await n.subgraphNames(), [{ name: `asked/someone@127.0.0.1:${port}/theirdb+password`, current: 'QmCurrent' }]);

    await n.stop();
    assert.equal(existsSync(dataDir), false, 'the temporary data folder is removed');
    assert.ok(server.listening, 'the user’s Postgres is left alone');
  } finally {
    server?.close();
  }
});

test('the names of the node’s own Postgres: read with the psql beside its programs, from its database', async () => {
  const dataDir = path.join(tmp, 'names');
  const postgres = await freePort();
  // Another psql on PATH answers nothing: the one beside Postgres's programs is asked.
  const elsewhere = path.join(tmp, 'elsewhere');
  mkdirSync(elsewhere, { mode: 0o755 });
  writeFileSync(path.join(elsewhere, 'psql'), `#!${process.execPath}\nconsole.log('[]');\n`, { mode: 0o755 });
  const n = node({ dataDir, ports: { postgres }, env: { PATH: elsewhere } });
  await n.start();
  writeFileSync(path.join(standins.pgBin, 'psql'), PSQL, { mode: 0o755 });
  try {
    assert.deepEqual(await n.subgraphNames(), [{ name: `asked/graph@127.0.0.1:${postgres}/graphnode+password`, current: 'QmCurrent' }]);
  } finally {
    rmSync(path.join(standins.pgBin, 'psql'));
  }
  rmSync(path.join(elsewhere, 'psql'));
  await assert.rejects(n.subgraphNames(), { message: /^psql \(the Postgres client\) was found neither beside Postgres nor on PATH: / });
  await n.stop();
});
