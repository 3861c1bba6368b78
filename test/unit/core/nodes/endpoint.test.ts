import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  deriveWsUrl,
  displayUrl,
  EndpointError,
  endpointFromUrl,
  isLoopback,
  moveSecretsOut,
  parseEndpoint,
  registerUrlEndpoint,
  resolveEndpoint,
  settingsHoldSecret,
  shortTailParts,
  urlWithUserinfo,
} from '../../../../src/core/nodes/endpoint';
import { redactText } from '../../../../src/core/redact';
import { KEY_PLACEHOLDER, type NodeConfig } from '../../../../src/core/nodes/model';
import { nodeConfig as node, roundTrip } from '../../../support/endpoints';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';

test('form A: a key in the path of a dedicated node URL becomes the placeholder and the secret', () => {
  const p = parseEndpoint(`https://nd-123-456-789.p2pify.com/${KEY}`);
  assert.equal(p.auth, 'key');
  assert.deepEqual(p.secret, { tail: KEY });
  assert.equal(p.url, `https://nd-123-456-789.p2pify.com/${KEY_PLACEHOLDER}`);
  assert.equal(p.wsUrl, `wss://nd-123-456-789.p2pify.com/ws/${KEY_PLACEHOLDER}`);
  assert.ok(!p.url.includes(KEY) && !p.wsUrl.includes(KEY));
  assert.equal(p.network, undefined, 'nd-… is a node id, not a network');
  assert.equal(p.protocolFromHost, false);
});

test('form A on <network>.core.<host>: network and protocol come from the host', () => {
  const p = parseEndpoint(`  https://ethereum-mainnet.core.chainstack.com/${KEY}\n`);
  assert.equal(p.network, 'ethereum-mainnet');
  assert.equal(p.protocol, 'evm');
  assert.equal(p.protocolFromHost, true);
  assert.equal(p.url, `https://ethereum-mainnet.core.chainstack.com/${KEY_PLACEHOLDER}`);

  assert.equal(parseEndpoint(`https://solana-mainnet.core.chainstack.com/${KEY}`).protocol, 'solana');
  assert.equal(parseEndpoint(`https://bitcoin-mainnet.core.chainstack.com/${KEY}`).protocol, 'utxo');
  assert.equal(parseEndpoint(`https://starknet-mainnet.core.chainstack.com/${KEY}`).protocol, 'starknet');
  assert.equal(parseEndpoint(`https://beacon-nd-123-456-789.p2pify.com/${KEY}`).protocol, 'beacon');
  assert.equal(parseEndpoint(`https://ethereum-beacon-mainnet.core.chainstack.com/${KEY}`).protocol, 'beacon');
});

test('form A pasted as wss://…/ws/<KEY> gives the HTTPS URL without /ws', () => {
  const p = parseEndpoint(`wss://polygon-mainnet.core.chainstack.com/ws/${KEY}`);
  assert.equal(p.auth, 'key');
  assert.equal(p.secret.tail, KEY);
  assert.equal(p.url, `https://polygon-mainnet.core.chainstack.com/${KEY_PLACEHOLDER}`);
  assert.equal(p.wsUrl, `wss://polygon-mainnet.core.chainstack.com/ws/${KEY_PLACEHOLDER}`);
  assert.equal(p.network, 'polygon-mainnet');
});

test('form B: user:pass@ becomes a Basic secret and leaves the URL', () => {
  const p = parseEndpoint('https://alice:s3cr%40t-pass@nd-123-456-789.p2pify.com/');
  assert.equal(p.auth, 'basic');
  assert.deepEqual(p.secret, { username: 'alice', password: 's3cr@t-pass' });
  assert.equal(p.url, 'https://nd-123-456-789.p2pify.com/');
  assert.equal(p.wsUrl, 'wss://nd-123-456-789.p2pify.com/ws');
  assert.ok(!JSON.stringify([p.url, p.wsUrl]).includes('s3cr'));
});

