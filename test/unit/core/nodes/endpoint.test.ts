import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveWsUrl, displayUrl, EndpointError, isLoopback, parseEndpoint, resolveEndpoint, shortTailParts } from '../../../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER, type NodeConfig } from '../../../../src/core/nodes/model';

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
