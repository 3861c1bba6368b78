/**
 * Edges of the secret-URL rule not pinned by nodes.endpoint and nodes.secretUrl: ports and IPv6
 * hosts, trailing slashes and several path segments, the /ws route only as the first segment of
 * a ws(s) URL, the length bound at its exact edge, control characters in a username, loopback
 * hosts, and what a resolved endpoint sends and shows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicUsernameProblem, deriveWsUrl, displayUrl, EndpointError, isLoopback, MAX_ENDPOINT_LENGTH, parseEndpoint, resolveEndpoint } from '../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER } from '../../src/core/nodes/model';
import { nodeConfig, roundTrip } from '../support/endpoints';

const K = KEY_PLACEHOLDER;
const node = nodeConfig;

test('ports and IPv6 hosts stay in the URL; only the path after them is the secret', () => {
  const cases: [string, string, string, string][] = [
    // pasted, settings url, settings wsUrl, tail
    ['https://h.example.com:8443/abc', `https://h.example.com:8443/${K}`, `wss://h.example.com:8443/ws/${K}`, 'abc'],
    ['http://[::1]:8545/abc', `http://[::1]:8545/${K}`, `ws://[::1]:8545/${K}`, 'abc'],
    ['https://[2001:db8::1]/abc', `https://[2001:db8::1]/${K}`, `wss://[2001:db8::1]/ws/${K}`, 'abc'],
    ['wss://[2001:db8::1]:9443/ws/abc', `https://[2001:db8::1]:9443/${K}`, `wss://[2001:db8::1]:9443/ws/${K}`, 'abc'],
  ];
  for (const [pasted, url, wsUrl, tail] of cases) {
    const { p, r } = roundTrip(pasted);
    assert.equal(p.url, url, pasted);
    assert.equal(p.wsUrl, wsUrl, pasted);
    assert.deepEqual(p.secret, { tail }, pasted);
    assert.equal(p.auth, 'key', pasted);
    assert.equal(pasted.startsWith('ws') ? r.wsUrl : r.httpUrl, pasted);
  }
  const bare = roundTrip('http://[::1]:8545');
  assert.equal(bare.p.auth, 'none');
  assert.equal(bare.p.url, 'http://[::1]:8545/');
  assert.equal(bare.r.wsUrl, 'ws://[::1]:8545/');
});

test('trailing slashes and several segments are part of the tail, verbatim', () => {
  for (const [pasted, tail] of [
    ['https://h.example.com/abc/', 'abc/'],
    ['https://h.example.com/v1/abc//', 'v1/abc//'],
    ['https://h.example.com//abc', '/abc'],
    ['https://h.example.com/a%2Fb?x=1&y=2', 'a%2Fb?x=1&y=2'],
  ]) {
    const { p, r, config } = roundTrip(pasted);
    assert.equal(p.secret.tail, tail, pasted);
    assert.equal(p.url, `https://h.example.com/${K}`, pasted);
    assert.equal(p.secretPath, true, pasted);
    assert.equal(r.httpUrl, pasted);
    assert.equal(displayUrl(config), 'https://h.example.com/***');
  }
  // A public path keeps its trailing slash; only the query is secret.
  const pub = roundTrip('https://h.example.com/rpc/?k=abc', { publicPath: true });
  assert.equal(pub.p.url, `https://h.example.com/rpc/${K}`);
  assert.equal(pub.p.secret.tail, '?k=abc');
  assert.equal(pub.r.httpUrl, 'https://h.example.com/rpc/?k=abc');
  assert.equal(pub.p.secretPath, false);
  // A public path with no query has no secret at all.
  const open = parseEndpoint('https://h.example.com/rpc/', { publicPath: true });
  assert.equal(open.auth, 'none');
  assert.deepEqual(open.secret, {});
  assert.equal(open.url, 'https://h.example.com/rpc/');
});

test('/ws is the public route only as the first segment of a ws(s) URL', () => {
  const route = parseEndpoint('wss://h.example.com/ws/abc');
  assert.equal(route.secret.tail, 'abc');
  // Not first: /v1/ws/abc is all secret; the HTTP form then has no /ws to drop.
  const later = parseEndpoint('wss://h.example.com/v1/ws/abc');
  assert.equal(later.secret.tail, 'v1/ws/abc');
  assert.equal(later.url, `https://h.example.com/${K}`);
  assert.equal(later.wsUrl, `wss://h.example.com/${K}`);
  // Not exactly "ws": a segment like wsx or WS is a secret like any other.
  assert.equal(parseEndpoint('wss://h.example.com/wsx/abc').secret.tail, 'wsx/abc');
  assert.equal(parseEndpoint('wss://h.example.com/WS/abc').secret.tail, 'WS/abc');
  // On http(s), a first segment "ws" is a secret too.
  const http = parseEndpoint('https://h.example.com/ws/abc');
  assert.equal(http.secret.tail, 'ws/abc');
  assert.equal(http.wsUrl, `wss://h.example.com/ws/${K}`);
  // The route alone is no secret.
  const alone = parseEndpoint('wss://h.example.com/ws');
  assert.equal(alone.auth, 'none');
  assert.equal(alone.url, 'https://h.example.com/');
  assert.equal(alone.wsUrl, 'wss://h.example.com/ws');
});

test('the length bound is exact: 4096 characters are parsed, 4097 refused (after trimming)', () => {
  const base = 'https://h.example.com/';
  const exact = base + 'k'.repeat(MAX_ENDPOINT_LENGTH - base.length);
  assert.equal(exact.length, 4096);
  assert.equal(parseEndpoint(`  ${exact}\n`).secret.tail?.length, MAX_ENDPOINT_LENGTH - base.length);
  assert.throws(
    () => parseEndpoint(`${exact}k`),
    (e: unknown) => e instanceof EndpointError && e.message === 'An endpoint URL is at most 4096 characters; this one has 4097.',
  );
});

test('a username with a control character is refused; DEL too; other characters pass', () => {
  for (const bad of ['a\u0000b', 'a\u001fb', 'a\u007fb', '\tab']) assert.equal(basicUsernameProblem(bad), 'A username cannot contain control characters.', JSON.stringify(bad));
  for (const ok of ['a b', 'ü', 'a\u0080b', 'a@b', ' ']) assert.equal(basicUsernameProblem(ok), undefined, JSON.stringify(ok));
  assert.throws(
    () => parseEndpoint('https://a%01b:pw@h.example.com/'),
    (e: unknown) => e instanceof EndpointError && e.message === 'https://***@h.example.com/: A username cannot contain control characters.',
  );
  assert.throws(() => resolveEndpoint(node('https://h.example.com/', { auth: 'basic' }), { password: 'x' }), /none is stored/);
});

test('error texts for a refused paste say what is wrong, exactly, with the secret parts masked', () => {
  const cases: [string, string][] = [
    ['   ', "Paste the node's endpoint URL, e.g. https://ethereum-mainnet.core.example.com/<KEY>."],
    ['https://h.example.com/abc def', 'An endpoint URL has no spaces: https://h.example.com/***'],
    ['https://h.example.com/abc\\def', 'An endpoint URL has no backslash (\\): https://h.example.com/***\\***'],
    ['h.example.com/abc', 'h.example.com/*** is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'],
    ['ftp://u:p@h.example.com/abc?x', "Unsupported scheme 'ftp' in ftp://***@h.example.com/***?***: a node endpoint's scheme is https or wss (http or ws for a local node)."],
    ['https://h.example.com/abc#frag', 'https://h.example.com/***#*** has a #fragment: a node endpoint has none (a key goes in the path or the query).'],
    ['https://h.example.com/#', 'https://h.example.com/# has a #fragment: a node endpoint has none (a key goes in the path or the query).'],
    ['https://:pw@h.example.com/', 'https://***@h.example.com/ has a password but no username: HTTP Basic needs both (user:password@).'],
  ];
  for (const [pasted, message] of cases) {
    assert.throws(
      () => parseEndpoint(pasted),
      (e: unknown) => e instanceof EndpointError && e.message === message,
      pasted,
    );
  }
});

test('isLoopback: localhost, 127.x.x.x, [::1] and 0.0.0.0; look-alikes are not', () => {
  for (const url of [
    'http://localhost:8545',
    'http://LOCALHOST/',
    'http://127.0.0.1:8545/',
    'http://127.255.0.9/',
    'http://[::1]:8545/',
    'http://0.0.0.0:8545/',
    `http://127.0.0.1:8545/${K}`,
  ]) {
    assert.equal(isLoopback(url), true, url);
  }
  for (const url of [
    'http://128.0.0.1/',
    'http://127.0.0.1.example.com/',
    'http://localhost.example.com/',
    'http://[::2]/',
    'http://10.0.0.1/',
    'not a url',
    'http://user@example.com/127.0.0.1',
  ]) {
    assert.equal(isLoopback(url), false, url);
  }
});

test('deriveWsUrl keeps port, path and query; refuses what is not http(s)', () => {
  assert.equal(deriveWsUrl(`https://h.example.com:8443/${K}?x=1`), `wss://h.example.com:8443/ws/${K}?x=1`);
  assert.equal(deriveWsUrl('https://h.example.com'), 'wss://h.example.com/ws');
  assert.equal(deriveWsUrl('https://h.example.com//a'), 'wss://h.example.com/ws/a');
  assert.equal(deriveWsUrl('HTTP://127.0.0.1:8545?x=1'), 'ws://127.0.0.1:8545/?x=1');
  assert.throws(
    () => deriveWsUrl('ws://h.example.com/abc'),
    (e: unknown) => e instanceof EndpointError && e.message === 'Cannot derive a WebSocket URL from ws://h.example.com/***: it is not an http or https URL.',
  );
});

test('a resolved endpoint: the key filled in both URLs, Basic without a password, no headers for a key', () => {
  const r = resolveEndpoint(node(`https://h.example.com:8443/${K}`, { auth: 'key' }), { tail: 'abc?token=zzzzzzzzzz' });
  assert.equal(r.httpUrl, 'https://h.example.com:8443/abc?token=zzzzzzzzzz');
  assert.equal(r.wsUrl, 'wss://h.example.com:8443/ws/abc?token=zzzzzzzzzz');
  assert.deepEqual(r.headers, {});
  assert.equal(r.auth, 'key');
  const basic = resolveEndpoint(node('https://h.example.com/', { auth: 'basic' }), { username: 'alice' });
  assert.equal(basic.headers.Authorization, `Basic ${Buffer.from('alice:').toString('base64')}`);
  assert.deepEqual(basic.secrets, [Buffer.from('alice:').toString('base64')]);
  assert.throws(
    () => resolveEndpoint(node('https://h.example.com/', { name: 'mine', auth: 'key' }), { tail: 'x' }),
    (e: unknown) => e instanceof EndpointError && e.message === `Node 'mine' uses an access key but its URL has no ${K} where the key goes.`,
  );
  assert.deepEqual(resolveEndpoint(node('http://127.0.0.1:8545/'), {}), { httpUrl: 'http://127.0.0.1:8545/', wsUrl: 'ws://127.0.0.1:8545/', headers: {}, auth: 'none', secrets: [] });
});
