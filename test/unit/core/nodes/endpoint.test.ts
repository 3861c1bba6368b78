/**
 * endpointFromUrl, the one way a URL given by hand (the CLI's --rpc, the local node's chain)
 * becomes an endpoint: its secret end and Basic credentials where a client sends them, every
 * secret listed for redaction, its errors redacted; and the URL with userinfo gnd is given.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EndpointError, endpointFromUrl, urlWithUserinfo, parseEndpoint, registerUrlEndpoint, resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { redactText } from '../../../../src/core/redact';

const KEY = 'abcdef0123456789abcdef0123456789';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

test('a key in the path: the URL called as given, the key secret, no header', () => {
  const e = endpointFromUrl(`https://ethereum-mainnet.core.example.com/${KEY}`);
  assert.equal(e.httpUrl, `https://ethereum-mainnet.core.example.com/${KEY}`);
  assert.equal(e.wsUrl, `wss://ethereum-mainnet.core.example.com/ws/${KEY}`);
  assert.deepEqual(e.headers, {});
  assert.equal(e.auth, 'key');
  assert.equal(e.isWs, false);
  assert.ok(e.secrets.includes(KEY));
  assert.deepEqual(e.publicUrls, []);
});

test('the same endpoint a stored node of that URL resolves to', () => {
  const url = `https://polygon-mainnet.core.example.com/${KEY}/v1?token=t0ken`;
  const parsed = parseEndpoint(url);
  const stored = resolveEndpoint({ id: 'n', name: 'n', protocol: parsed.protocol, url: parsed.url, wsUrl: parsed.wsUrl, auth: parsed.auth }, parsed.secret);
  const e = endpointFromUrl(url);
  assert.deepEqual({ httpUrl: e.httpUrl, wsUrl: e.wsUrl, headers: e.headers, auth: e.auth }, { httpUrl: stored.httpUrl, wsUrl: stored.wsUrl, headers: stored.headers, auth: stored.auth });
  for (const s of stored.secrets) assert.ok(e.secrets.includes(s), s);
  // `v1` is too short to mask anywhere: masked where it stands whole or in a URL.
  assert.ok(e.wholeSecrets.includes('v1'));
});

test('ws:// and wss://: reached over WebSocket', () => {
  const e = endpointFromUrl(`wss://ethereum-mainnet.core.example.com/ws/${KEY}`);
  assert.equal(e.isWs, true);
  assert.equal(e.wsUrl, `wss://ethereum-mainnet.core.example.com/ws/${KEY}`);
  assert.equal(endpointFromUrl('ws://127.0.0.1:8545').isWs, true);
});

test('user:password@ in the URL: sent as HTTP Basic, never in the URL; the password and the userinfo as written are secret', () => {
  const e = endpointFromUrl('http://chainuser:p%40ss%3Aw0rd@127.0.0.1:8545/v1');
  assert.equal(e.httpUrl, 'http://127.0.0.1:8545/v1');
  assert.equal(e.auth, 'basic');
  assert.equal(e.headers.Authorization, basic('chainuser', 'p@ss:w0rd'));
  for (const s of ['p@ss:w0rd', 'p%40ss%3Aw0rd', 'chainuser', basic('chainuser', 'p@ss:w0rd').slice(6)]) assert.ok(e.secrets.includes(s), s);
});

test('Basic given apart goes with a key in the path; given twice (in the URL too) or with an unusable username, refused', () => {
  const e = endpointFromUrl(`https://nd-123.p2pify.com/${KEY}`, { username: 'alice', password: 'Pw-1' });
  assert.equal(e.httpUrl, `https://nd-123.p2pify.com/${KEY}`);
  assert.equal(e.headers.Authorization, basic('alice', 'Pw-1'));
  assert.ok(e.secrets.includes('Pw-1') && e.secrets.includes(KEY));
  assert.throws(
    () => endpointFromUrl('https://bob:Secret-99@nd-123.p2pify.com/', { username: 'alice', password: 'x' }),
    (err: Error) => err instanceof EndpointError && /give the credentials once/.test(err.message) && !err.message.includes('Secret-99'),
  );
  assert.throws(() => endpointFromUrl('https://nd-123.p2pify.com/', { username: 'a:b', password: 'x' }), /A username cannot contain ':'/);
  assert.throws(() => endpointFromUrl('https://nd-123.p2pify.com/', { username: '', password: 'x' }), /A username is needed/);
});

test('a public path: kept and shown, only the query secret', () => {
  const e = endpointFromUrl('http://127.0.0.1:8545/rpc?key=Qk3y-secret', { publicPath: true });
  assert.equal(e.httpUrl, 'http://127.0.0.1:8545/rpc?key=Qk3y-secret');
  assert.ok(e.secrets.includes('?key=Qk3y-secret'));
  assert.ok(!e.secrets.includes('rpc'));
  assert.deepEqual(e.publicUrls, ['http://127.0.0.1:8545/rpc', 'ws://127.0.0.1:8545/rpc']);
});

test('what is no endpoint is refused by the rules of a pasted one, the URL echoed redacted', () => {
  for (const [url, message] of [
    [`ftp://node.example/${KEY}`, /Unsupported scheme 'ftp'/],
    [`127.0.0.1:8545/${KEY}`, /is not a URL/],
    [`https://h.example/${KEY}#frag`, /has a #fragment/],
    [`https://h.example/${KEY} x`, /has no spaces/],
    [`https://:${KEY}@h.example/`, /has a password but no username/],
  ] as const) {
    assert.throws(
      () => endpointFromUrl(url),
      (err: Error) => err instanceof EndpointError && message.test(err.message) && !err.message.includes(KEY),
      url,
    );
  }
});

test('registered, its secrets are masked in all text and its public URLs shown', () => {
  const e = endpointFromUrl('http://gnduser:Gnd-pa55@127.0.0.1:8545/k3yPathSecret/v2?token=t0kenSecret');
  registerUrlEndpoint(e);
  const echoed = redactText('Creating transport, url: 127.0.0.1:8545/k3yPathSecret/v2?token=t0kenSecret, user: gnduser, password Gnd-pa55, auth v2');
  for (const secret of ['k3yPathSecret', 't0kenSecret', 'gnduser', 'Gnd-pa55']) assert.ok(!echoed.includes(secret), echoed);
  assert.ok(echoed.endsWith('auth v2'), 'a short segment is masked only where it stands whole');
  registerUrlEndpoint(endpointFromUrl('http://127.0.0.1:9545/public-route', { publicPath: true }));
  assert.equal(redactText('at http://127.0.0.1:9545/public-route'), 'at http://127.0.0.1:9545/public-route');
});

test('urlWithUserinfo: the Basic credentials back in the URL (HTTP or WebSocket), for gnd or a copy; read back, the same endpoint', () => {
  const e = endpointFromUrl(`https://nd-123.p2pify.com/${KEY}`, { username: 'alice', password: 'p@ss:/w?rd' });
  const withUserinfo = urlWithUserinfo(e);
  assert.equal(withUserinfo, `https://alice:p%40ss%3A%2Fw%3Frd@nd-123.p2pify.com/${KEY}`);
  const back = endpointFromUrl(withUserinfo);
  assert.equal(back.httpUrl, e.httpUrl);
  assert.deepEqual(back.headers, e.headers);
  assert.equal(urlWithUserinfo(e, 'ws'), `wss://alice:p%40ss%3A%2Fw%3Frd@nd-123.p2pify.com/ws/${KEY}`);
  assert.equal(urlWithUserinfo(endpointFromUrl('http://127.0.0.1:8545')), 'http://127.0.0.1:8545/');
  assert.equal(urlWithUserinfo(endpointFromUrl(`wss://h.example/ws/${KEY}`), 'ws'), `wss://h.example/ws/${KEY}`);
});

test('text that is no URL and does not start like one (a key given where the URL goes) is not quoted: nothing masks a bare key', () => {
  for (const [given, message] of [
    [KEY, 'What was given (not shown: it may be a key) is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
    [`javascript:alert('${KEY}')`, 'What was given (not shown: it may be a key) is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
    [`${KEY} x`, 'An endpoint URL has no spaces.'],
    [`${KEY}\\x`, 'An endpoint URL has no backslash (\\).'],
    // What starts like a URL is quoted, redacted, so the user sees what is missing.
    [`node.example.com:8545/${KEY}`, 'node.example.com:8545/*** is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
    [`localhost/${KEY}`, 'localhost/*** is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
    [`me:${KEY}@127.0.0.1/x`, '***@127.0.0.1/*** is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
  ]) {
    assert.throws(
      () => endpointFromUrl(given),
      (e: unknown) => e instanceof EndpointError && e.message === message,
      given,
    );
  }
});

test('a key with characters a client percent-encodes (a quote, <, non-ASCII) is masked as the node sees it and echoes it too', () => {
  for (const [key, sent] of [
    ['Kq"9<key>0123456', 'Kq%229%3Ckey%3E0123456'],
    ['Kqé9key0123456', 'Kq%C3%A99key0123456'],
  ]) {
    const e = endpointFromUrl(`https://h.example.com/${key}?t=${key}`);
    registerUrlEndpoint(e);
    for (const echo of [`bad key /${sent}`, `token ${sent} refused`, `https://h.example.com/${sent}`]) {
      const shown = redactText(echo);
      assert.ok(!shown.includes(sent), `${JSON.stringify(key)}: ${shown}`);
    }
  }
});

test('a URL with a control character (an escape sequence copied from a terminal) is refused, not sent percent-encoded', () => {
  for (const url of [`https://h.example.com/${KEY}\x1b[0m`, `https://h.example.com/\x00${KEY}`, `https://h.example.com/${KEY}?t=\x7f`]) {
    assert.throws(
      () => endpointFromUrl(url),
      (e: unknown) =>
        e instanceof EndpointError &&
        /^An endpoint URL has no control characters \(an escape sequence copied from a terminal\?\): https:\/\/h\.example\.com\//.test(e.message) &&
        !e.message.includes(KEY),
      JSON.stringify(url),
    );
  }
});
