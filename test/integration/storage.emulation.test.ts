/**
 * The storage-range emulation against real anvil (which, like Reth, has no debug_storageRangeAt),
 * step by step of the spec: storage written with anvil_setStorageAt, then evm_mine. Faults come
 * from the loopback proxy of test/support/proxy.ts: a failing eth_getStorageAt (alone or inside a
 * batch), refused batches, a null or "not supported" native answer, latency for cancellation.
 * Ends with the fast-vs-reference property of the unit suite, smaller, on the real node, with a
 * ground-truth oracle computed from the layout written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress, hexlify } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { WsRpcClient } from '../../src/core/rpc/ws';
import { StorageRangeError } from '../../src/core/storage/errors';
import { word } from '../../src/core/storage/inputs';
import { storageRange, toSpecOutput, type StorageRangeOptions, type StorageRangeResult } from '../../src/core/storage/range';
import type { StorageProgress } from '../../src/core/storage/types';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy, type SeenCall } from '../support/proxy';
import { prng } from '../support/prng';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;

function clientFor(url: string): RpcClient {
  return new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}), { timeoutMs: 10_000 });
}

/** A fresh contract address per use, so tests never see each other's storage. */
let addressCounter = 0x5100;
function freshAddress(): string {
  addressCounter++;
  return getAddress(`0x${'c0de'.padEnd(36, '0')}${addressCounter.toString(16).padStart(4, '0')}`);
}

const value = (n: bigint) => word(n * 0x1000001n + 7n);

interface Block {
  number: number;
  hash: string;
}

/**
 * Writes the slots (anvil_setStorageAt, in batches), mines, and returns the new block. anvil
 * applies anvil_setStorageAt to the state of its latest block until the next one is mined, so an
 * empty block follows: only then is the returned block's state fixed.
 */
async function writeLayout(client: RpcClient, address: string, slots: Iterable<[bigint, string]>): Promise<Block> {
  const calls = [...slots].map(([slot, v]) => ({ method: 'anvil_setStorageAt', params: [address, word(slot), v] }));
  for (let i = 0; i < calls.length; i += 500) {
    for (const item of await client.batch(calls.slice(i, i + 500))) if ('error' in item) throw item.error;
  }
  await client.call('evm_mine');
  const block = await client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
  await client.call('evm_mine');
  return { number: Number(BigInt(block.number)), hash: block.hash };
}

/** What the spec's steps give for a known layout: the oracle the node's answers are checked against. */
function expected(layout: Map<bigint, string>, start: bigint, max: number, failing: Set<bigint> = new Set()) {
  const storage: Record<string, { key: null; value: string }> = {};
  const warnedSlots: bigint[] = [];
  let found = 0;
  let slot = start;
  for (let reads = 0; reads < 10 * max && found < max; reads++, slot++) {
    if (failing.has(slot)) warnedSlots.push(slot);
    else if (layout.has(slot) && !/^0x0*$/.test(layout.get(slot)!)) {
      storage[`0x${slot.toString(16)}`] = { key: null, value: layout.get(slot)! };
      found++;
    }
  }
  return { storage, nextKey: found === max ? `0x${slot.toString(16)}` : null, warnedSlots };
}

function slotOf(call: SeenCall): bigint | undefined {
  return call.method === 'eth_getStorageAt' ? BigInt((call.params as string[])[1]) : undefined;
}

let direct: RpcClient;
let proxy: Proxy;

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil');
  direct = clientFor(ANVIL);
  proxy = await startProxy({ target: ANVIL });
});

after(async () => {
  await proxy.close();
  closeIdleConnections();
});

