/**
 * Nodes listed by the platform API, imported with nodeToConfig, resolved with core/nodes and
 * called with core's RpcClient (and WsRpcClient) against a real anvil: directly, and through the
 * loopback proxy that demands the access key in the path (/<KEY>, /ws/<KEY>) or HTTP Basic.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformClient } from '../../src/core/platform/client';
import { nodeToConfig } from '../../src/core/platform/importNode';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { RpcFailure } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { WsRpcClient } from '../../src/core/rpc/ws';
import { startProxy, type Proxy } from '../support/proxy';
import { sampleData, startPlatformServer, type PlatformServer } from '../support/platformServer';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const API_KEY = 'pk_test_import_9a8b7c6d5e4f3a2b1c0d';
const NODE_KEY = '7d1f0c9b8a7e6d5c4b3a29180f7e6d5c';
const PASSWORD = 'node-pass-Q7!z';

let keyed: Proxy;
let basic: Proxy;
let server: PlatformServer;

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil (CHAINDECK_TEST_ANVIL_URL)');
  keyed = await startProxy({ target: ANVIL, key: NODE_KEY });
  basic = await startProxy({ target: ANVIL, basicAuth: { username: 'alice', password: PASSWORD } });
  // Four nodes, one per credential form the API may give.
  const forms = [
    { https_endpoint: keyed.url, wss_endpoint: keyed.wsUrl, auth_key: NODE_KEY },
    { https_endpoint: `http://127.0.0.1:${keyed.port}`, auth_key: NODE_KEY },
    { https_endpoint: `http://127.0.0.1:${basic.port}/`, auth_username: 'alice', auth_password: PASSWORD },
    { https_endpoint: ANVIL },
  ];
  server = await startPlatformServer({ apiKey: API_KEY, pageSize: 3, data: sampleData({ nodes: forms.length, details: (i) => forms[i] }) });
});
after(async () => {
  closeIdleConnections();
  await Promise.all([keyed.close(), basic.close(), server.close()]);
});

/** The node's latest block through core's RpcClient, as the editor would call it. */
async function blockNumber(config: Parameters<typeof resolveEndpoint>[0], secret: Parameters<typeof resolveEndpoint>[1]): Promise<string> {
  return new RpcClient(resolveEndpoint(config, secret), { timeoutMs: 5000 }).call<string>('eth_blockNumber');
}

describe('imported platform nodes answer through core', () => {
  test('every listed node, whatever its credential form, answers eth_blockNumber', async () => {
    const platform = new PlatformClient({ apiKey: API_KEY, apiUrl: server.url });
    const [nodes, networks] = await Promise.all([platform.listNodes(), platform.listNetworks()]);
    assert.equal(nodes.length, 4);
    const auths: string[] = [];
    for (const node of nodes) {
      const { config, secret } = nodeToConfig(
        node,
        networks.find((n) => n.id === node.network),
      );
      auths.push(config.auth);
      const block = await blockNumber(config, secret);
      assert.match(block, /^0x[0-9a-f]+$/, `${config.name}: ${block}`);
    }
    assert.deepEqual(auths, ['key', 'key', 'basic', 'none']);
  });

  test('key in the path: the proxy saw the real key; settings hold only {key}', async () => {
    keyed.clear();
    const { config, secret } = nodeToConfig(await new PlatformClient({ apiKey: API_KEY, apiUrl: server.url }).getNode('ND-101-202-303'));
    assert.equal(config.id, 'platform-ND-101-202-303');
    assert.equal(config.url, `http://127.0.0.1:${keyed.port}/{key}`);
    assert.ok(!JSON.stringify(config).includes(NODE_KEY));
    await blockNumber(config, secret);
    assert.deepEqual(
      keyed.requests.map((r) => r.path),
      [`/${NODE_KEY}`],
    );
  });

  test('the WSS endpoint (/ws/<KEY>) works through WsRpcClient', async () => {
    const { config, secret } = nodeToConfig(await new PlatformClient({ apiKey: API_KEY, apiUrl: server.url }).getNode('ND-101-202-303'));
    assert.equal(config.wsUrl, `ws://127.0.0.1:${keyed.port}/ws/{key}`);
    const ws = new WsRpcClient(resolveEndpoint(config, secret), { timeoutMs: 5000, pingIntervalMs: 0 });
    try {
      assert.match(await ws.call<string>('eth_blockNumber'), /^0x[0-9a-f]+$/);
    } finally {
      await ws.close();
    }
  });

  test('a key that no longer belongs to the node: 401 from the node, the key redacted', async () => {
    const { config } = nodeToConfig(await new PlatformClient({ apiKey: API_KEY, apiUrl: server.url }).getNode('ND-101-202-303'));
    const stale = 'aaaabbbbccccdddd1111222233334444';
    await assert.rejects(blockNumber(config, { key: stale }), (err) => err instanceof RpcFailure && err.kind === 'auth' && !err.message.includes(stale));
  });
});
