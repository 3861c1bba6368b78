/**
 * Importing a platform node (nodeToConfig) at its edges: values the API sends with stray
 * whitespace, the network label built from whatever part of the network is there, the key
 * appended to (or found in) an endpoint in its raw and URL-encoded forms, a WebSocket endpoint
 * whose key differs from the HTTPS one, the last check that no credential reaches settings
 * (and its 4-character threshold), and the beacon endpoint's own node and messages.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeImportError, nodeToConfig } from '../../src/core/platform/importNode';
import { parseObject } from '../../src/core/platform/parse';
import type { Network, PlatformNode } from '../../src/core/platform/types';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';

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
