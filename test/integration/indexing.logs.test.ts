/**
 * Subgraph Logs on the real local graph-node (gnd, Postgres, the IPFS endpoint) and anvil: a
 * mapping that logs at every level and a handler that aborts at a known block. Each entry carries
 * the handler, block and transaction it ran for (checked against the chain's receipts), in the
 * editor's path (the supervisor's lines) and in `chaindeck graph-node logs` (text, json, --follow),
 * which reads the node from its data folder's log.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { LogEntry } from '../../src/core/indexing/logs/entry';
import { GndEntries } from '../../src/core/indexing/logs/gndEntries';
import { isPlaceholderDeployment } from '../../src/core/indexing/logs/localLog';
import { LogStore } from '../../src/core/indexing/logs/store';
import { buildCli, runCli } from '../support/cli';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, type Emitter } from '../support/emitter';
import { removeScratch, repoRoot, scratchFolder, startLocalGraph, type Deployed, type LocalGraph } from '../support/localGraph';
import { until } from '../support/until';

const NAME = 'test/logs';
const LEVELS = ['debug', 'info', 'warning', 'error'] as const;

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph;
let emitter: Emitter;
let deployed: Deployed;
let boomBlock: number;
const store = new LogStore();

/** The emitter's mapping, logging at every level in handlePing and once in handleBoom before it aborts. */
function loggingProject(): string {
  const dir = emitterProject(scratch, emitter.address, emitter.block);
  const mapping = path.join(dir, 'src', 'mapping.ts');
  const logs = LEVELS.map((l) => `  log.${l}('${l} ping {} n={}', [ping.id, ping.n.toString()]);`).join('\n');
  writeFileSync(
    mapping,
    readFileSync(mapping, 'utf8')
      .replace("import { Ping } from '../generated/schema';", "import { Ping } from '../generated/schema';\nimport { log } from '@graphprotocol/graph-ts';")
      .replace('ping.save();', `ping.save();\n${logs}`)
      .replace('assert(false', "log.info('about to boom', []);\n  assert(false"),
  );
  return dir;
}

async function receiptBlock(tx: string): Promise<number> {
  const res = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [tx] }),
  });
  return Number(((await res.json()) as { result: { blockNumber: string } }).result.blockNumber);
}

before(async () => {
  await buildCli();
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-logs-');
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  // The editor's path: the supervisor's lines, read into entries, kept in a store.
  const reader = new GndEntries((e) => store.add(e), isPlaceholderDeployment);
  graph.node.on('log', (line) => reader.line(line));
  emitter = await deployEmitter(anvil.url);
  await emitter.ping(2);
  await emitter.ping(1);
  deployed = await graph.deploy(loggingProject(), NAME);
});

