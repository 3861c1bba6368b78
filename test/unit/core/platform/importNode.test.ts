import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeImportError, nodeToConfig, platformNodeId, protocolFamily } from '../../../../src/core/platform/importNode';
import { parseObject } from '../../../../src/core/platform/parse';
import type { Network, PlatformNode } from '../../../../src/core/platform/types';
import { resolveEndpoint } from '../../../../src/core/nodes/endpoint';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';

function node(details: Record<string, unknown> | undefined, more: Record<string, unknown> = {}): PlatformNode {
  return parseObject('nodes', { id: 'ND-123-456-789', name: 'Eth main', network: 'NW-1', status: 'running', ...(details ? { details } : {}), ...more });
}

const ethereum: Network = parseObject('networks', { id: 'NW-1', protocol: 'ethereum', configuration: { network: 'mainnet' } });

/** No credential may be in what goes to settings. */
function assertClean(config: object, ...secrets: string[]) {
  const text = JSON.stringify(config);
  for (const s of secrets) assert.ok(!text.includes(s), `config holds a secret: ${text}`);
}

describe('nodeToConfig: the access key', () => {
  test('already in the endpoint path (with auth_key too): {key} in its place, the key to secrets', () => {
    const imported = nodeToConfig(node({ https_endpoint: `https://nd-123-456-789.p2pify.com/${KEY}`, wss_endpoint: `wss://ws-nd-123-456-789.p2pify.com/${KEY}`, auth_key: KEY }), ethereum);
    assert.deepEqual(imported.config, {
      id: 'platform-ND-123-456-789',
      name: 'Eth main',
      protocol: 'evm',
      network: 'ethereum-mainnet',
      url: 'https://nd-123-456-789.p2pify.com/{key}',
      wsUrl: 'wss://ws-nd-123-456-789.p2pify.com/{key}',
      auth: 'key',
    });
    assert.deepEqual(imported.secret, { tail: KEY });
    assert.equal(imported.protocolSource, 'network');
    const resolved = resolveEndpoint(imported.config, imported.secret);
    assert.equal(resolved.httpUrl, `https://nd-123-456-789.p2pify.com/${KEY}`);
    assert.equal(resolved.wsUrl, `wss://ws-nd-123-456-789.p2pify.com/${KEY}`);
  });

  test("in the path without auth_key (the provider's core form, with /ws/<KEY>)", () => {
    const imported = nodeToConfig(node({ https_endpoint: `https://ethereum-mainnet.core.chainstack.com/${KEY}`, wss_endpoint: `wss://ethereum-mainnet.core.chainstack.com/ws/${KEY}` }));
    assert.equal(imported.config.url, 'https://ethereum-mainnet.core.chainstack.com/{key}');
    assert.equal(imported.config.wsUrl, 'wss://ethereum-mainnet.core.chainstack.com/ws/{key}');
    assert.equal(imported.config.network, 'ethereum-mainnet', 'from the host when the network is unknown');
    assert.equal(imported.protocolSource, 'host');
    assert.deepEqual(imported.secret, { tail: KEY });
  });

  test('separate in auth_key: appended to the path as /{key}, the WSS endpoint too', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://nd-123-456-789.p2pify.com/', wss_endpoint: 'wss://ws-nd-123-456-789.p2pify.com', auth_key: KEY }), ethereum);
    assert.equal(imported.config.url, 'https://nd-123-456-789.p2pify.com/{key}');
    assert.equal(imported.config.wsUrl, 'wss://ws-nd-123-456-789.p2pify.com/{key}');
    assert.equal(imported.config.auth, 'key');
    assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, `https://nd-123-456-789.p2pify.com/${KEY}`);
    assertClean(imported.config, KEY);
  });

  test('separate auth_key and no WSS endpoint: the WS URL is derived later, key after /ws', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_key: KEY }));
    assert.equal(imported.config.wsUrl, undefined);
    assert.equal(resolveEndpoint(imported.config, imported.secret).wsUrl, `wss://nd-1.p2pify.com/ws/${KEY}`);
  });

  test('a short key that does not look like one is secret with the whole path, and not appended twice', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://rpc.example.com/v1/abc123', auth_key: 'abc123' }));
    assert.equal(imported.config.url, 'https://rpc.example.com/{key}');
    assert.deepEqual(imported.secret, { tail: 'v1/abc123' });
    assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, 'https://rpc.example.com/v1/abc123');
  });

  test('a key in the query or a short path goes to secrets even without auth_key', () => {
    for (const endpoint of ['https://rpc.example.com/?token=abc', 'https://rpc.example.com/abc123key', 'https://rpc.example.com/v2/AbCdEf+/=']) {
      const imported = nodeToConfig(node({ https_endpoint: endpoint }));
      assert.equal(imported.config.auth, 'key', endpoint);
      assert.equal(imported.config.url, 'https://rpc.example.com/{key}', endpoint);
      assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, endpoint);
    }
  });

  test('a password without a username, or a username with a colon, is refused', () => {
    assert.throws(
      () => nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_password: 'p4ss-word' })),
      (e) => e instanceof NodeImportError && /password but no username/.test(e.message),
    );
    assert.throws(
      () => nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_username: 'al:ice', auth_password: 'p4ss-word' })),
      (e) => e instanceof NodeImportError && /cannot contain ':'/.test(e.message),
    );
    assert.throws(
      () => nodeToConfig(node({ https_endpoint: 'https://:p4ss-word@nd-1.p2pify.com' })),
      (e) => e instanceof NodeImportError && /password but no username/.test(e.message) && !e.message.includes('p4ss-word'),
    );
  });

  test('both a key and a password offered: the key form is used', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_key: KEY, auth_username: 'alice', auth_password: 'p4ss-word' }));
    assert.equal(imported.config.auth, 'key');
    assert.deepEqual(imported.secret, { tail: KEY });
  });
});

