/**
 * `chaindeck graph-node start` on the real programs: gnd 0.45.0 (installed once into the user
 * cache through npm), the system's Postgres, the local IPFS endpoint, a chain on anvil, and the
 * real graph CLI creating and deploying the tutorial subgraph. Records are queried through
 * GraphQL, health through the index node; then a stop by SIGINT, a start with the same --data
 * (records kept), a SIGKILL of the CLI and a start that stops what it left, a port in use and a
 * machine without Postgres. Every process is stopped, also after a failure, and each case checks
 * that nothing of its data folder is still running.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { buildCli } from '../support/cli';
import { startDevnet, type Devnet } from '../support/devnets';
import { killProcessesUsing, processesUsing } from '../support/processes';
import { until } from '../support/until';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const TUTORIAL = path.join(REPO, 'test/fixtures/subgraphs/tutorial');
const GRAPH = path.join(REPO, 'node_modules', '.bin', 'graph');
const NAME = 'chaindeck/approvals';
const CONTRACT = '0x00000000000000000000000000000000000c0de1';
/** keccak256("Approval(address,address,uint256)") */
const APPROVAL = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
/** Code that emits Approval(caller, caller, 123456789) on every call: PUSH4 v, MSTORE at 0, topics, LOG3. */
const EMITTER = `0x${'63075bcd15' + '600052'}${'33' + '33'}7f${APPROVAL}${'6020' + '6000'}a300`;

const run = promisify(execFile);

interface Urls {
  graphql: string;
  admin: string;
  ipfs: string;
  indexNode: string;
  metrics: string;
  data: string;
  gnd: string;
}

interface Started {
  child: ChildProcess;
  urls: Urls;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readyMs: number;
}

let anvil: Devnet;
let work: string;
const running = new Set<ChildProcess>();

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function startCli(args: string[], env: NodeJS.ProcessEnv = process.env, command: [string, string[]] = [process.execPath, [CLI]]): Promise<Started> {
  const began = Date.now();
  const child = spawn(command[0], [...command[1], 'graph-node', 'start', '--rpc', anvil.url, '--json', ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve({ child, urls: JSON.parse(stdout.split('\n')[0]) as Urls, stdout: () => stdout, stderr: () => stderr, exit, readyMs: Date.now() - began });
    });
    void exit.then(({ code }) => reject(new Error(`the CLI exited (${code}) before it was ready:\n${stderr}`)));
  });
}

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

async function approve(times: number): Promise<void> {
  const [from] = (await rpc('eth_accounts', [])) as string[];
  for (let i = 0; i < times; i++) await rpc('eth_sendTransaction', [{ from, to: CONTRACT, data: '0x' }]);
}

