/**
 * The supervisor the editor drives (LocalGraphNode), on the real gnd, Postgres and anvil: its
 * states as events (starting steps, ready with the URLs, stopping, stopped), gnd's log lines as
 * a stream, the index node's statuses (chain head against indexed block, synced, health), a
 * restart, a Postgres of the user's given by URL, and gnd dying under it: the state says so with
 * the reason, and nothing of it is left running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { userCacheDir } from '../../src/cli/graphNode';
import { findPostgres, startPostgres, type RunningPostgres } from '../../src/core/localnode/postgres';
import { LocalGraphNode, type LocalNodeState } from '../../src/core/localnode/supervisor';
import { freePort, startDevnet, type Devnet } from '../support/devnets';
import { assertNothingLeft } from '../support/localGraph';
import { killProcessesUsing, processesUsing } from '../support/processes';

let anvil: Devnet;
let work: string;
const nodes: LocalGraphNode[] = [];

function node(dataDir: string | undefined, extra: Partial<ConstructorParameters<typeof LocalGraphNode>[0]> = {}): LocalGraphNode {
  const n = new LocalGraphNode({ rpcUrl: anvil.url, dataDir, cacheDir: userCacheDir(process.env), ...extra });
  nodes.push(n);
  return n;
}

before(async () => {
  anvil = await startDevnet('anvil');
  work = mkdtempSync(path.join(tmpdir(), 'chaindeck-supervisor-'));
  chmodSync(work, 0o711); // as root, Postgres runs as the postgres user, which must pass through it
});

after(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await anvil?.stop();
  killProcessesUsing(work);
  rmSync(work, { recursive: true, force: true });
});

test('states as events, the log as a stream, statuses from the index node, restart, stop', async () => {
  const dataDir = path.join(work, 'events');
  const n = node(dataDir);
  const states: LocalNodeState[] = [];
  const lines: string[] = [];
  n.on('state', (s) => states.push(s));
  n.on('log', (l) => lines.push(l));
  const urls = await n.start();
  assert.deepEqual(n.state, { kind: 'ready', urls });
  const steps = states.filter((s) => s.kind === 'starting').map((s) => (s as { step: string }).step);
  assert.deepEqual(steps, ['preparing the data folder', 'starting Postgres', 'starting the IPFS endpoint', 'reading the chain head', 'starting gnd', 'waiting for gnd to answer']);
  assert.ok(
    lines.some((l) => l.includes('Starting GraphQL HTTP server')),
    'gnd’s log lines are streamed',
  );

  await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x3'] }) });
  const seen: unknown[] = [];
  n.on('statuses', (s) => seen.push(s));
  const stopWatching = n.watchStatuses(200);
  let placeholder;
  const head = Number(
    (
      (await (
        await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) })
      ).json()) as { result: string }
    ).result,
  );
  for (let i = 0; i < 100 && !(placeholder?.synced && placeholder.chainHead === head && placeholder.indexed === head); i++) {
    // the chain head is the block ingestor's last stored block, which may trail synced and the chain by a poll
    await new Promise((r) => setTimeout(r, 100));
    placeholder = (await n.statuses())[0];
  }
  stopWatching();
  assert.ok(seen.length > 0, 'watchStatuses emits');
  assert.equal(placeholder?.deployment, path.join(dataDir, 'dev', 'build', 'subgraph.yaml'));
  assert.equal(placeholder?.health, 'healthy');
  assert.equal(placeholder?.synced, true);
  assert.equal(placeholder?.network, 'mainnet');
  assert.equal(placeholder?.chainHead, head, 'the chain head is the chain’s');
  assert.equal(placeholder?.indexed, head, 'indexed to the head');

  const again = await n.restart();
  assert.equal(n.state.kind, 'ready');
  assert.notEqual(again.graphql, undefined);
  states.length = 0;
  await n.stop();
  assert.deepEqual(
    states.map((s) => s.kind),
    ['stopping', 'stopped'],
  );
  assert.deepEqual(processesUsing(dataDir), []);
  await assert.rejects(n.statuses(), /The local graph-node is not running\./);
});

test('stop() while starting: the start is cancelled, the state is stopped, nothing is left', async () => {
  const dataDir = path.join(work, 'cancelled');
  const n = node(dataDir);
  let stopping: Promise<void> | undefined;
  n.on('state', (s) => {
    if (s.kind === 'starting' && s.step === 'waiting for gnd to answer' && !stopping) stopping = n.stop();
  });
  await assert.rejects(n.start(), /The start was cancelled\./);
  await stopping;
  assert.deepEqual(n.state, { kind: 'stopped' });
  assert.deepEqual(processesUsing(dataDir), []);
});

test('gnd killed under a ready node: failed with the reason, the rest stopped', async () => {
  const dataDir = path.join(work, 'killed');
  const n = node(dataDir);
  await n.start();
  const failed = new Promise<LocalNodeState>((resolve) => n.on('state', (s) => s.kind === 'failed' && resolve(s)));
  const gnd = processesUsing(dataDir).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gnd\0dev\0'));
  assert.ok(gnd, 'gnd runs');
  process.kill(gnd, 'SIGKILL');
  const state = await failed;
  assert.match((state as { reason: string }).reason, /^gnd exited unexpectedly \(SIGKILL\)/);
  assert.deepEqual(processesUsing(dataDir), [], 'Postgres was stopped too');
  const urls = await n.start();
  assert.equal(n.state.kind, 'ready', 'a failed node starts again');
  assert.ok(urls.graphql);
  await n.stop();
});

test('Postgres killed under a ready node: failed with the reason, gnd stopped', async () => {
  const dataDir = path.join(work, 'pg-killed');
  const n = node(dataDir);
  await n.start();
  const failed = new Promise<LocalNodeState>((resolve) => n.on('state', (s) => s.kind === 'failed' && resolve(s)));
  let failures = 0;
  n.on('state', (s) => void (s.kind === 'failed' && failures++));
  const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGKILL');
  const state = await failed;
  assert.match((state as { reason: string }).reason, new RegExp(`^Postgres \\(pid ${postmaster}\\) exited unexpectedly`));
  for (let i = 0; i < 50 && processesUsing(dataDir).length; i++) await new Promise((r) => setTimeout(r, 100)); // Postgres's own children end after their parent
  assert.deepEqual(processesUsing(dataDir), [], 'gnd was stopped too');
  // Seen by Postgres's watch and by gnd's exit, it is still one failure.
  assert.equal(failures, 1, 'the failure was reported more than once');
  // At once on the same folder, though the killed postmaster left its pid file (and maybe a zombie).
  const urls = await n.start();
  assert.equal(n.state.kind, 'ready', 'a node whose Postgres was killed starts again');
  assert.ok(urls.graphql);
  await n.stop();
  await assertNothingLeft(dataDir);
});

test('a Postgres of the user’s, given by URL; a temporary data folder removed on stop', async () => {
  const bins = findPostgres();
  assert.ok(bins, 'Postgres is installed (scripts/setup.sh)');
  let postgres: RunningPostgres | undefined;
  try {
    postgres = await startPostgres(bins, path.join(work, 'users-pg'), await freePort());
    const n = node(undefined, { postgresUrl: postgres.url });
    await n.start();
    const dataDir = n.dataFolder!;
    assert.match(dataDir, /chaindeck-graph-node-/);
    const running = processesUsing(dataDir).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    assert.deepEqual(
      running.map((cmdline) => (cmdline.includes('gnd\0dev\0') ? 'gnd' : cmdline.includes('\0-e\0') ? 'watchdog' : cmdline)).sort(),
      ['gnd', 'watchdog'],
      'only gnd and its watchdog run from the data folder: Postgres is the user’s',
    );
    await n.stop();
    assert.deepEqual(processesUsing(dataDir), []);
    assert.throws(() => readdirSync(dataDir), /ENOENT/);
  } finally {
    await postgres?.stop();
  }
});
