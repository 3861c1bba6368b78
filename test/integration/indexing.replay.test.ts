/**
 * Replay of a failing block on the real local graph-node (gnd, Postgres, the IPFS endpoint) and
 * anvil: the emitter subgraph fails at the block of boom(); a fixed mapping replayed from there
 * (grafted onto the failed deployment at N−1) writes the entity eth_getLogs says it should; a
 * mapping that aborts elsewhere names its own line; a schema graph-node cannot graft makes the
 * replay start at N under the debug name and still writes the entity.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AbiCoder, id, keccak256 } from 'ethers';
import { readCaptureManifest } from '../../src/core/gndtest/capture/manifest';
import { endpointFromUrl } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { AscWorker } from '../../src/core/indexing/replay/ascWorker';
import { readBlock } from '../../src/core/indexing/replay/block';
import { readCachedCalls } from '../../src/core/indexing/replay/callCache';
import { deployedSchema, planReplay, runReplay, type ReplayPlan } from '../../src/core/indexing/replay/replay';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, type Emitter } from '../support/emitter';
import { deployProfiled, profiledProject } from '../support/profiled';
import { graphCli, removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';

const NAME = 'test/replay';

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph;
let emitter: Emitter;
let project: string;
let failed: string;
let boomBlock: number;
let asc: AscWorker;

/** The handler that aborted, fixed: it stores the Boom as a Ping of version "fixed". */
const FIXED_BOOM = `export function handleBoom(event: Boom): void {
  const ping = new Ping(event.transaction.hash.toHexString() + '-' + event.logIndex.toString());
  ping.n = event.params.n;
  ping.from = event.transaction.from;
  ping.blockNumber = event.block.number;
  ping.version = 'fixed';
  ping.save();
}`;

function setHandleBoom(body: string): void {
  const file = path.join(project, 'src', 'mapping.ts');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/export function handleBoom[\s\S]*$/, `${body}\n`));
}

/** The Boom logs of block `n` as eth_getLogs returns them: the ids the fixed mapping must write. */
async function boomLogIds(n: number): Promise<string[]> {
  const logs = await emitter.provider.getLogs({ address: emitter.address, topics: [id('Boom(uint256)')], fromBlock: n, toBlock: n });
  return logs.map((l) => `${l.transactionHash}-${l.index}`);
}

function plan(base: boolean): Promise<ReplayPlan> {
  return (async () =>
    planReplay({
      projectDir: project,
      manifest: path.join(project, 'subgraph.yaml'),
      block: boomBlock,
      name: NAME,
      schema: readFileSync(path.join(project, 'schema.graphql'), 'utf8'),
      base: base ? { deployment: failed, schema: await deployedSchema(graph.urls.ipfs, failed), queryUrl: `${graph.urls.graphql}/subgraphs/id/${failed}` } : undefined,
    }))();
}

const fullBuild = async () => {
  await graphCli(['codegen'], project);
  await graphCli(['build'], project);
};

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-replay-');
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  emitter = await deployEmitter(anvil.url);
  await emitter.ping(2);
  boomBlock = await emitter.boom();
  await emitter.ping(1);
  project = emitterProject(scratch, emitter.address, emitter.block);
  asc = new AscWorker(project);
  ({ deployment: failed } = await graph.deploy(project, NAME));
  const status = await graph.waitStatus(failed, 'failed', (s) => s.health === 'failed');
  assert.equal(status.fatalError?.block, boomBlock, 'the emitter fails at the block of boom()');
});