after(async () => {
  emitter?.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

const mappingEntries = () => store.page(deployed.deployment, {}, 0, 1000).entries.filter((e) => e.origin === 'mapping');

test('every level a mapping logs is an entry with its handler, block and transaction, as the chain has them', async () => {
  await until('the pings logged', () => (mappingEntries().length >= 12 ? true : undefined), 30_000);
  const pings = mappingEntries().filter((e) => e.message.includes(' ping '));
  assert.equal(pings.length, 12);
  assert.deepEqual(
    pings.map((e) => e.level),
    [...LEVELS, ...LEVELS, ...LEVELS],
  );
  for (const e of pings) {
    assert.equal(e.handler, 'handlePing');
    assert.equal(e.dataSource, 'Emitter');
    assert.ok(e.tx && e.message.includes(`${e.tx}-`), `${e.tx} ${e.message}`);
    assert.equal(e.block, await receiptBlock(e.tx!));
  }
});

/** `chaindeck graph-node logs ARGS` running, its stdout so far, and its exit. */
function runningCli(args: string[]) {
  const child = spawn(process.execPath, [path.join(repoRoot(), 'dist', 'cli.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { out: '', err: '' };
  child.stdout.on('data', (c) => (seen.out += c));
  child.stderr.on('data', (c) => (seen.err += c));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    seen,
    exit,
    lines: () =>
      seen.out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

test('the handler that aborts at a known block: its log line and the failure carry its handler, block, transaction and source line; --follow prints them as they come', async () => {
  const follow = runningCli(['graph-node', 'logs', '--graphql', graph.urls.graphql, '--deployment', NAME, '--follow', '--format', 'json']);
  try {
    await until('the follow printed what was there', () => (follow.lines().length >= 12 ? true : undefined), 30_000);
    assert.ok(!follow.seen.out.includes('handleBoom'));
  } catch (err) {
    follow.child.kill('SIGKILL');
    throw new Error(`${err}; stderr: ${follow.seen.err}`);
  }
  boomBlock = await emitter.boom();
  await graph.waitStatus(deployed.deployment, 'failed', (s) => s.health === 'failed');
  const entries = await until('the failure logged', () => {
    const all = store.page(deployed.deployment, { level: 'error', handler: 'handleBoom' }).entries;
    return all.some((e) => e.origin === 'graph-node') ? store.page(deployed.deployment, { handler: 'handleBoom' }).entries : undefined;
  });
  const boomTx = entries[0].tx!;
  assert.equal(await receiptBlock(boomTx), boomBlock);
  assert.deepEqual(
    entries.map((e) => [e.origin, e.level, e.block, e.tx]),
    entries.map((e) => [e.origin, e.origin === 'mapping' ? 'info' : 'error', boomBlock, boomTx]),
  );
  assert.equal(entries[0].message, 'about to boom');
  const failure = entries.find((e) => e.origin === 'graph-node')!;
  assert.match(failure.message, /boom after 3 pings/);
  assert.equal(failure.source?.file, 'src/mapping.ts');
  // The line graph-node names is the one with the assert in the project's mapping.
  const source = readFileSync(path.join(scratch, 'emitter', 'src', 'mapping.ts'), 'utf8').split('\n');
  assert.match(source[failure.source!.line - 1], /assert\(false/);

  // The follow, started before the boom, printed it as it came, then ends on Ctrl+C with exit 0.
  try {
    await until('the follow printed the failure', () => (follow.lines().some((o) => o.handler === 'handleBoom' && o.level === 'error') ? true : undefined), 15_000);
    assert.ok(follow.lines().some((o) => o.handler === 'handleBoom' && o.message === 'about to boom' && o.block === boomBlock && o.tx === boomTx));
  } finally {
    follow.child.kill('SIGINT');
  }
  assert.equal(await follow.exit, 0, follow.seen.err);
});

test('chaindeck graph-node logs: the same entries from the data folder, as text and as json (exactly six keys), by name or id', async () => {
  const text = await runCli(['graph-node', 'logs', '--graphql', graph.urls.graphql, '--deployment', NAME]);
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trimEnd().split('\n');
  assert.equal(lines.filter((l) => / handlePing +#\d+ +0x[0-9a-f]{64} +(debug|info|warning|error) ping /.test(l)).length, 12, text.stdout);
  assert.ok(
    lines.some((l) => new RegExp(`^\\S+ +ERROR +handleBoom +#${boomBlock} +0x[0-9a-f]{64} +Handler skipped`).test(l)),
    text.stdout,
  );

  const json = await runCli(['graph-node', 'logs', '--graphql', graph.urls.graphql, '--deployment', deployed.deployment, '--format', 'json', '--level', 'warning']);
  assert.equal(json.code, 0, json.stderr);
  const objects = json.stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const o of objects) {
    assert.deepEqual(Object.keys(o), ['time', 'level', 'handler', 'block', 'tx', 'message']);
    assert.ok(['warning', 'error', 'critical'].includes(o.level as string), JSON.stringify(o));
  }
  const fromStore = store.page(deployed.deployment, { level: 'warning' }, 0, 1000).entries;
  assert.deepEqual(
    objects.map((o) => [o.level, o.handler, o.block, o.tx, o.message]),
    fromStore.map((e: LogEntry) => [e.level, e.handler ?? null, e.block ?? null, e.tx ?? null, e.message]),
  );
});
