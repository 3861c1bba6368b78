/**
 * The CLI's bounds and inert output, as users run it (dist/cli.js in a subprocess) against
 * hostile loopback peers: a node whose error messages carry terminal escapes, one answering 429
 * with Retry-After: 3600, a plain HTTP server behind ws://, a platform API with escapes in its
 * errors; and the usage errors (exit 2) of every value out of bounds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCli, runCli, type CliRun } from '../support/cli';
import { startPlatformServer, type PlatformServer } from '../support/platformServer';
import { startProxy } from '../support/proxy';

// eslint-disable-next-line no-control-regex -- the test looks for exactly these
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'execution reverted\x1b[2J\x1b[H\x1b]0;owned\x07\x07\x00\u009b31m\u202eevil';

function assertInert(run: CliRun): void {
  assert.doesNotMatch(run.stdout, ACTIVE, `stdout holds a control character: ${JSON.stringify(run.stdout)}`);
  assert.doesNotMatch(run.stderr, ACTIVE, `stderr holds a control character: ${JSON.stringify(run.stderr)}`);
}

let node: http.Server;
let nodeUrl: string;
let api: PlatformServer;
const API_KEY = 'pk_bounds_cli_0123456789abcdef';

before(async () => {
  await buildCli();
  // A node that answers every method with a JSON-RPC error full of escapes, except
  // eth_chainId, which it rate-limits for an hour.
  node = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST') return res.end('<html>a web page</html>'); // e.g. a WebSocket upgrade
      const request = JSON.parse(body) as { id: number; method: string };
      if (request.method === 'eth_chainId') {
        res.writeHead(429, { 'Retry-After': '3600' });
        return res.end('slow down\x1b[2J');
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32000, message: HOSTILE } }));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  api = await startPlatformServer({ apiKey: API_KEY });
});

after(async () => {
  node.closeAllConnections();
  await new Promise((r) => node.close(r));
  await api.close();
});

describe('text from nodes and APIs is inert on the terminal', () => {
  test("a node's JSON-RPC error message: stderr and stdout hold no control sequence, the JSON keeps it escaped", async () => {
    const run = await runCli(['rpc', '--url', nodeUrl, 'eth_blockNumber']);
    assert.equal(run.code, 1);
    assertInert(run);
    assert.match(run.stderr, /JSON-RPC error -32000: execution reverted/);
    assert.equal((JSON.parse(run.stdout) as { error: { message: string } }).error.message, HOSTILE, 'the JSON output is lossless');
  });

  test('a platform API error message with escapes', async () => {
    api.fail({ path: '/v1/nodes/', fault: { status: 400, body: { error: { code: 'bad', message: `bad filter${HOSTILE}` } } } });
    const run = await runCli(['platform', 'nodes', '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });
    api.clear();
    assert.equal(run.code, 1);
    assertInert(run);
    assert.match(run.stderr, /bad filterexecution reverted/);
  });
});

describe('one timeout for the whole command', () => {
  test('429 with Retry-After: 3600 and --timeout 2000: exit 1 within 2 s, saying it was rate-limited', async () => {
    const started = performance.now();
    const run = await runCli(['rpc', '--url', nodeUrl, '--timeout', '2000', 'eth_chainId']);
    assert.ok(performance.now() - started < 2000 + 1500, 'the CLI (node start-up included) ended in time');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Rate limited by the node .*HTTP 429/);
    assert.match(run.stderr, /3600 s \(Retry-After\)/);
    assertInert(run);
  });
});

describe('one timeout for the whole storage range', () => {
  test('the emulation reads many batches: with 400 ms each, --timeout 1500 ends the command, though each would fit', async () => {
    const anvil = process.env.CHAINDECK_TEST_ANVIL_URL;
    assert.ok(anvil, 'run through the integration harness (it starts anvil)');
    const proxy = await startProxy({ target: anvil, delayMs: 400 });
    try {
      // An address with no storage: the emulation reads all 10 × 1000 slots, batch after batch.
      const args = ['storage-range', '--rpc', proxy.url, '--block', 'latest', '--address', '0x000000000000000000000000000000000000dEaD', '--max', '1000', '--mode', 'emulate'];
      const started = performance.now();
      const run = await runCli([...args, '--timeout', '1500']);
      const elapsed = performance.now() - started;
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /within 1500 ms/);
      assert.ok(elapsed < 1500 + 1500, `took ${elapsed} ms (node start-up included)`);
      assert.ok(proxy.requests.length >= 2, 'more than one request was made');
    } finally {
      await proxy.close();
    }
  });
});

describe('ws:// to a plain HTTP server', () => {
  test('says it answered HTTP instead of upgrading to WebSocket', async () => {
    const run = await runCli(['rpc', '--url', nodeUrl.replace('http', 'ws'), '--timeout', '3000', 'eth_blockNumber']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /answered HTTP 200 OK instead of upgrading to WebSocket: is this the node's WebSocket endpoint\?/);
  });
});

describe('values out of bounds are usage errors (exit 2), before anything is sent', () => {
  const storage = (...extra: string[]) => ['storage-range', '--rpc', nodeUrl, '--block', 'latest', '--address', '0x5FbDB2315678afecb367f032d93F642f64180aa3', ...extra];

  test('storage-range --max above 100000', async () => {
    const run = await runCli(storage('--max', '100001'));
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--max is at most 100000, not 100001/);
    assert.equal(run.stdout, '');
    // Past the safe integers too: still the maximum named, not "needs a positive integer".
    const huge = await runCli(storage('--max', '99999999999999999999'));
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /--max is at most 100000, not 99999999999999999999/);
    const help = await runCli(['storage-range', '--help']);
    assert.match(help.stdout, /--max N\s+entries wanted, 1 to 100000/);
  });

  for (const value of ['0', '86400001', '-5', '0.4', '1.5', '1e3', 'NaN', 'abc', '', '10ms', 'Infinity']) {
    test(`--timeout '${value}' for rpc, storage-range and platform`, async () => {
      for (const args of [['rpc', '--url', nodeUrl, '--timeout', value, 'eth_blockNumber'], storage('--timeout', value), ['platform', 'nodes', '--api-url', api.url, '--timeout', value]]) {
        const run = await runCli(args, { CHAINDECK_API_KEY: API_KEY });
        assert.equal(run.code, 2, `${args[0]}: ${run.stderr}`);
        assert.match(run.stderr, /--timeout needs a whole number of milliseconds from 1 to 86400000 \(24 h\)/);
      }
    });
  }

  test('--timeout 86400000 (24 h) and 1 are accepted', async () => {
    assert.equal((await runCli(['rpc', '--url', nodeUrl, '--timeout', '86400000', 'eth_blockNumber'])).code, 1, 'runs, and fails on the node error');
    const quick = await runCli(['rpc', '--url', nodeUrl, '--timeout', '1', 'eth_blockNumber']);
    assert.notEqual(quick.code, 2);
  });

  test('platform --api-url not-a-url', async () => {
    const run = await runCli(['platform', 'nodes', '--api-url', 'not-a-url'], { CHAINDECK_API_KEY: API_KEY });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--api-url: The platform API URL "not-a-url" is not a URL/);
  });

  for (const id of ['../organization', 'ND-1/../../x', '..']) {
    test(`platform id ${id}`, async () => {
      api.clear();
      const run = await runCli(['platform', 'nodes', id, '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /is not an ID: an ID is letters, digits, - and _/);
      assert.equal(api.requests.length, 0);
    });
  }

  test('CHAINDECK_MAX_RESPONSE_MB must be whole MiB from 1 to 4096', async () => {
    for (const value of ['0', 'lots', '4097', '1.5']) {
      const run = await runCli(['rpc', '--url', nodeUrl, 'eth_blockNumber'], { CHAINDECK_MAX_RESPONSE_MB: value });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /CHAINDECK_MAX_RESPONSE_MB: the response cap is a whole number of MiB from 1 to 4096/);
    }
  });
});