describe('emulation on anvil, step by step', () => {
  const address = freshAddress();
  // Non-zero at 0, 1, 3, 7, 8, 20, 35, and a slot explicitly written as zero at 2.
  const layout = new Map<bigint, string>([0n, 1n, 3n, 7n, 8n, 20n, 35n].map((s) => [s, value(s + 1n)]));
  let block: Block;

  before(async () => {
    block = await writeLayout(direct, address, [...layout, [2n, word(0n)]]);
  });

  const run = (options: Partial<StorageRangeOptions>, client: RpcClient = direct) => storageRange(client, { block: block.number, address, mode: 'emulate', ...options });

  test('step 1: the block by number and by hash give the same range, read at that block', async () => {
    const byNumber = await run({ block: block.number, maxResults: 3 });
    const byHash = await run({ block: block.hash, maxResults: 3 });
    const byHexNumber = await run({ block: `0x${block.number.toString(16)}`, maxResults: 3 });
    assert.deepEqual(byNumber.block, block);
    assert.deepEqual(byHash.block, block);
    for (const r of [byNumber, byHash, byHexNumber]) {
      assert.equal(r.mode, 'emulate');
      assert.deepEqual(toSpecOutput(r), { jsonrpc: '2.0', id: 1, result: { storage: expected(layout, 0n, 3).storage, nextKey: '0x4' } });
    }
  });

  test("step 1: 'latest' is looked up to its number", async () => {
    const latest = await run({ block: 'latest', maxResults: 2 });
    assert.ok(latest.block.number >= block.number);
    assert.deepEqual(Object.keys(latest.storage), ['0x0', '0x1']);
  });

  test('exactly max results found: nextKey is the slot after the last entry (the last slot read)', async () => {
    const r = await run({ maxResults: 5 });
    assert.deepEqual(Object.keys(r.storage), ['0x0', '0x1', '0x3', '0x7', '0x8']);
    assert.equal(r.nextKey, '0x9');
    assert.equal(r.emulation?.reads, 9, 'slots 0..8 read, then stop');
    for (const [k, e] of Object.entries(r.storage)) {
      assert.equal(e.key, null);
      assert.equal(e.value, layout.get(BigInt(k)));
      assert.match(e.value, /^0x[0-9a-f]{64}$/);
    }
  });

  test('the 10 × max cap: a sparse stretch ends the run with fewer entries and nextKey null', async () => {
    // max 1 from slot 9: at most 10 reads (slots 9–18), slot 20 is beyond the cap.
    const r = await run({ startKey: '0x9', maxResults: 1 });
    assert.deepEqual(r.storage, {});
    assert.equal(r.nextKey, null);
    assert.equal(r.emulation?.reads, 10);
    // max 2 from slot 21: 20 reads (slots 21–40) find only slot 35.
    const r2 = await run({ startKey: '0x15', maxResults: 2 });
    assert.deepEqual(Object.keys(r2.storage), ['0x23']);
    assert.equal(r2.nextKey, null, '1 of 2 found within 20 reads');
    assert.equal(r2.emulation?.reads, 20);
  });

  test('a zero written explicitly is skipped like an empty slot', async () => {
    const r = await run({ startKey: '0x2', maxResults: 1 });
    assert.deepEqual(Object.keys(r.storage), ['0x3']);
    assert.equal(r.nextKey, '0x4');
  });

  test('paging through nextKey until null collects every non-zero slot exactly once', async () => {
    const pagedAddress = freshAddress();
    const paged = new Map<bigint, string>();
    // Gaps of at most 10 so no page (max 4, 40 reads) ends on the cap before the last slot.
    for (let s = 3n, step = 1n; s < 160n; s += step, step = (step * 7n) % 11n || 1n) paged.set(s, value(s));
    const at = await writeLayout(direct, pagedAddress, paged);
    const seen: string[] = [];
    let start: string | undefined = '0x0';
    let pages = 0;
    while (start !== undefined) {
      const r: StorageRangeResult = await storageRange(direct, { block: at.hash, address: pagedAddress, startKey: start, maxResults: 4, mode: 'emulate' });
      seen.push(...Object.keys(r.storage));
      for (const [k, e] of Object.entries(r.storage)) assert.equal(e.value, paged.get(BigInt(k)));
      pages++;
      start = r.nextKey ?? undefined;
    }
    assert.deepEqual(
      seen,
      [...paged.keys()].map((s) => `0x${s.toString(16)}`),
      'every slot once, in order',
    );
    assert.equal(pages, Math.ceil(paged.size / 4) + (paged.size % 4 === 0 ? 1 : 0));
  });

  test('step 3: a start key without 0x gets it; a 32-byte key works the same', async () => {
    const plain = await run({ startKey: '7', maxResults: 2 });
    const prefixed = await run({ startKey: '0x7', maxResults: 2 });
    const padded = await run({ startKey: word(7n), maxResults: 2 });
    assert.deepEqual(Object.keys(plain.storage), ['0x7', '0x8']);
    assert.deepEqual(plain.storage, prefixed.storage);
    assert.deepEqual(plain.storage, padded.storage);
    assert.equal(plain.nextKey, '0x9');
  });

  test('step 3: a lower-case address is checksummed before it is sent', async () => {
    const sent: string[] = [];
    proxy.clear();
    proxy.failCalls((call) => {
      if (call.method === 'eth_getStorageAt') sent.push((call.params as string[])[0]);
      return undefined;
    });
    try {
      const r = await run({ maxResults: 2, address: address.toLowerCase() }, clientFor(proxy.url));
      assert.deepEqual(Object.keys(r.storage), ['0x0', '0x1']);
      assert.ok(sent.length >= 2);
      assert.ok(
        sent.every((a) => a === address && a !== address.toLowerCase()),
        `sent: ${sent.join(', ')}`,
      );
    } finally {
      proxy.clear();
    }
  });

  test('step 2: the tx index is ignored', async () => {
    const a = await run({ maxResults: 3, txIndex: 0 });
    const b = await run({ maxResults: 3, txIndex: 99 });
    assert.deepEqual(a.storage, b.storage);
  });

  test('step 4: reads are made at the looked-up block number: older blocks give the old values', async () => {
    const changing = freshAddress();
    const before1 = await writeLayout(direct, changing, [
      [0n, value(100n)],
      [1n, value(101n)],
    ]);
    const after1 = await writeLayout(direct, changing, [
      [0n, value(200n)],
      [1n, word(0n)],
      [2n, value(202n)],
    ]);
    const old = await storageRange(direct, { block: before1.hash, address: changing, maxResults: 3, mode: 'emulate' });
    const oldByNumber = await storageRange(direct, { block: before1.number, address: changing, maxResults: 3, mode: 'emulate' });
    const now = await storageRange(direct, { block: after1.number, address: changing, maxResults: 3, mode: 'emulate' });
    assert.deepEqual(old.storage, { '0x0': { key: null, value: value(100n) }, '0x1': { key: null, value: value(101n) } });
    assert.deepEqual(oldByNumber.storage, old.storage);
    assert.deepEqual(now.storage, { '0x0': { key: null, value: value(200n) }, '0x2': { key: null, value: value(202n) } });
  });

  test('step 1: an unknown block hash fails with "Failed to get block: …"', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    await assert.rejects(run({ block: unknown }), (err: StorageRangeError) => {
      assert.equal(err.reason, 'block');
      assert.equal(err.message, `Failed to get block: block ${unknown} not found`);
      assert.deepEqual(toSpecOutput(err), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: err.message } });
      return true;
    });
    await assert.rejects(run({ block: 10_000_000 }), /^StorageRangeError: Failed to get block: block 10000000 \(0x989680\) not found$/);
  });

  test('step 1: a lookup the node answers with an error fails with "Failed to get block: <its error>"', async () => {
    proxy.clear();
    proxy.failCalls((call) => (call.method.startsWith('eth_getBlockBy') ? { code: -32000, message: 'header not found' } : undefined));
    try {
      await assert.rejects(
        run({}, clientFor(proxy.url)),
        (err: StorageRangeError) => err.reason === 'block' && err.message === 'Failed to get block: JSON-RPC error -32000: header not found',
      );
    } finally {
      proxy.clear();
    }
  });

  test('Errors 4: a node that cannot be reached at the start: "Failed to connect to Ethereum node"', async () => {
    const nowhere = clientFor(`http://127.0.0.1:${await freePort()}`);
    for (const mode of ['emulate', 'auto', 'native'] as const) {
      await assert.rejects(run({ mode }, nowhere), (err: StorageRangeError) => {
        assert.equal(err.message, 'Failed to connect to Ethereum node');
        assert.equal(err.reason, 'connect');
        assert.match(err.detail ?? '', /ECONNREFUSED/);
        return true;
      });
    }
  });

  test('step 5: a failed read is skipped with a warning line, in batches and one by one alike', async () => {
    // Slot 1 (non-zero) fails inside the first batch; slot 21 fails past the stop (the 5th
    // entry is slot 20), inside the second batch: no warning may be printed for it.
    const failing = new Set([1n, 21n]);
    const warnings: Record<string, string[]> = {};
    for (const emulation of ['fast', 'one-by-one'] as const) {
      proxy.clear();
      proxy.failCalls((call) => (failing.has(slotOf(call) ?? -1n) ? { code: -32000, message: `cannot read slot ${slotOf(call)}` } : undefined));
      const lines: string[] = [];
      const r = await run({ maxResults: 5, emulation, onWarning: (l) => lines.push(l) }, clientFor(proxy.url));
      const want = expected(layout, 0n, 5, failing);
      assert.deepEqual(r.storage, want.storage);
      assert.deepEqual(Object.keys(r.storage), ['0x0', '0x3', '0x7', '0x8', '0x14']);
      assert.equal(r.nextKey, '0x15');
      assert.deepEqual(lines, ['Warning: failed to read slot 0x1: JSON-RPC error -32000: cannot read slot 1; skipped']);
      assert.deepEqual(r.warnings, lines);
      warnings[emulation] = lines;
      if (emulation === 'fast') {
        const read = proxy.requests.flatMap((q) => (q.methods.length > 1 ? q.methods : []));
        assert.ok(read.length >= 22, 'the fast scan read slot 21 inside a batch');
        assert.ok(proxy.requests.length <= 4, `${proxy.requests.length} HTTP requests`);
      } else {
        assert.equal(proxy.requests.filter((q) => q.methods.length > 1).length, 0);
      }
    }
    proxy.clear();
    assert.deepEqual(warnings.fast, warnings['one-by-one']);
  });

  test('round trips: by number or hash the lookup and the page go in one request; a tag is looked up first', async () => {
    const via = clientFor(proxy.url);
    const reads = (n: number) => Array<string>(n).fill('eth_getStorageAt').join(',');
    const expectedRequests = {
      // The lookup, the page's reads (10 × max) and the block at that number again, to check it.
      number: [`eth_getBlockByNumber,${reads(20)},eth_getBlockByNumber`],
      // anvil takes reads pinned by an EIP-1898 block hash: nothing to check.
      hash: [`eth_getBlockByHash,${reads(20)}`],
      latest: ['eth_getBlockByNumber', `${reads(20)},eth_getBlockByNumber`],
    };
    for (const [kind, ref] of [
      ['number', block.number],
      ['hash', block.hash],
      ['latest', 'latest'],
    ] as const) {
      proxy.clear();
      const r = await run({ block: ref, maxResults: 2 }, via);
      assert.deepEqual(Object.keys(r.storage), ['0x0', '0x1']);
      assert.deepEqual(
        proxy.requests.map((q) => q.methods.join(',')),
        expectedRequests[kind],
        `${ref}`,
      );
    }
    const slow = await startProxy({ target: ANVIL, delayMs: 400 });
    try {
      const timed = async (ref: number | string) => {
        const started = Date.now();
        await run({ block: ref, maxResults: 2 }, clientFor(slow.url));
        return Date.now() - started;
      };
      const [byNumber, byHash, latest] = [await timed(block.number), await timed(block.hash), await timed('latest')];
      // 400 ms per request: one round trip ends well before 800 ms, two cannot.
      assert.ok(byNumber < 700 && byHash < 700 && latest >= 800, `by number ${byNumber} ms, by hash ${byHash} ms (one round trip each), latest ${latest} ms (two)`);
    } finally {
      await slow.close();
    }
  });

  test('a node that refuses batches: bounded concurrency, same result', async () => {
    const reference = await run({ maxResults: 6, emulation: 'one-by-one' });
    for (const refusal of [
      { status: 400, body: 'batch requests are not supported' },
      { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }) },
    ]) {
      proxy.clear();
      proxy.refuseBatches(refusal);
      const r = await run({ maxResults: 6 }, clientFor(proxy.url));
      assert.deepEqual(r.storage, reference.storage);
      assert.equal(r.nextKey, reference.nextKey);
      assert.equal(r.emulation?.strategy, 'concurrent');
      assert.equal(proxy.requests.filter((q) => q.methods.length > 1).length, 1, 'one batch tried, then no more');
    }
    proxy.clear();
  });

  test('progress: reads and entries reported as they are made, ending at the totals', async () => {
    for (const emulation of ['fast', 'one-by-one'] as const) {
      const seen: StorageProgress[] = [];
      const r = await run({ maxResults: 5, emulation, onProgress: (p) => seen.push(p) });
      assert.ok(seen.length >= 1);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].slotsRead >= seen[i - 1].slotsRead && seen[i].entriesFound >= seen[i - 1].entriesFound);
      assert.deepEqual(seen[seen.length - 1], { slotsRead: r.emulation!.reads, entriesFound: 5, maxReads: 50, maxResults: 5 });
    }
  });

  test('cancellation: an aborted signal stops the run with a cancelled error', async () => {
    const slow = await startProxy({ target: ANVIL, delayMs: 200 });
    try {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 300);
      await assert.rejects(
        run({ maxResults: 50, emulation: 'one-by-one', signal: controller.signal }, clientFor(slow.url)),
        (err: StorageRangeError) => err.reason === 'cancelled' && err.message === 'Storage range cancelled',
      );
      assert.ok(Date.now() - started < 1500, 'stopped promptly');
    } finally {
      await slow.close();
    }
  });
});

