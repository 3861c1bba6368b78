/**
 * Edges of the storage range left open by the other storage suites (found by mutation testing):
 * what a node's odd answers to eth_getStorageAt read as, the last key of the key space, the
 * 10 × max read budget near it, progress, the caller's signal reaching every call, how each kind of
 * batch failure is treated (a bug, a cancel, the deadline, "too large" worded differently), the
 * concurrency bound, the native keys' order when nodes differ in case or send junk, auto mode's
 * memory not leaking into native mode, and the block lookup's refusal of odd answers.
 *
 * The node is an in-process StorageRpc, as in native.test.ts: it answers from a map and
 * logs every call, batch and the signal it was given.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcFailure } from '../../../../src/core/rpc/failure';
import type { BatchItem } from '../../../../src/core/rpc/jsonrpc';
import type { CallOptions, RpcCall } from '../../../../src/core/rpc/types';
import { lookupBlock } from '../../../../src/core/storage/block';
import { interpretRead, scanFast, scanOneByOne, windowSize, type ScanParams } from '../../../../src/core/storage/emulate';
import { StorageRangeError } from '../../../../src/core/storage/errors';
import { MAX_SLOT, parseBlockRef, word } from '../../../../src/core/storage/inputs';
import { isMethodUnavailable, nativeRange } from '../../../../src/core/storage/native';
import { storageRange, toSpecOutput } from '../../../../src/core/storage/range';
import type { StorageProgress, StorageRpc } from '../../../../src/core/storage/types';
import { rejectionOf } from '../../../support/rpcNode';

const ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const CHECKSUM = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;

type Handler = (params: unknown[]) => unknown;

/** A node in process: handlers per method (throw to answer with an error), storage values, and a log of what was asked. */
class Node implements StorageRpc {
  readonly log: string[] = [];
  readonly batches: number[] = [];
  readonly signals: (AbortSignal | undefined)[] = [];
  slotsAsked = 0;
  inFlight = 0;
  maxInFlight = 0;
  /** Thrown by the next batch calls (then cleared). */
  batchThrows: unknown[] = [];
  /** Errors for single reads of a slot within a batch only (e.g. a rate limit). */
  readonly batchSlotErrors = new Map<bigint, RpcFailure>();

  constructor(
    readonly values = new Map<bigint, string>(),
    readonly methods: Record<string, Handler> = {},
  ) {}

  private answer(method: string, params: unknown[]): unknown {
    if (this.methods[method]) return this.methods[method](params);
    if (method === 'eth_getBlockByNumber' || method === 'eth_getBlockByHash') return { number: '0x10', hash: HASH };
    if (method === 'eth_getStorageAt') {
      this.slotsAsked++;
      return this.values.get(BigInt(params[1] as string)) ?? word(0n);
    }
    throw new RpcFailure('rpc', `the method ${method} does not exist/is not available`, { code: -32601 });
  }

  async call<T = unknown>(method: string, params: unknown = [], options: CallOptions = {}): Promise<T> {
    this.log.push(`call ${method}`);
    this.signals.push(options.signal);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setImmediate(r));
      if (options.signal?.aborted) throw new RpcFailure('cancelled', 'cancelled');
      const result = this.answer(method, params as unknown[]) as T;
      this.log.push(`answered ${method}`);
      return result;
    } finally {
      this.inFlight--;
    }
  }

  async batch(calls: readonly RpcCall[], options: CallOptions = {}): Promise<BatchItem[]> {
    this.log.push(`batch ${calls.length}`);
    this.batches.push(calls.length);
    this.signals.push(options.signal);
    await new Promise((r) => setImmediate(r));
    const thrown = this.batchThrows.shift();
    if (thrown !== undefined) throw thrown;
    if (options.signal?.aborted) throw new RpcFailure('cancelled', 'cancelled');
    return calls.map((c) => {
      const slotError = this.batchSlotErrors.get(BigInt((c.params as string[])[1]));
      if (slotError) {
        this.batchSlotErrors.delete(BigInt((c.params as string[])[1]));
        return { error: slotError };
      }
      const result = this.answer(c.method, c.params as unknown[]);
      return { result, response: { jsonrpc: '2.0', id: 1, result } };
    });
  }
}

const storageError = (promise: Promise<unknown>) => rejectionOf(promise, StorageRangeError);

