/**
 * The HTTP client against real anvil and ganache: single calls, batches (matched by id whatever
 * their order), the nodes' own error answers passed through as sent, the raw exchange, keep-alive,
 * and the live facts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import type { ResolvedEndpoint } from '../../src/core/rpc/endpoint';
import { liveFacts } from '../../src/core/nodes/protocols';
import { RpcClient } from '../../src/core/rpc/client';
import { RpcFailure } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import type { JsonRpcResponse } from '../../src/core/rpc/types';
import { startProxy, type Proxy } from '../support/proxy';

const ZERO = '0x0000000000000000000000000000000000000000';

function openEndpoint(url: string): ResolvedEndpoint {
  return resolveEndpoint({ id: 'test', name: 'test', protocol: 'evm', url, auth: 'none' }, {});
}

/** What each node says, verified by hand (shared/notes/local-nodes.md). */
const NODES = [
  {
    name: 'anvil',
    url: process.env.CHAINDECK_TEST_ANVIL_URL,
    chainId: '0x7a69',
    client: /^anvil\/v/,
    unknownMethod: { code: -32601, message: 'Method not found' },
    malformed: { status: 200, contentType: /application\/json/, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } } },
  },
  {
    name: 'ganache',
    url: process.env.CHAINDECK_TEST_GANACHE_URL,
    chainId: '0x539',
    client: /^Ganache\/v7/,
    unknownMethod: { code: -32700, message: 'The method foo_bar does not exist/is not available' },
    malformed: { status: 400, contentType: /text\/plain/, body: undefined },
  },
];

after(() => closeIdleConnections());

