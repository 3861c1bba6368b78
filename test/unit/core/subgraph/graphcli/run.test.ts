// runGraph with the real graph CLI from node_modules: what reaches graph-node, what stays off
// the command line and the output, and how a cancelled or unstartable run is reported. (A
// successful codegen and build take seconds: the integration tests run those.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findGraphCli, runGraph } from '../../../../../src/core/subgraph/graphcli/launch';
import { graphCodegenCommand, graphCreateCommand, GraphInputError, validateGraphInit } from '../../../../../src/core/subgraph/graphcli/commands';
import { REPO_ROOT } from '../../../../support/paths';

const ACCESS_KEY = 'a7c41e09d2b85f36a7c41e09d2b85f36';
const DEPLOY_KEY = 'dk_test_0c9b8a7f6e5d';
const CLI = findGraphCli(REPO_ROOT);

interface Seen {
  url: string;
  authorization?: string;
  body: string;
  cmdline: string;
  environ: string;
}

/** Records one request (and the process that sent it, once watched) and answers only when told: the CLI stays alive meanwhile. */
async function recorder(): Promise<{ url: string; seen: Promise<Seen>; watch: (pid: number) => void; answer: (status: number) => void; close: () => Promise<void> }> {
  let pid = 0;
  let pending: ServerResponse | undefined;
  let seenResolve!: (s: Seen) => void;
  const seen = new Promise<Seen>((r) => (seenResolve = r));
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      pending = res;
      const proc = (name: string) => (pid ? readFileSync(`/proc/${pid}/${name}`, 'utf8').replace(/\0$/, '').split('\0').join(' ') : '');
      seenResolve({ url: req.url ?? '', authorization: req.headers.authorization, body, cmdline: proc('cmdline'), environ: proc('environ') });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answer: (status) => {
      pending?.writeHead(status, { 'Content-Type': 'text/plain' }).end('not here');
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
    watch: (p) => {
      pid = p;
    },
  };
}

test('the graph CLI is found in this project', () => {
  assert.ok(CLI && existsSync(CLI), 'graph-cli is a dev dependency: run npm ci');
  assert.ok(CLI.endsWith(path.join('graph-cli', 'bin', 'run.js')));
});

test('graph create: the keys reach graph-node, never the command line, the environment or the output', async () => {
  const node = await recorder();
  try {
    const command = graphCreateCommand({ name: 'team/approvals', deployUrl: `${node.url}/{key}/deploy`, useDeployKey: true });
    const chunks: string[] = [];
    const run = runGraph(command, {
      cli: CLI!,
      cwd: tmpdir(),
      secrets: { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY },
      onOutput: (t) => chunks.push(t),
      onStart: node.watch,
    });
    const seen = await node.seen;
    assert.equal(seen.url, `/${ACCESS_KEY}/deploy`);
    assert.equal(seen.authorization, `Bearer ${DEPLOY_KEY}`);
    assert.equal(JSON.parse(seen.body).method, 'subgraph_create');
    assert.deepEqual(JSON.parse(seen.body).params, { name: 'team/approvals' });
    assert.match(seen.cmdline, /create --node http:\/\/127\.0\.0\.1:\d+\/\{key\}\/deploy team\/approvals --access-token \{deployKey\}$/);
    for (const secret of [ACCESS_KEY, DEPLOY_KEY]) {
      assert.ok(!seen.cmdline.includes(secret), 'no key in /proc/<pid>/cmdline');
      assert.ok(!seen.environ.includes(secret), 'no key in the environment');
    }
    node.answer(404);
    const result = await run;
    assert.equal(result.cancelled, false);
    assert.equal(result.exitCode, 1);
    assert.equal(result.outcome.ok, false);
    assert.equal(
      result.outcome.summary,
      `graph create failed: Nothing answered at ${node.url}/{key}/deploy (HTTP 404): the deploy URL is wrong, or the subgraph 'team/approvals' was not created on the host yet (Add subgraph in the console, or graph create --node <deploy URL> <name>).`,
    );
    assert.equal(result.command, `graph create --node ${node.url}/{key}/deploy team/approvals --access-token {deployKey}`);
    // The CLI echoes the node URL with the key in it: masked, as it arrived, line by line.
    assert.ok(result.output.includes(`Creating subgraph in Graph node: ${node.url}/***/deploy`), result.output);
    assert.equal(chunks.join(''), result.output);
    for (const text of [result.output, result.outcome.summary, result.command]) {
      assert.ok(!text.includes(ACCESS_KEY) && !text.includes(DEPLOY_KEY));
    }
    assert.ok(result.timeMs > 0 && result.timeMs < 60_000);
  } finally {
    await node.close();
  }
});