const params = (start: bigint, maxResults = 10): ScanParams => ({ address: CHECKSUM, blockNumber: 16, start, maxResults });
const filled = (from: bigint, count: number) => new Map(Array.from({ length: count }, (_, k) => [from + BigInt(k), word(BigInt(k) + 1n)] as const));

describe("a node's answer to eth_getStorageAt", () => {
  test('only a string of 0x and at most 64 hex digits is a value; anything else is a failed read quoting at most 80 characters', () => {
    assert.deepEqual(interpretRead('0x2A'), { ok: true, value: word(0x2an) });
    for (const answer of [['0x2a'], 'ab0x2a', 42, null]) {
      assert.deepEqual(interpretRead(answer), { ok: false, reason: `the node answered ${JSON.stringify(answer)}, not a 32-byte hex value` });
    }
    assert.deepEqual(interpretRead(undefined), { ok: false, reason: 'the node answered nothing, not a 32-byte hex value' });
    const long = `0x${'a'.repeat(100)}`;
    assert.deepEqual(interpretRead(long), { ok: false, reason: `the node answered ${JSON.stringify(long).slice(0, 80)}, not a 32-byte hex value` });
  });

  test("a failed read of a slot is the spec's warning line, and the scan goes on", async () => {
    const node = new Node(new Map([[1n, word(5n)]]), { eth_getStorageAt: (p) => (BigInt(p[1] as string) === 0n ? ['0x2a'] : BigInt(p[1] as string) === 1n ? word(5n) : word(0n)) });
    const result = await scanOneByOne(node, params(0n, 1));
    assert.deepEqual(result.warnings, ['Warning: failed to read slot 0x0: the node answered ["0x2a"], not a 32-byte hex value; skipped']);
    assert.deepEqual(result.entries, [{ slot: 1n, value: word(5n) }]);
  });
});

describe('the end of the key space and the read budget', () => {
  test('the last key (2^256 - 1) is read; a full page ending there has no nextKey', async () => {
    const node = new Node(new Map([[MAX_SLOT, word(9n)]]));
    for (const emulation of ['fast', 'one-by-one'] as const) {
      const result = await storageRange(node, { block: 16, address: ADDRESS, mode: 'emulate', startKey: 'f'.repeat(64), maxResults: 1, emulation });
      assert.deepEqual(result.storage, { [`0x${'f'.repeat(64)}`]: { key: null, value: word(9n) } }, emulation);
      assert.equal(result.nextKey, null, emulation);
    }
  });

  test('near the end of the key space the fast scan asks no slot beyond the budget, in as few batches as the reference allows', async () => {
    // Max 1: a budget of 10 reads; 11 keys left. The first batch is the 1 entry wanted, the second the 9 reads left.
    const node = new Node();
    const result = await scanFast(node, params(MAX_SLOT - 10n, 1));
    assert.deepEqual(node.batches, [1, 9]);
    assert.equal(node.slotsAsked, 10);
    assert.equal(result.reads, 10);
    assert.equal(result.nextSlot, null);
  });

  test('windowSize after a half-dense window: mean plus two deviations of the negative binomial', () => {
    // p = 5.5/11, pLow = p - 1.5·sqrt(p(1-p)/11); 10/pLow + 2·sqrt(10(1-pLow))/pLow = 56.2.
    assert.equal(windowSize(5, 10, 10, 100, 200), 57);
  });
});

