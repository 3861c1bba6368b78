/**
 * The platform client's list paging against the loopback platform server (the wire contract of
 * the shared platform-api note): the page limit is exact, and an object seen on two pages counts once.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PlatformClient } from '../../../../src/core/platform/client';
import { PlatformError } from '../../../../src/core/platform/errors';
import { Deadline } from '../../../../src/core/rpc/deadline';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { sampleData, startPlatformServer, type PlatformServer } from '../../../support/platformServer';

const apiKey = 'pk_paging_0123456789abcdef';

describe('platform lists', () => {
  let api: PlatformServer;
  before(async () => {
    api = await startPlatformServer({ apiKey, pageSize: 1, data: sampleData({ nodes: 5 }) });
  });
  after(() => api.close());

  test('a list of exactly maxPages pages is read whole; one page more is a bad reply', async () => {
    api.clear();
    const all = await new PlatformClient({ apiKey, apiUrl: api.url, maxPages: 5 }).listNodes();
    assert.equal(all.length, 5);
    assert.equal(api.requests.length, 5, 'one request a page');
    api.clear();
    await assert.rejects(
      new PlatformClient({ apiKey, apiUrl: api.url, maxPages: 4 }).listNodes(),
      (err: unknown) => err instanceof PlatformError && /more than 4 pages of nodes/.test(err.message) && err.page === 5,
    );
    assert.equal(api.requests.length, 4, 'the fifth page is never asked for');
  });

  test('an object that shows on two pages is listed once, in its first place', async () => {
    const nodes = api.data.nodes;
    const original = nodes.map((n) => n.id);
    // The first node moved while the pages were read: it shows on page 1 and again on page 4.
    nodes.splice(3, 0, { ...nodes[0] });
    try {
      api.clear();
      const listed = await new PlatformClient({ apiKey, apiUrl: api.url }).listNodes();
      assert.deepEqual(
        listed.map((n) => n.id),
        original,
      );
      assert.equal(api.requests.length, 6, 'every page was read');
    } finally {
      nodes.splice(3, 1);
    }
  });
});

describe('each call on its route', () => {
  /**
   * The platform client's calls one by one against the loopback platform server (the wire contract
   * of the shared platform-api note): each list and get on its route, the key checked before
   * anything is sent, the headers and query sent, paging progress, next links that would lead
   * astray, replies that are not what the contract says (the key never shown when they echo it),
   * deadlines, retries (how many, and the one that would outlast the call's timeout), and a GET
   * sent again after a dropped keep-alive connection.
   */
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
    assert.deepEqual(
      (await c.listProjects()).map((p) => p.id),
      ['PR-101-202', 'PR-102-203'],
    );
    assert.equal((await c.getProject('PR-102-203')).name, 'Bitcoin tools');
    assert.deepEqual(
      (await c.listNetworks()).map((n) => n.id),
      ['NW-101-202-303', 'NW-102-203-304', 'NW-103-204-305'],
    );
    assert.equal((await c.getNetwork('NW-103-204-305')).name, 'Bitcoin');
    assert.equal((await c.listNodes()).length, 5);
    assert.equal((await c.getNode(api.data.nodes[4].id as string)).name, 'node-04');
    assert.deepEqual(
      (await c.listIdentities()).map((i) => i.id),
      ['ID-101-202', 'ID-102-203'],
    );
    assert.equal((await c.getIdentity(' ID-102-203 ')).name, 'ci', 'the id is trimmed');
    const nodePages = paths().filter((p) => p.startsWith('/v1/nodes/?') || p === '/v1/nodes/');
    assert.equal(nodePages.length, 3, 'five nodes, two a page');
    assert.ok(paths().includes('/v1/organization/'));
    assert.ok(paths().includes('/v1/projects/PR-102-203/'));
    assert.ok(paths().includes('/v1/networks/NW-103-204-305/'));
    assert.ok(paths().includes('/v1/identities/ID-102-203/'));
    for (const r of api.requests) assert.deepEqual([r.method, r.authorization, r.accept, r.userAgent], ['GET', `Bearer ${apiKey}`, 'application/json', 'chaindeck']);
  });

  test('empty and undefined filters are left out; order_by goes as given, either way round', async () => {
    assert.equal((await client().listNodes({ status: '', project: undefined })).length, 5);
    assert.equal(paths()[0], '/v1/nodes/', 'no empty parameter sent');
    api.clear();
    assert.deepEqual(
      (await client().listProjects({ order_by: 'name' })).map((p) => p.name),
      ['Bitcoin tools', 'Mainnet apps'],
    );
    assert.deepEqual(
      (await client().listProjects({ order_by: '-created_at' })).map((p) => p.id),
      ['PR-101-202', 'PR-102-203'],
    );
    assert.deepEqual(paths(), ['/v1/projects/?order_by=name', '/v1/projects/?order_by=-created_at']);
  });

  test('a 403 names what the key may not do: read the organization, get the node', async () => {
    api.fail({ path: '/v1/organization/', fault: { status: 403, body: { detail: 'no' } } });
    const id = api.data.nodes[0].id as string;
    api.fail({ path: `/v1/nodes/${id}/`, fault: { status: 403, body: { detail: 'no' } } });
    assert.match((await errorOf(client().organization())).message, /^The API key is not allowed to read the organization \(/);
    assert.match((await errorOf(client().getNode(id))).message, new RegExp(`^The API key is not allowed to get node ${id} \\(`));
  });

  test('an object or a page not of the documented shape is a bad reply naming where; the key never shows', async () => {
    const id = api.data.nodes[0].id as string;
    api.fail({ path: `/v1/nodes/${id}/`, fault: { status: 200, body: { id: [apiKey], name: 'n' } } });
    const object = await errorOf(client().getNode(id));
    assert.equal(object.kind, 'bad-reply');
    assert.match(object.message, /is not what the platform API sends: the object: /);
    assert.ok(!object.message.includes(apiKey), object.message);
    api.fail({ path: '/v1/nodes/', fault: { status: 200, body: { results: 'none' } } });
    const page = await errorOf(client().listNodes());
    assert.equal(page.kind, 'bad-reply');
    assert.match(page.message, /got an object with results/);
  });

  test('a 2xx reply that is not JSON, and an error reply, never show the key the server echoes', async () => {
    api.fail({ path: '/v1/organization/', times: 1, fault: { status: 200, body: `<html>signed in as ${apiKey}</html>`, headers: { 'content-type': 'text/html' } } });
    const html = await errorOf(client().organization());
    assert.equal(html.kind, 'not-json');
    assert.ok(!html.message.includes(apiKey), html.message);
    api.fail({ path: '/v1/organization/', times: 1, fault: { status: 400, body: { error: { code: 'bad', message: `bad key ${apiKey}` } } } });
    const refused = await errorOf(client().organization());
    assert.equal(refused.status, 400);
    assert.ok(!refused.message.includes(apiKey), refused.message);
  });

  test('a 300 is not a success, even with an object in it', async () => {
    api.fail({ path: '/v1/organization/', fault: { status: 300, body: { id: 'RG-123-456', name: 'Acme Chains' } } });
    const err = await errorOf(client().organization());
    assert.deepEqual([err.kind, err.status], ['http', 300]);
  });

  test('a failing page after the first names its page in the URL it shows', async () => {
    api.fail({ path: '/v1/nodes/', page: 2, fault: { status: 404, body: { detail: 'gone' } } });
    const err = await errorOf(client().listNodes());
    assert.equal(err.page, 2);
    assert.match(err.message, /\/v1\/nodes\/\?page=2/);
  });

  test('a spent deadline, of the call or of the client, fails at once as a timeout', async () => {
    assert.equal((await errorOf(client().organization({ deadline: new Deadline(0) }))).kind, 'timeout');
    assert.equal((await errorOf(client({ deadline: new Deadline(0) }).listNodes())).kind, 'timeout');
    assert.equal(api.requests.length, 0);
  });

  test('an API that cannot be reached is named as the platform API', async () => {
    const err = await errorOf(new PlatformClient({ apiKey, apiUrl: 'http://127.0.0.1:9' }).organization());
    assert.equal(err.kind, 'unreachable');
    assert.match(err.message, /Is the platform API running/);
  });

  test('a GET is retried as many times as the policy says, a Retry-After of exactly the longest delay included', async () => {
    api.fail({ path: '/v1/organization/', fault: { status: 503, body: { detail: 'busy' }, headers: { 'retry-after': '0.05' } } });
    const err = await errorOf(client({ retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 50 } }).organization());
    assert.equal(err.status, 503);
    assert.equal(api.requests.length, 3, 'the first try and two retries');
  });

  test('a key with a space or line break, or a blank one, is refused before anything is sent', () => {
    assert.throws(
      () => client({ apiKey: 'pk_a b' }),
      (err: unknown) => err instanceof PlatformError && err.message === 'The platform API key holds a space or line break: copy it again from the console.',
    );
    assert.throws(() => client({ apiKey: 'pk_a\nb' }), /holds a space or line break/);
    assert.throws(
      () => client({ apiKey: '  ', keyHint: 'set it here' }),
      (err: unknown) => err instanceof PlatformError && err.message === 'No platform API key: set it here.',
    );
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
      [`http://[${apiKey}`, /its next link "http:\/\/\[\*\*\*" is not a URL/],
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

  test('a GET that meets a keep-alive connection the API dropped is sent again', async () => {
    // Answers the first request of each connection and resets the connection at the second.
    const body = JSON.stringify({ id: 'RG-1', name: 'Org' });
    const dropping = net.createServer((socket) => {
      let answered = false;
      socket.on('data', () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', r));
    try {
      const c = new PlatformClient({ apiKey, apiUrl: `http://127.0.0.1:${(dropping.address() as net.AddressInfo).port}` });
      assert.equal((await c.organization()).id, 'RG-1');
      assert.equal((await c.organization()).id, 'RG-1', 'sent again on a new connection');
    } finally {
      closeIdleConnections();
      await new Promise<void>((r) => dropping.close(() => r()));
    }
  });
});
