import assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import * as tls from 'node:tls';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { httpFailure, networkFailure, notJsonFailure, notWebSocketFailure, quoteStart, RpcFailure, timeoutFailure, type FailureContext } from '../../../../src/core/rpc/failure';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelay } from '../../../../src/core/rpc/retry';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const keyCtx: FailureContext = { url: `https://eth.example.com/${KEY}`, auth: 'key', secrets: [KEY], timeoutMs: 1500, hints: CLI_HINTS };

/** Error objects shaped as Node's net and tls layers raise them. */
function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

test('each unreachable cause has its own message, with the URL redacted', () => {
  const cases: [string, RegExp][] = [
    ['ECONNREFUSED', /connection refused \(ECONNREFUSED\)\. Is the node running/],
    ['ENOTFOUND', /host name eth\.example\.com was not found \(ENOTFOUND\)/],
    ['EHOSTUNREACH', /no route to eth\.example\.com \(EHOSTUNREACH\)/],
    ['ECONNRESET', /reset before the node answered \(ECONNRESET\)/],
  ];
  for (const [code, message] of cases) {
    const f = networkFailure(systemError(code, `connect ${code}`), keyCtx);
    assert.equal(f.kind, 'unreachable');
    assert.match(f.message, message);
    assert.ok(f.message.includes('https://eth.example.com/***') && !f.message.includes(KEY), f.message);
  }
  const aggregate = Object.assign(new AggregateError([systemError('ECONNREFUSED', 'a'), systemError('ECONNREFUSED', 'b')]), {});
  assert.equal(networkFailure(aggregate, keyCtx).errno, 'ECONNREFUSED', 'happy-eyeballs errors carry the code inside');
});

test('certificate and handshake errors are TLS failures that say so', () => {
  for (const [code, text] of [
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    ['CERT_HAS_EXPIRED', 'certificate has expired'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"],
    ['EPROTO', 'write EPROTO C0A7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'],
  ]) {
    const f = networkFailure(systemError(code, text), keyCtx);
    assert.equal(f.kind, 'tls', code);
    assert.match(f.message, /^TLS failure talking to https:\/\/eth\.example\.com\/\*\*\*: /);
    assert.match(f.message, /certificate is not trusted or the TLS handshake failed/);
  }
});

test('a reset during the TLS handshake keeps its TLS hint, though its code is ECONNRESET', async () => {
  // The real error: Node's TLS client against a loopback server that drops every connection.
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as net.AddressInfo;
    const err = await new Promise<Error>((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost' });
      socket.on('error', resolve);
      socket.on('secureConnect', () => resolve(new Error('the handshake succeeded')));
    });
    assert.equal((err as NodeJS.ErrnoException).code, 'ECONNRESET', err.message);
    const f = networkFailure(err, keyCtx);
    assert.equal(f.kind, 'tls', f.message);
    assert.match(f.message, /^TLS failure talking to https:\/\/eth\.example\.com\/\*\*\*: .*\(ECONNRESET\)/);
  } finally {
    server.close();
  }
});

test('401 and 403 name the auth form that was used', () => {
  const forms = { key: 'access key in the URL path', basic: 'HTTP Basic username and password', none: 'no credentials' } as const;
  for (const [auth, words] of Object.entries(forms)) {
    for (const status of [401, 403]) {
      const f = httpFailure({ status, statusText: status === 401 ? 'Unauthorized' : 'Forbidden', text: '' }, { ...keyCtx, auth: auth as keyof typeof forms });
      assert.equal(f.kind, 'auth');
      assert.equal(f.status, status);
      assert.ok(f.message.includes(`Credentials used: ${words}.`), f.message);
    }
  }
});

test('429 mentions Retry-After only when the node sent one; 5xx and others differ', () => {
  const limited = httpFailure({ status: 429, statusText: 'Too Many Requests', text: '' }, keyCtx, 3000);
  assert.equal(limited.kind, 'rate-limited');
  assert.match(limited.message, /wait 3 s \(Retry-After\)/);
  assert.ok(!httpFailure({ status: 429, statusText: '', text: '' }, keyCtx).message.includes('Retry-After'));
  const server = httpFailure({ status: 502, statusText: 'Bad Gateway', text: 'upstream connect error' }, keyCtx);
  assert.equal(server.kind, 'server');
  assert.match(server.message, /The node's server failed \(HTTP 502 Bad Gateway from https:\/\/eth\.example\.com\/\*\*\*\): "upstream connect error"/);
  const other = httpFailure({ status: 404, statusText: 'Not Found', text: '' }, keyCtx);
  assert.equal(other.kind, 'http');
  assert.match(other.message, /Unexpected HTTP 404 Not Found/);
  const rpcIn400 = httpFailure({ status: 400, statusText: 'Bad Request', text: '' }, keyCtx, undefined, { code: -32700, message: 'Parse error' });
  assert.equal(rpcIn400.kind, 'rpc');
  assert.equal(rpcIn400.message, 'JSON-RPC error -32700: Parse error');
});

test('HTML and garbage bodies are quoted (first ~80 characters) and called not JSON-RPC', () => {
  const html = `<!DOCTYPE html><html><head><title>Welcome</title></head><body>${'x'.repeat(200)}</body></html>`;
  const f = notJsonFailure({ status: 200, contentType: 'text/html; charset=utf-8', text: html }, keyCtx);
  assert.equal(f.kind, 'not-json');
  assert.match(f.message, /is not JSON \(HTTP 200, an HTML page\): "<!DOCTYPE html><html><head><title>Welcome/);
  assert.match(f.message, /…"\. This does not look like a JSON-RPC endpoint/);
  const quoted = /: (".*")\. This/.exec(f.message)![1];
  assert.ok(JSON.parse(quoted).length <= 81, 'the quote is cut at 80 characters');
  assert.match(notJsonFailure({ status: 200, contentType: '', text: '' }, keyCtx).message, /an empty body/);
});

test('a timeout says the limit and the setting that raises it', () => {
  const f = timeoutFailure(keyCtx);
  assert.equal(f.kind, 'timeout');
  assert.match(f.message, /within 1500 ms\. Raise the limit with the setting chaindeck\.requestTimeoutMs/);
});

test('node messages that echo a secret are scrubbed', () => {
  const f = httpFailure({ status: 500, statusText: 'Internal Server Error', text: `key ${KEY} is over quota` }, keyCtx);
  assert.equal(f.kind, 'server');
  assert.equal(f.status, 500);
  assert.ok(!f.message.includes(KEY));
});

test('Retry-After: seconds or an HTTP date; unreadable values are ignored', () => {
  assert.equal(parseRetryAfter('2'), 2000);
  assert.equal(parseRetryAfter(' 0.5 '), 500);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
});

test('backoff doubles with jitter, is capped, and follows a capped Retry-After', () => {
  const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(
    retryDelay(0, policy, undefined, () => 0),
    50,
  );
  assert.equal(
    retryDelay(0, policy, undefined, () => 1),
    100,
  );
  assert.equal(
    retryDelay(2, policy, undefined, () => 1),
    400,
  );
  assert.equal(
    retryDelay(10, policy, undefined, () => 1),
    1000,
  );
  assert.equal(retryDelay(0, policy, 300), 300);
  assert.equal(retryDelay(0, policy, 3_600_000), 1000);
  assert.deepEqual([429, 500, 503, 599, 400, 401, 404].map(isRetryableStatus), [true, true, true, true, false, false, false]);
});

const ctx: FailureContext = { url: `https://eth.example.com/${KEY}`, auth: 'key', secrets: [KEY], timeoutMs: 1500 };
const shown = 'https://eth.example.com/***';

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
