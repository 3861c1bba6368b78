// The local deploy's four steps (core): their command lines, their order, where they stop, and what
// the result says. Each step's run is judged by core's judgeGraphRun on output the graph CLI
// prints; the last test runs the real CLI on a manifest it rejects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GraphInputError, type GraphCommand } from '../../../../../src/core/subgraph/graphcli/commands';
import { findGraphCli, runGraph, type GraphRun } from '../../../../../src/core/subgraph/graphcli/launch';
import { deployToLocalNode, localDeployCommands, localVersionLabel, subgraphNameProblem, type LocalDeployOptions } from '../../../../../src/core/subgraph/graphcli/localDeploy';
import { judgeGraphRun } from '../../../../../src/core/subgraph/graphcli/output';

const URLS = { admin: 'http://127.0.0.1:18020', ipfs: 'http://127.0.0.1:15001' };
const CID = 'QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM';
/** What each step prints when it succeeds. */
const PRINTED: Record<string, string> = {
  codegen: '✔ Apply migrations\n\nTypes generated successfully\n',
  build: '\nBuild completed: build/subgraph.yaml\n',
  create: 'Created subgraph: my/sub\n',
};
const DEPLOYED = `Build completed: ${CID}\n\nDeployed to http://127.0.0.1:18000/subgraphs/name/my/sub/graphql\n\nQueries (HTTP):     http://127.0.0.1:18000/subgraphs/name/my/sub\n`;

/** A run of `command` that printed `output` and exited with `exitCode`, judged as runGraph judges it. */
function ran(command: GraphCommand, exitCode: number, output: string, cancelled = false): GraphRun {
  const outcome = cancelled
    ? { ok: false, summary: `graph ${command.subcommand} was cancelled.`, problems: [] }
    : judgeGraphRun(command.subcommand, exitCode, output, { manifest: command.manifest, subgraphName: command.subgraphName });
  return { outcome, exitCode, cancelled, output, command: `graph ${command.args.join(' ')}`, timeMs: 1 };
}

/** Deploys `my/sub` with each step answered by `answer` (default: success); what happened, in order. */
async function deploy(answer: (command: GraphCommand) => GraphRun | undefined = () => undefined, options: Partial<LocalDeployOptions> = {}) {
  const events: string[] = [];
  const result = await deployToLocalNode({
    manifest: 'subgraph.yaml',
    name: 'my/sub',
    urls: URLS,
    versionLabel: 'v1',
    run: async (command) => {
      events.push(`run ${command.subcommand}`);
      return answer(command) ?? ran(command, 0, PRINTED[command.subcommand] ?? DEPLOYED);
    },
    onStep: (command, i, count) => events.push(`step ${command.subcommand} ${i + 1}/${count}`),
    onStepEnd: (command, run) => events.push(`end ${command.subcommand} ${run.outcome.ok ? 'ok' : 'failed'}`),
    onNote: (text) => events.push(`note ${text}`),
    ...options,
  });
  return { result, events };
}

test('the four command lines: codegen and build without migrations, create and deploy on the admin port, the build uploaded to the IPFS endpoint', () => {
  const commands = localDeployCommands('subgraph.yaml', 'my/sub', URLS, 'v20261128-210455');
  assert.deepEqual(
    commands.map((c) => c.args),
    [
      ['codegen', '--skip-migrations'],
      ['build', '--skip-migrations'],
      ['create', '--node', URLS.admin, 'my/sub'],
      ['deploy', '--node', URLS.admin, '--ipfs', URLS.ipfs, 'my/sub', '--version-label', 'v20261128-210455', '--skip-migrations'],
    ],
  );
  assert.deepEqual(localDeployCommands('other.yaml', 'my/sub', URLS, 'v1')[1].args, ['build', 'other.yaml', '--skip-migrations']);
});

test('every local deploy is a new version, labelled by its time', () => {
  assert.equal(localVersionLabel(new Date('2026-11-28T21:04:55.987Z')), 'v20261128-210455');
  assert.ok(localVersionLabel() > 'v20260101-000000');
});