describe('nodeToConfig: other credentials', () => {
  test('basic auth: username and password to secrets, nothing in the URL', () => {
    const imported = nodeToConfig(
      node({ https_endpoint: 'https://nd-1.p2pify.com', wss_endpoint: 'wss://ws-nd-1.p2pify.com', auth_username: 'alice', auth_password: 'S3cret-pass!' }),
      ethereum,
    );
    assert.equal(imported.config.auth, 'basic');
    assert.equal(imported.config.url, 'https://nd-1.p2pify.com/');
    assert.equal(imported.config.wsUrl, 'wss://ws-nd-1.p2pify.com/');
    assert.deepEqual(imported.secret, { username: 'alice', password: 'S3cret-pass!' });
    assertClean(imported.config, 'S3cret-pass!');
    assert.equal(resolveEndpoint(imported.config, imported.secret).headers.Authorization, `Basic ${Buffer.from('alice:S3cret-pass!').toString('base64')}`);
  });

  test('user:pass@ inside the endpoint itself is basic auth too', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://bob:hunter2-long@nd-1.p2pify.com' }));
    assert.equal(imported.config.auth, 'basic');
    assert.deepEqual(imported.secret, { username: 'bob', password: 'hunter2-long' });
    assertClean(imported.config, 'hunter2-long');
  });

  test('no credentials: an open endpoint', () => {
    const imported = nodeToConfig(node({ https_endpoint: 'https://rpc.example.com/' }));
    assert.equal(imported.config.auth, 'none');
    assert.deepEqual(imported.secret, {});
    assert.equal(imported.protocolSource, 'default');
    assert.equal(imported.config.protocol, 'evm');
  });

  test('only a WSS endpoint: the HTTP URL is its https form', () => {
    const imported = nodeToConfig(node({ wss_endpoint: `wss://ethereum-mainnet.core.chainstack.com/ws/${KEY}` }));
    assert.equal(imported.config.url, 'https://ethereum-mainnet.core.chainstack.com/{key}');
    assert.equal(imported.config.wsUrl, 'wss://ethereum-mainnet.core.chainstack.com/ws/{key}');
  });

  test('no endpoint: an error that says why, naming the node', () => {
    assert.throws(
      () => nodeToConfig(node(undefined)),
      (e) =>
        e instanceof NodeImportError &&
        /^Node 'Eth main' \(ND-123-456-789\) has no endpoint in its details: the API gives endpoints and credentials to the node's owner only\.$/.test(e.message),
    );
    assert.throws(() => nodeToConfig(node({ mode: 'full' }, { status: 'pending' })), /its status is pending; endpoints appear once it runs/);
    assert.throws(
      () => nodeToConfig(node({ https_endpoint: 'ftp://x.example.com' })),
      (e) => e instanceof NodeImportError && /^Node 'Eth main' \(ND-123-456-789\): Unsupported scheme 'ftp'/.test(e.message),
    );
  });

  test('a key in the query (named anything) goes to secrets, not settings', () => {
    const imported = nodeToConfig(node({ https_endpoint: `https://rpc.example.com/?k=${KEY}x`, auth_key: `${KEY}x` }));
    assertClean(imported.config, KEY);
    assert.equal(imported.config.url, 'https://rpc.example.com/{key}');
    assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, `https://rpc.example.com/?k=${KEY}x`);
  });
});

