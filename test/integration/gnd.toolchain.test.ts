/**
 * A subgraph with no graph-cli anywhere (no node_modules/.bin/graph above it, no `graph` on PATH;
 * only graph-ts and AssemblyScript 0.19.23 installed) codegens, builds, deploys to a real local
 * graph-node and is removed again, all through gnd: the toolchain choice falls on gnd, the local
 * deploy's four steps run through it, and the indexed entities are queried afterwards. The same
 * project with only graph-ts (whose own AssemblyScript is not the one gnd compiles with) fails in
 * one line that says what to install. The validator's corpus through gnd codegen gives what
 * scripts/gnd-corpus.ts recorded (docs/validation-rules.md's gnd table rests on that record).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { readRecord, runCorpus } from '../../scripts/gnd-corpus';
import { userCacheDir } from '../../src/cli/graphNode';
import { resolveGnd } from '../../src/core/localnode/gnd';
import { graphRemoveCommand } from '../../src/core/subgraph/graphcli/commands';
import { findGraphCli } from '../../src/core/subgraph/graphcli/launch';
import { deployToLocalNode } from '../../src/core/subgraph/graphcli/localDeploy';
import { buildSubgraph, chooseToolchain, runToolchain, type Toolchain } from '../../src/core/subgraph/graphcli/toolchain';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, indexedPingIds, type Emitter } from '../support/emitter';
import { graphTsOnlyModules, removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';

/** PATH without any folder that has a `graph`: the graph CLI is not reachable from the project. */
const PATH_WITHOUT_GRAPH = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => dir && !existsSync(path.join(dir, 'graph')))
  .join(path.delimiter);
const env = { ...process.env, PATH: PATH_WITHOUT_GRAPH };

let anvil: Devnet;
let emitter: Emitter;
let graph: LocalGraph | undefined;
const scratches: string[] = [];

before(async () => {
  anvil = await startDevnet('anvil');
  emitter = await deployEmitter(anvil.url);
});

after(async () => {
  await graph?.stop().catch(() => undefined);
  await anvil?.stop();
  for (const scratch of scratches) removeScratch(scratch);
});

async function gndToolchain(project: string): Promise<Toolchain> {
  return chooseToolchain({ fromDir: project, searchPath: PATH_WITHOUT_GRAPH, gnd: async () => (await resolveGnd({ cacheDir: userCacheDir(process.env), env })).path });
}

test('no graph-cli reachable: gnd codegens, builds, creates, deploys and removes on a real local graph-node', async () => {
  const scratch = scratchFolder('chaindeck-gnd-toolchain-');
  scratches.push(scratch);
  graphTsOnlyModules(scratch, 'pinned');
  const project = emitterProject(scratch, emitter.address, emitter.block);
  assert.equal(findGraphCli(project, PATH_WITHOUT_GRAPH), undefined, 'no graph-cli from the project');
  const toolchain = await gndToolchain(project);
  assert.equal(toolchain.kind, 'gnd');

  await emitter.ping(3);
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  const urls = graph.urls;
  const seen: string[] = [];
  const started = performance.now();
  const result = await deployToLocalNode({
    manifest: 'subgraph.yaml',
    name: 'gnd/emitter',
    urls: { admin: urls.admin, ipfs: urls.ipfs },
    run: (command) => runToolchain(toolchain, command, { cwd: project, env, onOutput: (text) => seen.push(text) }),
    onStep: (command) => seen.push(`[${command.subcommand}]\n`),
  });
  const deployMs = performance.now() - started;
  assert.ok(result.ok, `${result.summary}\n${seen.join('')}`);
  assert.match(result.deployment ?? '', /^Qm\w{44}$/);
  assert.ok(existsSync(path.join(project, 'build', 'Emitter', 'Emitter.wasm')) || existsSync(path.join(project, 'build', 'subgraph.yaml')), 'gnd built the subgraph');
  assert.match(seen.join(''), /✔ Types generated successfully/);
  console.log(`codegen + build + create + deploy through gnd: ${Math.round(deployMs)} ms`);

  await graph.waitSynced(result.deployment!, await emitter.provider.getBlockNumber());
  assert.deepEqual(await indexedPingIds(graph, 'gnd/emitter'), await emitter.pingLogIds());

  // A second deploy to the same name: create says it exists, a new version goes up.
  const again = await deployToLocalNode({
    manifest: 'subgraph.yaml',
    name: 'gnd/emitter',
    urls: { admin: urls.admin, ipfs: urls.ipfs },
    run: (command) => runToolchain(toolchain, command, { cwd: project, env }),
  });
  assert.ok(again.ok, again.summary);

  // gnd 0.45.0 takes graph-node's empty (null) answer to subgraph_remove for a failure: the name
  // is gone all the same, and the summary says that may be so.
  const removed = await runToolchain(toolchain, graphRemoveCommand({ name: 'gnd/emitter', deployUrl: urls.admin, useDeployKey: false }), { cwd: project, env });
  assert.equal(removed.command, `gnd remove --node ${urls.admin} gnd/emitter`);
  const gone = await graph.answer('gnd/emitter', '{ pings(first: 1) { id } }');
  assert.equal(removed.outcome.summary, 'gnd remove failed: Failed to remove subgraph (gnd says this also when graph-node did remove it: check whether gnd/emitter is still listed)');
  assert.match(JSON.stringify(gone.errors ?? []), /not found|does not exist/i);
});

test('graph-ts alone (its own AssemblyScript): the build fails in one line naming the AssemblyScript gnd needs', async () => {
  const scratch = scratchFolder('chaindeck-gnd-graphts-');
  scratches.push(scratch);
  graphTsOnlyModules(scratch, 'graph-ts');
  const project = emitterProject(scratch, emitter.address, emitter.block);
  const toolchain = await gndToolchain(project);
  const lines: string[] = [];
  await assert.rejects(buildSubgraph({ manifest: path.join(project, 'subgraph.yaml'), toolchain, env, out: (line) => lines.push(line) }), (err: Error) => {
    assert.match(err.message, /^gnd build failed \(exit code 1\): AssemblyScript compiler version mismatch: found 0\.27\.\d+, required 0\.19\.23/);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
  assert.ok(lines.includes('✔ Types generated successfully'), 'codegen ran first, its lines handed on');
});

test('the validator corpus through gnd codegen: each project passes or fails with the message corpus.gnd.txt records', async () => {
  // Codegen only (builds take minutes: scripts/gnd-corpus.ts records them); a build recorded as
  // failing or passing is a codegen that passed.
  const started = performance.now();
  const live = await runCorpus({ bin: (await resolveGnd({ cacheDir: userCacheDir(process.env), env })).path, codegenOnly: true });
  console.log(`gnd codegen over ${live.length} corpus projects: ${Math.round(performance.now() - started)} ms`);
  const codegen = (r: { name: string; gnd: string; message: string }) => [r.name, r.gnd === 'codegen fails' ? r.message : 'codegen passes'];
  assert.deepEqual(live.map(codegen), readRecord().map(codegen));
});
