/**
 * The decoder's slot reads against an in-memory node: batches of the size asked, a few in flight,
 * halved when the node says a batch is too large; cancellation and failures as one error each;
 * the read bound; the block checks of each round.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcFailure } from '../../../../../src/core/rpc/failure';
import type { RpcCall } from '../../../../../src/core/rpc/types';
import { SlotReader } from '../../../../../src/core/storage/decode/read';
import { StorageDecodeError } from '../../../../../src/core/storage/decode/errors';
import type { StorageRpc } from '../../../../../src/core/storage/types';

const ADDRESS = '0x00000000000000000000000000000000000000aa';
const HASH = `0x${'ab'.repeat(32)}`;
const BLOCK = { number: 16, hash: HASH };
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

/** A node whose storage holds slot × 10 at every slot; `refuse` may throw instead of answering a batch, `answer` replace a call's answer. */
function node(
  refuse: (calls: readonly RpcCall[]) => Error | undefined = () => undefined,
  answer: (call: RpcCall) => { result: unknown } | { error: RpcFailure } | undefined = () => undefined,
) {
  const batches: number[] = [];
  const sent: RpcCall[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const rpc: StorageRpc = {
    call: () => Promise.reject(new Error('no single calls')),
    async batch(calls, options) {
      batches.push(calls.length);
      sent.push(...calls);
      signals.push(options?.signal);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const failure = refuse(calls);
      if (failure) throw failure;
      const response = { jsonrpc: '2.0' as const, id: 1, result: null };
      return calls.map((c) => ({
        response,
        ...(answer(c) ?? { result: c.method === 'eth_getBlockByNumber' ? { number: '0x10', hash: HASH } : word(BigInt((c.params as string[])[1]) * 10n) }),
      }));
    },
  };
  return { rpc, batches, sent, signals, mostInFlight: () => mostInFlight };
}

const slots = (n: number) => Array.from({ length: n }, (_, i) => BigInt(i));

test('calls go in batches of the size asked, at most `concurrency` in flight; every word is kept', async () => {
  const n = node();
  const reader = new SlotReader(n.rpc, ADDRESS, [BLOCK], { batchSize: 3, concurrency: 2 });
  await reader.round(slots(10), [], false);
  assert.deepEqual(n.batches, [3, 3, 3, 1]);
  assert.equal(n.mostInFlight(), 2);
  assert.deepEqual(reader.stats, { roundTrips: 1, requests: 4, reads: 10 });
  assert.deepEqual(reader.known.get(7n), [70n]);
  assert.equal(reader.known.size, 10);
});

test('a batch the node calls too large is sent again in halves, down to single calls; the words are the same', async () => {
  const n = node((calls) => (calls.length > 2 ? new RpcFailure('rpc', 'batch size too large', { code: -32600 }) : undefined));
  const reader = new SlotReader(n.rpc, ADDRESS, [BLOCK], { batchSize: 8, concurrency: 1 });
  await reader.round(slots(5), [], false);
  assert.deepEqual(n.batches, [5, 2, 3, 1, 2]);
  assert.deepEqual(
    [...reader.known.entries()].map(([slot, [w]]) => [slot, w]),
    slots(5).map((s) => [s, s * 10n]),
  );
  assert.equal(reader.stats.requests, 5);
  const single = node(() => new RpcFailure('server', 'HTTP 413', { status: 413 }));
  await assert.rejects(new SlotReader(single.rpc, ADDRESS, [BLOCK], { batchSize: 1 }).round([1n], [], false), (err: StorageDecodeError) => {
    assert.equal(err.message, 'reading storage failed: HTTP 413');
    assert.equal(err.reason, 'read');
    return true;
  });
  assert.deepEqual(single.batches, [1], 'a single call is not split');
  // The second of two single calls refused: not split either.
  const second = node((calls) => (calls.some((c) => (c.params as string[])[1] === word(2n)) ? new RpcFailure('server', 'HTTP 413', { status: 413 }) : undefined));
  await assert.rejects(new SlotReader(second.rpc, ADDRESS, [BLOCK], { batchSize: 1, concurrency: 1 }).round([1n, 2n], [], false), { message: 'reading storage failed: HTTP 413' });
  assert.deepEqual(second.batches, [1, 1], 'nor one further on in the list');
});

test('each batch carries the caller’s signal', async () => {
  const abort = new AbortController();
  const n = node();
  await new SlotReader(n.rpc, ADDRESS, [BLOCK], { signal: abort.signal, batchSize: 1 }).round([1n, 2n], [], false);
  assert.deepEqual(n.signals, [abort.signal, abort.signal]);
});

test('cancelled: before a batch, or by the node’s client, is one cancelled error; other failures say reading failed; anything else passes through', async () => {
  const abort = new AbortController();
  abort.abort();
  const n = node();
  const before = new SlotReader(n.rpc, ADDRESS, [BLOCK], { signal: abort.signal });
  await assert.rejects(
    before.round([1n], [], false),
    (err: StorageDecodeError) => err instanceof StorageDecodeError && err.cancelled && String(err) === 'StorageDecodeError: Storage decode cancelled',
  );
  assert.deepEqual(n.batches, [], 'nothing sent');
  const byClient = new SlotReader(node(() => new RpcFailure('cancelled', 'cancelled')).rpc, ADDRESS, [BLOCK]);
  await assert.rejects(byClient.round([1n], [], false), (err: StorageDecodeError) => err.reason === 'cancelled' && err.cancelled);
  const failing = new SlotReader(node(() => new RpcFailure('unreachable', 'connect ECONNREFUSED')).rpc, ADDRESS, [BLOCK]);
  await assert.rejects(
    failing.round([1n], [], false),
    (err: StorageDecodeError) => err.reason === 'read' && !err.cancelled && err.message === 'reading storage failed: connect ECONNREFUSED',
  );
  const odd = new TypeError('not a failure of the node');
  await assert.rejects(new SlotReader(node(() => odd).rpc, ADDRESS, [BLOCK]).round([1n], [], false), (err) => err === odd);
});

test('the read bound: a round that would pass it fails before sending, naming the bound', async () => {
  const n = node();
  const reader = new SlotReader(n.rpc, ADDRESS, [BLOCK, { number: 17, hash: HASH }], { maxReads: 6 });
  await reader.round(slots(3), [], false);
  await assert.rejects(reader.round([9n], [], false), (err: StorageDecodeError) => {
    assert.equal(err.reason, 'limit');
    assert.equal(err.message, 'the decode needs more than 6 slot reads; name fewer mapping keys with --keys, or decode a smaller contract');
    return true;
  });
  assert.equal(n.batches.length, 1);
  assert.equal(reader.stats.reads, 6, 'exactly at the bound is allowed');
});

test('a checked round asks for each block with the extra calls first; their results come back in order', async () => {
  const n = node();
  const reader = new SlotReader(n.rpc, ADDRESS, [BLOCK]);
  const extra = await reader.round([2n], [{ method: 'eth_getBlockByNumber', params: ['0x1', false] }]);
  assert.deepEqual(extra, [{ number: '0x10', hash: HASH }]);
  assert.deepEqual(n.batches, [3], 'the extra call, the block check, the slot');
  assert.deepEqual(n.sent[1], { method: 'eth_getBlockByNumber', params: ['0x10', false] }, 'the block without its transactions');
  assert.deepEqual(n.sent[2], { method: 'eth_getStorageAt', params: [ADDRESS, word(2n), '0x10'] });
  assert.deepEqual(reader.known.get(2n), [20n]);
  // The hash is compared in any case.
  const upper = node(undefined, (c) => (c.method === 'eth_getBlockByNumber' ? { result: { hash: HASH.toUpperCase().replace('0X', '0x') } } : undefined));
  await new SlotReader(upper.rpc, ADDRESS, [BLOCK]).round([2n]);
});

test('a checked round fails on the block check’s error, a block gone or changed (a reorganisation), a slot’s error or a slot that is no word', async () => {
  const failure = new RpcFailure('rpc', 'header not found', { code: -32000 });
  const cases: [(call: RpcCall) => { result: unknown } | { error: RpcFailure } | undefined, string, string][] = [
    [(c) => (c.method === 'eth_getBlockByNumber' ? { error: failure } : undefined), 'read', 'checking block 16 failed: header not found'],
    [(c) => (c.method === 'eth_getBlockByNumber' ? { result: null } : undefined), 'reorg', `block 16 changed while it was read (now gone, was ${HASH}): a reorganisation; run again`],
    [(c) => (c.method === 'eth_getBlockByNumber' ? { result: { hash: 7 } } : undefined), 'reorg', `block 16 changed while it was read (now gone, was ${HASH}): a reorganisation; run again`],
    [
      (c) => (c.method === 'eth_getBlockByNumber' ? { result: { hash: `0x${'cd'.repeat(32)}` } } : undefined),
      'reorg',
      `block 16 changed while it was read (now 0x${'cd'.repeat(32)}, was ${HASH}): a reorganisation; run again`,
    ],
    [(c) => (c.method === 'eth_getStorageAt' ? { error: failure } : undefined), 'read', 'reading slot 0x2 at block 16 failed: header not found'],
  ];
  for (const [answer, reason, message] of cases) {
    await assert.rejects(new SlotReader(node(undefined, answer).rpc, ADDRESS, [BLOCK]).round([2n]), (err: StorageDecodeError) => {
      assert.equal(err.message, message);
      assert.equal(err.reason, reason);
      return true;
    });
  }
  await assert.rejects(
    new SlotReader(node(undefined, (c) => (c.method === 'eth_getStorageAt' ? { result: 'nope' } : undefined)).rpc, ADDRESS, [BLOCK]).round([2n]),
    (err: StorageDecodeError) => {
      assert.match(err.message, /^reading slot 0x2 at block 16 failed: ./);
      assert.equal(err.reason, 'read');
      return true;
    },
  );
});
