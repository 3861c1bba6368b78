/**
 * Every failure the client distinguishes, produced for real: a loopback proxy in front of anvil
 * that checks credentials, answers with faults, stalls or resets; a closed port; TLS spoken to a
 * plain HTTP server. Also retries (only reads, only 429/5xx, Retry-After honoured) and cancelling.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_HINTS } from '../../src/cli/knobs';
import { parseEndpoint, resolveEndpoint } from '../../src/core/nodes/endpoint';
import type { NodeConfig, NodeSecret } from '../../src/core/nodes/model';
import type { ResolvedEndpoint } from '../../src/core/rpc/endpoint';
import { RpcClient, type ClientOptions } from '../../src/core/rpc/client';
import { RpcFailure, type RpcFailureKind } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy } from '../support/proxy';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const KEY = '9f2a6c1e4b7d80a35c6e1f2b3a4d5e6f';
const WRONG_KEY = '0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e';
const PASSWORD = 'correct-horse-battery';
const WRONG_PASSWORD = 'wrong-horse-staple';
const SIGNED_TX = '0x02f8700182';

function endpointFor(pasted: string, secret?: NodeSecret): ResolvedEndpoint {
  const p = parseEndpoint(pasted);
  const config: NodeConfig = { id: 't', name: 't', protocol: p.protocol, url: p.url, wsUrl: p.wsUrl, auth: secret ? 'basic' : p.auth };
  return resolveEndpoint(config, secret ?? p.secret);
}

/** Asserts a rejection is an RpcFailure of `kind` whose message matches, and returns it. */
async function failsWith(promise: Promise<unknown>, kind: RpcFailureKind, message: RegExp, secrets: string[] = []): Promise<RpcFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof RpcFailure, `not an RpcFailure: ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, message);
    for (const s of secrets) assert.ok(!err.message.includes(s), `the message leaks a secret: ${err.message}`);
    return err;
  }
  assert.fail(`expected a '${kind}' failure`);
}

after(() => closeIdleConnections());

describe('credentials', () => {
  let keyed: Proxy;
  let basic: Proxy;
  before(async () => {
    assert.ok(ANVIL, 'the harness did not start anvil');
    keyed = await startProxy({ target: ANVIL, key: KEY });
    basic = await startProxy({ target: ANVIL, basicAuth: { username: 'alice', password: PASSWORD } });
  });
  after(async () => {
    await keyed.close();
    await basic.close();
  });

  test('form A: the right key in the path passes; a wrong key gets 401 naming the key form', async () => {
    assert.equal(await new RpcClient(endpointFor(keyed.url)).call('eth_chainId'), '0x7a69');
    const wrong = keyed.url.replace(KEY, WRONG_KEY);
    const err = await failsWith(new RpcClient(endpointFor(wrong)).call('eth_chainId'), 'auth', /HTTP 401 Unauthorized.*Credentials used: access key in the URL path\./, [WRONG_KEY, KEY]);
    assert.equal(err.status, 401);
    assert.ok(err.message.includes(`http://127.0.0.1:${keyed.port}/***`), err.message);
  });

  test('form B: the right username and password pass, as a Basic header', async () => {
    basic.clear();
    const endpoint = endpointFor(basic.url, { username: 'alice', password: PASSWORD });
    assert.equal(await new RpcClient(endpoint).call('eth_chainId'), '0x7a69');
    assert.equal(basic.requests[0].authorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
    assert.equal(basic.requests[0].path, '/', 'the password never goes into the URL');
  });

  test('form B: a wrong password gets 401 naming Basic, and the message holds no password', async () => {
    const endpoint = endpointFor(basic.url, { username: 'alice', password: WRONG_PASSWORD });
    const encoded = Buffer.from(`alice:${WRONG_PASSWORD}`).toString('base64');
    await failsWith(new RpcClient(endpoint).call('eth_chainId'), 'auth', /Credentials used: HTTP Basic username and password\. Check the username and password/, [
      WRONG_PASSWORD,
      PASSWORD,
      encoded,
    ]);
  });

  test('no credentials at all: the 401 says none were sent', async () => {
    await failsWith(new RpcClient(endpointFor(basic.url)).call('eth_chainId'), 'auth', /Credentials used: no credentials\. This endpoint needs credentials/);
  });
});

