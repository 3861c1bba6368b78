/**
 * The whole loop on the real local graph-node (gnd, Postgres, the IPFS endpoint) and anvil: a
 * subgraph deployed through the real graph CLI indexes real events and answers queries; a new
 * block's records are answered; a mapping that aborts fails the deployment with its handler and
 * block; a second version takes over once synced; a restart keeps the data and resumes indexing;
 * a stop leaves nothing running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import * as path from 'node:path';
import { failedHandler } from '../../src/core/subgraph/graphnode/fatalError';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, indexedPingIds, type Emitter } from '../support/emitter';
import { processesUsing } from '../support/processes';
import { removeScratch, scratchFolder, startLocalGraph, type Deployed, type LocalGraph } from '../support/localGraph';
import { until } from '../support/until';

const NAME = 'test/pings';

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph;
let emitter: Emitter;
let v1: Deployed;
const emitters: Emitter[] = [];

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-indexing-');
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  emitter = await deployEmitter(anvil.url);
  emitters.push(emitter);
});

after(async () => {
  for (const e of emitters) e.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

type Meta = { _meta: { deployment: string; block: { number: number }; hasIndexingErrors: boolean } };

test('deploy through the graph CLI, then the records eth_getLogs returns are answered, with health from the index node', async () => {
  await emitter.ping(5);
  const head = await emitter.pingWith(42n);
  v1 = await graph.deploy(emitterProject(scratch, emitter.address, emitter.block), NAME, 'v1');
  const status = await graph.waitSynced(v1.deployment, head);
  assert.equal(status.health, 'healthy');
  assert.equal(status.network, 'mainnet');
  assert.equal(status.fatalError, undefined);
  assert.ok((status.entityCount ?? 0) >= 6, 'the six Pings are counted');
  assert.deepEqual(await indexedPingIds(graph, NAME), (await emitter.pingLogIds()).sort());
  const { pings, _meta } = await graph.query<{ pings: { n: string; version: string }[] } & Meta>(
    NAME,
    '{ pings(orderBy: n) { n version } _meta { deployment block { number } hasIndexingErrors } }',
  );
  assert.deepEqual(
    pings.map((p) => p.n),
    ['1', '2', '3', '4', '5', '42'],
  );
  assert.ok(pings.every((p) => p.version === 'v1'));
  assert.equal(_meta.deployment, v1.deployment);
  assert.equal(_meta.hasIndexingErrors, false);
  assert.ok(_meta.block.number >= head);
  // The supervisor reports the same through its statuses (the editor's view of the node).
  const seen = (await graph.node.statuses()).find((s) => s.deployment === v1.deployment);
  assert.equal(seen?.synced, true);
  assert.equal(typeof seen?.chainHead, 'number');
});

test('a new block: its records are answered', async () => {
  const block = await emitter.ping(3);
  const ids = await until(
    'the new block’s records',
    async () => {
      const { pings } = await graph.query<{ pings: { id: string; blockNumber: string }[] }>(NAME, `{ pings(where: { blockNumber: "${block}" }) { id blockNumber } }`);
      return pings.length ? pings : undefined;
    },
    30_000,
  );
  assert.equal(ids.length, 3);
  assert.deepEqual(await indexedPingIds(graph, NAME), (await emitter.pingLogIds()).sort());
});

test('a mapping that aborts: the deployment fails with the handler, the block and the message', async () => {
  const boomer = await deployEmitter(anvil.url);
  emitters.push(boomer);
  await boomer.ping(2);
  const boomBlock = await boomer.boom();
  await boomer.ping(1); // after the failure: never indexed
  const { deployment } = await graph.deploy(emitterProject(scratch, boomer.address, boomer.block, 'boom'), 'test/boom', 'v1');
  const status = await graph.waitStatus(deployment, 'failed', (s) => s.health === 'failed');
  // graph-node leaves the handler field null for a mapping that aborted; its message names it.
  assert.equal(failedHandler(status.fatalError!), 'handleBoom');
  assert.equal(status.fatalError?.block, boomBlock);
  assert.equal(status.fatalError?.deterministic, true);
  assert.match(status.fatalError?.message ?? '', new RegExp(`boom after 2 pings in handler \`handleBoom\` at block #${boomBlock}`));
  // Queries answer graph-node's indexing_error; _meta says the deployment has indexing errors.
  await assert.rejects(graph.query('test/boom', '{ pings { n } }'), /indexing_error/);
  const { data, errors } = await graph.answer<Meta>('test/boom', '{ pings(subgraphError: allow) { n } _meta { block { number } hasIndexingErrors } }');
  assert.deepEqual(errors, [{ message: 'indexing_error' }]);
  assert.equal(data?._meta.hasIndexingErrors, true);
  // The healthy deployment is not affected.
  assert.equal((await graph.statuses()).find((s) => s.deployment === v1.deployment)?.health, 'healthy');
});

test('a second version (label v2) takes over the name once synced', async () => {
  const project = emitterProject(scratch, emitter.address, emitter.block, 'pings-v2');
  const mapping = path.join(project, 'src', 'mapping.ts');
  writeFileSync(mapping, readFileSync(mapping, 'utf8').replace("const VERSION = 'v1';", "const VERSION = 'v2';"));
  const v2 = await graph.deploy(project, NAME, 'v2');
  assert.notEqual(v2.deployment, v1.deployment);
  assert.match(v2.output, /v2|Deployed to/);
  await graph.waitSynced(v2.deployment, await emitter.provider.getBlockNumber());
  const answer = await until(
    'the name to answer from v2',
    async () => {
      const a = await graph.query<{ pings: { version: string }[] } & Meta>(NAME, '{ pings(first: 1000) { version } _meta { deployment block { number } hasIndexingErrors } }');
      return a._meta.deployment === v2.deployment ? a : undefined;
    },
    30_000,
  );
  assert.equal(answer.pings.length, 9);
  assert.ok(
    answer.pings.every((p) => p.version === 'v2'),
    'every record from the new mapping',
  );
  assert.deepEqual(await indexedPingIds(graph, NAME), (await emitter.pingLogIds()).sort());
  v1 = v2;
});

test('restart with the same data folder: the records are back without a redeploy, and indexing resumes', async () => {
  const before = await indexedPingIds(graph, NAME);
  await graph.restart();
  const back = await until('the records after the restart', async () => indexedPingIds(graph, NAME).catch(() => undefined), 30_000);
  assert.deepEqual(back, before);
  const { _meta } = await graph.query<Meta>(NAME, '{ _meta { deployment block { number } hasIndexingErrors } }');
  assert.equal(_meta.deployment, v1.deployment, 'the same deployment, not a new one');
  const block = await emitter.ping(4);
  await graph.waitSynced(v1.deployment, block);
  const after = await indexedPingIds(graph, NAME);
  assert.equal(after.length, before.length + 4);
  assert.deepEqual(after, (await emitter.pingLogIds()).sort());
});

test('stop: nothing of it runs and none of its ports accepts a connection', async () => {
  const urls = Object.values(graph.urls).map((u) => new URL(u));
  await graph.stop(); // throws when a process started from the data folder is left
  assert.deepEqual(processesUsing(graph.dataDir), []);
  for (const url of urls) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    assert.ok(refused, `${url.host} refuses connections`);
  }
  assert.equal(graph.node.state.kind, 'stopped');
});
