/**
 * `chaindeck graph-node start` on the real gnd and Postgres, attacked: a SIGKILL at each step of
 * a start (during initdb with its whole process group, while pg_ctl starts Postgres, while gnd
 * starts, before it answers), each followed by a start that must be ready within seconds; a stale
 * lock naming the processes of a node that runs from a folder whose name begins the same; and
 * what the lock holds (no secret, readable by its user only). Every case checks that nothing of
 * its folder is left running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MARK_FILE } from '../../src/core/localnode/dataFolder';
import { LOCK_FILE, processStart } from '../../src/core/localnode/lock';
import { buildCli } from '../support/cli';
import { startDevnet, type Devnet } from '../support/devnets';
import { killProcessesUsing, processesUsing } from '../support/processes';
import { startProxy, type Proxy } from '../support/proxy';
import { until } from '../support/until';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const KEY = 'k3yInThePath0123456789';

let anvil: Devnet;
let proxy: Proxy;
let work: string;
const running = new Set<ChildProcess>();

interface Cli {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

/** The CLI in a process group of its own (a SIGKILL of the group also ends initdb or pg_ctl). */
function startCli(args: string[], rpcUrl = anvil.url): Cli {
  const child = spawn(process.execPath, [CLI, 'graph-node', 'start', '--rpc', rpcUrl, '--json', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, out, exit };
}

const ready = (cli: Cli, timeoutMs = 30_000) =>
  until('the CLI to be ready', () => (cli.out.stdout.includes('\n') ? (JSON.parse(cli.out.stdout) as { indexNode: string; data: string }) : undefined), timeoutMs).catch((err: Error) => {
    throw new Error(`${err.message}\n${cli.out.stderr}`);
  });

async function interrupt(cli: Cli): Promise<void> {
  cli.child.kill('SIGINT');
  assert.equal(await cli.exit, 0, cli.out.stderr);
}

async function killGroup(cli: Cli): Promise<void> {
  process.kill(-cli.child.pid!, 'SIGKILL');
  await cli.exit;
}

/** Nothing runs from `data` any more (the watchdog's work), within `timeoutMs`. */
async function nothingLeft(data: string, timeoutMs = 30_000): Promise<void> {
  await until(`nothing left running from ${data} (running: ${processesUsing(data).join(', ')})`, () => (processesUsing(data).length === 0 ? true : undefined), timeoutMs);
}

/** Resolves within milliseconds of Postgres writing its postmaster.pid: pg_ctl is still waiting for it to accept connections. */
async function postmasterWritten(data: string): Promise<void> {
  const file = path.join(data, 'pg', 'postmaster.pid');
  for (const deadline = Date.now() + 60_000; !existsSync(file); await new Promise((r) => setTimeout(r, 2))) {
    if (Date.now() > deadline) throw new Error('Postgres was never started');
  }
}

/** The index node answers. */
async function answers(indexNode: string): Promise<boolean> {
  const res = await fetch(indexNode, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ indexingStatuses { subgraph } }' }) });
  return res.ok;
}

/** A start after an attack is ready within 30 s (not gnd's 120 s wait), then stopped with nothing left. */
async function startsCleanly(data: string): Promise<string> {
  const began = Date.now();
  const cli = startCli(['--data', data]);
  try {
    const urls = await ready(cli);
    assert.ok(await answers(urls.indexNode));
    console.log(`start after the attack: ready in ${Date.now() - began} ms`);
  } finally {
    await interrupt(cli);
  }
  await nothingLeft(data);
  return cli.out.stderr;
}

before(async () => {
  await buildCli();
  anvil = await startDevnet('anvil');
  proxy = await startProxy({ target: anvil.url, key: KEY });
  work = mkdtempSync(path.join(tmpdir(), 'chaindeck-kills-'));
  chmodSync(work, 0o711); // as root, Postgres runs as the postgres user, which must pass through it
});

after(async () => {
  for (const child of running) process.kill(-child.pid!, 'SIGKILL');
  await proxy?.close();
  await anvil?.stop();
  if (work) {
    killProcessesUsing(work);
    rmSync(work, { recursive: true, force: true });
  }
});

test('the lock holds no secret and only its user reads it; the folders it makes are private (the temporary one too)', async () => {
  const data = path.join(work, 'private');
  for (const args of [['--data', data], []]) {
    const cli = startCli(args, proxy.url); // the key is the proxy's path
    try {
      const urls = await ready(cli);
      const lock = path.join(urls.data, LOCK_FILE);
      const text = readFileSync(lock, 'utf8');
      assert.ok(!text.includes(KEY) && !text.includes('--rpc'), `the lock holds the command line: ${text}`);
      assert.equal(statSync(lock).mode & 0o777, 0o600, 'the lock is readable by its user only');
      // As root, Postgres (the postgres user) must traverse the folder: others may pass, never list.
      assert.equal(statSync(urls.data).mode & 0o777, process.getuid?.() === 0 ? 0o711 : 0o700);
      assert.ok(!cli.out.stderr.includes(KEY), 'the key is masked in everything printed');
    } finally {
      await interrupt(cli);
    }
    if (!args.length) assert.ok(!existsSync(JSON.parse(cli.out.stdout).data), 'the temporary folder is removed on stop');
  }
  await nothingLeft(data);
});

test('a stale lock naming the processes of a node running from a folder named alike stops nothing of that node', async () => {
  const other = path.join(work, 'gn1');
  const data = path.join(work, 'gn');
  const first = startCli(['--data', other]);
  try {
    const urls = await ready(first);
    const gnd = processesUsing(other).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('\0dev\0'))!;
    const postmaster = Number(readFileSync(path.join(other, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    // The attacker's lock: a dead owner, and the other node's pids with their true start times.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    const processes = [
      { role: 'gnd', pid: gnd, since: processStart(gnd) },
      { role: 'postgres', pid: postmaster, since: processStart(postmaster) },
    ];
    mkdirSync(data);
    writeFileSync(path.join(data, MARK_FILE), '{}\n');
    writeFileSync(path.join(data, LOCK_FILE), JSON.stringify({ owner: dead.pid, started: new Date().toISOString(), processes }));
    const second = startCli(['--data', data]);
    try {
      await ready(second);
      assert.doesNotMatch(second.out.stderr, /left running/);
    } finally {
      await interrupt(second);
    }
    assert.ok(processesUsing(other).includes(gnd) && processesUsing(other).includes(postmaster), 'the other node still runs');
    assert.ok(await answers(urls.indexNode), 'the other node still answers');
    assert.doesNotMatch(first.out.stderr, /exited unexpectedly/);
  } finally {
    await interrupt(first);
  }
  await nothingLeft(other);
  await nothingLeft(data);
});

test('SIGKILL of the CLI while pg_ctl starts Postgres: the watchdog stops that Postgres; the next start finishes the database and is ready', async () => {
  const data = path.join(work, 'pgctl');
  const cli = startCli(['--data', data]);
  await postmasterWritten(data);
  cli.child.kill('SIGKILL'); // the CLI only: pg_ctl and its Postgres go on
  await cli.exit;
  await nothingLeft(data);
  assert.ok(!existsSync(path.join(data, LOCK_FILE)), 'the watchdog removed the lock');
  const stderr = await startsCleanly(data);
  assert.match(stderr, /created the database graphnode/, 'the database the killed start never made is made');
});

test('SIGKILL of the CLI and its watchdog while pg_ctl starts Postgres: the next start stops that Postgres, saying so, and is ready', async () => {
  const data = path.join(work, 'pgctl-nowatch');
  const cli = startCli(['--data', data]);
  await postmasterWritten(data);
  const watchdog = processesUsing(data).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`${process.execPath}\0-e\0`));
  for (const pid of watchdog) process.kill(pid, 'SIGKILL');
  cli.child.kill('SIGKILL');
  await cli.exit;
  const postmaster = await until('the postmaster', () => {
    const pid = Number(readFileSync(path.join(data, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 ? pid : undefined;
  });
  assert.ok(processesUsing(data).includes(postmaster), 'the Postgres pg_ctl started outlives the CLI and its watchdog');
  const stderr = await startsCleanly(data);
  assert.match(stderr, new RegExp(`stopped postgres \\(pid ${postmaster}\\) left running`));
});

test('SIGKILL of the CLI with its initdb: the next start makes the cluster again, saying so, and is ready', async () => {
  const data = path.join(work, 'initdb');
  const cli = startCli(['--data', data]);
  await until('initdb to run', () => (existsSync(path.join(data, 'pg.initdb', 'PG_VERSION')) ? true : undefined), 60_000);
  await killGroup(cli);
  assert.ok(!existsSync(path.join(data, 'pg')), 'no half-made cluster where Postgres looks');
  await nothingLeft(data);
  const stderr = await startsCleanly(data);
  assert.match(stderr, /a Postgres cluster an interrupted start left half-made; it is made again/);
});

test('SIGKILL of the CLI at each later step of a start: nothing is left running, and the next start is ready', async () => {
  const data = path.join(work, 'steps');
  for (const step of ['starting the IPFS endpoint', 'reading the chain head', 'starting gnd', 'waiting for gnd to answer']) {
    const cli = startCli(['--data', data]);
    await until(`the step '${step}'`, () => (cli.out.stderr.includes(`chaindeck graph-node: ${step}\n`) ? true : undefined), 60_000);
    cli.child.kill('SIGKILL');
    await cli.exit;
    await nothingLeft(data);
    assert.ok(!existsSync(path.join(data, LOCK_FILE)), `the lock is removed after a kill at '${step}'`);
  }
  await startsCleanly(data);
  assert.deepEqual(readdirSync(data).sort(), ['chaindeck-graph-node.json', 'dev', 'ipfs', 'logs', 'pg'], 'nothing else is left in the folder');
});
