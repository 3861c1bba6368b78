import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { NodeImportError, nodeToConfig, platformNodeId, protocolFamily } from '../../../../src/core/platform/importNode';
import { parseObject } from '../../../../src/core/platform/parse';
import type { Network, PlatformNode } from '../../../../src/core/platform/types';

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

describe('stray whitespace, partial networks, keys in endpoints, the beacon node', () => {
  /**
   * Importing a platform node (nodeToConfig) at its edges: values the API sends with stray
   * whitespace, the network label built from whatever part of the network is there, the key
   * appended to (or found in) an endpoint in its raw and URL-encoded forms, a WebSocket endpoint
   * whose key differs from the HTTPS one, the last check that no credential reaches settings
   * (and its 4-character threshold), and the beacon endpoint's own node and messages.
   */
  const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
  const WS_KEY = '9f1d2e3c4b5a69788796a5b4c3d2e1f0';
  const WHAT = "Node 'Eth main' (ND-123-456-789)";

  function node(details: Record<string, unknown> | undefined, more: Record<string, unknown> = {}): PlatformNode {
    return parseObject('nodes', { id: 'ND-123-456-789', name: 'Eth main', status: 'running', ...(details ? { details } : {}), ...more });
  }

  function network(raw: Record<string, unknown>): Network {
    return parseObject('networks', { id: 'NW-1', ...raw });
  }

  /** The NodeImportError nodeToConfig throws for this node. */
  function importError(platformNode: PlatformNode, net?: Network): NodeImportError {
    try {
      nodeToConfig(platformNode, net);
    } catch (err) {
      assert.ok(err instanceof NodeImportError, `not a NodeImportError: ${String(err)}`);
      return err;
    }
    assert.fail('the node was imported');
  }

  describe('nodeToConfig: the error it throws', () => {
    test("is a NodeImportError named so (the name shows in logs and the editor's error text)", () => {
      const error = importError(node(undefined));
      assert.equal(error.name, 'NodeImportError');
      assert.equal(String(error), `NodeImportError: ${WHAT} has no endpoint in its details: the API gives endpoints and credentials to the node's owner only.`);
    });

    test('an endpoint without a scheme, with a separate key, is refused as not a URL (the key not appended, not shown)', () => {
      const error = importError(node({ https_endpoint: 'nd-1.p2pify.com', auth_key: KEY }));
      assert.equal(error.message, `${WHAT}: nd-1.p2pify.com is not a URL: an endpoint starts with https:// or wss:// (http:// or ws:// for a local node)`);
    });
  });

  describe('nodeToConfig: whitespace around what the API sends', () => {
    test('the name is trimmed; a blank name is replaced by the id', () => {
      const details = { https_endpoint: 'https://rpc.example.com/' };
      assert.equal(nodeToConfig(node(details, { name: '  Eth main \n' })).config.name, 'Eth main');
      const blank = nodeToConfig(node(details, { name: '   ' }));
      assert.equal(blank.config.name, 'ND-123-456-789');
      assert.equal(
        importError(node(undefined, { name: ' \t' })).message,
        "Node 'ND-123-456-789' (ND-123-456-789) has no endpoint in its details: the API gives endpoints and credentials to the node's owner only.",
      );
    });

    test('blank endpoints count as none: the error says there is no endpoint', () => {
      const none = "has no endpoint in its details: the API gives endpoints and credentials to the node's owner only.";
      assert.equal(importError(node({ https_endpoint: '   ' })).message, `${WHAT} ${none}`);
      assert.equal(importError(node({ wss_endpoint: ' \n ' })).message, `${WHAT} ${none}`);
    });

    test('a blank HTTPS endpoint next to a WSS one: the WSS one is used', () => {
      const imported = nodeToConfig(node({ https_endpoint: '  ', wss_endpoint: `wss://ethereum-mainnet.core.chainstack.com/ws/${KEY}` }));
      assert.equal(imported.config.url, 'https://ethereum-mainnet.core.chainstack.com/{key}');
      assert.equal(imported.config.wsUrl, 'wss://ethereum-mainnet.core.chainstack.com/ws/{key}');
      assert.deepEqual(imported.secret, { tail: KEY });
    });

    test('only a WSS endpoint, padded, with a separate key: the key is appended to it', () => {
      const imported = nodeToConfig(node({ wss_endpoint: '  wss://ws-nd-1.p2pify.com \n', auth_key: KEY }));
      assert.equal(imported.config.url, 'https://ws-nd-1.p2pify.com/{key}');
      assert.equal(imported.config.wsUrl, 'wss://ws-nd-1.p2pify.com/{key}');
      assert.deepEqual(imported.secret, { tail: KEY });
      assert.equal(resolveEndpoint(imported.config, imported.secret).wsUrl, `wss://ws-nd-1.p2pify.com/${KEY}`);
    });

    test('a padded key is trimmed before it is appended; a blank key is no key', () => {
      const imported = nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_key: ` ${KEY}\n` }));
      assert.deepEqual(imported.secret, { tail: KEY });
      assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, `https://nd-1.p2pify.com/${KEY}`);
      const blank = nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_key: '   ' }));
      assert.equal(blank.config.auth, 'none');
      assert.deepEqual(blank.secret, {});
    });

    test('a blank username is no username: a password alone is refused', () => {
      const error = importError(node({ https_endpoint: 'https://nd-1.p2pify.com', auth_username: '  ', auth_password: 'p4ss-word' }));
      assert.equal(error.message, `${WHAT} has a password but no username: HTTP Basic needs both; check the node's credentials in the console.`);
    });

    test('a blank username leaves the user:pass@ of the endpoint in use', () => {
      const imported = nodeToConfig(node({ https_endpoint: 'https://bob:hunter2-long@nd-1.p2pify.com', auth_username: ' ' }));
      assert.equal(imported.config.auth, 'basic');
      assert.deepEqual(imported.secret, { username: 'bob', password: 'hunter2-long' });
    });

    test('a blank beacon endpoint adds no beacon node', () => {
      const imported = nodeToConfig(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, beacon_endpoint: '  ' }));
      assert.equal(imported.beacon, undefined);
    });
  });

  describe('nodeToConfig: the network label', () => {
    const open = { https_endpoint: 'https://rpc.example.com/' };

    test('protocol and network are trimmed before they are joined', () => {
      const imported = nodeToConfig(node(open), network({ protocol: ' ethereum ', configuration: { network: ' sepolia\n' } }));
      assert.equal(imported.config.network, 'ethereum-sepolia');
      assert.equal(imported.config.protocol, 'evm');
      const already = nodeToConfig(node(open), network({ protocol: 'Solana ', configuration: { network: ' solana-devnet ' } }));
      assert.equal(already.config.network, 'solana-devnet');
    });

    test('a network with no protocol: the configured network alone', () => {
      const imported = nodeToConfig(node(open), network({ name: 'My net', configuration: { network: 'mainnet' } }));
      assert.equal(imported.config.network, 'mainnet');
      assert.equal(imported.protocolSource, 'default');
    });

    test("a protocol without a configured network: the host's network, else the network's name", () => {
      const fromHost = nodeToConfig(node({ https_endpoint: `https://polygon-mainnet.core.chainstack.com/${KEY}` }), network({ protocol: 'polygon-pos', name: 'Polygon PoS' }));
      assert.equal(fromHost.config.network, 'polygon-mainnet');
      const fromName = nodeToConfig(node(open), network({ protocol: 'polygon-pos', name: 'Polygon PoS', configuration: {} }));
      assert.equal(fromName.config.network, 'Polygon PoS');
      const blank = nodeToConfig(node(open), network({ protocol: '  ', configuration: { network: 'mainnet' } }));
      assert.equal(blank.config.network, 'mainnet', 'a blank protocol is no protocol');
    });
  });

  describe('nodeToConfig: the key and the endpoint path', () => {
    test('a key already in the path in URL-encoded form is not appended again', () => {
      const key = 'Ab+Cd/Ef=Gh12345';
      const encoded = encodeURIComponent(key);
      const imported = nodeToConfig(node({ https_endpoint: `https://rpc.example.com/${encoded}`, auth_key: key }));
      assert.deepEqual(imported.secret, { tail: encoded });
      assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, `https://rpc.example.com/${encoded}`);
    });

    test('the key goes after the path once, whatever the slashes that end it', () => {
      const imported = nodeToConfig(node({ https_endpoint: 'https://nd-1.p2pify.com/rpc//', auth_key: KEY }));
      assert.equal(imported.config.url, 'https://nd-1.p2pify.com/{key}');
      assert.deepEqual(imported.secret, { tail: `rpc/${KEY}` });
      assert.equal(resolveEndpoint(imported.config, imported.secret).httpUrl, `https://nd-1.p2pify.com/rpc/${KEY}`);
    });

    test('a WSS endpoint with a key other than the HTTPS one keeps its own (wsTail)', () => {
      const imported = nodeToConfig(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, wss_endpoint: `wss://ws-nd-1.p2pify.com/ws/${WS_KEY}` }));
      assert.deepEqual(imported.secret, { tail: KEY, wsTail: WS_KEY });
      assert.equal(imported.config.wsUrl, 'wss://ws-nd-1.p2pify.com/ws/{key}');
      const resolved = resolveEndpoint(imported.config, imported.secret);
      assert.equal(resolved.httpUrl, `https://nd-1.p2pify.com/${KEY}`);
      assert.equal(resolved.wsUrl, `wss://ws-nd-1.p2pify.com/ws/${WS_KEY}`);
    });
  });

  describe('nodeToConfig: no credential reaches settings', () => {
    const refused = ': the endpoint holds its credential where Chaindeck cannot replace it with {key}; add the node by hand.';

    test('a key that is also in the host name is refused: {key} cannot stand for it there', () => {
      const error = importError(node({ https_endpoint: `https://${KEY}.rpc.example.com`, auth_key: KEY }));
      assert.equal(error.message, `${WHAT}${refused}`);
    });

    test('a password found anywhere in the settings (here the host name) is refused too', () => {
      const error = importError(node({ https_endpoint: 'https://nd-1.rpc.example.com', auth_username: 'alice', auth_password: 'example' }));
      assert.equal(error.message, `${WHAT}${refused}`);
    });

    test('a WebSocket key in the WSS host name is refused', () => {
      const error = importError(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, wss_endpoint: `wss://${WS_KEY}.p2pify.com/${WS_KEY}` }));
      assert.equal(error.message, `${WHAT}${refused}`);
    });

    test('a key that is also in the node name is refused, and the message masks it', () => {
      const error = importError(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}` }, { name: `eth ${KEY}` }));
      assert.equal(error.message, `Node 'eth ***' (ND-123-456-789)${refused}`);
    });

    test('credentials of 4 characters are looked for; shorter ones are not (they match ordinary words, as in redaction)', () => {
      assert.equal(importError(node({ https_endpoint: 'https://k3y9.rpc.example.com', auth_key: 'k3y9' })).message, `${WHAT}${refused}`);
      const short = nodeToConfig(node({ https_endpoint: 'https://k3y.rpc.example.com', auth_key: 'k3y' }));
      assert.equal(short.config.url, 'https://k3y.rpc.example.com/{key}');
      assert.deepEqual(short.secret, { tail: 'k3y' });
      const word = nodeToConfig(node({ https_endpoint: 'https://rpc.example.com/eth' }), network({ protocol: 'ethereum', configuration: { network: 'mainnet' } }));
      assert.equal(word.config.network, 'ethereum-mainnet', "the 3-character path 'eth' is in the label, and that is fine");
      assert.deepEqual(word.secret, { tail: 'eth' });
    });
  });

  describe('nodeToConfig: the beacon endpoint', () => {
    test('a node of a beacon network is the beacon node itself: no second one', () => {
      const imported = nodeToConfig(
        node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, beacon_endpoint: `https://beacon-nd-1.p2pify.com/${KEY}` }),
        network({ protocol: 'ethereum-beacon', configuration: { network: 'mainnet' } }),
      );
      assert.equal(imported.config.protocol, 'beacon');
      assert.equal(imported.beacon, undefined);
    });

    test('errors about the beacon endpoint say so', () => {
      const bad = importError(node({ https_endpoint: `https://nd-1.p2pify.com/${KEY}`, beacon_endpoint: 'ftp://beacon.example.com' }));
      assert.equal(bad.message, `${WHAT}, beacon endpoint: Unsupported scheme 'ftp' in ftp://beacon.example.com: a node endpoint's scheme is https or wss (http or ws for a local node).`);
      const inHost = importError(node({ https_endpoint: 'https://nd-1.p2pify.com', beacon_endpoint: `https://${KEY}.beacon.example.com`, auth_key: KEY }));
      assert.equal(inHost.message, `${WHAT}, beacon endpoint: the endpoint holds its credential where Chaindeck cannot replace it with {key}; add the node by hand.`);
    });
  });
});

