/**
 * The native method and the mode switch of storageRange, in process: which failures mean "the node
 * has no debug_storageRangeAt" (and only those let auto mode fall back), the result's key order and
 * shape checks, the parameters sent, auto mode remembering a node without the method, the early
 * first batch of the emulation, and the spec's output form. The same paths run against anvil and
 * ganache in test/integration; these make the fast layer catch their mistakes too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcFailure, type RpcFailureKind } from '../../../../src/core/rpc/failure';
import type { BatchItem } from '../../../../src/core/rpc/jsonrpc';
import type { CallOptions, RpcCall } from '../../../../src/core/rpc/types';
import { isConnectFailure, lookupBlock } from '../../../../src/core/storage/block';
import { StorageRangeError } from '../../../../src/core/storage/errors';
import { parseBlockRef } from '../../../../src/core/storage/inputs';
import { isMethodUnavailable, nativeRange } from '../../../../src/core/storage/native';
import { storageRange, toSpecOutput } from '../../../../src/core/storage/range';
import type { StorageRpc } from '../../../../src/core/storage/types';
import { rejectionOf } from '../../../support/rpcNode';

const ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;
const word = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;

type Handler = (params: unknown[]) => unknown;

/** A node in process: one handler per method (throw an RpcFailure to answer with an error); every call is logged in order. */
class ScriptedRpc implements StorageRpc {
  readonly log: string[] = [];
  constructor(readonly methods: Record<string, Handler>) {}

  private answer(method: string, params: unknown[]): unknown {
    const handler = this.methods[method];
    if (!handler) throw new RpcFailure('rpc', `the method ${method} does not exist/is not available`, { code: -32601 });
    return handler(params);
  }

  async call<T = unknown>(method: string, params: unknown = [], options: CallOptions = {}): Promise<T> {
    if (options.signal?.aborted) throw new RpcFailure('cancelled', 'cancelled');
    this.log.push(`call ${method}`);
    await new Promise((r) => setImmediate(r));
    const result = this.answer(method, params as unknown[]);
    this.log.push(`answered ${method}`);
    return result as T;
  }

  async batch(calls: readonly RpcCall[]): Promise<BatchItem[]> {
    this.log.push(`batch ${calls.length}× ${calls[0]?.method}`);
    await new Promise((r) => setImmediate(r));
    return calls.map((c) => {
      try {
        const result = this.answer(c.method, c.params as unknown[]);
        return { result, response: { jsonrpc: '2.0', id: 1, result } };
      } catch (err) {
        return { error: err as RpcFailure };
      }
    });
  }
}

/** A contract with values in slots 0 and 2 at block 16 (0x10). */
function chain(extra: Record<string, Handler> = {}): ScriptedRpc {
  const block = () => ({ number: '0x10', hash: HASH });
  const values = new Map([
    [0n, word(0x2a)],
    [2n, word(7)],
  ]);
  return new ScriptedRpc({
    eth_getBlockByNumber: block,
    eth_getBlockByHash: block,
    eth_getStorageAt: (p) => {
      assert.equal(p[2], '0x10', 'reads at the looked-up block');
      return values.get(BigInt(p[1] as string)) ?? word(0);
    },
    ...extra,
  });
}

const storageError = (promise: Promise<unknown>) => rejectionOf(promise, StorageRangeError);

const rpcError = (code: number | undefined, message: string) => new RpcFailure('rpc', message, { code });

describe('isMethodUnavailable: only "no such method" lets auto mode fall back', () => {
  const cases: [number | undefined, string, boolean][] = [
    [-32601, 'anything at all', true],
    [-32602, 'data did not match any variant of untagged enum EthRpcCall', true],
    [-32602, 'invalid params: tx index out of range', false],
    [-32700, 'The method debug_storageRangeAt does not exist/is not available', true],
    [-32004, 'Method debug_storageRangeAt is not supported', true],
    [-32000, 'method handler crashed', false],
    [-32000, 'historical state not available', false],
    [-32000, 'Method not implemented', true],
    [-32000, 'no such method', true],
    [undefined, 'method not found', false],
  ];
  for (const [code, message, expected] of cases) {
    test(`${code} "${message}" → ${expected}`, () => {
      assert.equal(isMethodUnavailable(rpcError(code, message)), expected);
    });
  }
});

