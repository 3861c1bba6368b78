/**
 * One transaction's writes from the trace of its block, against a loopback node that answers as a
 * prestateTracer in diffMode does (what anvil cannot be made to answer: other accounts in the
 * trace, zeros left out, a tracer that ignores diffMode, a short trace, another transaction at the
 * index, a reorganisation): diffMode's rules give before and after, the block's earlier
 * transactions give the overlay, and every refusal is one line of ours.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak256 } from 'ethers';
import { resolveEndpoint } from '../../../../../src/core/nodes/endpoint';
import { RpcClient } from '../../../../../src/core/rpc/client';
import { StorageDecodeError } from '../../../../../src/core/storage/decode/errors';
import { rawTxDiff, traceTransaction, txStorageDiff } from '../../../../../src/core/storage/decode/txDiff';
import { rejectionOf, startRpcServer, type RpcServer } from '../../../../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const OTHER = '0x00000000000000000000000000000000000000aa';
const TX = `0x${'11'.repeat(32)}`;
const EARLIER = `0x${'22'.repeat(32)}`;
const BLOCK_HASH = `0x${'b1'.repeat(32)}`;
const PARENT_HASH = `0x${'b0'.repeat(32)}`;
const word = (n: bigint | number) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
const account = (storage: Record<string, string>, extra: object = {}) => ({ balance: '0x0', nonce: 1, storage, ...extra });

let node: RpcServer;
let client: RpcClient;
/** The trace of block 5: the earlier transaction at index 0, ours at index 1. */
let traces: unknown[];

before(async () => {
  node = await startRpcServer();
  client = new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: node.url, auth: 'none' }, {}));
});
after(() => node.close());

beforeEach(() => {
  traces = [
    // The earlier transaction: slot 1 from 0 to 7 (only in post), slot 2 from 9 to 0 (only in pre).
    { txHash: EARLIER, result: { pre: { [ADDRESS.toLowerCase()]: account({ [word(2)]: word(9) }) }, post: { [ADDRESS.toLowerCase()]: account({ [word(1)]: word(7) }) } } },
    // Ours: slot 1 from 7 to 8; slot 3 stored again with its value (no change); slot 4 from 5 to 0; another account's slot 1.
    {
      txHash: TX,
      result: {
        pre: { [ADDRESS]: account({ [word(1)]: word(7), [word(3)]: word(3), [word(4)]: word(5) }), [OTHER]: account({ [word(1)]: word(100) }) },
        post: { [ADDRESS.toLowerCase()]: account({ [word(1)]: word(8), [word(3)]: word(3) }), [OTHER]: account({ [word(1)]: word(101) }) },
      },
    },
  ];
  node.clear();
  node.methods = {
    eth_getTransactionByHash: (params) => ({ result: (params as string[])[0] === TX ? { blockNumber: '0x5', blockHash: BLOCK_HASH, transactionIndex: '0x1' } : null }),
    debug_traceBlockByNumber: () => ({ result: traces }),
    eth_getBlockByNumber: (params) => {
      const n = (params as string[])[0];
      return { result: n === '0x5' ? { number: '0x5', hash: BLOCK_HASH, transactions: [EARLIER, TX] } : n === '0x4' ? { number: '0x4', hash: PARENT_HASH, transactions: [] } : null };
    },
  };
});