test('graph create against a closed port: the summary names the URL with {key}, not the key', async () => {
  const command = graphCreateCommand({ name: 'team/approvals', deployUrl: 'http://127.0.0.1:9/{key}/deploy', useDeployKey: false });
  const result = await runGraph(command, { cli: CLI!, cwd: tmpdir(), secrets: { accessKey: ACCESS_KEY } });
  assert.equal(
    result.outcome.summary,
    'graph create failed: Cannot reach graph-node at http://127.0.0.1:9/{key}/deploy: connection refused (ECONNREFUSED): is graph-node running there, and are the host and port right?',
  );
  assert.equal(result.command, 'graph create --node http://127.0.0.1:9/{key}/deploy team/approvals');
  assert.ok(!result.output.includes(ACCESS_KEY));
});

test('a run cancelled while the CLI waits is killed and reported as cancelled', async () => {
  const node = await recorder();
  try {
    const controller = new AbortController();
    const pids: number[] = [];
    const run = runGraph(graphCreateCommand({ name: 'x', deployUrl: `${node.url}/`, useDeployKey: false }), {
      cli: CLI!,
      cwd: tmpdir(),
      signal: controller.signal,
      onStart: (pid) => pids.push(pid),
    });
    await node.seen;
    controller.abort();
    const result = await run;
    assert.equal(pids.length, 1);
    assert.equal(result.cancelled, true);
    assert.deepEqual(result.outcome, { ok: false, summary: 'graph create was cancelled.', problems: [] });
    assert.equal(result.exitCode, null, 'ended by a signal, not by its own exit');
    assert.throws(() => process.kill(pids[0], 0), { code: 'ESRCH' });
  } finally {
    await node.close();
  }
});

test('a signal already aborted: the CLI is stopped at once', async () => {
  const result = await runGraph(graphCodegenCommand(), { cli: CLI!, cwd: tmpdir(), signal: AbortSignal.abort() });
  assert.equal(result.cancelled, true);
  assert.equal(result.outcome.summary, 'graph codegen was cancelled.');
});

test('Node.js that cannot be started: what to install, and no crash', async () => {
  const missing = path.join(tmpdir(), 'no-such-node-binary');
  const pids: number[] = [];
  const result = await runGraph(graphCodegenCommand(), { cli: CLI!, cwd: tmpdir(), node: missing, onStart: (pid) => pids.push(pid) });
  assert.deepEqual(result.outcome, {
    ok: false,
    summary: `Cannot start the graph CLI: ${missing} was not found: install Node.js (20.18 or later) or set its path.`,
    problems: [],
  });
  assert.equal(result.cancelled, false);
  assert.deepEqual(pids, []);
});

test('a URL holding {key} with no key stored is refused before anything starts', async () => {
  const command = graphCreateCommand({ name: 'x', deployUrl: 'http://127.0.0.1:9/{key}/', useDeployKey: true });
  await assert.rejects(
    runGraph(command, { cli: CLI!, cwd: tmpdir(), secrets: {} }),
    (err: unknown) =>
      err instanceof GraphInputError &&
      JSON.stringify(err.problems) ===
        JSON.stringify([
          { field: 'accessKey', message: 'The URLs hold {key}, but no access key is stored for this subgraph: enter it again.' },
          { field: 'deployKey', message: 'No deploy key is stored for this subgraph: set it, or deploy without one.' },
        ]),
  );
});