async function query(urls: Urls, text: string): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> {
  const res = await fetch(`${urls.graphql}/subgraphs/name/${NAME}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: text }) });
  return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
}

async function records(urls: Urls): Promise<{ id: string; value: string }[] | undefined> {
  const answer = await query(urls, '{ approvalQueries(first: 100) { id value } }').catch(() => undefined);
  return answer?.data?.approvalQueries as { id: string; value: string }[] | undefined;
}

async function statusOf(urls: Urls): Promise<{ subgraph: string; synced: boolean; health: string }[]> {
  const res = await fetch(urls.indexNode, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ indexingStatuses { subgraph synced health } }' }),
  });
  return ((await res.json()) as { data: { indexingStatuses: { subgraph: string; synced: boolean; health: string }[] } }).data.indexingStatuses;
}

/** SIGINT, then the CLI must exit 0 within 30 s with none of its ports open and nothing of its folder running. */
async function interrupt(started: Started, dataDir: string): Promise<number> {
  const began = Date.now();
  started.child.kill('SIGINT');
  const { code } = await started.exit;
  const took = Date.now() - began;
  assert.equal(code, 0, started.stderr());
  assert.ok(took < 30_000, `stopped in ${took} ms`);
  assert.equal(started.stdout().split('\n').length, 2, 'stdout holds exactly one line, the JSON');
  for (const url of [started.urls.graphql, started.urls.admin, started.urls.ipfs, started.urls.indexNode, started.urls.metrics])
    assert.equal(await accepts(url), false, `${url} still accepts connections`);
  assert.deepEqual(processesUsing(dataDir), [], 'a process of the data folder is still running');
  return took;
}

before(async () => {
  await buildCli();
  anvil = await startDevnet('anvil');
  await rpc('anvil_setCode', [CONTRACT, EMITTER]);
  work = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-'));
  chmodSync(work, 0o711); // as root, Postgres runs as the postgres user, which must pass through it
  const subgraph = path.join(work, 'subgraph');
  cpSync(TUTORIAL, subgraph, { recursive: true });
  const manifest = path.join(subgraph, 'subgraph.yaml');
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8')
      .replace(/address: "0x[0-9a-fA-F]+"/, `address: "${CONTRACT}"`)
      .replace(/startBlock: \d+/, 'startBlock: 0'),
  );
  symlinkSync(path.join(REPO, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  await run(GRAPH, ['codegen'], { cwd: subgraph });
});

after(async () => {
  for (const child of running) child.kill('SIGKILL');
  await anvil?.stop();
  if (work) {
    // Whatever a failed case left running from its folders is stopped before they are removed.
    killProcessesUsing(work);
    unlinkSync(path.join(work, 'node_modules'));
    rmSync(work, { recursive: true, force: true });
  }
});

describe('a local graph-node with --data', () => {
  let data: string;
  let first: { id: string; value: string }[];
  before(() => {
    data = path.join(work, 'node-data');
  });

  test('starts, takes a graph create and deploy, answers the records and reports them healthy; SIGINT stops everything', async () => {
    const started = await startCli(['--data', data]);
    console.log(`first start to ready (a new data folder; gnd downloaded too on a fresh user cache): ${started.readyMs} ms`);
    try {
      assert.match(started.stderr(), /gnd listens on every network interface/);
      assert.match(started.urls.indexNode, /^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
      const gnd = processesUsing(data)
        .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
        .filter((cmdline) => cmdline.includes('\0dev\0'));
      assert.equal(gnd.length, 1, 'gnd runs');
      assert.equal(gnd[0].split('\0')[0], started.urls.gnd, 'the JSON names the gnd binary that runs');
      assert.ok(!gnd[0].includes(anvil.url) && !gnd[0].includes('postgresql://'), 'the RPC and Postgres URLs (they may hold a key, a password) are not on gnd’s command line');
      await approve(3);
      const subgraph = path.join(work, 'subgraph');
      await run(GRAPH, ['create', '--node', started.urls.admin, NAME], { cwd: subgraph });
      const deployed = await run(GRAPH, ['deploy', '--node', started.urls.admin, '--ipfs', started.urls.ipfs, NAME, '--version-label', 'v1'], { cwd: subgraph });
      assert.match(deployed.stdout + deployed.stderr, /Deployed to/);
      const deployedAt = Date.now();
      first = await until('three records', async () => ((await records(started.urls))?.length === 3 ? records(started.urls) : undefined), 30_000);
      console.log(`graph deploy returned → 3 records answered: ${Date.now() - deployedAt} ms`);
      assert.deepEqual(
        first.map((r) => r.value),
        ['123456789', '123456789', '123456789'],
      );
      const meta = await query(started.urls, '{ _meta { deployment hasIndexingErrors } }');
      const deployment = (meta.data?._meta as { deployment: string }).deployment;
      assert.match(deployment, /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
      const statuses = await until(
        'synced',
        async () => {
          const all = await statusOf(started.urls);
          return all.find((s) => s.subgraph === deployment && s.synced) ? all : undefined;
        },
        30_000,
      );
      assert.equal(statuses.find((s) => s.subgraph === deployment)?.health, 'healthy');
      await approve(1);
      await until('a fourth record', async () => ((await records(started.urls))?.length === 4 ? true : undefined), 30_000);
      first = (await records(started.urls))!;
    } finally {
      console.log(`SIGINT to exit, ports closed: ${await interrupt(started, data)} ms`);
    }
  });

  test('a start with the same --data answers the records without a deploy', async () => {
    const started = await startCli(['--data', data]);
    console.log(`warm start to ready: ${started.readyMs} ms`);
    try {
      const again = await until('the records after a restart', async () => ((await records(started.urls))?.length === first.length ? records(started.urls) : undefined), 15_000);
      assert.deepEqual(again, first);
      const second = spawnSync(process.execPath, [CLI, 'graph-node', 'start', '--rpc', anvil.url, '--data', data], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(second.status, 1, 'a second node on the same folder is refused');
      assert.match(
        second.stderr,
        new RegExp(`A local graph-node already runs from ${data} \\(supervised by process ${started.child.pid}\\): stop it first, or choose another data folder\\.`),
      );
    } finally {
      await interrupt(started, data);
    }
  });

  test('after a SIGKILL of the CLI, its watchdog stops gnd and Postgres; the next start serves the records', async () => {
    const killed = await startCli(['--data', data]);
    const left = processesUsing(data);
    assert.ok(left.length >= 3, 'gnd, Postgres and the watchdog run');
    const killedAt = Date.now();
    killed.child.kill('SIGKILL');
    await killed.exit;
    await until('nothing left running from the data folder', async () => (processesUsing(data).length === 0 ? true : undefined), 20_000);
    console.log(`SIGKILL of the CLI → everything it started stopped by the watchdog: ${Date.now() - killedAt} ms`);
    assert.ok(!existsSync(path.join(data, 'chaindeck-graph-node.lock')), 'the watchdog removed the lock');
    const started = await startCli(['--data', data]);
    try {
      assert.doesNotMatch(started.stderr(), /left running/, 'nothing was left for the next start to stop');
      const again = await until('the records', async () => ((await records(started.urls))?.length === first.length ? records(started.urls) : undefined), 15_000);
      assert.deepEqual(again, first);
    } finally {
      await interrupt(started, data);
    }
  });

  test('after a SIGKILL of the CLI and of its watchdog, the next start stops what they left and serves the records', async () => {
    const killed = await startCli(['--data', data]);
    const watchdog = processesUsing(data).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`${process.execPath}\0-e\0`));
    assert.equal(watchdog.length, 1, 'one watchdog runs');
    process.kill(watchdog[0], 'SIGKILL');
    const left = processesUsing(data).filter((pid) => pid !== watchdog[0]);
    assert.ok(left.length >= 2, 'gnd and Postgres run');
    killed.child.kill('SIGKILL');
    await killed.exit;
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(
      processesUsing(data).some((pid) => left.includes(pid)),
      'gnd and Postgres outlive a SIGKILL of the CLI and its watchdog',
    );
    const started = await startCli(['--data', data]);
    try {
      assert.match(started.stderr(), /stopped gnd \(pid \d+\) left running/);
      for (const pid of left) assert.ok(!processesUsing(data).includes(pid), `leftover ${pid} was stopped`);
      const again = await until('the records', async () => ((await records(started.urls))?.length === first.length ? records(started.urls) : undefined), 15_000);
      assert.deepEqual(again, first);
    } finally {
      await interrupt(started, data);
    }
  });
});

/** The CLI started with `args`, its output collected; resolves its exit. */
function spawnCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'graph-node', 'start', '--rpc', anvil.url, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, out, exit };
}

test('Ctrl+C while it starts: it says it is stopping, exits 0, and nothing it started is left', async () => {
  const data = path.join(work, 'interrupted-data');
  const cli = spawnCli(['--data', data, '--json']);
  await until('gnd to be starting', () => (cli.out.stderr.includes('chaindeck graph-node: starting gnd') ? true : undefined), 60_000);
  cli.child.kill('SIGINT');
  assert.equal(await cli.exit, 0, cli.out.stderr);
  assert.match(cli.out.stderr, /chaindeck graph-node: stopping \(interrupted while starting\)\n(.|\n)*chaindeck graph-node: stopped\n$/);
  assert.equal(cli.out.stdout, '', 'no URLs: it never was ready');
  assert.deepEqual(processesUsing(data), []);
  assert.equal(existsSync(path.join(data, 'chaindeck-graph-node.lock')), false, 'the lock is removed');
});

test('two starts at once on the same new --data: one runs it, the other says it already runs, exit 1', async () => {
  const data = path.join(work, 'raced-data');
  const [a, b] = [spawnCli(['--data', data, '--json']), spawnCli(['--data', data, '--json'])];
  const first = await Promise.race([a.exit.then(() => a), b.exit.then(() => b)]);
  const winner = first === a ? b : a;
  assert.equal(await first.exit, 1, first.out.stderr);
  assert.match(first.out.stderr, new RegExp(`A local graph-node already runs from ${data} \\(supervised by process ${winner.child.pid}\\): stop it first, or choose another data folder\\.`));
  assert.equal(first.out.stdout, '');
  await until('the other to be ready', () => (winner.out.stdout.includes('\n') ? true : undefined), 120_000);
  const urls = JSON.parse(winner.out.stdout) as Urls;
  assert.equal(urls.data, data);
  winner.child.kill('SIGINT');
  assert.equal(await winner.exit, 0, winner.out.stderr);
  assert.deepEqual(processesUsing(data), []);
});

test('a port in use: a clear message, exit 1, nothing left running', async () => {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const port = (server.address() as { port: number }).port;
  const data = path.join(work, 'port-data');
  try {
    const child = spawn(process.execPath, [CLI, 'graph-node', 'start', '--rpc', anvil.url, '--data', data, '--http-port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    running.delete(child);
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`Port ${port} \\(GraphQL\\) is in use: pick another port, or stop what listens there\\.`));
    assert.deepEqual(processesUsing(data), []);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a machine without Postgres: what to install, exit 1', async () => {
  // No skip: where a mount namespace cannot be made, the test fails and says why.
  assert.equal(spawnSync('unshare', ['-m', 'true']).status, 0, 'this test hides the installed Postgres in a mount namespace: it needs `unshare -m` (root)');
  // The installed Postgres hidden in a mount namespace of the CLI's own, and PATH without it.
  const script = `mount -t tmpfs none /usr/lib/postgresql && exec "$0" "$@"`;
  const result = spawnSync('unshare', ['-m', 'sh', '-c', script, process.execPath, CLI, 'graph-node', 'start', '--rpc', anvil.url], {
    env: { ...process.env, PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /Postgres is not installed .*Debian\/Ubuntu: `sudo apt-get install postgresql`; macOS: `brew install postgresql@16`/);
});