after(async () => {
  asc?.close();
  emitter?.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

test('a fixed mapping replayed by graft from N−1 writes at N the entity eth_getLogs names, and the block is decoded', async (t) => {
  const p = await plan(true);
  assert.deepEqual(p.start, { kind: 'graft', base: failed, block: boomBlock - 1 }, p.reason);
  assert.equal(p.name, `${NAME}-debug`);
  setHandleBoom(FIXED_BOOM);
  const run = await runReplay({ plan: p, node: graph.urls, changed: 'mapping', fullBuild, asc: (args, signal) => asc.compile(args, signal) });
  t.diagnostic(`timings ${JSON.stringify(run.timings)}`);
  assert.equal(run.outcome.kind, 'indexed', JSON.stringify(run.outcome));
  if (run.outcome.kind !== 'indexed') return;
  const expected = await boomLogIds(boomBlock);
  assert.equal(expected.length, 1);
  assert.deepEqual(
    run.outcome.changes.changes.map((c) => [c.entity, c.id, c.kind, c.after.version, c.after.n]),
    [['Ping', expected[0], 'created', 'fixed', '2']],
  );
  // The grafted deployment kept the Pings before N, and the name serves it.
  const { pings } = await graph.query<{ pings: { version: string }[] }>(`${NAME}-debug`, `{ pings(block: { number: ${boomBlock} }) { version } }`);
  assert.deepEqual(pings.map((x) => x.version).sort(), ['fixed', 'v1', 'v1']);

  const view = await readBlock(new RpcClient(endpointFromUrl(anvil.url)), readCaptureManifest(path.join(project, 'subgraph.yaml')), boomBlock);
  assert.deepEqual(
    view.events.map((e) => [e.signature, e.args.map((a) => `${a.name}=${a.value}`).join(',')]),
    [['Boom(uint256)', 'n=2']],
  );
  assert.equal(view.transactions[0].call?.signature, 'boom()');
  assert.equal(view.transactions[0].to?.toLowerCase(), emitter.address.toLowerCase());
});

test('a mapping that aborts elsewhere fails at N and names its own line', async (t) => {
  setHandleBoom(`export function handleBoom(event: Boom): void {\n  const n = event.params.n;\n  assert(n.isZero(), 'still wrong');\n}`);
  const line =
    readFileSync(path.join(project, 'src', 'mapping.ts'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('still wrong')) + 1;
  const run = await runReplay({ plan: await plan(true), node: graph.urls, changed: 'mapping', fullBuild, asc: (args, signal) => asc.compile(args, signal) });
  t.diagnostic(`timings ${JSON.stringify(run.timings)}`);
  assert.equal(run.outcome.kind, 'failed', JSON.stringify(run.outcome));
  if (run.outcome.kind !== 'failed') return;
  assert.equal(run.outcome.block, boomBlock);
  assert.deepEqual(run.outcome.location && [run.outcome.location.file, run.outcome.location.line, run.outcome.location.message], ['src/mapping.ts', line, 'still wrong']);
});

test('without a local base (a deployment of another node) the replay starts at N and writes the entity', async (t) => {
  setHandleBoom(FIXED_BOOM.replace("'fixed'", "'remote'"));
  const p = await plan(false);
  assert.deepEqual(p.start, { kind: 'startBlock', block: boomBlock }, p.reason);
  const run = await runReplay({ plan: p, node: graph.urls, changed: 'mapping', fullBuild, asc: (args, signal) => asc.compile(args, signal) });
  t.diagnostic(`timings ${JSON.stringify(run.timings)}`);
  assert.equal(run.outcome.kind, 'indexed', JSON.stringify(run.outcome));
  if (run.outcome.kind !== 'indexed') return;
  assert.deepEqual(
    run.outcome.changes.changes.map((c) => [c.id, c.kind, c.after.version]),
    [[(await boomLogIds(boomBlock))[0], 'created', 'remote']],
  );
  // Nothing before N: the Pings of earlier blocks are not there.
  const { pings } = await graph.query<{ pings: { blockNumber: string }[] }>(`${NAME}-debug`, '{ pings { blockNumber } }');
  assert.ok(pings.length > 0 && pings.every((x) => Number(x.blockNumber) >= boomBlock), JSON.stringify(pings));
});

test('a schema graph-node cannot graft replays from N under the debug name', async (t) => {
  setHandleBoom(FIXED_BOOM.replace('ping.save();', "ping.note = 'new field';\n  ping.save();"));
  const schemaFile = path.join(project, 'schema.graphql');
  writeFileSync(schemaFile, readFileSync(schemaFile, 'utf8').replace('version: String!', 'version: String!\n  note: String!'));
  const p = await plan(true);
  assert.deepEqual(p.start, { kind: 'startBlock', block: boomBlock }, p.reason);
  assert.match(p.reason, /Ping\.note is non-nullable/);
  const run = await runReplay({ plan: p, node: graph.urls, changed: 'all', fullBuild });
  t.diagnostic(`timings ${JSON.stringify(run.timings)}`);
  assert.equal(run.outcome.kind, 'indexed', JSON.stringify(run.outcome));
  if (run.outcome.kind !== 'indexed') return;
  const expected = await boomLogIds(boomBlock);
  assert.deepEqual(
    run.outcome.changes.changes.map((c) => [c.id, c.kind, c.after.note]),
    [[expected[0], 'created', 'new field']],
  );
});

test('the calls graph-node cached for a block of handleWeigh name the profiled contract, each return value decoded', async (t) => {
  const profiled = await deployProfiled(anvil.url);
  try {
    const block = await profiled.send('weigh', 1, 1);
    const dir = profiledProject(scratch, profiled.address, profiled.block);
    const { deployment } = await graph.deploy(dir, 'test/replay-calls');
    await graph.waitSynced(deployment, block);
    const { psql, postgresUrl } = graph.node.database('test');
    const readAt = Date.now();
    const { calls, truncated } = await readCachedCalls(psql, postgresUrl, 'mainnet', block, readCaptureManifest(path.join(dir, 'subgraph.yaml')));
    t.diagnostic(`call cache read in ${Date.now() - readAt} ms`);
    assert.equal(truncated, false);
    // handleWeigh of Weigh n calls valueAt(n), valueAt(2n), … valueAt(20n); each returns keccak256(abi.encode(i, total)) with total = n.
    const n = BigInt((await profiled.contract.total()) as bigint);
    const expected = Array.from({ length: 20 }, (_, k) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256'], [n * BigInt(k + 1), n]))).toString());
    assert.equal(calls.length, 20, JSON.stringify(calls));
    for (const call of calls) {
      assert.equal(call.address, profiled.address.toLowerCase());
      assert.deepEqual(call.sources, ['Profiled']);
      assert.deepEqual(call.decoded?.functions, ['total()', 'valueAt(uint256)']);
    }
    assert.deepEqual(calls.map((c) => c.decoded?.values[0].value).sort(), expected.sort());
    // The block before holds no call of the profiled contract.
    assert.deepEqual((await readCachedCalls(psql, postgresUrl, 'mainnet', block - 1, readCaptureManifest(path.join(dir, 'subgraph.yaml')))).calls, []);
  } finally {
    profiled.close();
  }
});