describe('HTTP faults', () => {
  let proxy: Proxy;
  let client: RpcClient;
  const fast: ClientOptions = { retry: { baseDelayMs: 10, maxDelayMs: 200 } };
  before(async () => {
    proxy = await startProxy({ target: ANVIL, key: KEY });
    client = new RpcClient(endpointFor(proxy.url), fast);
  });
  beforeEach(() => proxy.clear());
  after(() => proxy.close());

  test('403 is an auth failure too', async () => {
    proxy.fail({ status: 403, body: 'forbidden' });
    const err = await failsWith(client.call('eth_chainId'), 'auth', /HTTP 403 Forbidden.*Credentials used: access key in the URL path/, [KEY]);
    assert.equal(err.status, 403);
  });

  test('429 on a write: rate limited, Retry-After mentioned, sent once only', async () => {
    proxy.fail({ status: 429, headers: { 'retry-after': '7' } });
    const err = await failsWith(client.call('eth_sendRawTransaction', [SIGNED_TX]), 'rate-limited', /Rate limited by the node \(HTTP 429 Too Many Requests.*wait 7 s \(Retry-After\)/, [KEY]);
    assert.equal(err.retryAfterMs, 7000);
    assert.equal(proxy.requests.length, 1, 'a write is never retried');
  });

  test('429 then 200 on a read: retried after the Retry-After, and succeeds', async () => {
    proxy.fail({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const patient = new RpcClient(endpointFor(proxy.url), { retry: { maxDelayMs: 5000 } });
    assert.equal(await patient.call('eth_chainId'), '0x7a69');
    assert.equal(proxy.requests.length, 2);
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms, not the 1 s asked`);
  });

  test("a Retry-After past the longest wait fails at once with the node's answer, not retried", async () => {
    proxy.fail({ status: 503, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    await failsWith(client.call('eth_chainId'), 'server', /The node's server failed \(HTTP 503 Service Unavailable/, [KEY]);
    assert.equal(proxy.requests.length, 1);
    assert.ok(Date.now() - started < 2000);
  });

  test('5xx on a read: two retries by default, then the server failure', async () => {
    proxy.fail({ status: 502, body: 'bad gateway' }, { status: 503 }, { status: 500, body: 'upstream died' });
    await failsWith(client.call('eth_blockNumber'), 'server', /The node's server failed \(HTTP 500 Internal Server Error from http:\/\/127\.0\.0\.1:\d+\/\*\*\*\): "upstream died"/, [KEY]);
    assert.equal(proxy.requests.length, 3);
    proxy.clear();
    proxy.fail({ status: 502 }, { status: 502 });
    assert.match(await client.call<string>('eth_blockNumber'), /^0x/);
    assert.equal(proxy.requests.length, 3);
  });

  test('a batch is retried only when every call in it is a read', async () => {
    proxy.fail({ status: 503 });
    const items = await client.batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }]);
    assert.ok('result' in items[0]);
    assert.equal(proxy.requests.length, 2);
    proxy.clear();
    proxy.fail({ status: 503 });
    await failsWith(client.batch([{ method: 'eth_chainId' }, { method: 'eth_sendRawTransaction', params: [SIGNED_TX] }]), 'server', /HTTP 503/);
    assert.equal(proxy.requests.length, 1);
  });

  test('502 and other statuses have their own messages', async () => {
    proxy.fail({ status: 502, body: '' }, { status: 502 }, { status: 502 });
    await failsWith(client.call('eth_chainId'), 'server', /HTTP 502 Bad Gateway/);
    proxy.fail({ status: 404, body: 'no such route' });
    await failsWith(client.call('eth_chainId'), 'http', /Unexpected HTTP 404 Not Found from .*: "no such route"\. Check the URL/);
  });

  test('an HTML page is not a JSON-RPC endpoint: the message quotes its start', async () => {
    proxy.fail({ status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html>\n<html><head><title>Parked domain</title></head><body>Buy this domain</body></html>' });
    await failsWith(client.call('eth_chainId'), 'not-json', /not JSON \(HTTP 200, an HTML page\): "<!DOCTYPE html> <html><head><title>Parked domain.*does not look like a JSON-RPC endpoint/);
  });

  test('garbage is quoted too', async () => {
    proxy.fail({ status: 200, body: 'garbage \u0001\u0002 not json at all' });
    await failsWith(client.call('eth_chainId'), 'not-json', /not JSON \(HTTP 200, text\/plain\): "garbage/);
  });

  test('a slow node times out with the limit and the setting named', async () => {
    proxy.fail({ delayMs: 3000 });
    const slowClient = new RpcClient(endpointFor(proxy.url), { timeoutMs: 300, hints: CLI_HINTS });
    const started = Date.now();
    await failsWith(
      slowClient.call('eth_chainId'),
      'timeout',
      /No answer from http:\/\/127\.0\.0\.1:\d+\/\*\*\* within 300 ms\. Raise the limit with the setting chaindeck\.requestTimeoutMs/,
      [KEY],
    );
    assert.ok(Date.now() - started < 1500);
    proxy.fail({ delayMs: 3000 });
    await failsWith(client.call('eth_chainId', [], { timeoutMs: 200 }), 'timeout', /within 200 ms/);
  });

  test('a reset connection is reported as such', async () => {
    // Two resets: a read that dies on a reused keep-alive connection is sent once more.
    proxy.fail({ reset: true }, { reset: true });
    await failsWith(client.call('eth_chainId'), 'unreachable', /connection was reset before the node answered \(ECONNRESET\)/, [KEY]);
  });

  test('params that are not an array or object are refused before sending', async () => {
    await failsWith(client.call('eth_getBalance', 'latest' as never), 'invalid-request', /must be a JSON array/);
    assert.equal(proxy.requests.length, 0);
  });
});

describe('cancellation', () => {
  let proxy: Proxy;
  let client: RpcClient;
  before(async () => {
    proxy = await startProxy({ target: ANVIL });
    client = new RpcClient(endpointFor(proxy.url));
  });
  beforeEach(() => proxy.clear());
  after(() => proxy.close());

  test('aborting a call in flight rejects at once as cancelled', async () => {
    proxy.fail({ delayMs: 3000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await failsWith(client.call('eth_chainId', [], { signal: controller.signal }), 'cancelled', /was cancelled/);
    assert.ok(Date.now() - started < 1000);
  });

  test('an already aborted signal sends nothing', async () => {
    await failsWith(client.call('eth_chainId', [], { signal: AbortSignal.abort() }), 'cancelled', /was cancelled/);
    assert.equal(proxy.requests.length, 0);
  });

  test('aborting during a retry wait stops the retries', async () => {
    proxy.fail({ status: 429, headers: { 'retry-after': '5' } });
    const started = Date.now();
    await failsWith(client.call('eth_chainId', [], { signal: AbortSignal.timeout(200) }), 'cancelled', /was cancelled/);
    assert.ok(Date.now() - started < 1500);
    assert.equal(proxy.requests.length, 1);
  });
});

describe('network failures', () => {
  test('a closed port is unreachable: connection refused', async () => {
    const port = await freePort();
    await failsWith(
      new RpcClient(endpointFor(`http://127.0.0.1:${port}`)).call('eth_chainId'),
      'unreachable',
      /Cannot reach the node at http:\/\/127\.0\.0\.1:\d+\/: connection refused \(ECONNREFUSED\)/,
    );
  });

  test('TLS to a plain HTTP server is a TLS failure that says so', async () => {
    const proxy = await startProxy({ target: ANVIL, key: KEY });
    try {
      const url = proxy.url.replace('http://', 'https://');
      await failsWith(new RpcClient(endpointFor(url)).call('eth_chainId'), 'tls', /^TLS failure talking to https:\/\/127\.0\.0\.1:\d+\/\*\*\*: the server did not answer with TLS/, [KEY]);
    } finally {
      await proxy.close();
    }
  });
});
