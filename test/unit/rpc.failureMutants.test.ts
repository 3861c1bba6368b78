/**
 * The exact words of node-call failures (hints for timeouts, HTTP statuses, network and TLS errors,
 * WebSocket upgrades), Retry-After parsing, and the JSON-RPC envelope checks that decide which
 * replies are responses and which answer belongs to which request: the edges the other rpc tests
 * leave open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpFailure, networkFailure, notJsonFailure, notWebSocketFailure, quoteStart, RpcFailure, timeoutFailure, type FailureContext } from '../../src/core/rpc/failure';
import { checkSingle, isResponse, makeRequest, matchBatch } from '../../src/core/rpc/jsonrpc';
import { parseRetryAfter } from '../../src/core/rpc/retry';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const ctx: FailureContext = { url: `https://eth.example.com/${KEY}`, auth: 'key', secrets: [KEY], timeoutMs: 1500 };
const shown = 'https://eth.example.com/***';

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

test('a failure is named RpcFailure when printed', () => {
  const f = timeoutFailure(ctx);
  assert.ok(f instanceof RpcFailure);
  assert.equal(f.name, 'RpcFailure');
  assert.ok(String(f).startsWith('RpcFailure: No answer from '), String(f));
});

test('a request timeout is not out of time unless the caller says the whole deadline is spent', () => {
  assert.equal(timeoutFailure(ctx).outOfTime, false);
  assert.equal(timeoutFailure(ctx, true).outOfTime, true);
});

test('quoteStart cuts only bodies longer than the limit', () => {
  assert.equal(quoteStart('a'.repeat(80)), JSON.stringify('a'.repeat(80)));
  assert.equal(quoteStart('a'.repeat(81)), JSON.stringify(`${'a'.repeat(80)}…`));
  assert.equal(quoteStart('  x\n\t y  '), '"x y"');
});

test('a non-JSON reply is called an HTML page only when it starts with < or says html', () => {
  const page = notJsonFailure({ status: 200, contentType: 'text/plain', text: '  <html><body>hi</body></html>' }, ctx);
  assert.equal(page.message, `The reply from ${shown} is not JSON (HTTP 200, an HTML page): "<html><body>hi</body></html>". This does not look like a JSON-RPC endpoint; check the URL.`);
  const plain = notJsonFailure({ status: 200, contentType: 'text/plain', text: 'a < b' }, ctx);
  assert.equal(plain.message, `The reply from ${shown} is not JSON (HTTP 200, text/plain): "a < b". This does not look like a JSON-RPC endpoint; check the URL.`);
  const blank = notJsonFailure({ status: 502, contentType: '', text: ' \n ' }, ctx);
  assert.equal(blank.message, `The reply from ${shown} is not JSON (HTTP 502, no content type): an empty body. This does not look like a JSON-RPC endpoint; check the URL.`);
});

test('HTTP failures without a status text or body say nothing more than the status', () => {
  const notFound = httpFailure({ status: 404, statusText: '', text: '' }, ctx);
  assert.equal(notFound.message, `Unexpected HTTP 404 from ${shown}. Check the URL: a JSON-RPC endpoint answers POST requests with HTTP 200.`);
  const limited = httpFailure({ status: 429, statusText: 'Too Many Requests', text: '' }, ctx);
  assert.equal(limited.message, `Rate limited by the node (HTTP 429 Too Many Requests from ${shown}). Slow down, or send calls in batches.`);
  const server = httpFailure({ status: 500, statusText: 'Internal Server Error', text: '  \n' }, ctx);
  assert.equal(server.message, `The node's server failed (HTTP 500 Internal Server Error from ${shown}). Try again later; if it persists, check the node's status in the console.`);
});

test('each remaining network cause has its own hint', () => {
  const cases: [string, string][] = [
    ['EAI_AGAIN', 'the host name eth.example.com could not be looked up (EAI_AGAIN). Check your network or DNS.'],
    ['ENETUNREACH', 'the network is unreachable (ENETUNREACH). Check your network, VPN or firewall.'],
    ['ETIMEDOUT', 'connecting to eth.example.com timed out (ETIMEDOUT). Check your network, VPN or firewall.'],
    ['EPIPE', 'the connection was closed while the request was being sent (EPIPE). Try again.'],
    ['EPROTONOSUPPORT', 'the connection failed (EPROTONOSUPPORT). Check the URL, your network, and that the node is running.'],
  ];
  for (const [code, reason] of cases) {
    const f = networkFailure(systemError(code, `connect ${code}`), ctx);
    assert.equal(f.kind, 'unreachable', code);
    assert.equal(f.message, `Cannot reach the node at ${shown}: ${reason}`);
  }
});

test('a reply that is not HTTP asks about WebSocket only for ws:// and wss:// URLs', () => {
  const http = networkFailure(systemError('HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/'), { ...ctx, url: 'http://127.0.0.1:8545/news:1' });
  assert.ok(http.message.endsWith(": the server's answer is not valid HTTP (HPE_INVALID_CONSTANT): is this the node's endpoint, with the right port and scheme?"), http.message);
  const ws = networkFailure(systemError('HPE_INVALID_CONSTANT', 'Parse Error'), { ...ctx, url: 'ws://127.0.0.1:8546' });
  assert.match(ws.message, /with the right port and scheme, and does it speak WebSocket\?$/);
});

test('an error without a system code gives its own words, without a final full stop', () => {
  const f = networkFailure(new Error('The URL example.com has no scheme.'), ctx);
  assert.equal(f.message, `Cannot reach the node at ${shown}: the connection failed: The URL example.com has no scheme. Check the URL, your network, and that the node is running.`);
  const bare = networkFailure(new Error(''), ctx);
  assert.equal(bare.message, `Cannot reach the node at ${shown}: the connection failed. Check the URL, your network, and that the node is running.`);
});

test('TLS failures quote OpenSSL text without its error prefix, on one line, at most 160 characters', () => {
  const tail = 'SSL routines:tls_post_process_server_certificate:certificate verify failed';
  const openssl = networkFailure(systemError('EPROTO', `write EPROTO 40E7B8F3A97F0000:error:0A000086:${tail}\nsecond line`), ctx);
  assert.equal(openssl.kind, 'tls');
  assert.ok(openssl.message.startsWith(`TLS failure talking to ${shown}: ${tail} (EPROTO). The certificate is not trusted`), openssl.message);
  const plain = networkFailure(systemError('EPROTO', 'write EPROTO 1234:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'), ctx);
  assert.ok(plain.message.startsWith(`TLS failure talking to ${shown}: the server did not answer with TLS (is it a plain http endpoint?) (EPROTO).`), plain.message);
  const inner = networkFailure(systemError('EPROTO', 'tls: handshake 40E7:error:0A000086:SSL routines'), ctx);
  assert.ok(inner.message.includes(': tls: handshake 40E7:error:0A000086:SSL routines (EPROTO).'), 'only a leading OpenSSL prefix is cut: ' + inner.message);
  const exact = 'x'.repeat(160);
  assert.ok(networkFailure(systemError('CERT_HAS_EXPIRED', exact), ctx).message.includes(`: ${exact} (CERT_HAS_EXPIRED).`));
  const long = networkFailure(systemError('CERT_HAS_EXPIRED', 'y'.repeat(200)), ctx);
  assert.ok(long.message.includes(`: ${'y'.repeat(160)}… (CERT_HAS_EXPIRED).`), long.message);
  const short = networkFailure(systemError('CERT_HAS_EXPIRED', 'certificate has expired'), ctx);
  assert.ok(short.message.includes(': certificate has expired (CERT_HAS_EXPIRED).'), short.message);
});

test('a WebSocket URL answered with plain HTTP shows the status, and its text only when given', () => {
  const bare = notWebSocketFailure({ status: 404, statusText: '' }, { ...ctx, url: `wss://eth.example.com/${KEY}` });
  assert.equal(
    bare.message,
    "wss://eth.example.com/*** answered HTTP 404 instead of upgrading to WebSocket: is this the node's WebSocket endpoint? (It often differs from the HTTPS endpoint by port or path.)",
  );
  assert.equal(bare.status, 404);
});

test('Retry-After accepts fractional seconds with several decimals', () => {
  assert.equal(parseRetryAfter('1.25', 0), 1250);
  assert.equal(parseRetryAfter('2.5', 0), 2500);
});

test('only objects with a numeric code and a string message are JSON-RPC errors', () => {
  assert.equal(isResponse(null), false);
  assert.equal(isResponse({ jsonrpc: '2.0', id: 1, error: { code: '-32000', message: 'boom' } }), false);
  assert.equal(isResponse({ jsonrpc: '2.0', id: 1, error: { code: -32000 } }), false);
  assert.equal(isResponse({ jsonrpc: '2.0', id: 1, result: '0x1', error: 'boom' }), false);
  assert.equal(isResponse({ jsonrpc: '2.0', id: 1, result: '0x1', error: null }), true);
});

test('an error reply with another (non-null) id is a mismatch, not an answer', () => {
  const request = makeRequest(5, { method: 'eth_blockNumber' });
  assert.throws(
    () => checkSingle(request, { jsonrpc: '2.0', id: 6, error: { code: -32000, message: 'boom' } }, ctx),
    (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch',
  );
});

test('a batch answered with one plain response says what came back, cut to 80 characters', () => {
  const sent = [makeRequest(1, { method: 'eth_chainId' }), makeRequest(2, { method: 'eth_blockNumber' })];
  const reply = { jsonrpc: '2.0', id: 1, result: `0x${'f'.repeat(100)}` };
  assert.throws(
    () => matchBatch(sent, reply, ctx),
    (err: unknown) =>
      err instanceof RpcFailure &&
      err.kind === 'mismatch' &&
      err.message === `The node answered a batch of 2 calls with something other than a JSON array: ${JSON.stringify(reply).slice(0, 80)}`,
  );
});

test('batch elements that are not responses are ignored, and the first answer for an id wins', () => {
  const sent = [makeRequest(7, { method: 'eth_chainId' }), makeRequest(8, { method: 'eth_blockNumber' })];
  const items = matchBatch(sent, [null, { id: 8, foo: 1 }, { jsonrpc: '2.0', id: 7, result: '0x1' }, { jsonrpc: '2.0', id: 7, result: '0x2' }], ctx);
  const [first, second] = items;
  assert.ok('result' in first, 'id 7 is answered');
  assert.equal(first.result, '0x1');
  assert.ok('error' in second, 'id 8 is not answered');
  assert.equal(second.error.kind, 'mismatch');
  assert.equal(second.error.message, "The node's batch reply has no answer for request id 8 (eth_blockNumber).");
});
