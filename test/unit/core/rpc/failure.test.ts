import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as tls from 'node:tls';
import { httpFailure, networkFailure, notJsonFailure, timeoutFailure, type FailureContext } from '../../../../src/core/rpc/failure';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelay } from '../../../../src/core/rpc/retry';
import { CLI_HINTS } from '../../../../src/cli/knobs';

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
