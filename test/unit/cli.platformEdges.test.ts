/**
 * `chaindeck platform` at the edges cli.platform.test.ts leaves open, in-process against the
 * platform API imitation: --protocol and --status are free text (not IDs), --order-by without a
 * leading -, networks and nodes without configuration/details, the API key echoed in a
 * field masked without --show-secrets, one --timeout shared by every page, the keep-alive connection closed when the command returns, and
 * --show-secrets through the process's own stdout writer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { runMain } from '../support/cli';
import { sampleData, sampleKey, startPlatformServer, type PlatformServer } from '../support/platformServer';
import { repoPath } from '../support/paths';

const API_KEY = 'cdk-live-edges-5a4b3c2d1e0f9988';

let api: PlatformServer;
before(async () => {
  api = await startPlatformServer({ apiKey: API_KEY });
});
after(() => api.close());
beforeEach(() => {
  api.clear();
  api.data = sampleData();
  api.pageSize = 2;
});

const platform = (args: string[]) => runMain(['platform', ...args, '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });

test('--protocol and --status take any text, not only IDs: sent as written', async () => {
  const run = await platform(['nodes', '--protocol', 'polygon pos', '--status=not.running']);
  assert.deepEqual(run, { code: 0, out: 'No nodes found.\n', revealed: '', err: '' });
  const query = new URL(api.requests[0].url, 'http://x').searchParams;
  assert.equal(query.get('protocol'), 'polygon pos');
  assert.equal(query.get('status'), 'not.running');
  const networks = await platform(['networks', '--protocol', 'eth.classic']);
  assert.equal(networks.code, 0, networks.err);
});

test('--order-by a field name without a leading -: ascending, sent as written', async () => {
  const run = await platform(['identities', '--order-by', 'name']);
  assert.equal(run.code, 0, run.err);
  assert.equal(new URL(api.requests[0].url, 'http://x').searchParams.get('order_by'), 'name');
});

test('a network without configuration and a node without details: empty cells, with or without --show-secrets', async () => {
  api.data.networks = [{ id: 'NW-101-202-303', name: 'Bare', project: 'PR-101-202', protocol: 'ethereum', status: 'running' }];
  const networks = await platform(['networks']);
  assert.equal(networks.code, 0, networks.err);
  assert.equal(networks.out, 'ID              NAME  PROTOCOL  NETWORK  PROJECT     STATUS   NODES\nNW-101-202-303  Bare  ethereum           PR-101-202  running\n');
  api.data.nodes = [{ id: 'ND-101-202-303', name: 'bare', status: 'running', type: 'shared', region: 'us-east1', network: 'NW-101-202-303' }];
  const nodes = await platform(['nodes']);
  assert.equal(nodes.code, 0, nodes.err);
  assert.equal(nodes.out, 'ID              NAME  STATUS   TYPE    REGION    NETWORK         HTTPS ENDPOINT\nND-101-202-303  bare  running  shared  us-east1  NW-101-202-303\n');
  const secrets = await platform(['nodes', '--show-secrets']);
  assert.equal(secrets.code, 0, secrets.err);
  assert.equal(
    secrets.revealed,
    'ID              NAME  STATUS   TYPE    REGION    NETWORK         HTTPS ENDPOINT  ACCESS KEY  USERNAME  PASSWORD\nND-101-202-303  bare  running  shared  us-east1  NW-101-202-303\n',
  );
});

test('the API key echoed in any field is masked in the default output too (table and JSON)', async () => {
  api.data.projects = [{ id: 'PR-101-202', name: 'Echo', type: 'public', description: `key ${API_KEY} here` }];
  for (const format of ['table', 'json']) {
    const run = await platform(['projects', '--format', format]);
    assert.equal(run.code, 0, run.err);
    assert.ok(!run.out.includes(API_KEY), run.out);
    assert.ok(run.out.includes('key *** here'), run.out);
  }
});

test('--timeout bounds the whole listing: pages that each fit but together do not fail the command', async () => {
  api.pageSize = 1;
  api.fail({ path: '/v1/projects/', fault: { delayMs: 200 } });
  const run = await platform(['projects', '--timeout', '300']);
  assert.equal(run.code, 1);
  assert.equal(run.out, '');
  assert.equal(
    run.err,
    `chaindeck platform: Listing projects failed at page 2, after 1 read: No answer from ${api.url}/v1/projects/?page=2 within 300 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).\n`,
  );
  assert.deepEqual(
    api.requests.map((r) => r.url.replace(api.url, '')),
    ['/v1/projects/', '/v1/projects/?page=2'],
  );
});

/** A minimal platform API that counts the connections still open. */
async function connectionCounter(): Promise<{ url: string; open: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const body =
      req.url === '/v1/nodes/'
        ? {
            count: 1,
            next: null,
            previous: null,
            results: [{ id: 'ND-101-202-303', name: 'n', details: { https_endpoint: `https://n.example.com/${sampleKey(0)}`, auth_key: sampleKey(0) } }],
          }
        : { id: 'RG-123-456', name: 'Acme' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => sockets.size,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('the keep-alive connection to the API is closed when the command returns', async () => {
  const server = await connectionCounter();
  try {
    const run = await runMain(['platform', 'organization', '--api-url', server.url], { CHAINDECK_API_KEY: API_KEY });
    assert.equal(run.code, 0, run.err);
    for (let i = 0; i < 25 && server.open(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(server.open(), 0, 'no connection left open');
  } finally {
    await server.close();
  }
});

test('the chaindeck process with --show-secrets prints the credentials on stdout, unmasked', async () => {
  const server = await connectionCounter();
  try {
    // A process of its own: main's default writers are process.stdout, which the test runner uses too.
    const env = { ...process.env, CHAINDECK_API_KEY: API_KEY };
    const run = await new Promise<{ err: Error | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', repoPath('src/cli.ts'), 'platform', 'nodes', '--show-secrets', '--format', 'json', '--api-url', server.url],
        { env, timeout: 20_000 },
        (err, stdout) => resolve({ err, stdout }),
      );
    });
    assert.equal(run.err, null);
    const [node] = JSON.parse(run.stdout) as { details: { auth_key: string; https_endpoint: string } }[];
    assert.equal(node.details.auth_key, sampleKey(0));
    assert.equal(node.details.https_endpoint, `https://n.example.com/${sampleKey(0)}`);
  } finally {
    await server.close();
  }
});