test('a local dev node has no credentials and WebSocket on the same port', () => {
  const p = parseEndpoint('http://127.0.0.1:8545');
  assert.equal(p.auth, 'none');
  assert.deepEqual(p.secret, {});
  assert.equal(p.url, 'http://127.0.0.1:8545/');
  assert.equal(p.wsUrl, 'ws://127.0.0.1:8545/');
  assert.equal(p.network, undefined);
  assert.ok(isLoopback(p.url));
  assert.ok(!isLoopback('https://ethereum-mainnet.core.chainstack.com/'));
});

test('garbage and other schemes are refused with a message that says what an endpoint looks like', () => {
  const cases: [string, RegExp][] = [
    ['', /Paste the node's endpoint URL/],
    ['hello world', /no spaces/],
    ['nd-123-456-789.p2pify.com/abc', /not a URL: an endpoint starts with https:\/\/ or wss:\/\//],
    ['ftp://example.com/file', /Unsupported scheme 'ftp'.*https or wss/],
    ['file:///etc/passwd', /Unsupported scheme 'file'/],
    ['https://', /not a valid URL/],
    ['https://:pw@host.example.com/', /password but no username/],
    ['https://bo%3Ab:pw@host.example.com/', /cannot contain ':'/],
    [`https://host.example.com/${KEY}#frag`, /#fragment/],
    [`https://host.example.com/${'k'.repeat(5000)}`, /at most 4096 characters/],
  ];
  for (const [input, message] of cases) {
    assert.throws(
      () => parseEndpoint(input),
      (err: unknown) => err instanceof EndpointError && message.test(err.message),
      input,
    );
  }
});

test('a refused paste never echoes the key', () => {
  assert.throws(
    () => parseEndpoint(`ftp://nd-1.example.com/${KEY}`),
    (err: Error) => !err.message.includes(KEY) && err.message.includes('***'),
  );
  // Not scheme://…, yet a URL parser would still find the key in them.
  for (const pasted of [`https:nd-1.example.com/${KEY}`, `nd-1.example.com/${KEY}`, `https://nd-1.example.com\\${KEY}`, `https://u:${KEY}@nd-1.example.com:99999/`]) {
    assert.throws(
      () => parseEndpoint(pasted),
      (err: Error) => err instanceof EndpointError && !err.message.includes(KEY) && err.message.includes('***'),
      pasted,
    );
  }
});

test('a backslash is refused: URL parsers read it as a slash, so it would hide a path', () => {
  assert.throws(() => parseEndpoint(`http://127.0.0.1:8545\\${KEY}`), /no backslash/);
});

test('deriveWsUrl: https gets wss and /ws before the path; http keeps port and path', () => {
  assert.equal(deriveWsUrl(`https://ethereum-mainnet.core.chainstack.com/${KEY}`), `wss://ethereum-mainnet.core.chainstack.com/ws/${KEY}`);
  assert.equal(deriveWsUrl(`https://nd-1.p2pify.com/${KEY_PLACEHOLDER}`), `wss://nd-1.p2pify.com/ws/${KEY_PLACEHOLDER}`);
  assert.equal(deriveWsUrl('https://node.example.com'), 'wss://node.example.com/ws');
  assert.equal(deriveWsUrl('http://127.0.0.1:8545/'), 'ws://127.0.0.1:8545/');
  assert.equal(deriveWsUrl('http://localhost:7545/rpc'), 'ws://localhost:7545/rpc');
  assert.throws(() => deriveWsUrl('ftp://x.example.com/'), EndpointError);
});

const keyNode: NodeConfig = {
  id: 'n1',
  name: 'mainnet',
  protocol: 'evm',
  url: `https://ethereum-mainnet.core.chainstack.com/${KEY_PLACEHOLDER}`,
  auth: 'key',
};

test('resolveEndpoint: a key stored by an earlier version (decoded, one segment) is put in URL-encoded', () => {
  const r = resolveEndpoint(keyNode, { key: KEY });
  assert.equal(r.httpUrl, `https://ethereum-mainnet.core.chainstack.com/${KEY}`);
  assert.equal(r.wsUrl, `wss://ethereum-mainnet.core.chainstack.com/ws/${KEY}`);
  assert.deepEqual(r.headers, {});
  assert.ok(r.secrets.includes(KEY));
  assert.throws(() => resolveEndpoint(keyNode, {}), /no access key stored/);
});

test('resolveEndpoint: Basic goes in the Authorization header, never in the URL', () => {
  const config: NodeConfig = { id: 'n2', name: 'pw', protocol: 'evm', url: 'https://nd-1.p2pify.com/', auth: 'basic' };
  const r = resolveEndpoint(config, { username: 'alice', password: 'pa:ss' });
  assert.equal(r.headers.Authorization, `Basic ${Buffer.from('alice:pa:ss').toString('base64')}`);
  assert.equal(r.httpUrl, 'https://nd-1.p2pify.com/');
  assert.equal(r.wsUrl, 'wss://nd-1.p2pify.com/ws');
  assert.ok(!r.httpUrl.includes('alice') && !r.wsUrl.includes('pa:ss'));
  assert.ok(r.secrets.includes('pa:ss') && r.secrets.includes(Buffer.from('alice:pa:ss').toString('base64')));
  // Even a URL that (wrongly) kept user:pass in settings is called without it.
  const leaky = resolveEndpoint({ ...config, url: 'https://alice:old@nd-1.p2pify.com/' }, { username: 'alice', password: 'pa:ss' });
  assert.equal(leaky.httpUrl, 'https://nd-1.p2pify.com/');
});

test('resolveEndpoint keeps an explicit wsUrl instead of deriving one', () => {
  const r = resolveEndpoint({ ...keyNode, wsUrl: `wss://other.example.com/socket/${KEY_PLACEHOLDER}` }, { key: KEY });
  assert.equal(r.wsUrl, `wss://other.example.com/socket/${KEY}`);
});

test('displayUrl shows the key as *** for both URLs', () => {
  assert.equal(displayUrl(keyNode), 'https://ethereum-mainnet.core.chainstack.com/***');
  assert.equal(displayUrl(keyNode, 'ws'), 'wss://ethereum-mainnet.core.chainstack.com/ws/***');
  assert.equal(displayUrl({ url: 'http://127.0.0.1:8545/' }), 'http://127.0.0.1:8545/');
});

test('shortTailParts: the short path segments and query values of a tail (decoded too), never the query names', () => {
  assert.deepEqual(shortTailParts('k9z?q=t7'), ['k9z', 't7']);
  assert.deepEqual(shortTailParts('v1/a%2Bb/0123456789abcdef?x=1&flag'), ['v1', 'a%2Bb', '1', 'flag', 'a+b']);
  assert.deepEqual(shortTailParts('?token=ab'), ['ab']);
});

describe('odd credentials and pastes, secrets in settings, moveSecretsOut', () => {
  /**
   * Edges of endpoint.ts left open by the tests above and by secretUrl.test.ts: Basic
   * credentials that are not valid percent-encoding or hold ':', a userinfo that is only `@`, ws://
   * with the /ws route, a public path on a bare host, a paste wrapped in quotes, deriveWsUrl on
   * text that only contains an http URL, the 8-character bound of the values scrubbed from text,
   * the display of a hand-written secret in settings, what settingsHoldSecret calls a secret
   * (`?` and `#` alone are not; text that is no URL holds none), moveSecretsOut with a public path,
   * a shared tail, stale credentials and Basic without a password, and the network guessed from the host.
   */
  const K = KEY_PLACEHOLDER;

  const refusal = (message: string) => (e: unknown) => e instanceof EndpointError && e.name === 'EndpointError' && e.message === message;

  test('a refused paste throws an EndpointError named so (what String(error) shows the user)', () => {
    assert.throws(
      () => parseEndpoint('ftp://h.example.com/abc'),
      (e: unknown) => e instanceof EndpointError && String(e).startsWith('EndpointError: Unsupported scheme'),
    );
  });

  test('Basic credentials that are not valid percent-encoding are kept as written, not lost', () => {
    const p = parseEndpoint('https://a%ZZ:p%ZZ@h.example.com/');
    assert.equal(p.auth, 'basic');
    assert.deepEqual(p.secret, { username: 'a%ZZ', password: 'p%ZZ' });
    assert.equal(p.url, 'https://h.example.com/');
  });

  test("a password holding ':' is kept whole: only the first ':' ends the username", () => {
    const { p, r } = roundTrip('https://alice:pa:ss@h.example.com/');
    assert.deepEqual(p.secret, { username: 'alice', password: 'pa:ss' });
    assert.equal(r.headers.Authorization, `Basic ${Buffer.from('alice:pa:ss').toString('base64')}`);
  });

  test('a userinfo that is only "@" is refused, not dropped as if there were none', () => {
    assert.throws(() => parseEndpoint('https://@h.example.com/'), refusal('https://***@h.example.com/ has a password but no username: HTTP Basic needs both (user:password@).'));
  });

  test('ws:// with the /ws route: the route stays public as for wss://, the key goes to the secret', () => {
    const { p, r } = roundTrip('ws://h.example.com:8546/ws/abc');
    assert.deepEqual(p.secret, { tail: 'abc' });
    assert.equal(p.url, `http://h.example.com:8546/${K}`);
    assert.equal(p.wsUrl, `ws://h.example.com:8546/ws/${K}`);
    assert.equal(r.wsUrl, 'ws://h.example.com:8546/ws/abc');
    assert.equal(r.httpUrl, 'http://h.example.com:8546/abc');
  });

  test('a public path on a bare host is "/": the URL keeps its slash, the query alone is the secret', () => {
    const bare = parseEndpoint('https://h.example.com', { publicPath: true });
    assert.equal(bare.url, 'https://h.example.com/');
    assert.equal(bare.auth, 'none');
    const { p, r } = roundTrip('https://h.example.com?apikey=zzz', { publicPath: true });
    assert.equal(p.url, `https://h.example.com/${K}`);
    assert.deepEqual(p.secret, { tail: '?apikey=zzz' });
    assert.equal(r.httpUrl, 'https://h.example.com/?apikey=zzz');
  });

  test('a paste wrapped in quotes is not a URL: the message says what an endpoint starts with', () => {
    assert.throws(() => parseEndpoint('"https://h.example.com/abc"'), refusal('"https:/*** is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)'));
  });

  test('isLoopback: a host that merely ends in "localhost" is not this machine', () => {
    assert.equal(isLoopback('http://mylocalhost:8545/'), false);
    assert.equal(isLoopback('http://node-localhost/'), false);
  });

  test('deriveWsUrl: only text that starts with http(s):// is derived; surrounding blanks are ignored', () => {
    assert.throws(
      () => deriveWsUrl('xhttps://h.example.com/abc'),
      (e: unknown) => e instanceof EndpointError && e.message === 'Cannot derive a WebSocket URL from xhttps://h.example.com/***: it is not an http or https URL.',
    );
    assert.throws(() => deriveWsUrl('wss://h.example.com/ws?next=https://h.example.com/abc'), EndpointError);
    assert.equal(deriveWsUrl('  https://h.example.com/abc\n'), 'wss://h.example.com/ws/abc');
    assert.equal(deriveWsUrl(' http://127.0.0.1:8545/ '), 'ws://127.0.0.1:8545/');
  });

  test("resolveEndpoint drops only the URL's own user@, not one inside a public path", () => {
    const url = 'https://proxy.example.com/https://alice@node.example.com/';
    const r = resolveEndpoint(node(url, { publicPath: true }), {});
    assert.equal(r.httpUrl, url);
  });

  test('the values scrubbed from free text: segments and query values of 8 characters or more, not 7', () => {
    const r = resolveEndpoint(node(`https://h.example.com/${K}`, { auth: 'key' }), { tail: 'abcdefgh/abcdefg?k=zyxwvuts&j=zyxwvut' });
    for (const s of ['abcdefgh', 'zyxwvuts']) assert.ok(r.secrets.includes(s), s);
    for (const s of ['abcdefg', 'zyxwvut']) assert.ok(!r.secrets.includes(s), s);
  });

  test('displayUrl masks a secret written by hand in settings, unless the path is marked public', () => {
    assert.equal(displayUrl({ url: `https://h.example.com/v1/${K}` }), 'https://h.example.com/***/***');
    assert.equal(displayUrl({ url: 'https://h.example.com/abc123key' }), 'https://h.example.com/***');
    assert.equal(displayUrl({ url: 'https://h.example.com/rpc', publicPath: true }), 'https://h.example.com/rpc');
  });

  test('settingsHoldSecret: a bare "?" or "#" holds nothing, a fragment with text does, text that is no URL holds none', () => {
    for (const url of ['https://h.example.com/?', 'https://h.example.com/#', `https://h.example.com/${K}?`, 'not a url', '127.0.0.1:8545'])
      assert.equal(settingsHoldSecret({ url }), false, url);
    for (const url of ['http://127.0.0.1:8545/#abc', 'https://h.example.com/?x']) assert.equal(settingsHoldSecret({ url }), true, url);
    assert.equal(settingsHoldSecret({ url: 'http://127.0.0.1:8545/', wsUrl: 'ws://127.0.0.1:8545/#k' }), true);
    assert.equal(moveSecretsOut(node('not a url'), {}), undefined);
  });

  test('moveSecretsOut keeps a public path in settings and moves only the query', () => {
    const moved = moveSecretsOut(node('https://h.example.com/rpc?apikey=zzz', { publicPath: true }), {})!;
    assert.equal(moved.config.url, `https://h.example.com/rpc${K}`);
    assert.deepEqual(moved.secret, { tail: '?apikey=zzz' });
    assert.equal(moved.config.auth, 'key');
    assert.equal(resolveEndpoint(moved.config, moved.secret).httpUrl, 'https://h.example.com/rpc?apikey=zzz');
  });

  test('moveSecretsOut: a {key} in wsUrl is filled with the stored tail when there is no wsTail', () => {
    const moved = moveSecretsOut(node(`https://h.example.com/v1/${K}`, { auth: 'key', wsUrl: `wss://h.example.com/ws/${K}` }), { tail: 'abc' })!;
    assert.deepEqual(moved.secret, { tail: 'v1/abc', wsTail: 'abc' });
    const r = resolveEndpoint(moved.config, moved.secret);
    assert.equal(r.httpUrl, 'https://h.example.com/v1/abc');
    assert.equal(r.wsUrl, 'wss://h.example.com/ws/abc');
    // With a wsTail of its own, that one fills wsUrl.
    const own = moveSecretsOut(node(`https://h.example.com/v1/${K}`, { auth: 'key', wsUrl: `wss://h.example.com/ws/${K}` }), { tail: 'abc', wsTail: 'xyz' })!;
    assert.deepEqual(own.secret, { tail: 'v1/abc', wsTail: 'xyz' });
  });

  test('moveSecretsOut stores no wsTail when wsUrl holds the same secret as url', () => {
    const moved = moveSecretsOut(node('https://h.example.com/abc', { wsUrl: 'wss://h.example.com/ws/abc' }), {})!;
    assert.deepEqual(moved.secret, { tail: 'abc' });
    assert.equal(moved.config.wsUrl, `wss://h.example.com/ws/${K}`);
  });

  test('moveSecretsOut ignores a stale username of a node that does not use Basic', () => {
    const moved = moveSecretsOut(node('https://h.example.com/abc', { auth: 'key' }), { username: 'old', password: 'old-pass' })!;
    assert.deepEqual(moved.secret, { tail: 'abc' });
    assert.equal(moved.config.auth, 'key');
    assert.deepEqual(resolveEndpoint(moved.config, moved.secret).headers, {});
  });

  test('moveSecretsOut stores no password when the Basic login has none', () => {
    const fromUrl = moveSecretsOut(node('https://bob@h.example.com/'), {})!;
    assert.deepEqual(fromUrl.secret, { username: 'bob' });
    assert.equal(fromUrl.config.auth, 'basic');
    const stored = moveSecretsOut(node('https://h.example.com/abc', { auth: 'basic' }), { username: 'bob' })!;
    assert.deepEqual(stored.secret, { tail: 'abc', username: 'bob' });
  });

  test('the network is guessed from a host whose last label only holds digits among letters', () => {
    assert.equal(parseEndpoint('https://ethereum-mainnet.core.node1/abc').network, 'ethereum-mainnet');
    assert.equal(parseEndpoint('https://ethereum-mainnet.core.1node/abc').network, 'ethereum-mainnet');
    assert.equal(parseEndpoint('http://127.0.0.12:8545/').network, undefined);
  });

  test('no host written after "//" is refused: a URL parser would take the first path segment, the secret, for the host', () => {
    assert.throws(() => parseEndpoint('https:///abc123key'), refusal('https:///*** has no host name.'));
    assert.throws(() => parseEndpoint('wss:///h.example.com/ws/abc'), refusal('wss:///***/***/*** has no host name.'));
    assert.throws(() => parseEndpoint('http:///127.0.0.1:8545'), refusal('http:///*** has no host name.'));
  });

  test("a dedicated node's id is no network, its beacon-nd-… form neither; the protocol still comes from the host", () => {
    const beacon = parseEndpoint('https://beacon-nd-123-456-789.p2pify.com/abc');
    assert.equal(beacon.network, undefined);
    assert.equal(beacon.protocol, 'beacon');
    assert.equal(parseEndpoint('https://nd-123-456-789.p2pify.com/abc').network, undefined);
    assert.equal(parseEndpoint('https://nd-123-456-eth.p2pify.com/abc').network, undefined, 'a node id that ends in a chain word is still a node id');
    assert.equal(parseEndpoint('https://polygon-mainnet.nodes.example.com/abc').network, 'polygon-mainnet');
    // "nd-<digit>" inside a word is no node id: the label names a chain.
    assert.equal(parseEndpoint('https://arbitrum-second-1.example.com/abc').network, 'arbitrum-second-1');
  });
});

describe("what a pasted endpoint's host name tells", () => {
  /**
   * What a pasted endpoint's host name tells: the protocol family (or the 'evm' default, flagged as a
   * guess for the editor to confirm) and a network label for the tree, from `<network>.core.<host>`
   * or a first label that names a chain, and nothing from loopback, IP addresses, short hosts or a
   * dedicated node's id.
   */
  const guess = (url: string) => {
    const p = parseEndpoint(url);
    return { protocol: p.protocol, fromHost: p.protocolFromHost, network: p.network };
  };

  test('network labels: the provider form, a chain-named first label, and the hosts that say nothing', () => {
    const cases: [string, string | undefined][] = [
      ['https://ethereum-mainnet.core.example.com/abc123', 'ethereum-mainnet'],
      ['https://anything-here.core.example.com/abc123', 'anything-here'],
      ['https://polygon-amoy.example.com/', 'polygon-amoy'],
      ['https://Base-Sepolia.Example.org/', 'base-sepolia'],
      ['https://rpc.example.com/', undefined],
      ['https://nd-123-456-789.p2pify.com/abc123', undefined],
      ['https://nd-ethereum.example.com/', 'nd-ethereum'],
      ['https://example.com/', undefined],
      ['https://ethereum.com/', undefined],
      ['http://127.0.0.1:8545', undefined],
      ['http://10.1.2.3:8545', undefined],
      ['http://localhost:8545', undefined],
    ];
    for (const [url, network] of cases) assert.equal(guess(url).network, network, url);
  });

  test('protocol families from host words, and the evm default marked as a guess', () => {
    const cases: [string, string, boolean][] = [
      ['https://solana-mainnet.core.example.com/k', 'solana', true],
      ['https://starknet-sepolia.core.example.com/k', 'starknet', true],
      ['https://bitcoin-mainnet.core.example.com/k', 'utxo', true],
      ['https://btc.example.com/', 'utxo', true],
      ['https://doge.node.example.com/', 'utxo', true],
      ['https://ethereum-holesky.core.example.com/k', 'evm', true],
      ['https://arb.op.example.com/', 'evm', true],
      ['https://rpc.example.com/', 'evm', false],
      ['http://127.0.0.1:8545', 'evm', false],
      ['https://mybtcnode.example.com/', 'evm', false],
    ];
    for (const [url, protocol, fromHost] of cases) assert.deepEqual([guess(url).protocol, guess(url).fromHost], [protocol, fromHost], url);
  });
});

describe('endpointFromUrl: a URL given by hand', () => {
  /**
   * endpointFromUrl, the one way a URL given by hand (the CLI's --rpc, the local node's chain)
   * becomes an endpoint: its secret end and Basic credentials where a client sends them, every
   * secret listed for redaction, its errors redacted; and the URL with userinfo gnd is given.
   */
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
});
