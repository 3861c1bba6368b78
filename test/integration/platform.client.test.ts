/**
 * The platform client against a loopback server that speaks the API's documented contract:
 * every list across pages, get by id, filters and order, and each failure the user may meet
 * (401, 403, 404, 429, a 500 midway, a slow answer, nothing listening, non-JSON, odd fields).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_HINTS } from '../../src/cli/knobs';
import { PlatformClient, type PlatformClientOptions } from '../../src/core/platform/client';
import { PlatformError } from '../../src/core/platform/errors';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { freePort } from '../support/devnets';
import { sampleData, startPlatformServer, type PlatformServer } from '../support/platformServer';

const API_KEY = 'pk_test_4f3e2d1c0b9a88776655443322110ffe';
const MEMBER_KEY = 'pk_test_member_0123456789abcdef0123';

let server: PlatformServer;

function client(options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({ apiKey: API_KEY, apiUrl: server.url, timeoutMs: 2000, retry: { baseDelayMs: 5, maxDelayMs: 200 }, hints: CLI_HINTS, ...options });
}

/** Awaits a rejection and checks it is a PlatformError of that kind whose message matches. */
async function failsWith(promise: Promise<unknown>, kind: PlatformError['kind'], message: RegExp): Promise<PlatformError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PlatformError, `not a PlatformError: ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, message);
    assert.ok(!err.message.includes(API_KEY), `the API key is in the message: ${err.message}`);
    return err;
  }
  assert.fail('expected a failure');
}

const listPaths = () => server.requests.map((r) => r.url);

before(async () => {
  server = await startPlatformServer({ apiKey: API_KEY, forbiddenKey: MEMBER_KEY, pageSize: 2, data: sampleData({ nodes: 5 }) });
});
beforeEach(() => {
  server.clear();
  server.data = sampleData({ nodes: 5 });
  server.pageSize = 2;
});
after(async () => {
  closeIdleConnections();
  await server.close();
});

describe('reading the platform', () => {
  test('the organization, with the key sent as a Bearer token', async () => {
    const org = await client().organization();
    assert.deepEqual(org, { id: 'RG-123-456', name: 'Acme Chains', extra: {} });
    assert.equal(server.requests[0].authorization, `Bearer ${API_KEY}`);
    assert.equal(server.requests[0].url, '/v1/organization/');
  });

  test('every list follows next through all pages', async () => {
    const progress: { page: number; read: number; count?: number }[] = [];
    const nodes = await client().listNodes({}, { onPage: (p) => progress.push(p) });
    assert.deepEqual(
      nodes.map((n) => n.id),
      ['ND-101-202-303', 'ND-102-203-304', 'ND-103-204-305', 'ND-104-205-306', 'ND-105-206-307'],
    );
    assert.deepEqual(listPaths(), ['/v1/nodes/', '/v1/nodes/?page=2', '/v1/nodes/?page=3']);
    assert.deepEqual(progress, [
      { page: 1, read: 2, count: 5 },
      { page: 2, read: 4, count: 5 },
      { page: 3, read: 5, count: 5 },
    ]);
    assert.equal(nodes[0].details?.auth_key, '01'.repeat(16));
    assert.equal(nodes[1].configuration?.archive, true);

    assert.deepEqual(
      (await client().listProjects()).map((p) => p.name),
      ['Mainnet apps', 'Bitcoin tools'],
    );
    assert.deepEqual(
      (await client().listNetworks()).map((n) => n.protocol),
      ['ethereum', 'polygon-pos', 'bitcoin'],
    );
    assert.deepEqual(
      (await client().listIdentities()).map((i) => i.id),
      ['ID-101-202', 'ID-102-203'],
    );
  });

  test('pages of one object, and an empty list', async () => {
    server.pageSize = 1;
    assert.equal((await client().listNodes()).length, 5);
    assert.equal(server.requests.length, 5);
    server.data.identities = [];
    assert.deepEqual(await client().listIdentities(), []);
  });

  test('get by id, for each kind', async () => {
    const c = client();
    assert.equal((await c.getNode('ND-103-204-305')).name, 'node-02');
    assert.equal((await c.getProject('PR-102-203')).name, 'Bitcoin tools');
    assert.equal((await c.getNetwork('NW-102-203-304')).configuration?.network, 'mainnet');
    assert.equal((await c.getIdentity('ID-102-203')).name, 'ci');
    assert.equal(server.requests[0].url, '/v1/nodes/ND-103-204-305/');
  });

  test('filters and order are sent, and next keeps them', async () => {
    const c = client();
    const inProject = await c.listNodes({ project: 'PR-101-202' });
    assert.deepEqual(
      inProject.map((n) => n.network),
      ['NW-101-202-303', 'NW-102-203-304', 'NW-101-202-303', 'NW-102-203-304'],
    );
    assert.deepEqual(listPaths(), ['/v1/nodes/?project=PR-101-202', '/v1/nodes/?project=PR-101-202&page=2']);

    assert.deepEqual(
      (await c.listNodes({ status: 'stopped' })).map((n) => n.id),
      ['ND-103-204-305'],
    );
    assert.deepEqual(
      (await c.listNodes({ protocol: 'bitcoin' })).map((n) => n.id),
      ['ND-103-204-305'],
    );
    assert.deepEqual(
      (await c.listNodes({ network: 'NW-102-203-304' })).map((n) => n.id),
      ['ND-102-203-304', 'ND-105-206-307'],
    );
    assert.deepEqual(
      (await c.listNetworks({ project: 'PR-102-203' })).map((n) => n.id),
      ['NW-103-204-305'],
    );
    assert.deepEqual(
      (await c.listNodes({ order_by: '-name' })).map((n) => n.name),
      ['node-04', 'node-03', 'node-02', 'node-01', 'node-00'],
    );
    assert.deepEqual(
      (await c.listProjects({ order_by: 'created_at' })).map((p) => p.id),
      ['PR-102-203', 'PR-101-202'],
    );
  });

  test('fields missing or added do not break a list: missing are undefined, added are kept', async () => {
    delete server.data.nodes[0].name;
    delete server.data.nodes[0].details;
    server.data.nodes[1].billing = { plan: 'growth' };
    server.data.nodes[2].status = 7;
    const nodes = await client().listNodes();
    assert.equal(nodes[0].name, undefined);
    assert.equal(nodes[0].details, undefined);
    assert.deepEqual(nodes[1].extra, { billing: { plan: 'growth' } });
    assert.equal(nodes[2].status, undefined);
    assert.equal(nodes[2].extra.status, 7);
  });

  test('an object without id is a bad reply naming the page and the object', async () => {
    delete server.data.nodes[3].id;
    await failsWith(
      client().listNodes(),
      'bad-reply',
      /^Listing nodes failed at page 2, after 2 read: The reply from http:\/\/127\.0\.0\.1:\d+\/v1\/nodes\/\?page=2 is not what the platform API sends: object 2 of page 2: the object has no id\./,
    );
  });

  test('a next link naming another host is followed on the configured API only', async () => {
    server.fail({
      path: '/v1/nodes/',
      page: 1,
      times: 1,
      fault: { status: 200, body: { count: 3, next: 'https://evil.example.com/v1/nodes/?page=2', previous: null, results: [{ id: 'ND-1' }, { id: 'ND-2' }] } },
    });
    const nodes = await client().listNodes();
    assert.deepEqual(
      nodes.map((n) => n.id),
      ['ND-1', 'ND-2', 'ND-103-204-305', 'ND-104-205-306', 'ND-105-206-307'],
    );
    assert.deepEqual(listPaths(), ['/v1/nodes/', '/v1/nodes/?page=2', '/v1/nodes/?page=3']);
  });

  test('a next link that loops is an error, not an endless list', async () => {
    server.fail({ path: '/v1/nodes/', page: 2, fault: { status: 200, body: { count: 9, next: `${server.url}/v1/nodes/?page=2`, previous: null, results: [{ id: 'ND-X' }] } } });
    const err = await failsWith(client().listNodes(), 'bad-reply', /failed at page 2, after 3 read: .*its next link .*\?page=2 points back at a page already read/);
    assert.equal(err.page, 2);
  });
});

describe('platform failures', () => {
  test('401: a wrong key, with the hint to set a new one', async () => {
    const err = await failsWith(
      client({ apiKey: 'pk_test_wrong_000000000000000000000' }).listNodes(),
      'auth',
      /^The platform API did not accept the API key \(HTTP 401 Unauthorized from http:\/\/127\.0\.0\.1:\d+\/v1\/nodes\/: Invalid API key\. \(authentication_failed\)\)\. The key is wrong or was revoked: set a new one with "Chaindeck: Set Platform API Key"\.$/,
    );
    assert.equal(err.status, 401);
    assert.equal(server.requests.length, 1, '401 is not retried');
  });

  test('403: a member key may read the organization but not list nodes', async () => {
    const member = client({ apiKey: MEMBER_KEY });
    assert.equal((await member.organization()).id, 'RG-123-456');
    await failsWith(
      member.listNodes(),
      'forbidden',
      /^The API key is not allowed to list nodes \(HTTP 403 .*You do not have permission to perform this action\. \(permission_denied\)\)\. .*member/,
    );
  });

  test('404: no such node <id>', async () => {
    const err = await failsWith(
      client().getNode('ND-999-999-999'),
      'not-found',
      /^No such node ND-999-999-999 \(HTTP 404 Not Found from .*\/v1\/nodes\/ND-999-999-999\/: Not found\. \(not_found\)\)/,
    );
    assert.equal(err.apiCode, 'not_found');
  });

  test('400 with fields: the API says which input was wrong', async () => {
    const err = await failsWith(
      client().listNodes({ order_by: 'size' }),
      'http',
      /refused to list nodes .*Cannot order by "size"\. \(invalid_parameter\) \[order_by: Choose one of: name, created_at/,
    );
    assert.deepEqual(Object.keys(err.fields ?? {}), ['order_by']);
  });

  test('429 asking for a long wait fails at once, saying how long', async () => {
    server.fail({ path: '/v1/nodes/', fault: { status: 429, body: { error: { code: 'throttled', message: 'Request was throttled.' } }, headers: { 'retry-after': '120' } } });
    const started = Date.now();
    const err = await failsWith(
      client().listNodes(),
      'rate-limited',
      /rate limiting this key .*Request was throttled\. \(throttled\)\)\. It asks to wait 120 s \(Retry-After\); try again after that\.$/,
    );
    assert.equal(err.retryAfterMs, 120_000);
    assert.equal(server.requests.length, 1);
    assert.ok(Date.now() - started < 1000);
  });

  test('429 with a short Retry-After is waited out and retried', async () => {
    server.fail({ path: '/v1/nodes/', page: 2, times: 1, fault: { status: 429, headers: { 'retry-after': '0' } } });
    assert.equal((await client().listNodes()).length, 5);
    assert.deepEqual(listPaths(), ['/v1/nodes/', '/v1/nodes/?page=2', '/v1/nodes/?page=2', '/v1/nodes/?page=3']);
  });

  test('a 500 on page 2 that persists: an error naming the page, the partial list only on the error', async () => {
    server.fail({ path: '/v1/nodes/', page: 2, fault: { status: 500, body: { error: { code: 'server_error', message: 'Database unavailable.' } } } });
    const err = await failsWith(
      client().listNodes(),
      'server',
      /^Listing nodes failed at page 2, after 2 read: The platform API's server failed \(HTTP 500 Internal Server Error from http:\/\/127\.0\.0\.1:\d+\/v1\/nodes\/\?page=2: Database unavailable\. \(server_error\)\)\. Try again later/,
    );
    assert.equal(err.page, 2);
    assert.deepEqual(
      (err.partial as { id: string }[]).map((n) => n.id),
      ['ND-101-202-303', 'ND-102-203-304'],
    );
    assert.equal(listPaths().filter((p) => p.endsWith('page=2')).length, 3, 'sent, then retried twice');
  });

  test('a 500 that passes is retried and the list is whole', async () => {
    server.fail({ path: '/v1/nodes/', page: 2, times: 1, fault: { status: 503 } });
    assert.equal((await client().listNodes()).length, 5);
  });

  test('a slow answer times out, naming the limit and the setting', async () => {
    server.fail({ path: '/v1/projects/', fault: { delayMs: 1500 } });
    await failsWith(
      client({ timeoutMs: 150 }).listProjects(),
      'timeout',
      /^No answer from http:\/\/127\.0\.0\.1:\d+\/v1\/projects\/ within 150 ms\. Raise the limit with the setting chaindeck\.requestTimeoutMs \(CLI: --timeout MS\)\.$/,
    );
    await failsWith(client().listProjects({}, { timeoutMs: 100 }), 'timeout', /within 100 ms/);
  });

  test('a slow page 3 times out as a failure of page 3', async () => {
    server.fail({ path: '/v1/nodes/', page: 3, fault: { delayMs: 1500 } });
    const err = await failsWith(client({ timeoutMs: 200 }).listNodes(), 'timeout', /^Listing nodes failed at page 3, after 4 read: No answer from .*\?page=3 within 200 ms/);
    assert.equal(err.partial?.length, 4);
  });

  test('cancellation stops the request at once', async () => {
    server.fail({ path: '/v1/nodes/', fault: { delayMs: 1500 } });
    const controller = new AbortController();
    const pending = client().listNodes({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await failsWith(pending, 'cancelled', /^The request to http:\/\/127\.0\.0\.1:\d+\/v1\/nodes\/ was cancelled\.$/);
    assert.ok(Date.now() - started < 1000);
    await failsWith(client().listNodes({}, { signal: AbortSignal.abort() }), 'cancelled', /was cancelled/);
  });

  test('nothing listening: unreachable, naming the platform API', async () => {
    const port = await freePort();
    await failsWith(
      new PlatformClient({ apiKey: API_KEY, apiUrl: `http://127.0.0.1:${port}` }).organization(),
      'unreachable',
      new RegExp(`^Cannot reach the platform API at http://127\\.0\\.0\\.1:${port}/v1/organization/: connection refused \\(ECONNREFUSED\\)\\. Is the platform API running`),
    );
  });

  test('a reply that is not JSON, or JSON that is not a page', async () => {
    server.fail({ path: '/v1/networks/', times: 1, fault: { status: 200, body: '<html><body>Sign in</body></html>', headers: { 'content-type': 'text/html' } } });
    await failsWith(
      client().listNetworks(),
      'not-json',
      /^The reply from .*\/v1\/networks\/ is not JSON \(HTTP 200, an HTML page\): "<html><body>Sign in<\/body><\/html>"\. Check the platform API URL/,
    );
    server.fail({ path: '/v1/networks/', times: 1, fault: { status: 200, body: [{ id: 'NW-1' }] } });
    await failsWith(client().listNetworks(), 'bad-reply', /got an array/);
  });

  test('an API URL with a path that is not the API: 404 says to check the URL', async () => {
    await failsWith(client({ apiUrl: `${server.url}/api` }).listNodes(), 'not-found', /nothing at .*\/api\/v1\/nodes\/ .*Check the platform API URL \(setting chaindeck\.platform\.apiUrl/);
  });

  test('the API key echoed by the API is scrubbed from the message', async () => {
    server.fail({ path: '/v1/nodes/', fault: { status: 401, body: { error: { code: 'authentication_failed', message: `Token ${API_KEY} is revoked.` } } } });
    const err = await failsWith(client().listNodes(), 'auth', /Token \*\*\* is revoked\./);
    assert.ok(!JSON.stringify(err).includes(API_KEY));
  });
});
