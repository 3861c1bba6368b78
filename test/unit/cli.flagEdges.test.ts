/**
 * The shared endpoint flags and the rpc, storage-range and validate commands at the edges their
 * own suites leave open, in-process: the redaction lines of the endpoint help, a public path with
 * a secret query, an http URL that merely contains "ws:", --timeout over ws:// (rpc and
 * storage-range) and as one budget for all of storage-range's calls, --max values that only
 * look like numbers, and validate's findings sorted by the file names it shows, line and column.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { tutorialFiles } from '../fixtures/subgraphs/corpus';
import { runMain, type MainRun } from '../support/cli';
import { startRpcServer, type RpcServer } from '../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

let node: RpcServer;
before(async () => {
  node = await startRpcServer();
});
after(() => node.close());
beforeEach(() => {
  node.clear();
  node.methods = { eth_chainId: { result: '0x539' } };
});

test("rpc and storage-range --help: the endpoint's redaction rule, and how to show a public path", async () => {
  for (const command of ['rpc', 'storage-range']) {
    const run = await runMain([command, '--help']);
    assert.equal(run.code, 0);
    assert.ok(
      run.out.includes('Its path, query and user:password@ are secret and shown only as ***;\n                  set CHAINDECK_PUBLIC_PATH=1 when the path holds no key (e.g. /rpc).\n'),
      run.out,
    );
  }
});

test('CHAINDECK_PUBLIC_PATH=1 with a key in the query: messages show the path, the query masked', async () => {
  node.reply = () => ({ status: 404, body: '' });
  const run = await runMain(['rpc', '--url', `${node.url}/public-rpc?key=0123456789abcdef`, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: '1' });
  assert.equal(run.code, 1);
  assert.equal(run.err, `chaindeck rpc: Unexpected HTTP 404 Not Found from ${node.url}/public-rpc?***. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.\n`);
});

test('an http:// URL with "ws:" further on is still called over HTTP', async () => {
  const run = await runMain(['rpc', '--url', `${node.url}/ws:8546`, 'eth_chainId']);
  assert.equal(run.code, 0, run.err);
  assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, result: '0x539' });
  assert.equal(node.requests.length, 1);
});

describe('--timeout over ws:// (a node that accepts the connection and never answers)', () => {
  let silent: WebSocketServer;
  let wsUrl: string;
  before(async () => {
    silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => silent.once('listening', () => resolve()));
    wsUrl = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const client of silent.clients) client.terminate();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  /** The command's result, or a failure when it is still running long after its --timeout. */
  async function within(ms: number, run: Promise<MainRun>): Promise<MainRun> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)));
    try {
      return await Promise.race([run, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  test('rpc: exit 1 naming the timeout', async () => {
    const run = await within(3000, runMain(['rpc', '--url', wsUrl, '--timeout', '200', 'eth_chainId']));
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.match(run.err, /^chaindeck rpc: No answer from ws:\/\/127\.0\.0\.1:\d+\/ within 200 ms/);
  });

  test('storage-range: exit 1, the connect failure naming the timeout', async () => {
    const run = await within(3000, runMain(['storage-range', '--rpc', wsUrl, '--block', 'latest', '--address', ADDRESS, '--timeout', '200']));
    assert.equal(run.code, 1);
    assert.equal(JSON.parse(run.out).error.message, 'Failed to connect to Ethereum node');
    assert.match(run.err, /^chaindeck storage-range: Failed to connect to Ethereum node: No answer from ws:\/\/127\.0\.0\.1:\d+\/ within 200 ms/);
  });
});

test('storage-range --max: only digits (spaces around allowed) are a number; above 100000 names the maximum', async () => {
  const base = ['--rpc', node.url, '--block', 'latest', '--address', ADDRESS];
  for (const bad of ['5e9', '1e5', '0x186a1', '+100001']) {
    const run = await runMain(['storage-range', ...base, '--max', bad]);
    assert.equal(run.code, 2, bad);
    assert.ok(run.err.startsWith(`chaindeck storage-range: --max needs a positive integer, not '${bad}'\n\nUsage: `), run.err);
  }
  const spaced = await runMain(['storage-range', ...base, '--max', ' 100001 ']);
  assert.equal(spaced.code, 2);
  assert.ok(
    spaced.err.startsWith('chaindeck storage-range: --max is at most 100000, not  100001 : read a larger range page by page, starting each page at the previous nextKey\n\nUsage: '),
    spaced.err,
  );
  assert.equal(node.requests.length, 0);
});

test('storage-range --timeout is one budget for all its calls: calls that each fit but together do not fail the range', async () => {
  const HASH = `0x${'ab'.repeat(32)}`;
  type Call = { id: number; method: string };
  node.reply = (request) => {
    const parsed = JSON.parse(request.text) as Call | Call[];
    const answer = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: call.method.startsWith('eth_getBlock') ? { number: '0x10', hash: HASH } : `0x${'0'.repeat(63)}1` });
    // Each answer takes 600 ms of the 1,000 ms budget: the first fits with room for a loaded machine, the second does not.
    return { delayMs: 600, body: Array.isArray(parsed) ? parsed.map(answer) : answer(parsed) };
  };
  const run = await runMain(['storage-range', '--rpc', node.url, '--block', 'latest', '--address', ADDRESS, '--mode', 'emulate', '--max', '3', '--timeout', '1000']);
  assert.equal(run.code, 1, run.out);
  const message = `Storage range not finished: No answer from ${node.url}/ within 1000 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`;
  assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, error: { code: -32000, message } });
  assert.equal(run.err, `chaindeck storage-range: ${message}\n`);
  assert.equal(node.requests.length, 2, 'the block, then the slots in one batch');
});

