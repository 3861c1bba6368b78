/**
 * The HTTP JSON-RPC client against a scripted loopback node: what goes on the wire (method,
 * headers, body, ids, credentials), how replies are matched, and every failure kind with its
 * exact words: JSON-RPC errors, HTTP statuses, retries and Retry-After, bodies that are not
 * JSON, the response cap, timeouts, a refused connection, keys kept out of error text.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { checkParams, joinPath, RpcClient } from '../../../../src/core/rpc/client';
import { Deadline, setResponseLimitMB } from '../../../../src/core/rpc/deadline';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { failureOf, reply, useScriptedNode, type ScriptedNode } from '../../../support/rpcNode';

const open = (url: string): ResolvedEndpoint => ({ httpUrl: url, wsUrl: url.replace(/^http/, 'ws'), headers: {}, auth: 'none', secrets: [] });
const SETTING_HINT = 'Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).';

describe('RpcClient over HTTP', () => {
  let node: ScriptedNode;
  let shown: string;
  const client = (options: ConstructorParameters<typeof RpcClient>[1] = { timeoutMs: 3000, retry: { retries: 0 } }) => new RpcClient(open(node.url), options);

  useScriptedNode(
    (started) => {
      node = started;
      shown = node.url;
    },
    () => {
      node.seen.length = 0;
      node.script = (r) => ({ body: reply(r, { result: '0x1' }) });
      setResponseLimitMB(64);
    },
  );

  test('a single call: POST of a JSON-RPC 2.0 request with JSON headers, ids counting up, the result returned', async () => {
    node.script = (r) => ({ body: reply(r, { result: { echoed: JSON.parse(r.body) as unknown } }) });
    const c = client();
    const first = await c.call<{ echoed: unknown }>('eth_getBalance', ['0xabc', 'latest']);
    assert.deepEqual(first.echoed, { jsonrpc: '2.0', method: 'eth_getBalance', params: ['0xabc', 'latest'], id: 1 });
    const second = await c.call<{ echoed: unknown }>('eth_chainId');
    assert.deepEqual(second.echoed, { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 2 });
    const [seen] = node.seen;
    assert.equal(seen.method, 'POST');
    assert.equal(seen.path, '/');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers.accept, 'application/json');
    assert.equal(seen.headers['content-length'], String(Buffer.byteLength(seen.body)));
    assert.equal(seen.headers.authorization, undefined);
  });

  test('named params go out as an object; null or a string as params is refused before anything is sent', async () => {
    node.script = (r) => ({ body: reply(r, { result: (JSON.parse(r.body) as { params: unknown }).params }) });
    assert.deepEqual(await client().call('getinfo', { verbose: true }), { verbose: true });
    node.seen.length = 0;
    for (const [bad, word] of [
      [null, 'null'],
      ['0x1', 'string'],
      [7, 'number'],
    ] as const) {
      const problem = await failureOf(client().call('eth_call', bad as never));
      assert.equal(problem.kind, 'invalid-request');
      assert.equal(problem.message, `Params must be a JSON array (positional) or a JSON object (named), not ${word}.`);
    }
    const empty = await failureOf(client().batch([]));
    assert.equal(empty.kind, 'invalid-request');
    assert.equal(empty.message, 'A batch needs at least one call.');
    assert.equal(node.seen.length, 0);
  });

  test('a JSON-RPC error keeps its code, message and data; callResponse returns it whole', async () => {
    node.script = (r) => ({ body: reply(r, { error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } }) });
    const problem = await failureOf(client().call('eth_call', [{}]));
    assert.equal(problem.kind, 'rpc');
    assert.equal(problem.code, 3);
    assert.equal(problem.data, '0x08c379a0');
    assert.equal(problem.message, 'JSON-RPC error 3: execution reverted');
    assert.equal(problem.status, undefined);
    const whole = await client().callResponse('eth_call', [{}]);
    assert.deepEqual(whole, { jsonrpc: '2.0', id: 1, error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } });
  });

  test('a reply with another id is a mismatch naming both ids; JSON that is no response is not JSON-RPC', async () => {
    node.script = () => ({ body: { jsonrpc: '2.0', id: 99, result: '0x1' } });
    const problem = await failureOf(client().call('eth_blockNumber'));
    assert.equal(problem.kind, 'mismatch');
    assert.equal(problem.message, `The node at ${shown} answered with id 99 to request id 1: the reply does not belong to this request (a proxy or load balancer may be mixing up replies).`);
    node.script = () => ({ body: { hello: 'world' } });
    const notRpc = await failureOf(client().call('eth_blockNumber'));
    assert.equal(notRpc.kind, 'not-json');
    assert.equal(notRpc.message, `The reply from ${shown} is JSON but not a JSON-RPC response: "{\\"hello\\":\\"world\\"}". This does not look like a JSON-RPC endpoint; check the URL.`);
  });

  test('a batch: one request array with distinct ids; replies in any order come back in call order, a missing one as its own mismatch', async () => {
    node.script = (r) => {
      const requests = JSON.parse(r.body) as { id: number; method: string }[];
      const answers = requests
        .filter((q) => q.method !== 'eth_gasPrice')
        .map((q) => (q.method === 'eth_call' ? { jsonrpc: '2.0', id: q.id, error: { code: -32000, message: 'boom', data: 'why' } } : { jsonrpc: '2.0', id: q.id, result: q.method }));
      return { body: answers.reverse() };
    };
    const items = await client().batch([{ method: 'eth_chainId' }, { method: 'eth_gasPrice' }, { method: 'eth_call', params: [{}] }, { method: 'net_version' }]);
    const sent = JSON.parse(node.seen[0].body) as { id: number; params: unknown }[];
    assert.equal(node.seen.length, 1);
    assert.deepEqual(
      sent.map((s) => s.id),
      [1, 2, 3, 4],
    );
    assert.deepEqual(sent[0].params, []);
    assert.ok('result' in items[0] && items[0].result === 'eth_chainId');
    assert.ok('error' in items[1] && items[1].error.kind === 'mismatch' && items[1].response === undefined);
    assert.equal('error' in items[1] && items[1].error.message, "The node's batch reply has no answer for request id 2 (eth_gasPrice).");
    assert.ok('error' in items[2] && items[2].error.kind === 'rpc' && items[2].error.code === -32000 && items[2].error.data === 'why');
    assert.ok('result' in items[3] && items[3].result === 'net_version');
  });

  test('Basic credentials go in exactly one Authorization header, and the node refusing them says which form was used', async () => {
    const endpoint = resolveEndpoint(
      { id: 'b', name: 'b', protocol: 'evm', url: node.url, wsUrl: node.url.replace('http', 'ws'), auth: 'basic' },
      { username: 'alice', password: 'pa:ss wörd' },
    );
    node.script = (r) => (r.headers.authorization === `Basic ${Buffer.from('alice:pa:ss wörd', 'utf8').toString('base64')}` ? { body: reply(r, { result: 'ok' }) } : { status: 401 });
    assert.equal(await new RpcClient(endpoint, { timeoutMs: 3000 }).call('eth_chainId'), 'ok');
    node.script = () => ({ status: 401, body: 'nope' });
    const problem = await failureOf(new RpcClient(endpoint, { timeoutMs: 3000 }).call('eth_chainId'));
    assert.equal(problem.kind, 'auth');
    assert.equal(problem.status, 401);
    assert.equal(
      problem.message,
      `The node refused the credentials (HTTP 401 Unauthorized from ${shown}). Credentials used: HTTP Basic username and password. Check the username and password (the console shows them with the node).`,
    );
  });

  test('a key in the path is sent, and is *** in every failure text, even where the node echoes it', async () => {
    const KEY = 'f3a9c0d1e2b34c5d6e7f8091a2b3c4d5';
    const endpoint = resolveEndpoint({ id: 'k', name: 'k', protocol: 'evm', url: `${node.url}{key}`, auth: 'key' }, { tail: KEY });
    node.script = (r) => ({ status: 403, body: `key ${r.path.slice(1)} is disabled` });
    const refused = await failureOf(new RpcClient(endpoint, { timeoutMs: 3000 }).call('eth_chainId'));
    assert.equal(node.seen[0].path, `/${KEY}`);
    assert.equal(refused.kind, 'auth');
    assert.equal(
      refused.message,
      `The node refused the credentials (HTTP 403 Forbidden from ${shown}***). Credentials used: access key in the URL path. Check that the access key is right and belongs to this node (copy the endpoint again from the console).`,
    );
    node.script = (r) => ({ status: 500, body: `internal: ${r.path}` });
    const failed = await failureOf(new RpcClient(endpoint, { timeoutMs: 3000, retry: { retries: 0 } }).call('eth_chainId'));
    assert.equal(failed.kind, 'server');
    assert.ok(!failed.message.includes(KEY), failed.message);
    assert.match(failed.message, /^The node's server failed \(HTTP 500 Internal Server Error from http:\/\/127\.0\.0\.1:\d+\/\*\*\*\): "internal: \/\*\*\*"\. Try again later/);
    // Unauthenticated endpoints are told they need credentials.
    node.script = () => ({ status: 401 });
    assert.match(
      (await failureOf(client().call('eth_chainId'))).message,
      /Credentials used: no credentials\. This endpoint needs credentials: an access key in the URL path, or a username and password\.$/,
    );
  });

  test('getJson GETs a path below the key without a body or Content-Type', async () => {
    const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const endpoint = resolveEndpoint({ id: 'k', name: 'k', protocol: 'beacon', url: `${node.url}{key}/`, auth: 'key' }, { tail: KEY });
    node.script = () => ({ body: { data: { version: 'Lighthouse' } } });
    assert.deepEqual(await new RpcClient(endpoint, { timeoutMs: 3000 }).getJson('/eth/v1/node/version?x=1'), { data: { version: 'Lighthouse' } });
    assert.equal(node.seen[0].method, 'GET');
    assert.equal(node.seen[0].path, `/${KEY}/eth/v1/node/version?x=1`);
    assert.equal(node.seen[0].body, '');
    assert.equal(node.seen[0].headers['content-type'], undefined);
    assert.equal(joinPath('http://h:1/k//', '//a/b'), 'http://h:1/k/a/b');
    assert.equal(joinPath('http://h:1/k?old=1', 'a'), 'http://h:1/k/a?old=1');
  });

  test('exchange sends a string verbatim, is never retried, and returns an HTTP error as a reply', async () => {
    node.script = () => ({ status: 503, headers: { 'Content-Type': 'application/json', 'X-Node': 'n1' }, body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"busy"}}' });
    const raw = await client({ timeoutMs: 3000 }).exchange('{"not json');
    assert.equal(node.seen.length, 1);
    assert.equal(node.seen[0].body, '{"not json');
    assert.equal(raw.status, 503);
    assert.equal(raw.statusText, 'Service Unavailable');
    assert.equal(raw.headers['x-node'], 'n1');
    assert.equal(raw.contentType, 'application/json');
    assert.deepEqual(raw.body, { jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'busy' } });
    assert.equal(raw.bytes, Buffer.byteLength(raw.text));
    node.script = () => ({ body: '<html>no</html>', headers: { 'Content-Type': 'text/html' } });
    const page = await client().exchange({ a: 1 }, { httpMethod: 'GET', path: '/status' });
    assert.equal(node.seen[1].method, 'GET');
    assert.equal(node.seen[1].path, '/status');
    assert.equal(node.seen[1].body, '');
    assert.equal(page.body, undefined);
    assert.equal(page.text, '<html>no</html>');
  });
});

describe('HTTP statuses and retries', () => {
  let node: ScriptedNode;
  let shown: string;
  useScriptedNode(
    (started) => {
      node = started;
      shown = node.url;
    },
    () => {
      node.seen.length = 0;
    },
  );

  for (const [status, text] of [
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
  ] as const) {
    test(`HTTP ${status}: a read is sent 1 + retries times, a write once; kind 'server' with the body quoted`, async () => {
      node.script = () => ({ status, body: 'upstream  down\n' });
      const client = new RpcClient(open(node.url), { timeoutMs: 5000, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
      const problem = await failureOf(client.call('eth_blockNumber'));
      assert.equal(node.seen.length, 3);
      assert.equal(problem.kind, 'server');
      assert.equal(problem.status, status);
      assert.equal(
        problem.message,
        `The node's server failed (HTTP ${status} ${text} from ${shown}): "upstream down". Try again later; if it persists, check the node's status in the console.`,
      );
      node.seen.length = 0;
      assert.equal((await failureOf(client.call('eth_sendRawTransaction', ['0x00']))).kind, 'server');
      assert.equal(node.seen.length, 1);
      node.seen.length = 0;
      assert.equal((await failureOf(client.call('eth_blockNumber', [], { retries: 0 }))).kind, 'server');
      assert.equal(node.seen.length, 1);
    });
  }

  test('a 5xx carrying a JSON-RPC error keeps its code and data and quotes its message', async () => {
    node.script = (r) => ({ status: 500, body: reply(r, { error: { code: -32603, message: 'internal error', data: { x: 1 } } }) });
    const problem = await failureOf(new RpcClient(open(node.url), { timeoutMs: 3000, retry: { retries: 0 } }).call('eth_blockNumber'));
    assert.equal(problem.kind, 'server');
    assert.equal(problem.code, -32603);
    assert.deepEqual(problem.data, { x: 1 });
    assert.match(problem.message, /\(HTTP 500 Internal Server Error from http:\/\/127\.0\.0\.1:\d+\/\): JSON-RPC error -32603: internal error\. Try again later/);
  });

  test('a retried read that then succeeds returns the result; a batch of reads is retried, a batch with a write is not', async () => {
    node.script = (r, i) => (i === 0 ? { status: 502 } : { body: reply(r, { result: 'second' }) });
    const client = new RpcClient(open(node.url), { timeoutMs: 5000, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 5 } });
    assert.equal(await client.call('eth_blockNumber'), 'second');
    assert.equal(node.seen.length, 2);
    assert.equal(node.seen[0].body, node.seen[1].body, 'the same request, same id, is sent again');
    node.seen.length = 0;
    node.script = () => ({ status: 503 });
    await failureOf(client.batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }]));
    assert.equal(node.seen.length, 2);
    node.seen.length = 0;
    await failureOf(client.batch([{ method: 'eth_chainId' }, { method: 'eth_sendRawTransaction', params: ['0x00'] }]));
    assert.equal(node.seen.length, 1);
  });

  test('401, 403, 404 are not retried; a 404 is an unexpected HTTP reply that says to check the URL', async () => {
    const client = new RpcClient(open(node.url), { timeoutMs: 3000, retry: { retries: 3, baseDelayMs: 1 } });
    for (const status of [401, 403]) {
      node.seen.length = 0;
      node.script = () => ({ status });
      assert.equal((await failureOf(client.call('eth_blockNumber'))).kind, 'auth');
      assert.equal(node.seen.length, 1);
    }
    node.seen.length = 0;
    node.script = () => ({ status: 404, body: 'Not here' });
    const problem = await failureOf(client.call('eth_blockNumber'));
    assert.equal(node.seen.length, 1);
    assert.equal(problem.kind, 'http');
    assert.equal(problem.status, 404);
    assert.equal(problem.message, `Unexpected HTTP 404 Not Found from ${shown}: "Not here". Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.`);
    // A 4xx whose body is a JSON-RPC error is that error (with the status kept).
    node.script = (r) => ({ status: 400, body: reply(r, { error: { code: -32602, message: 'invalid params' } }) });
    const rpc = await failureOf(client.call('eth_blockNumber'));
    assert.equal(rpc.kind, 'rpc');
    assert.equal(rpc.status, 400);
    assert.equal(rpc.message, 'JSON-RPC error -32602: invalid params');
  });

  test('429 with Retry-After: 0 is retried at once and succeeds; the rate-limit text names the wait', async () => {
    node.script = (r, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '0' } } : { body: reply(r, { result: 'ok' }) });
    const client = new RpcClient(open(node.url), { timeoutMs: 5000, retry: { retries: 1, baseDelayMs: 4000, maxDelayMs: 4000 } });
    const started = performance.now();
    assert.equal(await client.call('eth_blockNumber'), 'ok');
    assert.ok(performance.now() - started < 2000, 'Retry-After: 0 replaces the 2-4 s backoff');
    node.seen.length = 0;
    node.script = () => ({ status: 429, headers: { 'Retry-After': '2' } });
    const problem = await failureOf(new RpcClient(open(node.url), { timeoutMs: 3000, retry: { retries: 0 } }).call('eth_blockNumber'));
    assert.equal(problem.kind, 'rate-limited');
    assert.equal(problem.retryAfterMs, 2000);
    assert.equal(problem.message, `Rate limited by the node (HTTP 429 Too Many Requests from ${shown}). The node asks to wait 2 s (Retry-After). Slow down, or send calls in batches.`);
  });

  test('a Retry-After past the timeout fails at once, saying so; one past maxDelayMs is not cut short but fails at once', async () => {
    node.script = () => ({ status: 429, headers: { 'Retry-After': '8' } });
    const started = performance.now();
    const problem = await failureOf(new RpcClient(open(node.url), { timeoutMs: 1500, retry: { retries: 2 }, hints: CLI_HINTS }).call('eth_blockNumber'));
    assert.ok(performance.now() - started < 1000, 'failed at once, not by the timeout');
    assert.equal(node.seen.length, 1);
    assert.equal(problem.kind, 'rate-limited');
    assert.equal(problem.retryAfterMs, 8_000);
    assert.equal(problem.outOfTime, false);
    assert.match(problem.message, / Gave up: waiting to retry would go past the 1500 ms timeout \(--timeout, or the setting chaindeck\.requestTimeoutMs\)\.$/);
    // With a shared deadline the failure marks the whole operation as out of time.
    const shared = await failureOf(new RpcClient(open(node.url), { deadline: new Deadline(1500), retry: { retries: 2 } }).call('eth_blockNumber'));
    assert.equal(shared.outOfTime, true);
    node.seen.length = 0;
    node.script = (r, i) => (i === 0 ? { status: 503, headers: { 'Retry-After': '1' } } : { body: reply(r, { result: 'too early' }) });
    const refused = await failureOf(new RpcClient(open(node.url), { timeoutMs: 5000, retry: { retries: 1, maxDelayMs: 20 } }).call('eth_blockNumber'));
    assert.equal(refused.kind, 'server');
    assert.equal(refused.retryAfterMs, 1000);
    assert.doesNotMatch(refused.message, /Gave up/, 'a longer timeout would not help');
    assert.equal(node.seen.length, 1, 'not retried after 20 ms when the node asked for 1 s');
  });
});

describe('bodies that are not JSON-RPC, the cap, time and connection failures', () => {
  let node: ScriptedNode;
  let shown: string;
  const client = (timeoutMs = 3000) => new RpcClient(open(node.url), { timeoutMs, retry: { retries: 0 }, hints: CLI_HINTS });
  useScriptedNode(
    (started) => {
      node = started;
      shown = node.url;
    },
    () => setResponseLimitMB(64),
  );

  test('HTML, plain text, an empty body and a body without content type each say what came', async () => {
    const cases = [
      [
        { headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: '<!doctype html>\n<html>  <title>Login</title></html>' },
        'is not JSON (HTTP 200, an HTML page): "<!doctype html> <html> <title>Login</title></html>"',
      ],
      [{ headers: { 'Content-Type': 'text/plain' }, body: 'hello' }, 'is not JSON (HTTP 200, text/plain): "hello"'],
      [{ headers: { 'Content-Type': 'application/json' }, body: '' }, 'is not JSON (HTTP 200, application/json): an empty body'],
      [{ body: '<p>x</p>' }, 'is not JSON (HTTP 200, an HTML page): "<p>x</p>"'],
      [{ body: 'garbage' }, 'is not JSON (HTTP 200, no content type): "garbage"'],
    ] as const;
    for (const [answer, words] of cases) {
      node.script = () => answer;
      const problem = await failureOf(client().call('eth_blockNumber'));
      assert.equal(problem.kind, 'not-json');
      assert.equal(problem.status, 200);
      assert.equal(problem.message, `The reply from ${shown} ${words}. This does not look like a JSON-RPC endpoint; check the URL.`);
    }
    node.script = () => ({ headers: { 'Content-Type': 'text/plain' }, body: 'y'.repeat(200) });
    assert.ok((await failureOf(client().call('eth_blockNumber'))).message.includes(`"${'y'.repeat(80)}…"`));
  });

  test('the response cap: a body of exactly the cap is read, one byte more is refused', async () => {
    assert.equal(setResponseLimitMB(1), undefined);
    const cap = 1024 * 1024;
    const result = (size: number) => `{"jsonrpc":"2.0","id":1,"result":"${'a'.repeat(size - 36)}"}`;
    assert.equal(result(cap).length, cap);
    const tail =
      'refused without reading the rest. Ask the node for less (a narrower range, fewer results), or raise the cap with the setting chaindeck.maxResponseMB (CLI: the environment variable CHAINDECK_MAX_RESPONSE_MB).';
    // Streamed (chunked, no Content-Length) and announced, each at the cap and one byte over.
    for (const announce of [false, true]) {
      const answer = (size: number) => () => ({ headers: { 'Content-Type': 'application/json', ...(announce ? { 'Content-Length': String(size) } : {}) }, body: result(size) });
      node.script = answer(cap);
      assert.equal((await new RpcClient(open(node.url), { timeoutMs: 5000 }).call<string>('eth_blockNumber')).length, cap - 36);
      node.script = answer(cap + 1);
      const problem = await failureOf(new RpcClient(open(node.url), { timeoutMs: 5000, hints: CLI_HINTS }).call('eth_blockNumber'));
      assert.equal(problem.kind, 'too-large');
      assert.equal(problem.message, `The reply from ${shown} is larger than the 1 MiB response cap${announce ? ' (it announced 1.0 MiB)' : ''}: ${tail}`);
    }
    for (const bad of [0, 4097, 1.5, Number.NaN]) assert.equal(setResponseLimitMB(bad), `the response cap is a whole number of MiB from 1 to 4096, not ${JSON.stringify(bad)}`);
    assert.equal(setResponseLimitMB(4096), undefined);
  });

  test("a slow node: kind timeout at the call's limit with the exact words; the node answering later changes nothing", async () => {
    node.script = (r) => ({ delayMs: 8000, body: reply(r, { result: 'late' }) });
    const started = performance.now();
    const problem = await failureOf(client(200).call('eth_blockNumber'));
    assert.ok(performance.now() - started < 6000, 'ended by the 200 ms timeout, not by the answer');
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.outOfTime, false);
    assert.equal(problem.message, `No answer from ${shown} within 200 ms. ${SETTING_HINT}`);
    // A per-call timeout overrides the client's; a shared deadline names its own total.
    assert.match((await failureOf(client(5000).call('eth_blockNumber', [], { timeoutMs: 150 }))).message, /within 150 ms\./);
    const shared = await failureOf(new RpcClient(open(node.url), { deadline: new Deadline(250), timeoutMs: 5000 }).call('eth_blockNumber'));
    assert.equal(shared.kind, 'timeout');
    assert.equal(shared.outOfTime, true);
    assert.match(shared.message, /within 250 ms\./);
  });

  test('a cancelled call rejects as cancelled at once', async () => {
    node.script = () => ({ silent: true });
    const controller = new AbortController();
    const pending = failureOf(client(5000).call('eth_blockNumber', [], { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const problem = await pending;
    assert.equal(problem.kind, 'cancelled');
    assert.equal(problem.message, `The request to ${shown} was cancelled.`);
    assert.equal((await failureOf(client().call('eth_blockNumber', [], { signal: AbortSignal.abort() }))).kind, 'cancelled');
  });

  test('connection refused: kind unreachable, errno ECONNREFUSED, at once', async () => {
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const started = performance.now();
    const problem = await failureOf(new RpcClient(open(`http://127.0.0.1:${port}/`), { timeoutMs: 10_000 }).call('eth_blockNumber'));
    assert.ok(performance.now() - started < 5000, 'failed at once, not by the timeout');
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.errno, 'ECONNREFUSED');
    assert.equal(problem.message, `Cannot reach the node at http://127.0.0.1:${port}/: connection refused (ECONNREFUSED). Is the node running, and are the host and port right?`);
  });

  test('a URL that is not http(s) is refused as unreachable, its path masked', async () => {
    const problem = await failureOf(new RpcClient(open('ftp://127.0.0.1/x'), { timeoutMs: 1000 }).call('eth_blockNumber'));
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.errno, 'unknown');
    assert.equal(
      problem.message,
      'Cannot reach the node at ftp://127.0.0.1/***: the connection failed: HTTP requests need an http or https URL, not ftp. Check the URL, your network, and that the node is running.',
    );
  });
});

describe('keep-alive connections and spent deadlines', () => {
  let server: http.Server;
  let url: string;
  let requests = 0;
  before(async () => {
    // Answers the first request on each connection (keeping it open) and drops the connection
    // when a second one arrives on it, as a node closing an idle keep-alive connection does.
    server = http.createServer((req, res) => {
      requests++;
      const socket = req.socket as net.Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        if (socket.served! > 1) return socket.destroy();
        res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, result: `answer ${requests}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(() => {
    closeIdleConnections();
    requests = 0;
  });
  after(async () => {
    closeIdleConnections();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a read that meets a dropped keep-alive connection is sent again on a fresh one; a write is not', async () => {
    const client = new RpcClient(open(url), { timeoutMs: 3000, retry: { retries: 0 } });
    assert.equal(await client.call('eth_blockNumber'), 'answer 1');
    assert.equal(await client.call('eth_blockNumber'), 'answer 3', 'the reused connection dropped the 2nd request; the 3rd went on a new one');
    assert.equal(requests, 3);
    const write = await failureOf(client.call('eth_sendRawTransaction', ['0x00']));
    assert.equal(requests, 4, 'sent once, on the reused connection, and not again');
    assert.equal(write.kind, 'unreachable');
    assert.equal(write.errno, 'ECONNRESET');
    assert.equal(write.message, `Cannot reach the node at ${url}: the connection was reset before the node answered (ECONNRESET): the node, a proxy or a firewall closed it. Try again.`);
  });

  test('a deadline already spent fails at once without sending anything, marked out of time', async () => {
    const deadline = new Deadline(0);
    const problem = await failureOf(new RpcClient(open(url), { deadline, hints: CLI_HINTS }).call('eth_blockNumber'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.outOfTime, true);
    assert.equal(problem.message, `No answer from ${url} within 0 ms. ${SETTING_HINT}`);
    assert.equal(requests, 0);
    assert.equal(deadline.remainingMs(), 0);
    assert.equal(new Deadline(5000).limit(100), 100);
    assert.ok(new Deadline(50).limit(100) <= 50);
  });
});

describe('RpcClient: what goes on the wire and how replies are read', () => {
  let node: ScriptedNode;
  const client = (options: ConstructorParameters<typeof RpcClient>[1] = { timeoutMs: 3000, retry: { retries: 0 } }) => new RpcClient(open(node.url), options);

  useScriptedNode(
    (started) => {
      node = started;
    },
    () => {
      node.seen.length = 0;
      node.script = (r) => ({ body: reply(r, { result: '0x1' }) });
    },
  );

  test('a batch goes out as one POST', async () => {
    node.script = (r) => ({ body: (JSON.parse(r.body) as { id: number }[]).map((q) => ({ jsonrpc: '2.0', id: q.id, result: '0x1' })) });
    const items = await client().batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }]);
    assert.equal(items.length, 2);
    assert.equal(node.seen.length, 1);
    assert.equal(node.seen[0].method, 'POST');
  });

  test('a raw exchange is a POST of the payload by default', async () => {
    const got = await client().exchange({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' });
    assert.equal(got.status, 200);
    assert.equal(node.seen[0].method, 'POST');
    assert.equal(node.seen[0].body, '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}');
  });

  test('a 300 reply is an HTTP failure even with a JSON-RPC result in its body', async () => {
    node.script = (r) => ({ status: 300, body: reply(r, { result: '0x1' }) });
    const problem = await failureOf(client().call('eth_chainId'));
    assert.equal(problem.kind, 'http');
    assert.equal(problem.status, 300);
  });

  test('a raw exchange obeys the deadline the client shares with the whole command', async () => {
    node.script = () => ({ delayMs: 3000, body: '{}' });
    const started = Date.now();
    const problem = await failureOf(client({ timeoutMs: 5000, deadline: new Deadline(60) }).exchange('{}'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.outOfTime, true);
    assert.ok(Date.now() - started < 2000, 'cut by the 60 ms deadline, not the 3 s answer');
  });

  test('cancelling during the wait before a retry rejects at once as cancelled', async () => {
    const controller = new AbortController();
    // Cancelled once the first answer is out, i.e. during the 2 s wait before the retry (however slow the machine).
    node.script = () => {
      setTimeout(() => controller.abort(), 30);
      return { status: 503, headers: { 'Retry-After': '2' }, body: '' };
    };
    const started = Date.now();
    const problem = await failureOf(client({ timeoutMs: 5000, retry: { retries: 2 } }).call('eth_chainId', [], { signal: controller.signal }));
    assert.equal(problem.kind, 'cancelled');
    assert.equal(problem.message, `The request to ${node.url} was cancelled.`);
    assert.ok(Date.now() - started < 1500, 'not after the 2 s wait');
    assert.equal(node.seen.length, 1);
  });
});

describe('RpcClient against a server that answers with a status below 200', () => {
  test('status 099 is not success: the call fails as HTTP even with a JSON-RPC result in the body', async () => {
    const server = net.createServer((socket) => {
      socket.on('data', () => socket.end('HTTP/1.1 099 Odd\r\nContent-Type: application/json\r\nContent-Length: 37\r\n\r\n{"jsonrpc":"2.0","id":1,"result":"1"}'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
      const problem = await failureOf(new RpcClient(open(url), { timeoutMs: 3000, retry: { retries: 0 } }).call('eth_chainId'));
      assert.equal(problem.kind, 'http');
      assert.equal(problem.status, 99);
    } finally {
      closeIdleConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('checkParams and joinPath', () => {
  test('params that are neither array nor object are refused with a message naming their type', () => {
    assert.deepEqual(checkParams(undefined), []);
    assert.throws(() => checkParams(42), { message: 'Params must be a JSON array (positional) or a JSON object (named), not number.' });
    assert.throws(() => checkParams(null), { message: 'Params must be a JSON array (positional) or a JSON object (named), not null.' });
  });

  test('only the leading slashes of a REST path are dropped; a double slash inside it stays', () => {
    assert.equal(joinPath('http://h.test/KEY/', '//eth/v1//node'), 'http://h.test/KEY/eth/v1//node');
    assert.equal(joinPath('http://h.test/KEY', 'eth//v1?x=1'), 'http://h.test/KEY/eth//v1?x=1');
  });
});