describe('auto mode on anvil', () => {
  const address = freshAddress();
  let block: Block;
  before(async () => {
    block = await writeLayout(direct, address, [
      [0n, value(1n)],
      [4n, value(5n)],
    ]);
  });

  test('anvil answers -32601: auto uses the emulation and says why', async () => {
    const r = await storageRange(clientFor(ANVIL), { block: block.hash, address, maxResults: 2 });
    assert.equal(r.mode, 'emulate');
    assert.match(r.nativeUnavailable ?? '', /-32601/);
    assert.deepEqual(Object.keys(r.storage), ['0x0', '0x4']);
    await assert.rejects(
      storageRange(clientFor(ANVIL), { block: block.hash, address, mode: 'native' }),
      (err: StorageRangeError) => err.reason === 'native-unavailable' && /not available on this node \(JSON-RPC error -32601: Method not found\)/.test(err.message),
    );
  });

  test('over WebSocket too (where anvil answers -32602 "… untagged enum EthRpcCall" instead)', async () => {
    const ws = new WsRpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: ANVIL, auth: 'none' }, {}), { pingIntervalMs: 0 });
    try {
      const r = await storageRange(ws, { block: block.hash, address, maxResults: 2 });
      assert.equal(r.mode, 'emulate');
      assert.match(r.nativeUnavailable ?? '', /EthRpcCall/);
      assert.deepEqual(Object.keys(r.storage), ['0x0', '0x4']);
      assert.equal(r.emulation?.strategy, 'batch', 'batches over the socket');
    } finally {
      await ws.close();
    }
  });

  test('a null result (as Reth answers) and a "not supported" error (as hardhat answers) mean the same', async () => {
    for (const mode of ['auto', 'native'] as const) {
      proxy.clear();
      // Lookup passes unchanged; the native call's -32601 is rewritten into result null.
      proxy.fail({ delayMs: 0 }, { rewrite: (reply) => ({ jsonrpc: '2.0', id: (reply as { id: unknown }).id, result: null }) });
      const attempt = storageRange(clientFor(proxy.url), { block: block.number, address, maxResults: 2, mode });
      if (mode === 'auto') {
        const r = await attempt;
        assert.equal(r.mode, 'emulate');
        assert.match(r.nativeUnavailable ?? '', /answered null/);
      } else {
        await assert.rejects(attempt, (err: StorageRangeError) => err.reason === 'native-unavailable' && /answered null/.test(err.message));
      }
    }
    proxy.clear();
    proxy.failCalls((call) => (call.method === 'debug_storageRangeAt' ? { code: -32004, message: 'Method debug_storageRangeAt is not supported' } : undefined));
    const r = await storageRange(clientFor(proxy.url), { block: block.number, address, maxResults: 2 });
    assert.equal(r.mode, 'emulate');
    assert.match(r.nativeUnavailable ?? '', /-32004/);
    proxy.clear();
  });

  test('any other native error is a real error, not a reason to emulate', async () => {
    proxy.clear();
    proxy.failCalls((call) => (call.method === 'debug_storageRangeAt' ? { code: -32000, message: 'tracing failed: insufficient funds' } : undefined));
    await assert.rejects(storageRange(clientFor(proxy.url), { block: block.number, address }), (err: StorageRangeError) => {
      assert.equal(err.reason, 'native');
      assert.equal(err.message, 'debug_storageRangeAt failed: JSON-RPC error -32000: tracing failed: insufficient funds');
      return true;
    });
    proxy.clear();
  });
});