describe('nodeToConfig: identity, name, protocol and network', () => {
  test('the id is derived from the platform id, so a second import updates the same node', () => {
    const details = { https_endpoint: 'https://nd-1.p2pify.com', auth_key: KEY };
    assert.equal(nodeToConfig(node(details)).config.id, nodeToConfig(node(details, { name: 'renamed' })).config.id);
    assert.equal(platformNodeId('ND-123-456-789'), 'platform-ND-123-456-789');
    assert.equal(platformNodeId('ND 1/2'), 'platform-ND-1-2');
  });

  test('a node without a name is named by its id', () => {
    const imported = nodeToConfig(parseObject('nodes', { id: 'ND-9', details: { https_endpoint: 'https://x.example.com' } }));
    assert.equal(imported.config.name, 'ND-9');
  });

  test('protocol names map to families', () => {
    const cases: [string, string][] = [
      ['ethereum', 'evm'],
      ['polygon-pos', 'evm'],
      ['bsc', 'evm'],
      ['avalanche', 'evm'],
      ['arbitrum', 'evm'],
      ['base', 'evm'],
      ['optimism', 'evm'],
      ['zksync-era', 'evm'],
      ['bitcoin', 'utxo'],
      ['solana', 'solana'],
      ['starknet', 'starknet'],
      ['ethereum-beacon', 'beacon'],
      ['Ethereum', 'evm'],
      ['tezos', 'other'],
      ['aptos', 'other'],
    ];
    for (const [name, family] of cases) assert.equal(protocolFamily(name), family, name);
    assert.equal(protocolFamily(undefined), undefined);
    assert.equal(protocolFamily(' '), undefined);
  });

  test("the network's protocol wins over the host's; the label joins protocol and network", () => {
    const bitcoin = parseObject('networks', { id: 'NW-2', protocol: 'bitcoin', configuration: { network: 'testnet' } });
    const imported = nodeToConfig(node({ https_endpoint: `https://ethereum-mainnet.core.chainstack.com/${KEY}` }), bitcoin);
    assert.equal(imported.config.protocol, 'utxo');
    assert.equal(imported.config.network, 'bitcoin-testnet');
    const already = parseObject('networks', { id: 'NW-3', protocol: 'solana', configuration: { network: 'solana-devnet' } });
    assert.equal(nodeToConfig(node({ https_endpoint: 'https://x.example.com' }), already).config.network, 'solana-devnet');
  });

  test('a beacon endpoint becomes a second, beacon node with its own stable id', () => {
    const imported = nodeToConfig(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, beacon_endpoint: `https://beacon-nd-1.p2pify.com/${KEY}`, auth_key: KEY }), ethereum);
    assert.deepEqual(imported.beacon?.config, {
      id: 'platform-ND-123-456-789-beacon',
      name: 'Eth main (beacon)',
      protocol: 'beacon',
      url: 'https://beacon-nd-1.p2pify.com/{key}',
      auth: 'key',
      network: 'ethereum-mainnet',
    });
    assert.deepEqual(imported.beacon?.secret, { tail: KEY });
  });
});
