/**
 * Faults of the real local graph-node while it indexes: gnd, then Postgres, killed with SIGKILL
 * in the middle of thousands of events over a hundred blocks. The supervisor's state goes failed
 * naming which one died; after a restart the subgraph resumes from its last block (not from its
 * start) and its records are exactly the logs eth_getLogs returns: none missing, none twice.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LocalNodeState } from '../../src/core/localnode/supervisor';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, indexedPingIds, type Emitter } from '../support/emitter';
import { processesUsing } from '../support/processes';
import { removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';

const NAME = 'test/faults';
/** Blocks of events per fault, each with EVENTS_PER_BLOCK Pings: enough that indexing takes seconds. */
const BLOCKS = 120;
const EVENTS_PER_BLOCK = 100;

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph;
let emitter: Emitter;
let deployment: string;

const manyEvents = (blocks: number) => emitter.pingMany(blocks, EVENTS_PER_BLOCK);

const failure = () => new Promise<string>((resolve) => graph.node.on('state', (s: LocalNodeState) => s.kind === 'failed' && resolve(s.reason)));

/** Waits until the deployment is genuinely mid-way: past `from`, well short of `head`; returns the block indexed then. */
async function midway(from: number, head: number): Promise<number> {
  const status = await graph.waitStatus(
    deployment,
    `indexing between ${from} and ${head} (synced is sticky: indexed tells)`,
    (s) => (s.indexed ?? 0) > from + 2 && (s.indexed ?? 0) < head - 20,
    120_000,
  );
  return status.indexed!;
}

/** After a restart: the deployment resumes at or past `killedAt`, then syncs to `head` with exactly eth_getLogs's records. */
async function resumesExactly(killedAt: number, head: number): Promise<void> {
  await graph.restart();
  const first = await graph.waitStatus(deployment, 'known again', (s) => s.indexed !== undefined);
  assert.ok(first.indexed! >= killedAt - 1, `resumed from block ${first.indexed}, was at ${killedAt} when killed (not from the start)`);
  await graph.waitSynced(deployment, head, 180_000);
  const indexed = await indexedPingIds(graph, NAME);
  const logs = (await emitter.pingLogIds()).sort();
  assert.equal(indexed.length, logs.length, 'as many records as logs');
  assert.equal(new Set(indexed).size, indexed.length, 'no record twice');
  assert.deepEqual(indexed, logs, 'exactly the logs eth_getLogs returns');
}

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-faults-');
  // Block by block to the store (graph-node batches a syncing deployment's writes by default, up
  // to minutes): progress is visible as it happens, and a kill lands between two written blocks.
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data'), env: { ...process.env, GRAPH_STORE_WRITE_BATCH_SIZE: '0' } });
  emitter = await deployEmitter(anvil.url);
});

after(async () => {
  emitter?.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

test('gnd killed with SIGKILL while indexing: failed naming gnd; after a restart it resumes and misses nothing', async () => {
  const head = await manyEvents(BLOCKS);
  ({ deployment } = await graph.deploy(emitterProject(scratch, emitter.address, emitter.block), NAME));
  const killedAt = await midway(emitter.block, head);
  const failed = failure();
  const gnd = processesUsing(graph.dataDir).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gnd\0dev\0'));
  assert.ok(gnd, 'gnd runs');
  process.kill(gnd, 'SIGKILL');
  assert.match(await failed, /^gnd exited unexpectedly \(SIGKILL\)/);
  assert.deepEqual(processesUsing(graph.dataDir), [], 'Postgres was stopped too');
  await resumesExactly(killedAt, head);
});

test('Postgres killed with SIGKILL while indexing: failed naming Postgres; after a restart it resumes and misses nothing', async () => {
  const from = await emitter.provider.getBlockNumber();
  const head = await manyEvents(BLOCKS);
  const killedAt = await midway(from, head);
  const failed = failure();
  const postmaster = Number(readFileSync(path.join(graph.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGKILL');
  assert.match(await failed, new RegExp(`^Postgres \\(pid ${postmaster}\\) exited unexpectedly`));
  await resumesExactly(killedAt, head);
});