describe('nativeRange', () => {
  const params = { blockHash: HASH, txIndex: 3, address: ADDRESS, startKey: word(0), maxResults: 7 };

  test('sends the five parameters in order and returns the keys in numeric order, whatever their case or padding', async () => {
    let sent: unknown[] = [];
    const rpc = new ScriptedRpc({
      debug_storageRangeAt: (p) => {
        sent = p;
        return {
          storage: {
            '0x0A': { key: '0x2', value: word(2) },
            '0x9': { key: '0x1', value: word(1) },
            '0x00000a': { key: '0x3', value: word(3) },
            '0xff': { key: null, value: word(4) },
          },
          nextKey: word(0x100),
        };
      },
    });
    const range = await nativeRange(rpc, params);
    assert.deepEqual(sent, [HASH, 3, ADDRESS, word(0), 7]);
    // Equal numbers keep a stable textual order.
    assert.deepEqual(Object.keys(range.storage), ['0x9', '0x00000a', '0x0A', '0xff']);
    assert.deepEqual(range.storage['0x0A'], { key: '0x2', value: word(2) });
    assert.equal(range.nextKey, word(0x100));
  });

  test('a missing or null nextKey is null', async () => {
    for (const answer of [{ storage: {} }, { storage: {}, nextKey: null }]) {
      const range = await nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => answer }), params);
      assert.deepEqual(range, { storage: {}, nextKey: null });
    }
  });

  test('a null answer (Reth) means the method is unavailable, with the reason in the message and detail', async () => {
    const err = await storageError(nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => null }), params));
    assert.equal(err.reason, 'native-unavailable');
    assert.equal(err.detail, 'the node answered null, as Reth does for this method');
    assert.equal(err.message, 'debug_storageRangeAt is not available on this node (the node answered null, as Reth does for this method); use the emulation (mode emulate)');
  });

  test('a missing method is native-unavailable; a real error is native, with the node message', async () => {
    const missing = await storageError(nativeRange(new ScriptedRpc({}), params));
    assert.equal(missing.reason, 'native-unavailable');
    assert.equal(missing.detail, 'the method debug_storageRangeAt does not exist/is not available');
    const real = await storageError(
      nativeRange(
        new ScriptedRpc({
          debug_storageRangeAt: () => {
            throw rpcError(-32000, 'tx index 3 out of range');
          },
        }),
        params,
      ),
    );
    assert.equal(real.reason, 'native');
    assert.equal(real.message, 'debug_storageRangeAt failed: tx index 3 out of range');
    assert.equal(real.detail, 'tx index 3 out of range');
  });

  test('cancelled is cancelled; an error that is not an RpcFailure passes through untouched', async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = await storageError(nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => ({ storage: {} }) }), params, controller.signal));
    assert.equal(cancelled.reason, 'cancelled');
    const bug = new TypeError('a bug');
    await assert.rejects(
      nativeRange(
        new ScriptedRpc({
          debug_storageRangeAt: () => {
            throw bug;
          },
        }),
        params,
      ),
      (err) => err === bug,
    );
  });

  /** The answer as JSON, quoted as one string of at most 120 characters and an ellipsis. */
  const quoted = (answer: unknown) => {
    const json = JSON.stringify(answer);
    return JSON.stringify(json.length > 120 ? `${json.slice(0, 120)}…` : json);
  };

  test('an answer that is not a storage range is refused, quoting at most 120 characters of it', async () => {
    const wrong: unknown[] = [
      { storage: null },
      { storage: [] },
      { storage: 'x' },
      { nextKey: null },
      { storage: {}, nextKey: 5 },
      42,
      'text',
      { storage: {}, nextKey: 'x'.repeat(300) },
      { storage: {}, nextKey: `0x${'1'.repeat(65)}` },
    ];
    for (const answer of wrong) {
      const err = await storageError(nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => answer }), params));
      assert.equal(err.reason, 'native', JSON.stringify(answer));
      assert.equal(err.message, `debug_storageRangeAt answered something that is not a storage range: ${quoted(answer)}`);
    }
    const long = { storage: [], pad: 'y'.repeat(500) };
    const err = await storageError(nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => long }), params));
    assert.ok(err.message.endsWith(`${JSON.stringify(JSON.stringify(long).slice(0, 120)).slice(0, -1)}…"`) && err.message.length < 220, err.message);
  });

  test('an entry that is not hex of at most 32 bytes, or not an entry, is refused, naming it', async () => {
    const k = `0x${'1'.repeat(64)}`;
    const entries: Record<string, unknown>[] = [
      { zz: { key: null, value: word(1) } },
      { [k]: null },
      { [k]: 'text' },
      { [k]: { key: null } },
      { [k]: { key: null, value: 'zz' } },
      { [k]: { key: 5, value: word(1) } },
      { [k]: { key: `0x${'2'.repeat(66)}`, value: word(1) } },
      { [`0x${'3'.repeat(65)}`]: { key: null, value: word(1) } },
    ];
    for (const storage of entries) {
      const err = await storageError(
        nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => ({ storage: { [word(5)]: { key: null, value: word(5) }, ...storage }, nextKey: null }) }), params),
      );
      assert.equal(err.reason, 'native', JSON.stringify(storage));
      assert.equal(err.message, `debug_storageRangeAt answered an entry that is not a storage entry: ${quoted(storage)}`);
    }
  });

  test('a node that ignores maxResult: only the first maxResult entries, nextKey the first one left out', async () => {
    const storage = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [word(50_000 - i), { key: word(i), value: word(1), extra: 'x' }]));
    const range = await nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => ({ storage, nextKey: null }) }), params);
    assert.deepEqual(Object.keys(range.storage), [1, 2, 3, 4, 5, 6, 7].map(word));
    assert.deepEqual(range.storage[word(1)], { key: word(49_999), value: word(1) }, 'only key and value');
    assert.equal(range.nextKey, word(8));
    // Exactly maxResult: the node's own nextKey stands.
    const seven = Object.fromEntries(Object.entries(storage).slice(-7));
    assert.equal((await nativeRange(new ScriptedRpc({ debug_storageRangeAt: () => ({ storage: seven, nextKey: word(8) }) }), params)).nextKey, word(8));
  });
});

