/**
 * The storage range's block lookup through the real RPC client, against a loopback JSON-RPC
 * server that answers as scripted: the spec's two failure texts, and the block as the node gave it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { RpcClient } from '../../../../src/core/rpc/client';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { lookupBlock } from '../../../../src/core/storage/block';
import { StorageRangeError } from '../../../../src/core/storage/errors';
import { parseBlockRef } from '../../../../src/core/storage/inputs';
import { reply, startScriptedNode, type ScriptedNode } from '../../../support/rpcNode';

const HASH = `0x${'ab'.repeat(32)}`;
type Answer = (method: string, params: unknown[]) => { status?: number; body: unknown };

describe('lookupBlock', () => {
  let node: ScriptedNode;
  let answer: Answer = () => ({ body: null });
  const seen: { method: string; params: unknown[] }[] = [];
  let client: RpcClient;

  before(async () => {
    node = await startScriptedNode((request) => {
      const call = JSON.parse(request.body) as { id: number; method: string; params: unknown[] };
      seen.push({ method: call.method, params: call.params });
      const { status = 200, body } = answer(call.method, call.params);
      return { status, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : reply(request, body as object) };
    }, '');
    const url = node.url;
    const endpoint: ResolvedEndpoint = { httpUrl: url, wsUrl: url.replace(/^http/, 'ws'), headers: {}, auth: 'none', secrets: [] };
    client = new RpcClient(endpoint, { timeoutMs: 3000, retry: { retries: 0 } });
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  const failure = async (ref: string) => {
    try {
      await lookupBlock(client, parseBlockRef(ref));
    } catch (err) {
      assert.ok(err instanceof StorageRangeError, String(err));
      return err.message;
    }
    assert.fail('the lookup succeeded');
  };

  test('a number asks eth_getBlockByNumber with minimal hex; a hash asks eth_getBlockByHash', async () => {
    answer = () => ({ body: { result: { number: '0x1f', hash: HASH.toUpperCase().replace('0X', '0x') } } });
    seen.length = 0;
    assert.deepEqual(await lookupBlock(client, parseBlockRef('31')), { number: 31, hash: HASH });
    assert.deepEqual(await lookupBlock(client, parseBlockRef(HASH)), { number: 31, hash: HASH });
    assert.deepEqual(seen, [
      { method: 'eth_getBlockByNumber', params: ['0x1f', false] },
      { method: 'eth_getBlockByHash', params: [HASH, false] },
    ]);
  });

  test('no block: "Failed to get block:" naming the block as given', async () => {
    answer = () => ({ body: { result: null } });
    assert.match(await failure('12345'), /^Failed to get block: block 12345 \(0x3039\) not found$/);
  });

  test('a JSON-RPC error: "Failed to get block:" with the node\'s reason', async () => {
    answer = () => ({ body: { error: { code: -32000, message: 'header not found' } } });
    assert.match(await failure('7'), /^Failed to get block: .*header not found/);
  });

  test('a pending block without number and hash is refused, not read as block 0', async () => {
    answer = () => ({ body: { result: { number: null, hash: null } } });
    assert.match(await failure('7'), /^Failed to get block: the node.s answer for block 7 \(0x7\) has no number and hash/);
  });

  test("an HTTP 503 or a page that is not JSON: the spec's connect failure", async () => {
    answer = () => ({ status: 503, body: 'down for maintenance' });
    assert.equal(await failure('7'), 'Failed to connect to Ethereum node');
    answer = () => ({ body: '<html>hello</html>' });
    assert.equal(await failure('7'), 'Failed to connect to Ethereum node');
  });
});
