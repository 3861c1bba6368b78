/**
 * `captureTest` on the real parts: anvil, the graph CLI, gnd (a local graph-node behind the
 * recording gateway, and `gnd test`) and Postgres. The factory fixture (a template, eth_calls,
 * one of them reverting, a watched log after an unwatched one in its block) and the demo
 * subgraph are captured; the file passes; a handler changed afterwards fails it with the right
 * assertion and field named; a range with no events, a block the node does not have and a node
 * that does not answer are one line each, and nothing is written.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { userCacheDir } from '../../src/cli/graphNode';
import { captureTest, CaptureError } from '../../src/core/gndtest/capture/capture';
import { FILLER } from '../../src/core/gndtest/capture/blocks';
import { verifyCapturedTest } from '../../src/core/gndtest/capture/verify';
import { resolveGnd } from '../../src/core/localnode/gnd';
import { endpointFromUrl } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { deployDemoToken, makeActivity, writeDemoSubgraph } from '../../scripts/demo/chain';
import { startDevnet, type Devnet } from '../support/devnets';
import { factoryProject, setUpFactoryChain, type FactoryChain } from '../support/factoryChain';
import { graphCli, linkNodeModules, removeScratch, scratchFolder } from '../support/localGraph';
import { processesUsing } from '../support/processes';

let anvil: Devnet;
let scratch: string;
let gnd: string;
let chain: FactoryChain;
let project: string;

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-capture-');
  linkNodeModules(scratch);
  gnd = (await resolveGnd({ cacheDir: userCacheDir(process.env) })).path;
  chain = await setUpFactoryChain(anvil.url);
  project = factoryProject(scratch, chain.factory, chain.startBlock);
});

after(async () => {
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

interface TestFile {
  name: string;
  blocks: {
    number: number;
    hash?: string;
    events?: { address: string; event: string; params: Record<string, unknown>; txHash?: string }[];
    ethCalls?: { function: string; reverts?: boolean }[];
  }[];
  assertions: { query: string; expected: Record<string, unknown[]> }[];
}

const nothingRunning = () => assert.deepEqual(processesUsing('chaindeck-capture-').concat(processesUsing('chaindeck-graph-node-')), [], 'nothing of the capture is left running');

test('the factory fixture: captured with its template events, eth_calls (a revert too) and log-index fillers; the file passes; a changed handler fails it, naming the assertion and field', async () => {
  const manifest = path.join(project, 'subgraph.yaml');
  const result = await captureTest({ manifest, rpcUrl: anvil.url, from: chain.first, to: chain.last, gnd, cacheDir: userCacheDir(process.env) });
  assert.equal(result.file, path.join(project, 'tests', `Factory-${chain.first}-${chain.last}.json`));
  assert.deepEqual([result.events, result.entities], [5, 5], 'two ChildCreated and three Bumped; two children and three bumps');
  assert.ok(!existsSync(path.join(project, '.chaindeck-capture.subgraph.yaml')), 'the manifest copy is removed');
  const file = JSON.parse(readFileSync(result.file, 'utf8')) as TestFile;
  // gnd's start pointer, then every block with an event, each with its real hash.
  assert.deepEqual(
    file.blocks.map((b) => b.number),
    [chain.startBlock - 1, chain.first, chain.sharedBlock, ...Array.from({ length: chain.last - chain.sharedBlock }, (_, i) => chain.sharedBlock + 1 + i)],
  );
  const shared = file.blocks.find((b) => b.number === chain.sharedBlock)!;
  assert.deepEqual(shared.events?.[0], FILLER, 'the unwatched factory’s log is a filler');
  assert.deepEqual(shared.events?.[1].params, { child: chain.children[1], name: 'beta' });
  assert.equal(shared.events?.[1].event, 'ChildCreated(address indexed child, string name)');
  assert.match(shared.events?.[1].txHash ?? '', /^0x[0-9a-f]{64}$/);
  const calls = file.blocks.flatMap((b) => b.ethCalls ?? []);
  assert.deepEqual([...new Set(calls.map((c) => c.function))].sort(), ['broken()(uint256)', 'count()(uint256)', 'name()(string)']);
  assert.ok(calls.filter((c) => c.function === 'broken()(uint256)').every((c) => c.reverts === true));
  const bumps = file.assertions.find((a) => a.query.startsWith('{ bumps('))!;
  assert.deepEqual((bumps.expected.bumps as { amount: string }[]).map((b) => b.amount).sort(), ['11', '5', '7']);
  assert.deepEqual(file.assertions.find((a) => a.query.startsWith('{ unuseds('))?.expected, { unuseds: [] });

  // The captured file passes on the unchanged subgraph when run by itself.
  assert.equal(await verifyCapturedTest({ gnd, manifest, file: result.file, scratch }), undefined);
  // Each bump now records twice its amount: the bumps assertion fails on `amount`.
  const mapping = path.join(project, 'src', 'mapping.ts');
  writeFileSync(mapping, readFileSync(mapping, 'utf8').replace('bump.amount = event.params.amount;', 'bump.amount = event.params.amount.plus(event.params.amount);'));
  await graphCli(['codegen'], project);
  await graphCli(['build'], project);
  const failure = await verifyCapturedTest({ gnd, manifest, file: result.file, scratch });
  assert.match(failure ?? '', /^Query: \{ bumps\(.*expected "amount": "\d+", got "amount": "\d+"$/);
  nothingRunning();
});

test('the demo subgraph: its transfers and approvals captured, and the file passes', async () => {
  const token = await deployDemoToken(anvil.url);
  const counts = await makeActivity(anvil.url, token.address, token.abi);
  const demoManifest = writeDemoSubgraph(path.join(scratch, 'demo'), token);
  const to = Number(BigInt(await new RpcClient(endpointFromUrl(anvil.url)).call<string>('eth_blockNumber')));
  const out = path.join(scratch, 'demo-test.json');
  const result = await captureTest({ manifest: demoManifest, rpcUrl: anvil.url, from: token.startBlock, to, out, gnd, cacheDir: userCacheDir(process.env) });
  assert.equal(result.file, out);
  assert.equal(result.events, counts.transfers + counts.approvals + token.events.transfers);
  assert.equal(result.entities, result.events, 'one record per event');
  assert.equal(result.ethCalls, 0);
  nothingRunning();
});

test('a range with no events, a block the node does not have, a node that does not answer: one line each, nothing written', async () => {
  const manifest = path.join(project, 'subgraph.yaml');
  const base = { manifest, gnd, cacheDir: userCacheDir(process.env) };
  const out = path.join(scratch, 'never.json');
  const cases: [Parameters<typeof captureTest>[0], RegExp][] = [
    [{ ...base, rpcUrl: anvil.url, from: chain.startBlock, to: chain.startBlock, out }, /^No event of the subgraph's data sources in blocks \d+–\d+: nothing to capture/],
    [{ ...base, rpcUrl: anvil.url, from: chain.first, to: chain.last + 1000, out }, /^The node has no block \d+: its latest block is \d+\.$/],
    [{ ...base, rpcUrl: 'http://127.0.0.1:9/secret-key-123', from: 1, to: 2, out }, /^The node did not answer eth_blockNumber: /],
  ];
  for (const [options, message] of cases) {
    const err = await captureTest(options).then(
      () => assert.fail('captured'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof CaptureError, String(err));
    assert.match(err.message, message);
    assert.doesNotMatch(err.message, /secret-key-123/);
    assert.ok(!err.message.includes('\n'), 'one line');
    assert.ok(!existsSync(out), 'nothing written');
  }
  nothingRunning();
});