describe('fast = reference on real anvil (random layouts, random failing slots)', () => {
  test('24 cases: both equal the oracle computed from the layout written', async () => {
    for (let seed = 1; seed <= 24; seed++) {
      const rand = prng(seed * 7919);
      const address = freshAddress();
      const max = 1 + Math.floor(rand() * 12);
      const start = BigInt(Math.floor(rand() * 30));
      const density = [0.02, 0.05, 0.1, 0.25, 0.5, 0.9][seed % 6];
      const layout = new Map<bigint, string>();
      const failing = new Set<bigint>();
      for (let s = 0n; s < start + BigInt(10 * max) + 10n; s++) {
        if (rand() < density) layout.set(s, hexlify(Uint8Array.from({ length: 32 }, () => Math.floor(rand() * 256))));
        if (seed % 3 === 0 && rand() < 0.08) failing.add(s);
      }
      const at = await writeLayout(direct, address, layout);
      const want = expected(layout, start, max, failing);
      const outputs: unknown[] = [];
      for (const emulation of ['fast', 'one-by-one'] as const) {
        proxy.clear();
        proxy.failCalls((call) => (failing.has(slotOf(call) ?? -1n) ? { code: -32000, message: 'unreadable' } : undefined));
        const lines: string[] = [];
        const r = await storageRange(clientFor(proxy.url), {
          block: at.hash,
          address,
          startKey: start.toString(16),
          maxResults: max,
          mode: 'emulate',
          emulation,
          onWarning: (l) => lines.push(l),
        });
        const why = `seed ${seed} (${emulation}): start ${start}, max ${max}, density ${density}, ${failing.size} failing`;
        assert.deepEqual(toSpecOutput(r), { jsonrpc: '2.0', id: 1, result: { storage: want.storage, nextKey: want.nextKey } }, why);
        assert.deepEqual(
          lines,
          want.warnedSlots.map((s) => `Warning: failed to read slot 0x${s.toString(16)}: JSON-RPC error -32000: unreadable; skipped`),
          why,
        );
        outputs.push({ out: toSpecOutput(r), lines });
      }
      assert.deepEqual(outputs[0], outputs[1]);
    }
    proxy.clear();
  });
});
