/**
 * The real graph CLI (graph-cli 0.98.1, offline) driven the way the extension drives it: init
 * from a local ABI, codegen, build, and deploy to a real local graph-node (gnd, Postgres, the IPFS
 * endpoint) behind a gateway that demands the access key in the path and a deploy key. Every deploy is a real compile and
 * upload, so the cases run one after another on one copy of the tutorial subgraph.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findGraphCli, runGraph, type GraphRun, type RunGraphOptions } from '../../src/core/subgraph/graphcli/launch';
import { graphBuildCommand, graphCodegenCommand, graphDeployCommand, graphInitCommand, type GraphDeployInput } from '../../src/core/subgraph/graphcli/commands';
import { parseManifest, rangeOfKeyPath } from '../../src/core/subgraph/manifest/manifestDoc';
import { freePort, startDevnet, type Devnet } from '../support/devnets';
import { graphCli, startLocalGraph, type LocalGraph } from '../support/localGraph';
import { startProxy, type Proxy } from '../support/proxy';

const REPO = path.resolve(__dirname, '../..');
const TUTORIAL = path.join(REPO, 'test/fixtures/subgraphs/tutorial');
const ACCESS_KEY = '7d3f9a2c4e6b8d0f1a3c5e7b9d1f3a5c';
const DEPLOY_KEY = 'dk9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4';
const NAME = 'my/erc20-approvals';

let work: string;
let cli: string;

/** What the OS shows of a running process: its command line and environment. */
function visibleToOthers(pid: number): string {
  try {
    return [readFileSync(`/proc/${pid}/cmdline`, 'utf8'), readFileSync(`/proc/${pid}/environ`, 'utf8')].join('\n');
  } catch {
    return ''; // already gone, or no /proc
  }
}

async function run(command: Parameters<typeof runGraph>[0], cwd: string, extra: Partial<RunGraphOptions> = {}): Promise<GraphRun & { seenByOs: string }> {
  let seenByOs = '';
  const result = await runGraph(command, { cli, cwd, node: process.execPath, onStart: (pid) => (seenByOs = visibleToOthers(pid)), ...extra });
  return { ...result, seenByOs };
}

function assertNoSecret(result: GraphRun & { seenByOs: string }, ...secrets: string[]): void {
  for (const secret of secrets) {
    assert.ok(!result.output.includes(secret), 'a secret is in the output');
    assert.ok(!result.command.includes(secret), 'a secret is in the shown command');
    assert.ok(!result.outcome.summary.includes(secret), 'a secret is in the summary');
    assert.ok(!result.seenByOs.includes(secret), "a secret is in the process's command line or environment");
  }
}

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'chaindeck-graph-'));
  // The CLI and graph-ts resolve from the subgraph folder upwards, as in a user's project.
  symlinkSync(path.join(REPO, 'node_modules'), path.join(work, 'node_modules'), 'dir');
  cli = findGraphCli(work)!;
  assert.ok(cli, 'graph-cli is installed');
});

after(() => {
  // The link first, by itself: the shared node_modules must never be walked by the removal.
  unlinkSync(path.join(work, 'node_modules'));
  rmSync(work, { recursive: true, force: true });
});

