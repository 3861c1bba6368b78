/**
 * The platform client's calls one by one against the loopback platform server (the wire contract
 * of the shared platform-api note): each list and get on its route, the key checked before
 * anything is sent, paging progress, next links that would lead astray, replies that are not
 * what the contract says, and the retry that would outlast the call's timeout.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { PlatformClient } from '../../src/core/platform/client';
import { PlatformError } from '../../src/core/platform/errors';
import { sampleData, startPlatformServer, type PlatformServer } from '../support/platformServer';

const apiKey = 'pk_routes_0123456789abcdef';
let api: PlatformServer;
before(async () => {
  api = await startPlatformServer({ apiKey, pageSize: 2, data: sampleData({ nodes: 5 }) });
});
after(() => api.close());
beforeEach(() => api.clear());

const client = (options: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}) => new PlatformClient({ apiKey, apiUrl: api.url, ...options });
const paths = () => api.requests.map((r) => r.url);

/** The PlatformError a promise rejects with. */
async function errorOf(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PlatformError, String(err));
    return err;
  }
  assert.fail('expected a PlatformError');
}

test('each list and get asks its own route and returns the served objects', async () => {
  const c = client();
  assert.equal((await c.organization()).id, 'RG-123-456');
  assert.deepEqual((await c.listProjects()).map((p) => p.id), ['PR-101-202', 'PR-102-203']);
  assert.equal((await c.getProject('PR-102-203')).name, 'Bitcoin tools');
  assert.deepEqual((await c.listNetworks()).map((n) => n.id), ['NW-101-202-303', 'NW-102-203-304', 'NW-103-204-305']);
  assert.equal((await c.getNetwork('NW-103-204-305')).name, 'Bitcoin');
  assert.equal((await c.listNodes()).length, 5);
  assert.equal((await c.getNode(api.data.nodes[4].id as string)).name, 'node-04');
  assert.deepEqual((await c.listIdentities()).map((i) => i.id), ['ID-101-202', 'ID-102-203']);
  assert.equal((await c.getIdentity(' ID-102-203 ')).name, 'ci', 'the id is trimmed');
  const nodePages = paths().filter((p) => p.startsWith('/v1/nodes/?') || p === '/v1/nodes/');
  assert.equal(nodePages.length, 3, 'five nodes, two a page');
  assert.ok(paths().includes('/v1/organization/'));
  assert.ok(paths().includes('/v1/projects/PR-102-203/'));
  assert.ok(paths().includes('/v1/networks/NW-103-204-305/'));
  assert.ok(paths().includes('/v1/identities/ID-102-203/'));
  for (const r of api.requests) assert.equal(r.authorization, `Bearer ${apiKey}`);
});

test('a key with a space or line break, or a blank one, is refused before anything is sent', () => {
  assert.throws(() => client({ apiKey: 'pk_a b' }), (err: unknown) => err instanceof PlatformError && err.message === 'The platform API key holds a space or line break: copy it again from the console.');
  assert.throws(() => client({ apiKey: 'pk_a\nb' }), /holds a space or line break/);
  assert.throws(() => client({ apiKey: '  ', keyHint: 'set it here' }), (err: unknown) => err instanceof PlatformError && err.message === 'No platform API key: set it here.');
  assert.equal(client({ apiKey: `  ${apiKey}\n` }) instanceof PlatformClient, true, 'spaces around it are trimmed');
  assert.equal(api.requests.length, 0);
});

test('onPage reports each page with the objects read so far and the count the API gives', async () => {
  const seen: { page: number; read: number; count?: number }[] = [];
  await client().listNodes({}, { onPage: (p) => seen.push(p) });
  assert.deepEqual(seen, [
    { page: 1, read: 2, count: 5 },
    { page: 2, read: 4, count: 5 },
    { page: 3, read: 5, count: 5 },
  ]);
});

test('next links: not a URL, another path, or a page already read are bad replies, and nothing more is asked', async () => {
  const node = api.data.nodes[0];
  const cases: [unknown, RegExp][] = [
    ['http://[bad', /its next link "http:\/\/\[bad" is not a URL/],
    [`${api.url}/v1/projects/?page=2`, /its next link .* leaves the list's path \/v1\/nodes\//],
    [`${api.url}/v1/nodes/`, /its next link .* points back at a page already read/],
  ];
  for (const [next, message] of cases) {
    api.clear();
    api.fail({ path: '/v1/nodes/', page: 1, fault: { status: 200, body: { count: 2, next, previous: null, results: [node] } } });
    const err = await errorOf(client().listNodes());
    assert.match(err.message, message);
    assert.equal(api.requests.length, 1, `${String(next)}: one request only`);
    assert.ok(!err.message.includes(apiKey));
  }
});

test('an object that breaks the contract names its place; a reply nested too deep is refused', async () => {
  api.fail({ path: '/v1/nodes/', page: 1, fault: { status: 200, body: { count: 1, next: null, previous: null, results: [{ name: 'no id' }] } } });
  assert.match((await errorOf(client().listNodes())).message, /object 1 of page 1: /);
  api.clear();
  const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
  api.fail({ path: '/v1/organization/', fault: { status: 200, body: deep, headers: { 'content-type': 'application/json' } } });
  assert.match((await errorOf(client().organization())).message, /it nests more than \d+ levels deep/);
});

test('a 503 whose retry would outlast the timeout gives up at once, saying so', async () => {
  api.fail({ path: '/v1/organization/', fault: { status: 503, body: { detail: 'busy' }, headers: { 'retry-after': '2' } } });
  const started = Date.now();
  const err = await errorOf(client({ timeoutMs: 1000 }).organization());
  assert.match(err.message, /Gave up: waiting to retry would go past the 1000 ms timeout\.$/);
  assert.equal(err.status, 503);
  assert.equal(api.requests.length, 1);
  assert.ok(Date.now() - started < 900, 'it did not wait');
});

test('cancelled while waiting to retry: kind cancelled, and no further request', async () => {
  api.fail({ path: '/v1/organization/', fault: { status: 503, body: { detail: 'busy' } } });
  const controller = new AbortController();
  const pending = errorOf(client({ retry: { retries: 2, baseDelayMs: 2000, maxDelayMs: 10_000 } }).organization({ signal: controller.signal }));
  while (api.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
  setTimeout(() => controller.abort(), 50);
  const err = await pending;
  assert.equal(err.kind, 'cancelled');
  assert.match(err.message, /^The request to http:\/\/127\.0\.0\.1:\d+\/v1\/organization\/ was cancelled\.$/);
  assert.equal(api.requests.length, 1);
});
