/**
 * The recording gateway: the chain ends at the capture's last block (its number, its tagged
 * blocks, nothing after it), every other call is forwarded (batches as batches), and eth_calls,
 * logs and receipts' logs are recorded with their answers; failures below JSON-RPC are not.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { endpointFromUrl } from '../../../../../src/core/nodes/endpoint';
import { RpcClient } from '../../../../../src/core/rpc/client';
import { capRequest, startRecordingGateway, type RecordingGateway } from '../../../../../src/core/gndtest/capture/gateway';
import { startRpcServer, type RpcServer } from '../../../../support/rpcNode';

let node: RpcServer;
let gateway: RecordingGateway;

before(async () => {
  node = await startRpcServer({
    eth_blockNumber: { result: '0x64' },
    eth_getBlockByNumber: (params) => ({ result: { number: (params as string[])[0], hash: '0xaa' } }),
    eth_call: { result: '0x2a' },
    eth_chainId: { result: '0x7a69' },
    eth_getBlockReceipts: { result: [{ logs: [{ address: '0x1', logIndex: '0x0' }] }, { logs: [{ address: '0x2', logIndex: '0x1' }] }] },
    eth_getCode: { error: { code: -32000, message: 'header not found' } },
  });
  gateway = await startRecordingGateway(new RpcClient(endpointFromUrl(node.url), { retry: { retries: 0 } }), 7);
});
after(async () => {
  await gateway?.close();
  await node?.close();
});

async function post(body: unknown): Promise<unknown> {
  const res = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

test('the head is capped: the number, every tag, and no block after it', () => {
  assert.deepEqual(capRequest('eth_blockNumber', [], 7), { answer: '0x7' });
  for (const tag of ['latest', 'pending', 'safe', 'finalized'])
    assert.deepEqual(capRequest('eth_getBlockByNumber', [tag, false], 7), { forward: { method: 'eth_getBlockByNumber', params: ['0x7', false] } });
  assert.deepEqual(capRequest('eth_getBlockByNumber', ['0x8', true], 7), { answer: null });
  assert.deepEqual(capRequest('eth_getBlockByNumber', ['0x7', true], 7), { forward: { method: 'eth_getBlockByNumber', params: ['0x7', true] } });
  assert.deepEqual(capRequest('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }], 7), { forward: { method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x7' }] } });
  assert.deepEqual(capRequest('eth_call', [{ to: '0x1' }, 'latest'], 7), { forward: { method: 'eth_call', params: [{ to: '0x1' }, '0x7'] } });
});

test('through the gateway: the capped head, a batch forwarded as one request, answers under the caller’s ids, calls recorded', async () => {
  node.clear();
  assert.deepEqual(await post({ jsonrpc: '2.0', id: 'a', method: 'eth_blockNumber', params: [] }), { jsonrpc: '2.0', id: 'a', result: '0x7' });
  const answers = (await post([
    { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] },
    { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: '0x1', data: '0x06fdde03' }, { blockHash: '0xaa' }] },
    { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
    { jsonrpc: '2.0', id: 4, method: 'eth_getBlockByNumber', params: ['0x9', false] },
  ])) as { id: number; result: unknown }[];
  assert.deepEqual(
    answers.map((a) => [a.id, a.result]),
    [
      [1, { number: '0x7', hash: '0xaa' }],
      [2, '0x2a'],
      [3, '0x7a69'],
      [4, null],
    ],
  );
  assert.equal(node.requests.length, 1, 'one upstream batch; the block past the head and the head were answered here');
  assert.deepEqual(
    node.calls.map((c) => c.method),
    ['eth_getBlockByNumber', 'eth_call', 'eth_chainId'],
  );
  const call = gateway.records.find((r) => r.method === 'eth_call');
  assert.deepEqual(call, { method: 'eth_call', params: [{ to: '0x1', data: '0x06fdde03' }, { blockHash: '0xaa' }], result: '0x2a' });
});

test("receipts are recorded as their logs; a node's error is recorded as the answer", async () => {
  await post({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: [{ blockHash: '0xaa' }] });
  const error = (await post({ jsonrpc: '2.0', id: 2, method: 'eth_getCode', params: ['0x1', '0x3'] })) as { error: { message: string } };
  assert.equal(error.error.message, 'header not found');
  assert.deepEqual(gateway.records.find((r) => r.method === 'eth_getBlockReceipts')?.result, [
    { address: '0x1', logIndex: '0x0' },
    { address: '0x2', logIndex: '0x1' },
  ]);
  assert.deepEqual(gateway.records.find((r) => r.method === 'eth_getCode')?.error, { code: -32000, message: 'header not found' });
});

test('a node that cannot be reached: graph-node gets an error, and nothing is recorded (it asks again)', async () => {
  const down = await startRecordingGateway(new RpcClient(endpointFromUrl('http://127.0.0.1:9'), { timeoutMs: 2000, retry: { retries: 0 } }), 7);
  try {
    const res = await fetch(down.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x1', data: '0x' }, '0x1'] }) });
    const body = (await res.json()) as { error?: { code: number } };
    assert.equal(body.error?.code, -32603);
    assert.equal(down.records.length, 0);
  } finally {
    await down.close();
  }
});

test('a node that hands out huge logs again and again: recording stops at the byte bound and the gateway says it overflowed', async () => {
  const log = { address: '0x1', topics: ['0x' + 'ab'.repeat(32)], data: '0x' + '00'.repeat(100_000), blockNumber: '0x1', blockHash: '0xaa', transactionHash: '0xbb', logIndex: '0x0' };
  const big = await startRpcServer({ eth_getLogs: { result: [log, log, log, log, log] } });
  const bounded = await startRecordingGateway(new RpcClient(endpointFromUrl(big.url), { retry: { retries: 0 } }), 7, undefined, 3_000_000);
  try {
    for (let id = 1; id <= 8; id++) {
      const res = await fetch(bounded.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x1' }] }) });
      assert.equal(((await res.json()) as { result: unknown[] }).result.length, 5, 'graph-node still gets its answer');
    }
    assert.equal(bounded.overflowed, true);
    assert.ok(bounded.records.length <= 3, `${bounded.records.length} records kept`);
  } finally {
    await bounded.close();
    await big.close();
  }
});