test('graph create: the exact argument vector, and each input problem', () => {
  assert.deepEqual(graphCreateCommand({ name: 'a/b-c_1', deployUrl: 'https://h.example/{key}/deploy', useDeployKey: false }), {
    subcommand: 'create',
    args: ['create', '--node', 'https://h.example/{key}/deploy', 'a/b-c_1'],
    manifest: 'subgraph.yaml',
    notes: [],
    subgraphName: 'a/b-c_1',
  });
  assert.deepEqual(graphCreateCommand({ name: 'n', deployUrl: 'http://127.0.0.1:8020', useDeployKey: true }).args, [
    'create',
    '--node',
    'http://127.0.0.1:8020',
    'n',
    '--access-token',
    '{deployKey}',
  ]);
  const problems = (input: Parameters<typeof graphCreateCommand>[0]) => {
    try {
      graphCreateCommand(input);
      return [];
    } catch (err) {
      assert.ok(err instanceof GraphInputError);
      return err.problems;
    }
  };
  assert.deepEqual(problems({ name: 'a//b', deployUrl: 'ftp://h/', useDeployKey: false }), [
    { field: 'name', message: "Subgraph name 'a//b': use letters, digits, '-', '_' and '/' between parts." },
    { field: 'deployUrl', message: 'The deploy URL must be an http(s) URL.' },
  ]);
  assert.deepEqual(problems({ name: '/a', deployUrl: 'not a url', useDeployKey: false }), [
    { field: 'name', message: "Subgraph name '/a': use letters, digits, '-', '_' and '/' between parts." },
    { field: 'deployUrl', message: 'The deploy URL is not a valid URL.' },
  ]);
  assert.deepEqual(problems({ name: 'ok', deployUrl: 'https://{key}.example/', useDeployKey: false }), []);
});

test('graph init: each way an ABI file can be wrong, in words', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'graph-abi-'));
  const input = (abiPath: string) => ({
    slug: 's',
    directory: 'new',
    contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    abiPath,
    network: 'mainnet',
    contractName: 'C',
    startBlock: 1,
  });
  const abiMessage = (abiPath: string) => validateGraphInit(input(abiPath), dir).find((p) => p.field === 'abiPath')?.message;
  writeFileSync(path.join(dir, 'broken.json'), '[{');
  writeFileSync(path.join(dir, 'artifact.json'), JSON.stringify({ abi: [{ type: 'event', name: 'E', inputs: [] }] }));
  writeFileSync(path.join(dir, 'calls.json'), JSON.stringify([{ type: 'function', name: 'f', inputs: [] }, null]));
  writeFileSync(path.join(dir, 'ok.json'), JSON.stringify([null, { type: 'event', name: 'E', inputs: [] }]));
  assert.equal(abiMessage('  '), 'Choose the contract ABI file (JSON).');
  assert.match(abiMessage(path.join(dir, 'missing.json'))!, /^ABI file: .*missing\.json.*\.$/);
  assert.match(abiMessage(path.join(dir, 'broken.json'))!, new RegExp(`^ABI file ${dir}/broken\\.json is not JSON: .+`));
  assert.equal(abiMessage(path.join(dir, 'artifact.json')), `ABI file ${dir}/artifact.json is not an ABI: expected a JSON array (for a compiler artifact, use its "abi" array).`);
  assert.equal(abiMessage(path.join(dir, 'calls.json')), `ABI file ${dir}/calls.json declares no events: a subgraph indexes events, so there would be nothing to index.`);
  assert.equal(abiMessage(path.join(dir, 'ok.json')), undefined);
});