test('a name graph-node would refuse is said before anything runs', async () => {
  assert.equal(subgraphNameProblem('my-team/erc20_v2'), undefined);
  assert.match(subgraphNameProblem('my sub') ?? '', /Subgraph name 'my sub': use letters, digits/);
  const events: string[] = [];
  await assert.rejects(
    deployToLocalNode({ manifest: 'subgraph.yaml', name: 'my sub', urls: URLS, run: async () => assert.fail('ran'), onStep: (c) => events.push(c.subcommand) }),
    GraphInputError,
  );
  assert.deepEqual(events, []);
});

test('all four steps in order: the deployment id is the manifest CID the deploy printed', async () => {
  const { result, events } = await deploy();
  assert.deepEqual(events, [
    'step codegen 1/4',
    'run codegen',
    'end codegen ok',
    'step build 2/4',
    'run build',
    'end build ok',
    'step create 3/4',
    'run create',
    'end create ok',
    'step deploy 4/4',
    'run deploy',
    'end deploy ok',
  ]);
  assert.equal(result.ok, true);
  assert.equal(result.name, 'my/sub');
  assert.equal(result.deployment, CID);
  assert.equal(result.run?.outcome.ipfsHash, CID);
});

test('a name that exists already is deployed to as a new version', async () => {
  const { result, events } = await deploy((c) => (c.subcommand === 'create' ? ran(c, 1, '✖ Error creating the subgraph: subgraph already exists: my/sub\n') : undefined));
  assert.deepEqual(events.slice(6), ['step create 3/4', 'run create', 'note my/sub exists already: deploying a new version.', 'step deploy 4/4', 'run deploy', 'end deploy ok']);
  assert.equal(result.ok, true);
  assert.equal(result.deployment, CID);
});

test('the first step that fails ends the deploy: the result names it, and carries its run for the problems', async () => {
  const failedBuild = (c: GraphCommand) => (c.subcommand === 'build' ? ran(c, 1, 'Missing handlers in WASM: handleApprovalX\n') : undefined);
  const { result, events } = await deploy(failedBuild);
  assert.deepEqual(events, ['step codegen 1/4', 'run codegen', 'end codegen ok', 'step build 2/4', 'run build', 'end build failed']);
  assert.equal(result.ok, false);
  assert.equal(result.deployment, undefined);
  assert.match(result.summary, /^Deploying my\/sub to the local graph-node failed: /);
  assert.ok(result.summary.endsWith(result.run!.outcome.summary));
  assert.equal(result.run?.outcome.problems[0]?.value, 'handleApprovalX');

  const refused = await deploy((c) => (c.subcommand === 'create' ? ran(c, 1, '✖ HTTP error creating the subgraph 401\n') : undefined));
  assert.deepEqual(refused.events.slice(-3), ['step create 3/4', 'run create', 'end create failed']);
  assert.equal(refused.result.ok, false);
});

test('a cancelled step ends the deploy as cancelled', async () => {
  const { result, events } = await deploy((c) => (c.subcommand === 'codegen' ? ran(c, 1, '', true) : undefined));
  assert.deepEqual(events, ['step codegen 1/4', 'run codegen', 'end codegen failed']);
  assert.equal(result.summary, 'The deploy was cancelled.');
});

test('with the real graph CLI: a manifest it rejects stops the deploy at codegen, and nothing reaches the node', async () => {
  const cli = findGraphCli(path.join(__dirname, '..', '..', '..', '..', '..'));
  assert.ok(cli, 'graph-cli is a dev dependency: run npm ci');
  const requests: string[] = [];
  const node = createServer((req, res) => (requests.push(req.url ?? ''), res.end('{}')));
  await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'chaindeck-local-deploy-'));
  try {
    writeFileSync(path.join(folder, 'subgraph.yaml'), 'specVersion: 1.3.0\nschema:\n  file: ./schema.graphql\n dataSources: [\n');
    const steps: string[] = [];
    const result = await deployToLocalNode({
      manifest: 'subgraph.yaml',
      name: 'my/sub',
      urls: { admin: url, ipfs: url },
      run: (command) => runGraph(command, { cli, cwd: folder, node: process.execPath, signal: AbortSignal.timeout(60_000) }),
      onStep: (command) => steps.push(command.subcommand),
    });
    assert.deepEqual(steps, ['codegen']);
    assert.equal(result.ok, false);
    assert.match(result.summary, /^Deploying my\/sub to the local graph-node failed: /);
    assert.equal(result.run?.exitCode, 1);
    assert.deepEqual(requests, []);
  } finally {
    node.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