describe('storageRange modes', () => {
  test('an unknown mode is refused before anything is sent', async () => {
    const rpc = chain();
    const err = await storageError(storageRange(rpc, { block: 'latest', address: ADDRESS, mode: 'fast' as never }));
    assert.equal(err.reason, 'input');
    assert.equal(err.message, "Invalid mode 'fast': expected auto, native or emulate");
    assert.deepEqual(rpc.log, []);
  });

  test('auto on a node with the method: the native range at the looked-up hash, no warnings', async () => {
    let hash: unknown;
    const rpc = chain({
      debug_storageRangeAt: (p) => {
        hash = p[0];
        return { storage: { '0x1': { key: null, value: word(1) } }, nextKey: null };
      },
    });
    const result = await storageRange(rpc, { block: 16, address: ADDRESS });
    assert.equal(hash, HASH);
    assert.equal(result.mode, 'native');
    assert.deepEqual(result.block, { number: 16, hash: HASH });
    assert.deepEqual(result.warnings, []);
    assert.equal(result.nativeUnavailable, undefined);
    assert.ok(!rpc.log.some((l) => l.includes('eth_getStorageAt')), 'no emulated reads');
  });

  test('auto on a node without the method falls back once, and asks that client object only once', async () => {
    const rpc = chain();
    const first = await storageRange(rpc, { block: 'latest', address: ADDRESS });
    assert.equal(first.mode, 'emulate');
    assert.equal(first.nativeUnavailable, 'the method debug_storageRangeAt does not exist/is not available');
    assert.deepEqual(first.storage, { '0x0': { key: null, value: word(0x2a) }, '0x2': { key: null, value: word(7) } });
    assert.equal(rpc.log.filter((l) => l === 'call debug_storageRangeAt').length, 1);

    const second = await storageRange(rpc, { block: 'latest', address: ADDRESS });
    assert.equal(second.mode, 'emulate');
    assert.equal(second.nativeUnavailable, first.nativeUnavailable, 'the remembered reason is reported again');
    assert.equal(rpc.log.filter((l) => l === 'call debug_storageRangeAt').length, 1, 'not asked a second time');

    const other = chain();
    await storageRange(other, { block: 'latest', address: ADDRESS });
    assert.equal(other.log.filter((l) => l === 'call debug_storageRangeAt').length, 1, 'another client is asked');
  });

  test('native mode does not fall back, and a real native error is not hidden by auto mode', async () => {
    const missing = await storageError(storageRange(chain(), { block: 'latest', address: ADDRESS, mode: 'native' }));
    assert.equal(missing.reason, 'native-unavailable');
    const failing = chain({
      debug_storageRangeAt: () => {
        throw rpcError(-32000, 'historical state not available');
      },
    });
    const real = await storageError(storageRange(failing, { block: 'latest', address: ADDRESS }));
    assert.equal(real.reason, 'native');
    assert.ok(!failing.log.some((l) => l.includes('eth_getStorageAt')), 'no emulation after a real error');
  });

  test('emulate never asks for the native method; the result carries reads and strategy, not nativeUnavailable', async () => {
    for (const emulation of ['fast', 'one-by-one'] as const) {
      const rpc = chain({
        debug_storageRangeAt: () => assert.fail('native asked in emulate mode'),
      });
      const result = await storageRange(rpc, { block: 'latest', address: ADDRESS, mode: 'emulate', emulation, maxResults: 2 });
      assert.equal(result.mode, 'emulate');
      assert.deepEqual(Object.keys(result.storage), ['0x0', '0x2']);
      assert.equal(result.nextKey, '0x3');
      assert.ok(!('nativeUnavailable' in result));
      assert.equal(result.emulation?.strategy, emulation === 'fast' ? 'batch' : 'one-by-one');
      assert.ok((result.emulation?.reads ?? 0) >= 3);
      assert.equal(rpc.log[0], 'call eth_getBlockByNumber', `${emulation}: the lookup is sent first`);
    }
  });

  test("the fast emulation at a block number sends the lookup and the page's reads in one batch", async () => {
    const early = chain();
    await storageRange(early, { block: 16, address: ADDRESS, mode: 'emulate' });
    // The lookup, 100 reads (10 × max) and the check of the block at that number.
    assert.deepEqual(early.log, ['batch 102× eth_getBlockByNumber']);

    // With a tag, or one at a time, or a number past 2^53, the reads wait for the lookup.
    for (const options of [{ block: 'latest' }, { block: 16, emulation: 'one-by-one' as const }, { block: 2n ** 53n }]) {
      const rpc = chain({ eth_getBlockByNumber: () => ({ number: '0x10', hash: HASH }) });
      await storageRange(rpc, { address: ADDRESS, mode: 'emulate', ...options });
      assert.deepEqual(
        rpc.log.slice(0, 2),
        ['call eth_getBlockByNumber', 'answered eth_getBlockByNumber'],
        JSON.stringify(options, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
      );
    }

    // Auto mode on a client known to lack the method takes the early path too.
    const known = chain();
    await storageRange(known, { block: 16, address: ADDRESS });
    known.log.length = 0;
    await storageRange(known, { block: 16, address: ADDRESS });
    assert.deepEqual(known.log, ['batch 102× eth_getBlockByNumber']);
  });
});

describe('toSpecOutput', () => {
  test('a result keeps only storage and nextKey; any failure is code -32000 with its message', async () => {
    const result = await storageRange(chain(), { block: 'latest', address: ADDRESS, mode: 'emulate', maxResults: 1 });
    assert.deepEqual(toSpecOutput(result), { jsonrpc: '2.0', id: 1, result: { storage: { '0x0': { key: null, value: word(0x2a) } }, nextKey: '0x1' } });
    assert.deepEqual(toSpecOutput(new StorageRangeError('Failed to get block: gone', 'block')), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Failed to get block: gone' } });
    assert.deepEqual(toSpecOutput('plain text'), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'plain text' } });
    assert.deepEqual(toSpecOutput(null), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'null' } });
    // An object without nextKey, or an Error that happens to carry storage, is not a result.
    assert.ok('error' in toSpecOutput({ storage: {} }));
    assert.ok('error' in toSpecOutput(Object.assign(new Error('e'), { storage: {}, nextKey: null })));
    assert.ok('error' in toSpecOutput({ storage: null, nextKey: null }));
  });
});

