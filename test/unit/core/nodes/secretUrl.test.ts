/**
 * The rule that decides which part of a node URL is secret (redact.ts), at every edge, as the
 * endpoint parser, the resolver, the display and the settings migration apply it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  basicUsernameProblem,
  deriveWsUrl,
  displayUrl,
  EndpointError,
  isLoopback,
  MAX_ENDPOINT_LENGTH,
  moveSecretsOut,
  parseEndpoint,
  resolveEndpoint,
  settingsHoldSecret,
} from '../../../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER } from '../../../../src/core/nodes/model';
import { nodeConfig, roundTrip } from '../../../support/endpoints';

const node = nodeConfig;

test('whatever the secret looks like, settings get {key} and resolving gives the URL back byte for byte', () => {
  const urls = [
    'https://h.example.com/abc123key', // short
    'https://h.example.com/abcdefghijklmnop', // letters only
    'https://h.example.com/AbC+dEf/gh==', // + and =, two segments
    'https://h.example.com/a%2Fb%3D%2B', // percent-encoded, kept encoded
    'https://h.example.com/v1/mainnet/KEY', // several segments
    'https://h.example.com/KEY/', // trailing slash
    'https://h.example.com/?apikey=zzz', // query key, any name
    'https://h.example.com/?token=zzz&x=1',
    'https://h.example.com/?access_key=zzz',
    'https://h.example.com/abc123key?apikey=zzz', // path and query
    'https://h.example.com:8443/KEY', // port
    'http://[::1]:8545/KEY', // IPv6 loopback
    'https://[2001:db8::1]/KEY?k=v', // IPv6
    'http://127.0.0.1:8545/abc', // loopback with a path: still secret
  ];
  for (const url of urls) {
    const { p, r } = roundTrip(url);
    assert.equal(r.httpUrl, url, url);
    assert.ok(p.url.endsWith(`/${KEY_PLACEHOLDER}`), `${url} → ${p.url}`);
    assert.equal(p.auth, 'key', url);
    const secretPart = url.replace(/^[a-z]+:\/\/[^/]+\//, '');
    assert.ok(!p.url.includes(secretPart) && !p.wsUrl.includes(secretPart), `${url}: ${p.url} ${p.wsUrl}`);
    assert.ok(!displayUrl({ url: p.url, wsUrl: p.wsUrl }).includes(secretPart), url);
  }
});

test('/ws/<key>: the route stays, the key goes; the HTTP form is the same key without /ws', () => {
  const { p, r } = roundTrip('wss://h.example.com/ws/abc');
  assert.equal(p.wsUrl, `wss://h.example.com/ws/${KEY_PLACEHOLDER}`);
  assert.equal(p.url, `https://h.example.com/${KEY_PLACEHOLDER}`);
  assert.equal(r.wsUrl, 'wss://h.example.com/ws/abc');
  assert.equal(r.httpUrl, 'https://h.example.com/abc');
  assert.equal(displayUrl({ url: p.url }, 'ws'), 'wss://h.example.com/ws/***');
  // A ws URL without the /ws route keeps its path as the secret.
  const local = roundTrip('ws://127.0.0.1:8545/abc');
  assert.equal(local.r.wsUrl, 'ws://127.0.0.1:8545/abc');
});

test('a local anvil at http://127.0.0.1:8545 with path / needs nothing', () => {
  for (const url of ['http://127.0.0.1:8545', 'http://127.0.0.1:8545/', 'http://localhost:8545/', 'ws://127.0.0.1:8545']) {
    const { p, r } = roundTrip(url);
    assert.equal(p.auth, 'none', url);
    assert.deepEqual(p.secret, {}, url);
    assert.equal(p.secretPath, false, url);
    assert.equal(
      r.httpUrl,
      'http' +
        url
          .replace(/^(https?|wss?)/, '')
          .replace(/^:\/\/([^/]+)$/, '://$1/')
          .replace(/^s/, ''),
      url,
    );
  }
});

test('userinfo: Basic with and without a password, never in settings; no user or a ":" in it refused', () => {
  const both = roundTrip('https://alice:s3cr%40t@h.example.com/');
  assert.deepEqual(both.p.secret, { username: 'alice', password: 's3cr@t' });
  assert.equal(both.p.url, 'https://h.example.com/');
  assert.equal(both.r.headers.Authorization, `Basic ${Buffer.from('alice:s3cr@t').toString('base64')}`);
  const empty = parseEndpoint('https://alice:@h.example.com/');
  assert.deepEqual(empty.secret, { username: 'alice', password: '' });
  assert.equal(parseEndpoint('https://alice@h.example.com/').auth, 'basic');
  // Basic and a secret path together: the header and the {key}.
  const mixed = roundTrip('https://alice:pw12@h.example.com/abc123key');
  assert.equal(mixed.p.auth, 'basic');
  assert.equal(mixed.r.httpUrl, 'https://h.example.com/abc123key');
  assert.ok(mixed.r.headers.Authorization);

  for (const bad of ['https://:password@h.example.com/', 'https://:@h.example.com/']) {
    assert.throws(
      () => parseEndpoint(bad),
      (e) => e instanceof EndpointError && /password but no username/.test(e.message) && !e.message.includes(':password@h'),
      bad,
    );
  }
  assert.throws(
    () => parseEndpoint('https://al%3Aice:pw@h.example.com/'),
    (e) => e instanceof EndpointError && /cannot contain ':'/.test(e.message),
  );
  assert.equal(basicUsernameProblem('alice'), undefined);
  assert.match(basicUsernameProblem('al:ice') ?? '', /cannot contain ':'/);
  assert.match(basicUsernameProblem('') ?? '', /username is needed/);
  assert.throws(() => resolveEndpoint(node('https://h.example.com/', { auth: 'basic' }), { username: 'a:b', password: 'x' }), /cannot contain ':'/);
});

test('a fragment is refused rather than silently dropped', () => {
  assert.throws(
    () => parseEndpoint('https://h.example.com/KEY#abc123key'),
    (e) => e instanceof EndpointError && /#fragment/.test(e.message) && !e.message.includes('abc123key'),
  );
});

test('a path marked public stays in settings and is shown; the query is still secret', () => {
  const { p, r, config } = roundTrip('https://h.example.com/rpc', { publicPath: true });
  assert.equal(p.url, 'https://h.example.com/rpc');
  assert.equal(p.auth, 'none');
  assert.equal(r.httpUrl, 'https://h.example.com/rpc');
  assert.equal(displayUrl(config), 'https://h.example.com/rpc');

  const q = roundTrip('https://h.example.com/v1/mainnet?apikey=zzz', { publicPath: true });
  assert.equal(q.p.url, `https://h.example.com/v1/mainnet${KEY_PLACEHOLDER}`);
  assert.deepEqual(q.p.secret, { tail: '?apikey=zzz' });
  assert.equal(q.r.httpUrl, 'https://h.example.com/v1/mainnet?apikey=zzz');
  assert.equal(displayUrl(q.config), 'https://h.example.com/v1/mainnet?***');
  assert.equal(parseEndpoint('https://h.example.com/rpc').secretPath, true, 'unmarked, the same path is secret');
});

test('the empty-path-with-query case is normalised to / (the same request), not kept byte for byte', () => {
  const { r } = roundTrip('https://h.example.com?token=zzz');
  assert.equal(r.httpUrl, 'https://h.example.com/?token=zzz');
});

test('the secrets of a resolved endpoint include the tail and its long parts, for scrubbing free text', () => {
  const r = resolveEndpoint(node(`https://h.example.com/${KEY_PLACEHOLDER}`, { auth: 'key' }), { tail: 'v1/abcdefgh12?apikey=zzzzzzzzzz' });
  for (const s of ['v1/abcdefgh12?apikey=zzzzzzzzzz', 'abcdefgh12', 'zzzzzzzzzz']) assert.ok(r.secrets.includes(s), s);
  assert.ok(!r.secrets.includes('v1'), 'a short word is not scrubbed from all text');
});

test('settingsHoldSecret: literal secrets under the old or the new rule, and what is clean', () => {
  const dirty = [
    'https://h.example.com/abc123key?apikey=zzz',
    'https://h.example.com/3c6e0b8a9c15224a8228b9a98ca1531d',
    'https://h.example.com/?token=zzz',
    'https://u:p@h.example.com/',
    'http://127.0.0.1:8545/abc',
    `https://h.example.com/v1/${KEY_PLACEHOLDER}`, // an earlier version kept v1 in the clear
  ];
  for (const url of dirty) assert.equal(settingsHoldSecret({ url }), true, url);
  const clean = ['http://127.0.0.1:8545', 'http://127.0.0.1:8545/', `https://h.example.com/${KEY_PLACEHOLDER}`, `wss://h.example.com/ws/${KEY_PLACEHOLDER}`, 'wss://h.example.com/ws'];
  for (const url of clean) assert.equal(settingsHoldSecret({ url }), false, url);
  assert.equal(settingsHoldSecret({ url: 'https://h.example.com/rpc', publicPath: true }), false);
  assert.equal(settingsHoldSecret({ url: 'https://h.example.com/rpc?k=1', publicPath: true }), true);
  assert.equal(settingsHoldSecret({ url: 'http://127.0.0.1:8545/', wsUrl: 'wss://h.example.com/ws/abc' }), true);
});

test('moveSecretsOut: the key goes to the secret, settings keep {key}, the node still resolves to the same URL', () => {
  const url = 'https://h.example.com/abc123key?apikey=zzz';
  const moved = moveSecretsOut(node(url), {})!;
  assert.equal(moved.config.url, `https://h.example.com/${KEY_PLACEHOLDER}`);
  assert.equal(moved.config.auth, 'key');
  assert.deepEqual(moved.secret, { tail: 'abc123key?apikey=zzz' });
  assert.equal(resolveEndpoint(moved.config, moved.secret).httpUrl, url);
  assert.equal(moveSecretsOut(moved.config, moved.secret), undefined, 'a second pass finds nothing');

  // An earlier version's {key} with a literal segment beside it: the stored key is folded in.
  const legacy = moveSecretsOut(node(`https://h.example.com/v1/${KEY_PLACEHOLDER}`, { auth: 'key' }), { key: 'a+b' })!;
  assert.deepEqual(legacy.secret, { tail: 'v1/a%2Bb' });
  assert.equal(resolveEndpoint(legacy.config, legacy.secret).httpUrl, 'https://h.example.com/v1/a%2Bb');

  // userinfo in settings: Basic, and the password leaves the URL.
  const basic = moveSecretsOut(node('https://bob:pw-1234@h.example.com/'), {})!;
  assert.equal(basic.config.auth, 'basic');
  assert.equal(basic.config.url, 'https://h.example.com/');
  assert.deepEqual(basic.secret, { username: 'bob', password: 'pw-1234' });

  // A stored Basic login stays when a key is moved next to it; an explicit wsUrl with its own key gets wsTail.
  const both = moveSecretsOut(node('https://h.example.com/k1', { auth: 'basic', wsUrl: 'wss://other.example.com/ws/k2' }), { username: 'bob', password: 'pw' })!;
  assert.deepEqual(both.secret, { tail: 'k1', wsTail: 'k2', username: 'bob', password: 'pw' });
  const r = resolveEndpoint(both.config, both.secret);
  assert.equal(r.httpUrl, 'https://h.example.com/k1');
  assert.equal(r.wsUrl, 'wss://other.example.com/ws/k2');
  assert.equal(both.config.wsUrl, `wss://other.example.com/ws/${KEY_PLACEHOLDER}`);

  assert.equal(moveSecretsOut(node('http://127.0.0.1:8545/'), {}), undefined);
  assert.throws(() => moveSecretsOut(node(`https://h.example.com/v1/${KEY_PLACEHOLDER}`, { auth: 'key' }), {}), /no access key stored/);
});

describe('ports, IPv6 hosts, path segments, the /ws route, the length bound, loopback', () => {
  /**
   * Edges of the secret-URL rule not pinned above or by endpoint.test.ts: ports and IPv6
   * hosts, trailing slashes and several path segments, the /ws route only as the first segment of
   * a ws(s) URL, the length bound at its exact edge, control characters in a username, loopback
   * hosts, and what a resolved endpoint sends and shows.
   */
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
});