describe("progress and the caller's signal", () => {
  test('progress reports reads, entries, the read budget and max results after each round trip', async () => {
    for (const scan of [scanOneByOne, scanFast]) {
      const seen: StorageProgress[] = [];
      await scan(new Node(filled(0n, 2)), params(0n, 2), { onProgress: (p) => seen.push(p) });
      assert.deepEqual(seen.at(-1), { slotsRead: 2, entriesFound: 2, maxReads: 20, maxResults: 2 }, scan.name);
    }
  });

  test("every call of the range carries the caller's signal, so a cancel stops the call in flight", async () => {
    const signal = new AbortController().signal;
    for (const emulation of ['fast', 'one-by-one'] as const) {
      const node = new Node(filled(0n, 3));
      await storageRange(node, { block: 'latest', address: ADDRESS, mode: 'emulate', maxResults: 3, emulation, signal });
      assert.ok(node.signals.length >= 2 && node.signals.every((s) => s === signal), emulation);
    }
  });

  test('an already cancelled scan sends no read', async () => {
    const controller = new AbortController();
    controller.abort();
    for (const scan of [scanOneByOne, scanFast]) {
      const node = new Node(filled(0n, 3));
      const err = await storageError(scan(node, params(0n), { signal: controller.signal }));
      assert.equal(err.message, 'Storage range cancelled', scan.name);
      assert.deepEqual(node.log, [], scan.name);
    }
  });

  test('a read cancelled by the transport is a cancelled range, not a warning', async () => {
    const node = new Node(new Map(), {
      eth_getStorageAt: () => {
        throw new RpcFailure('cancelled', 'cancelled');
      },
    });
    const err = await storageError(scanOneByOne(node, params(0n)));
    assert.equal(err.reason, 'cancelled');
    assert.equal(err.message, 'Storage range cancelled');
  });

  test('an error that is not a node failure (a bug) is not turned into a warning: it passes through', async () => {
    const bug = new TypeError('bug');
    const node = new Node(new Map(), {
      eth_getStorageAt: () => {
        throw bug;
      },
    });
    await assert.rejects(scanOneByOne(node, params(0n)), (err) => err === bug);
    const batchBug = new Node();
    batchBug.batchThrows.push(bug);
    await assert.rejects(scanFast(batchBug, params(0n)), (err) => err === bug);
  });
});

describe('how the fast scan treats a failed batch', () => {
  test('a batch cancelled by the transport cancels the range', async () => {
    const node = new Node(filled(0n, 3));
    node.batchThrows.push(new RpcFailure('cancelled', 'cancelled'));
    const err = await storageError(scanFast(node, params(0n, 3)));
    assert.equal(err.reason, 'cancelled');
    assert.deepEqual(node.log, ['batch 3']);
  });

  test("a batch failing on the operation's deadline fails the range, naming why", async () => {
    const node = new Node(filled(0n, 3));
    node.batchThrows.push(new RpcFailure('timeout', 'the node did not answer within 5 s', { outOfTime: true }));
    const err = await storageError(scanFast(node, params(0n, 3)));
    assert.equal(err.reason, 'timeout');
    assert.equal(err.message, 'Storage range not finished: the node did not answer within 5 s');
  });

  test('"too large" in other words still halves the batch and keeps batches', async () => {
    for (const message of ['Batch of 10 requests is too large', 'request limit exceeded for this batch']) {
      const node = new Node(filled(0n, 10));
      node.batchThrows.push(new RpcFailure('rpc', message, { code: -32600 }));
      const result = await scanFast(node, params(0n));
      assert.equal(result.strategy, 'batch', message);
      assert.deepEqual(node.batches, [10, 5, 5], message);
    }
  });

  test('a node refusing batches gets single calls, at most `concurrency` in flight, a whole window at a time', async () => {
    for (const concurrency of [2, 3]) {
      const node = new Node(filled(0n, 10));
      node.batchThrows.push(new RpcFailure('http', 'HTTP 400', { status: 400 }));
      const seen: number[] = [];
      const result = await scanFast(node, params(0n), { onProgress: (p) => seen.push(p.slotsRead) }, { concurrency, maxBatch: 2 });
      assert.equal(result.strategy, 'concurrent');
      assert.equal(result.entries.length, 10);
      assert.equal(node.maxInFlight, concurrency);
      assert.deepEqual(seen, [10], 'the batch cap does not limit single calls');
    }
  });

  test('a rate limit inside a batch: that slot is read again with single calls, which succeed', async () => {
    const node = new Node(filled(0n, 10));
    node.batchSlotErrors.set(3n, new RpcFailure('rpc', 'rate limit reached', { code: -32005 }));
    const result = await storageRange(node, { block: 16, address: ADDRESS, mode: 'emulate' });
    assert.equal(Object.keys(result.storage).length, 10);
    assert.deepEqual(result.warnings, []);
    assert.equal(result.emulation?.strategy, 'concurrent');
  });

  test('a failed lookup fails the page with its error: the reads beside it are dropped unrecorded, nothing more is sent', async () => {
    const node = new Node(filled(0n, 3), { eth_getBlockByNumber: () => null });
    const seen: StorageProgress[] = [];
    const warned: string[] = [];
    node.batchSlotErrors.set(1n, new RpcFailure('rpc', 'slot unreadable', { code: -32000 }));
    const err = await storageError(storageRange(node, { block: 16, address: ADDRESS, mode: 'emulate', onProgress: (p) => seen.push(p), onWarning: (l) => warned.push(l) }));
    assert.equal(err.message, 'Failed to get block: block 16 (0x10) not found');
    assert.deepEqual([seen, warned, node.log], [[], [], ['batch 102']]);
  });
});