describe('traceTransaction', () => {
  test("before and after by diffMode's rules, the earlier transaction as the overlay; other accounts and unchanged stores left out", async () => {
    const trace = await traceTransaction(client, TX, ADDRESS.toLowerCase());
    assert.deepEqual(
      [...trace.writes],
      [
        [1n, [7n, 8n]],
        [4n, [5n, 0n]],
      ],
    );
    assert.deepEqual(
      [...trace.earlier],
      [
        [2n, 0n],
        [1n, 7n],
      ],
    );
    assert.deepEqual(trace.block, { number: 5, hash: BLOCK_HASH });
    assert.deepEqual(trace.parent, { number: 4, hash: PARENT_HASH });
    assert.equal(trace.created, false);
  });

  test('exactly one trace call, in two round trips: the lookup, then the trace beside the block and its parent', async () => {
    const trace = await traceTransaction(client, TX, ADDRESS);
    assert.deepEqual(
      node.calls.map((c) => c.method),
      ['eth_getTransactionByHash', 'debug_traceBlockByNumber', 'eth_getBlockByNumber', 'eth_getBlockByNumber'],
    );
    assert.deepEqual(node.calls[1].params, ['0x5', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    assert.equal(node.requests.length, 2);
    assert.deepEqual(trace.stats, { roundTrips: 2, requests: 2, reads: 0 });
  });

  test('a contract created in the block (in post with code, not in pre) is marked created', async () => {
    traces[0] = { txHash: EARLIER, result: { pre: {}, post: { [ADDRESS.toLowerCase()]: account({ [word(0)]: word(1) }, { code: '0x6080' }) } } };
    const trace = await traceTransaction(client, TX, ADDRESS);
    assert.equal(trace.created, true);
    assert.deepEqual([...trace.earlier], [[0n, 1n]]);
  });

  const failure = async (reason: string, says: string | RegExp) => {
    const err = await rejectionOf(traceTransaction(client, TX, ADDRESS), StorageDecodeError);
    assert.equal(err.reason, reason, err.message);
    if (typeof says === 'string') assert.ok(err.message.includes(says), err.message);
    else assert.match(err.message, says);
    assert.doesNotMatch(err.message, /\n/);
  };

  test("ganache's refusal of the method: the node cannot trace a transaction's state diff", async () => {
    node.methods.debug_traceBlockByNumber = { error: { code: -32700, message: 'The method debug_traceBlockByNumber does not exist/is not available' } };
    await failure('trace', /^the node cannot trace a transaction's state diff \(debug_traceBlockByNumber: .*The method .* does not exist\/is not available\): a transaction's diff needs/);
  });

  test('a prestateTracer that ignores diffMode (no pre and post): cannot trace', async () => {
    traces[1] = { txHash: TX, result: { [ADDRESS.toLowerCase()]: account({ [word(1)]: word(7) }) } };
    await failure('trace', 'the prestateTracer ignored diffMode');
  });

  test('a trace shorter than the block: no diff', async () => {
    traces.pop();
    await failure('read', 'the node traced 1 of 2 transactions in block 5');
  });

  test('another transaction at the index: refused', async () => {
    (traces[1] as { txHash: string }).txHash = EARLIER;
    await failure('read', `trace 1 of block 5 is of transaction ${EARLIER}, not ${TX}`);
  });

  test('a transaction the node could not trace: its error, on one line', async () => {
    traces[0] = { txHash: EARLIER, error: 'execution timeout\nat step 5' };
    await failure('read', 'tracing transaction 0 of block 5 failed: execution timeout');
  });

  test('the block now has another hash: a reorganisation', async () => {
    node.methods.eth_getTransactionByHash = { result: { blockNumber: '0x5', blockHash: `0x${'cc'.repeat(32)}`, transactionIndex: '0x1' } };
    await failure('reorg', 'a reorganisation');
  });

  test('a pending transaction, and an unknown one', async () => {
    node.methods.eth_getTransactionByHash = { result: { blockNumber: null, blockHash: null, transactionIndex: null } };
    await failure('read', `transaction ${TX} is not in a block yet (pending)`);
    node.methods.eth_getTransactionByHash = { result: null };
    await failure('read', `no transaction ${TX} on the node`);
  });
});

test('rawTxDiff: the written slots in slot order, 32-byte hex; nothing read but the trace', async () => {
  const diff = await rawTxDiff(client, TX, { address: ADDRESS });
  assert.deepEqual(diff.changes, [
    { slot: word(1), before: word(7), after: word(8) },
    { slot: word(4), before: word(5), after: word(0) },
  ]);
  assert.ok(!node.calls.some((c) => c.method === 'eth_getStorageAt'));
});

describe('txStorageDiff', () => {
  const UINT = { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' } as const;
  const layout = {
    storage: [
      { label: 'list', slot: '1', offset: 0, type: 'uint256[]', typeId: 't_array(t_uint256)dyn_storage', numberOfBytes: 32 },
      { label: 'flag', slot: '2', offset: 0, type: 'uint256', typeId: 't_uint256', numberOfBytes: 32 },
    ],
    types: { t_uint256: UINT, 't_array(t_uint256)dyn_storage': { encoding: 'dynamic_array', label: 'uint256[]', numberOfBytes: '32', base: 't_uint256' } as const },
  };
  const listData = BigInt(keccak256(word(1)));

  test('a write to an element an earlier transaction of the block pushed is found through the overlaid length; a slot no variable reaches is named in a warning', async () => {
    // Earlier: list.length 0 → 1 and list[0] 0 → 4. Ours: list[0] 4 → 6, and slot 9, which no variable reaches.
    traces[0] = { txHash: EARLIER, result: { pre: {}, post: { [ADDRESS.toLowerCase()]: account({ [word(1)]: word(1), [word(listData)]: word(4) }) } } };
    traces[1] = {
      txHash: TX,
      result: { pre: { [ADDRESS.toLowerCase()]: account({ [word(listData)]: word(4) }) }, post: { [ADDRESS.toLowerCase()]: account({ [word(listData)]: word(6), [word(9)]: word(1) }) } },
    };
    // At the parent block the list is empty and the flag set: read, not written, so not a change.
    const parent = new Map([[2n, 5n]]);
    node.methods.eth_getStorageAt = (params) => ({ result: word(parent.get(BigInt((params as string[])[1])) ?? 0n) });
    node.methods.eth_getCode = { result: '0x6080' };
    node.methods.eth_getLogs = { result: [] };
    const warnings: string[] = [];
    const diff = await txStorageDiff(client, layout, TX, { address: ADDRESS, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(diff.changes, [{ path: 'list[0]', slot: `0x${listData.toString(16)}`, before: '4', after: '6' }]);
    assert.deepEqual(warnings, ['1 slot(s) the transaction changed are not reached by the layout (a mapping entry whose key no log names, or storage outside the layout): 0x9']);
    // Reads at the parent block only; the logs searched up to the transaction's block.
    assert.ok(node.calls.filter((c) => c.method === 'eth_getStorageAt').every((c) => (c.params as string[])[2] === '0x4'));
    assert.deepEqual((node.calls.find((c) => c.method === 'eth_getLogs')!.params as { toBlock: string }[])[0].toBlock, '0x5');
  });
});