test('graph init scaffolds from a local ABI without prompting (empty slug → folder name)', async () => {
  const command = graphInitCommand(
    {
      slug: '',
      directory: 'approvals',
      contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      abiPath: path.join(TUTORIAL, 'abis/ERC20.json'),
      network: 'mainnet',
      contractName: 'ERC20',
      startBlock: 6082465,
    },
    work,
  );
  const result = await run(command, work);
  assert.equal(result.outcome.ok, true, result.output);
  assert.equal(result.outcome.summary, 'Subgraph approvals created in approvals.');
  const manifest = readFileSync(path.join(work, 'approvals/subgraph.yaml'), 'utf8');
  assert.match(manifest, /address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"/);
  assert.match(manifest, /startBlock: 6082465/);
  assert.match(manifest, /event: Approval\(indexed address,indexed address,uint256\)/);
  // init ran codegen itself (through `graph` on the PATH given to it).
  assert.ok(existsSync(path.join(work, 'approvals/generated/schema.ts')));
});

describe('the tutorial subgraph', () => {
  let dir: string;
  before(() => {
    dir = path.join(work, 'tutorial');
    cpSync(TUTORIAL, dir, { recursive: true });
  });

  test('codegen and build succeed and say so', async () => {
    const codegen = await run(graphCodegenCommand(), dir);
    assert.equal(codegen.outcome.ok, true, codegen.output);
    assert.ok(existsSync(path.join(dir, 'generated/ERC20/ERC20.ts')));
    const build = await run(graphBuildCommand(), dir);
    assert.equal(build.outcome.ok, true, build.output);
    assert.equal(build.outcome.summary, 'Build completed: build/subgraph.yaml');
    assert.ok(existsSync(path.join(dir, 'build/ERC20/ERC20.wasm')));
  });

  test('a manifest error comes back as a key path that the manifest parser places', async () => {
    const broken = path.join(work, 'broken');
    cpSync(dir, broken, { recursive: true });
    const manifestPath = path.join(broken, 'subgraph.yaml');
    const text = readFileSync(manifestPath, 'utf8').replace('startBlock:', 'startblock:');
    writeFileSync(manifestPath, text);
    const result = await run(graphCodegenCommand(), broken);
    assert.equal(result.outcome.ok, false);
    assert.deepEqual(
      result.outcome.problems.map((p) => [p.file, p.keyPath, p.message]),
      [['subgraph.yaml', ['dataSources', 0, 'source'], 'Unexpected key in map: startblock']],
    );
    const range = rangeOfKeyPath(parseManifest(text), result.outcome.problems[0].keyPath!);
    assert.equal(text.split('\n')[range.start.line].trim(), 'address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"');
  });

  describe('graph deploy', () => {
    // The real local graph-node (gnd + Postgres + the IPFS endpoint) on anvil, behind gateways
    // that demand the access key as the first path segment and, on the admin port, the deploy key.
    let anvil: Devnet;
    let graph: LocalGraph;
    let ipfs: Proxy;
    let admin: Proxy;
    const tpl = (url: string) => url.replace(ACCESS_KEY, '{key}');
    const deploy = (over: Partial<GraphDeployInput> = {}) =>
      graphDeployCommand({ name: NAME, versionLabel: 'v0.0.1', deployUrl: tpl(admin.url), ipfsUrl: tpl(`${ipfs.url}/api/v0`), useDeployKey: true, ...over });

    before(async () => {
      anvil = await startDevnet('anvil');
      graph = await startLocalGraph(anvil.url);
      ipfs = await startProxy({ target: graph.urls.ipfs, key: ACCESS_KEY, service: {} });
      admin = await startProxy({ target: graph.urls.admin, key: ACCESS_KEY, bearer: DEPLOY_KEY, service: {} });
      // A real node validates the start block: anvil's chain starts at 0.
      const manifest = path.join(dir, 'subgraph.yaml');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('startBlock: 6082465', 'startBlock: 0'));
      await graphCli(['create', '--node', graph.urls.admin, NAME], dir);
    });
    after(async () => {
      await ipfs?.close();
      await admin?.close();
      await graph?.stop();
      await anvil?.stop();
    });

    test('success: the real node takes the deployment under its version label, over exactly the note’s wire calls', async () => {
      ipfs.clear();
      admin.clear();
      const result = await run(deploy(), dir, { secrets: { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY } });
      assert.equal(result.outcome.ok, true, result.output);
      assert.match(result.outcome.queriesUrl ?? '', new RegExp(`/subgraphs/name/${NAME}$`));
      assertNoSecret(result, ACCESS_KEY, DEPLOY_KEY);
      assert.match(result.output, /Deploying to Graph node http:\/\/127\.0\.0\.1:\d+\/\*\*\*/);

      // IPFS: add then pin, for each of schema, ABI, wasm and manifest; each pinned file is one the endpoint stored under its CID.
      assert.equal(ipfs.requests.length, 8);
      const pinned: string[] = [];
      for (let i = 0; i < 8; i += 2) {
        const [add, pin] = [ipfs.requests[i], ipfs.requests[i + 1]];
        assert.equal(add.method, 'POST');
        assert.equal(add.path, `/${ACCESS_KEY}/api/v0/add?stream-channels=true&progress=false`);
        assert.match(add.contentType ?? '', /^multipart\/form-data; boundary=/);
        assert.match(add.body, /Content-Disposition: form-data; name="file"; filename="/);
        const pinUrl = new URL(pin.path, 'http://x');
        assert.equal(pinUrl.pathname, `/${ACCESS_KEY}/api/v0/pin/add`);
        assert.equal(pinUrl.searchParams.get('recursive'), 'true');
        pinned.push(pinUrl.searchParams.get('arg')!);
      }
      const manifestCid = pinned[3];
      assert.equal(result.outcome.ipfsHash, manifestCid);
      for (const cid of pinned) assert.ok(existsSync(path.join(graph.dataDir, 'ipfs', 'files', cid)), `${cid} is stored for gnd`);
      assert.match(readFileSync(path.join(graph.dataDir, 'ipfs', 'files', manifestCid), 'utf8'), /file:\n\s+\/: \/ipfs\/Qm/);

      // graph-node: one subgraph_deploy with the deploy key as a Bearer token, and the node runs that deployment.
      assert.equal(admin.requests.length, 1);
      const [call] = admin.requests;
      assert.equal(call.path, `/${ACCESS_KEY}`);
      assert.equal(call.authorization, `Bearer ${DEPLOY_KEY}`);
      assert.match(call.contentType ?? '', /^application\/json/);
      const body = JSON.parse(call.body) as { method: string; params: unknown };
      assert.deepEqual([body.method, body.params], ['subgraph_deploy', { name: NAME, ipfs_hash: manifestCid, version_label: 'v0.0.1' }]);
      const status = await graph.waitStatus(manifestCid, 'known to the index node', () => true);
      assert.equal(status.health, 'healthy');
    });

    test('401 without a deploy key: no Authorization header, advice to set one', async () => {
      admin.clear();
      const result = await run(deploy({ useDeployKey: false }), dir, { secrets: { accessKey: ACCESS_KEY } });
      assert.equal(result.outcome.ok, false);
      assert.equal(result.exitCode, 1);
      assert.match(result.outcome.summary, /refused the deploy \(HTTP 401\): this host needs a deploy key/);
      assert.equal(admin.requests[0].authorization, undefined);
      assertNoSecret(result, ACCESS_KEY);
    });

    test('401 with a wrong deploy key: the key is named wrong and never shown', async () => {
      admin.clear();
      const wrong = 'dk0000wrong1111key2222';
      const result = await run(deploy(), dir, { secrets: { accessKey: ACCESS_KEY, deployKey: wrong } });
      assert.equal(result.outcome.ok, false);
      assert.match(result.outcome.summary, /refused the deploy key \(HTTP 401\): the deploy key is wrong/);
      assert.equal(admin.requests[0].authorization, `Bearer ${wrong}`);
      assertNoSecret(result, ACCESS_KEY, wrong);
    });

    test('404 from graph-node: wrong deploy URL, or a subgraph not created yet', async () => {
      const result = await run(deploy({ deployUrl: `${tpl(admin.url)}/nothing-here` }), dir, { secrets: { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY } });
      assert.equal(result.outcome.ok, false);
      assert.match(result.outcome.summary, /\(HTTP 404\): the deploy URL is wrong, or the subgraph 'my\/erc20-approvals' was not created/);
      assertNoSecret(result, ACCESS_KEY, DEPLOY_KEY);
    });

    test('connection refused: the host is unreachable', async () => {
      const closed = `http://127.0.0.1:${await freePort()}/`;
      const result = await run(deploy({ deployUrl: closed, useDeployKey: false }), dir, { secrets: { accessKey: ACCESS_KEY } });
      assert.equal(result.outcome.ok, false);
      assert.equal(result.outcome.summary, `Cannot reach graph-node at ${closed}: connection refused (ECONNREFUSED): is graph-node running there, and are the host and port right?`);
    });

    test('an empty result: the CLI crashes with exit code 0, and that is a failure', async () => {
      admin.clear();
      // The gateway rewrites graph-node's real answer to a result without the deployment.
      admin.fail({ rewrite: (reply) => ({ ...(reply as object), result: {} }) });
      const result = await run(deploy(), dir, { secrets: { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY } });
      assert.equal(result.exitCode, 0, 'the CLI itself reports success');
      assert.equal(result.outcome.ok, false);
      assert.match(result.outcome.summary, /without a deployment .*crashed \(with exit code 0\): the subgraph is not deployed/);
    });

    test('a JSON-RPC error from graph-node is shown in its own words: a name never created', async () => {
      const result = await run(deploy({ name: 'someone/else', deployUrl: graph.urls.admin, useDeployKey: false }), dir, { secrets: { accessKey: ACCESS_KEY } });
      assert.equal(result.outcome.ok, false);
      assert.equal(result.outcome.summary, `graph-node at ${graph.urls.admin} refused the deployment: subgraph name not found: someone/else`);
    });

    test('IPFS unreachable: fetch failed, nothing sent to graph-node', async () => {
      admin.clear();
      const closed = `http://127.0.0.1:${await freePort()}`;
      const result = await run(deploy({ ipfsUrl: closed }), dir, { secrets: { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY } });
      assert.equal(result.outcome.ok, false);
      assert.match(result.outcome.summary, new RegExp(`Cannot reach the IPFS node at ${closed} \\(fetch failed\\)`));
      assert.equal(admin.requests.length, 0);
    });
  });
});