describe('the native method', () => {
  test('keys equal in value but not in spelling sort by spelling (keys that are not hex are refused: storage.native.test.ts)', async () => {
    const orders = [
      ['0xab', '0xAB'],
      ['0xAB', '0xab'],
      ['0x02', '0x0001', '0x01'],
    ];
    const expected = [
      ['0xAB', '0xab'],
      ['0xAB', '0xab'],
      ['0x0001', '0x01', '0x02'],
    ];
    for (const [i, keys] of orders.entries()) {
      const storage = Object.fromEntries(keys.map((k) => [k, { key: null, value: word(1n) }]));
      const range = await nativeRange(new Node(new Map(), { debug_storageRangeAt: () => ({ storage, nextKey: null }) }), {
        blockHash: HASH,
        txIndex: 0,
        address: CHECKSUM,
        startKey: word(0n),
        maxResults: 10,
      });
      assert.deepEqual(Object.keys(range.storage), expected[i], keys.join());
    }
  });

  test('no result at all (undefined, like null) means the method is unavailable', async () => {
    const err = await storageError(
      nativeRange(new Node(new Map(), { debug_storageRangeAt: () => undefined }), { blockHash: HASH, txIndex: 0, address: CHECKSUM, startKey: word(0n), maxResults: 10 }),
    );
    assert.equal(err.reason, 'native-unavailable');
    assert.equal(err.message, 'debug_storageRangeAt is not available on this node (the node answered null, as Reth does for this method); use the emulation (mode emulate)');
  });

  test('anvil\'s "untagged enum EthRpcCall" means no such method only with code -32602', () => {
    const text = 'data did not match any variant of untagged enum EthRpcCall';
    assert.equal(isMethodUnavailable(new RpcFailure('rpc', text, { code: -32602 })), true);
    assert.equal(isMethodUnavailable(new RpcFailure('rpc', text, { code: -32603 })), false);
    assert.equal(isMethodUnavailable(new RpcFailure('http', text)), false);
  });

  test('native mode on a client auto mode found without the method still asks the method, and fails', async () => {
    const node = new Node(filled(0n, 3));
    await storageRange(node, { block: 16, address: ADDRESS });
    const err = await storageError(storageRange(node, { block: 16, address: ADDRESS, mode: 'native' }));
    assert.equal(err.reason, 'native-unavailable');
    assert.equal(err.message, 'debug_storageRangeAt is not available on this node (the method debug_storageRangeAt does not exist/is not available); use the emulation (mode emulate)');
  });

  test('the first batch travels with the lookup up to block 2^53 - 1 included', async () => {
    const node = new Node();
    node.methods.eth_getBlockByNumber = () => ({ number: '0x1fffffffffffff', hash: HASH });
    await storageRange(node, { block: Number.MAX_SAFE_INTEGER, address: ADDRESS, mode: 'emulate' });
    // The lookup, the page's 100 reads and the check of the block at that number.
    assert.deepEqual(node.log, ['batch 102']);
  });
});

describe('toSpecOutput and the block lookup', () => {
  test('an object whose storage is not an object is a failure in the spec form, not a result', () => {
    const odd = { storage: 'none', nextKey: null };
    assert.deepEqual(toSpecOutput(odd), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: '[object Object]' } });
  });

  test("the lookup passes the caller's signal", async () => {
    const signal = new AbortController().signal;
    const node = new Node();
    assert.deepEqual(await lookupBlock(node, parseBlockRef(16), signal), { number: 16, hash: HASH });
    assert.deepEqual(node.signals, [signal]);
  });

  test('a block whose number or hash is not a string is refused, quoting at most 120 characters', async () => {
    for (const block of [
      { number: ['0x10'], hash: HASH },
      { number: '0x10', hash: [HASH] },
      { number: null, hash: null, pad: 'p'.repeat(300) },
    ]) {
      const node = new Node(new Map(), { eth_getBlockByNumber: () => block });
      const err = await storageError(lookupBlock(node, parseBlockRef(16)));
      assert.equal(err.reason, 'block');
      assert.equal(err.message, `Failed to get block: the node's answer for block 16 (0x10) has no number and hash: ${JSON.stringify(block).slice(0, 120)}`);
    }
  });
});