describe('lookupBlock in process', () => {
  const lookup = (answer: Handler, ref = '7') => lookupBlock(new ScriptedRpc({ eth_getBlockByNumber: answer, eth_getBlockByHash: answer }), parseBlockRef(ref));

  test('which failures are "cannot be reached" (the spec\'s connect text) and which are a reached node\'s answer', () => {
    const reached: RpcFailureKind[] = ['rpc', 'mismatch', 'cancelled', 'invalid-request'];
    const unreached: RpcFailureKind[] = ['unreachable', 'tls', 'timeout', 'auth', 'rate-limited', 'server', 'http', 'not-json', 'too-large'];
    for (const kind of reached) assert.equal(isConnectFailure(new RpcFailure(kind, 'x')), false, kind);
    for (const kind of unreached) assert.equal(isConnectFailure(new RpcFailure(kind, 'x')), true, kind);
  });

  test('each failure of the lookup call maps to its reason and text', async () => {
    const thrower = (f: unknown) => () => {
      throw f;
    };
    const connect = await storageError(lookup(thrower(new RpcFailure('unreachable', 'connect ECONNREFUSED 127.0.0.1:1'))));
    assert.deepEqual([connect.reason, connect.message, connect.detail], ['connect', 'Failed to connect to Ethereum node', 'connect ECONNREFUSED 127.0.0.1:1']);
    const rpc = await storageError(lookup(thrower(rpcError(-32000, 'header not found'))));
    assert.deepEqual([rpc.reason, rpc.message], ['block', 'Failed to get block: header not found']);
    const cancelled = await storageError(lookup(thrower(new RpcFailure('cancelled', 'cancelled'))));
    assert.deepEqual([cancelled.reason, cancelled.message], ['cancelled', 'Storage range cancelled']);
    assert.equal(String(cancelled), 'StorageRangeError: Storage range cancelled', 'a log or stack trace names the error type');
    const bug = new RangeError('a bug');
    await assert.rejects(lookup(thrower(bug)), (err) => err === bug);
  });

  test('no block, by number, hash or tag, names the block as given', async () => {
    for (const [ref, named] of [
      ['12345', '12345 (0x3039)'],
      [HASH, HASH],
      ['latest', 'latest'],
    ]) {
      for (const none of [null, undefined]) {
        const err = await storageError(lookup(() => none, ref));
        assert.deepEqual([err.reason, err.message], ['block', `Failed to get block: block ${named} not found`]);
      }
    }
  });

  test('an answer without a hex number and a 32-byte hash is refused, quoting at most 120 characters of it', async () => {
    const wrong: object[] = [
      { number: null, hash: null },
      { number: 16, hash: HASH },
      { number: '16', hash: HASH },
      { number: 'x0x10', hash: HASH },
      { number: '0x10z', hash: HASH },
      { number: '0x', hash: HASH },
      { number: '0x10' },
      { number: '0x10', hash: HASH.slice(0, -2) },
      { number: '0x10', hash: `${HASH}00` },
      { number: '0x10', hash: `z${HASH}` },
      { number: '0x10', hash: HASH, pad: 'p'.repeat(300) },
    ];
    for (const block of wrong.slice(0, -1)) {
      const err = await storageError(lookup(() => block));
      assert.equal(err.reason, 'block', JSON.stringify(block));
      assert.equal(err.message, `Failed to get block: the node's answer for block 7 (0x7) has no number and hash: ${JSON.stringify(block).slice(0, 120)}`);
    }
    // Extra fields are fine; the hash comes back in lower case and the number as a number.
    assert.deepEqual(await lookup(() => ({ ...wrong.at(-1), number: '0X1F', hash: HASH.toUpperCase().replace('0X', '0x') })), { number: 31, hash: HASH });
  });
});