describe('the protocol family of an imported node', () => {
  /**
   * Which protocol family an imported platform node gets from its network's protocol name: the
   * family decides the pick list, the live facts and the retry rule, so a wrong one breaks the
   * node in the tree. Every name the table knows, its first-word and separator forms, and the rest.
   */
  const EVM = [
    'ethereum',
    'eth',
    'polygon',
    'matic',
    'bsc',
    'bnb',
    'binance',
    'avalanche',
    'avax',
    'arbitrum',
    'base',
    'optimism',
    'op',
    'fantom',
    'gnosis',
    'xdai',
    'zksync',
    'scroll',
    'linea',
    'ronin',
    'cronos',
    'celo',
    'moonbeam',
    'moonriver',
    'harmony',
    'kaia',
    'klaytn',
    'aurora',
    'blast',
    'mantle',
    'sonic',
    'berachain',
    'hyperliquid',
    'unichain',
    'sei',
    'zora',
    'metis',
    'taiko',
    'kava',
    'oasis',
    'fuse',
    'evmos',
    'boba',
    'astar',
    'opbnb',
    'plasma',
    'monad',
    'abstract',
    'ink',
    'soneium',
    'megaeth',
  ];

  test('every EVM chain name the table knows is evm, alone and as the first word of a longer name', () => {
    for (const name of EVM) {
      assert.equal(protocolFamily(name), 'evm', name);
      assert.equal(protocolFamily(`${name}-mainnet`), 'evm', `${name}-mainnet`);
      assert.equal(protocolFamily(` ${name.toUpperCase()}_Sepolia `), 'evm', `${name} upper case, underscore, spaces`);
    }
  });

  test('UTXO, Solana, Starknet and beacon names, whole or by first word', () => {
    for (const name of ['bitcoin', 'btc', 'litecoin', 'dogecoin', 'bitcoin-cash', 'bch', 'bitcoin testnet']) assert.equal(protocolFamily(name), 'utxo', name);
    assert.equal(protocolFamily('solana'), 'solana');
    assert.equal(protocolFamily('solana-devnet'), 'solana');
    assert.equal(protocolFamily('starknet'), 'starknet');
    assert.equal(protocolFamily('starknet sepolia'), 'starknet');
    for (const name of ['beacon', 'ethereum-beacon', 'Ethereum Beacon Chain', 'gnosis_beacon']) assert.equal(protocolFamily(name), 'beacon', name);
  });

  test('unknown names are other; no name is undefined', () => {
    for (const name of ['tron', 'near', 'aptos', 'ethereumclassic', 'x-ethereum']) assert.equal(protocolFamily(name), 'other', name);
    for (const name of [undefined, '', '   ']) assert.equal(protocolFamily(name), undefined, JSON.stringify(name));
  });
});