for (const node of NODES) {
  describe(`HTTP JSON-RPC on ${node.name}`, () => {
    let client: RpcClient;
    let proxy: Proxy;
    let proxied: RpcClient;
    before(async () => {
      assert.ok(node.url, `the harness did not start ${node.name}`);
      client = new RpcClient(openEndpoint(node.url));
      proxy = await startProxy({ target: node.url });
      proxied = new RpcClient(openEndpoint(proxy.url));
    });
    after(() => proxy.close());

    test('a single call returns the result', async () => {
      assert.equal(await client.call('eth_chainId'), node.chainId);
      assert.match(await client.call<string>('web3_clientVersion'), node.client);
      const block = await client.call<string>('eth_blockNumber', []);
      assert.match(block, /^0x[0-9a-f]+$/);
    });

    test("an unknown method's error is passed through with the node's own code and message", async () => {
      const { code, message } = node.unknownMethod;
      const fresh = new RpcClient(openEndpoint(node.url!));
      await assert.rejects(fresh.call('foo_bar'), (err: unknown) => {
        assert.ok(err instanceof RpcFailure);
        assert.equal(err.kind, 'rpc');
        assert.equal(err.code, code);
        assert.equal(err.message, `JSON-RPC error ${code}: ${message}`);
        return true;
      });
      const response = await fresh.callResponse('foo_bar');
      assert.equal(response.error?.code, code);
      assert.equal(response.error?.message, message);
      assert.equal(response.id, 2, 'ids are generated per client: this is its second request');
    });

    test('a batch gives each call its own result or error, in request order', async () => {
      const items = await client.batch([{ method: 'eth_chainId' }, { method: 'foo_bar' }, { method: 'eth_getBalance', params: [ZERO, 'latest'] }]);
      assert.equal(items.length, 3);
      assert.ok('result' in items[0] && items[0].result === node.chainId);
      assert.ok('error' in items[1]);
      assert.equal(items[1].error.code, node.unknownMethod.code);
      assert.equal(items[1].error.message, `JSON-RPC error ${node.unknownMethod.code}: ${node.unknownMethod.message}`);
      assert.ok('result' in items[2] && /^0x[0-9a-f]+$/.test(items[2].result as string));
    });

    test('a batch reply that comes back reversed is matched by id', async () => {
      let firstOnWire: unknown;
      proxy.fail({
        rewrite: (reply) => {
          const reversed = [...(reply as JsonRpcResponse[])].reverse();
          firstOnWire = reversed[0].id;
          return reversed;
        },
      });
      const items = await proxied.batch([{ method: 'eth_chainId' }, { method: 'web3_clientVersion' }, { method: 'eth_blockNumber' }]);
      assert.ok('result' in items[0] && items[0].result === node.chainId);
      assert.ok('result' in items[1] && node.client.test(items[1].result as string));
      assert.ok('result' in items[2] && /^0x[0-9a-f]+$/.test(items[2].result as string));
      assert.equal(firstOnWire, items[2].response?.id, 'the first answer on the wire was for the last call');
    });

    test('a call missing from the batch reply is an error for that call only', async () => {
      proxy.fail({ rewrite: (reply) => (reply as JsonRpcResponse[]).filter((_, i) => i !== 1) });
      const items = await proxied.batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }, { method: 'net_version' }]);
      assert.ok('result' in items[0]);
      assert.ok('error' in items[1] && items[1].error.kind === 'mismatch' && /no answer for request id \d+ \(eth_blockNumber\)/.test(items[1].error.message));
      assert.ok('result' in items[2]);
    });

    test('a reply whose id differs from the request is refused as a mismatch', async () => {
      proxy.fail({ rewrite: (reply) => ({ ...(reply as JsonRpcResponse), id: 424242 }) });
      await assert.rejects(
        proxied.call('eth_chainId'),
        (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch' && /answered with id 424242 to request id \d+/.test(err.message),
      );
    });

    test("the raw exchange shows a malformed body's answer as the node gives it", async () => {
      const reply = await client.exchange('{"jsonrpc":"2.0",');
      assert.equal(reply.status, node.malformed.status);
      assert.match(reply.contentType, node.malformed.contentType);
      assert.deepEqual(reply.body, node.malformed.body);
      assert.ok(reply.text.length > 0 && reply.bytes === Buffer.byteLength(reply.text));
    });

    test('the raw exchange sends the payload as written and measures the reply', async () => {
      const reply = await client.exchange([{ jsonrpc: '2.0', id: 'a', method: 'eth_chainId', params: [] }]);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, [{ jsonrpc: '2.0', id: 'a', result: node.chainId }]);
      assert.equal(reply.bytes, Buffer.byteLength(reply.text));
      assert.ok(reply.timeMs > 0 && reply.timeMs < 5000, `${reply.timeMs} ms`);
      assert.match(reply.contentType, /application\/json/);
    });

    test('liveFacts asks for client, latest block and chain in ONE batch', async () => {
      proxy.clear();
      const facts = await liveFacts('evm', proxied);
      assert.ok(facts.clientVersion && 'value' in facts.clientVersion && node.client.test(facts.clientVersion.value));
      assert.ok(facts.chainId && 'value' in facts.chainId && facts.chainId.value === String(Number(node.chainId)));
      assert.ok(facts.latestBlock && 'value' in facts.latestBlock && /^\d+$/.test(facts.latestBlock.value));
      assert.equal(proxy.requests.length, 1);
      assert.deepEqual(proxy.requests[0].methods, ['web3_clientVersion', 'eth_blockNumber', 'eth_chainId']);
    });

    test('liveFacts shows the facts that worked when one fails', async () => {
      proxy.fail({
        rewrite: (reply) => (reply as JsonRpcResponse[]).map((r, i) => (i === 2 ? { jsonrpc: '2.0', id: r.id, error: { code: -32000, message: 'chain id unavailable' } } : r)),
      });
      const facts = await liveFacts('evm', proxied);
      assert.deepEqual(facts.chainId, { error: 'JSON-RPC error -32000: chain id unavailable' });
      assert.ok(facts.clientVersion && 'value' in facts.clientVersion);
      assert.ok(facts.latestBlock && 'value' in facts.latestBlock);
    });

    test('liveFacts falls back to single calls when the node rejects the batch itself', async () => {
      proxy.clear();
      proxy.fail({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batches are not allowed' } }),
      });
      const facts = await liveFacts('evm', proxied);
      assert.ok(facts.chainId && 'value' in facts.chainId && facts.chainId.value === String(Number(node.chainId)));
      assert.equal(proxy.requests.length, 4, 'the refused batch, then three single calls');
    });

    test('keep-alive: fifty calls in a row travel over one connection', async () => {
      closeIdleConnections();
      proxy.clear();
      for (let i = 0; i < 50; i++) await proxied.call('eth_blockNumber');
      assert.equal(proxy.requests.length, 50);
      assert.equal(proxy.connections, 1);
    });
  });
}