describe('validate: findings sorted by file, then line, then column', () => {
  const cwd = process.cwd();
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-cli-sort-'));
    const files = tutorialFiles();
    // Two findings on one line 9 of the manifest (a flow mapping), and two in the schema, at
    // lines 4 and 11: ordered by file first, whatever the lines.
    files['subgraph.yaml'] = files['subgraph.yaml'].replace(
      '    source:\n      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"\n      abi: ERC20\n      startBlock: 6082465\n',
      '    source: { address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", abi: ERC20, startblock: 6082465, endblock: 1 }\n',
    );
    files['schema.graphql'] = files['schema.graphql'].replace('owner: Bytes!', 'owner: Bytez!');
    files['schema.graphql'] += '\ntype Holder @entity(immutable: true) {\n  id: ID!\n  balance: Bigint!\n}\n';
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, 'p', path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'p', file), text);
    }
    process.chdir(dir);
  });
  after(() => {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The findings' positions as printed, checked to be the same in JSON and text and sorted. */
  async function positions(manifest: string): Promise<(readonly [string, number, number])[]> {
    const run = await runMain(['validate', manifest, '--format', 'json']);
    assert.equal(run.code, 1, run.err);
    const found = (JSON.parse(run.out) as { file: string; line: number; column: number }[]).map((l) => [l.file, l.line, l.column] as const);
    const sorted = [...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
    assert.deepEqual(found, sorted);
    const text = await runMain(['validate', manifest]);
    assert.deepEqual(
      text.out
        .trimEnd()
        .split('\n')
        .map((l) => l.split(': ')[0]),
      found.map(([f, l, c]) => `${f}:${l}:${c}`),
    );
    return found;
  }

  test("by file before line: the schema's findings (lines 4 and 11) before the manifest's (line 9); one line by column", async () => {
    const found = await positions(path.join('p', 'subgraph.yaml'));
    assert.deepEqual(
      found.map(([f, l]) => `${f}:${l}`),
      ['p/schema.graphql:4', 'p/schema.graphql:11', 'p/subgraph.yaml:9', 'p/subgraph.yaml:9'],
    );
    assert.ok(found[2][2] < found[3][2], 'two on one line: by column');
  });

  test('by the file names shown, not the paths read: an absolute manifest sorts before p/schema.graphql', async () => {
    const manifest = path.join(dir, 'p', 'subgraph.yaml');
    const found = await positions(manifest);
    assert.deepEqual([...new Set(found.map(([f]) => f))], [manifest, path.join('p', 'schema.graphql')]);
  });
});
