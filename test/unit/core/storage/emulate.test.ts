/**
 * The fast emulation against the one-slot-at-a-time reference: identical entries, nextKey,
 * warning lines and read counts for every input. Random sparse layouts from a seeded PRNG,
 * random failing slots, random start keys (some at the very end of the key space), random max
 * results, and nodes that refuse batches in each of the ways real ones do.
 *
 * The node here is an in-memory JSON-RPC transport: the one stand-in of this suite, used because
 * this is the algorithm compared with itself. It answers through the real JSON-RPC code
 * (matchBatch, rpcErrorFailure, httpFailure), so failures reach the scans as RpcClient's do.
 * The same property runs, smaller, against real anvil in test/integration/storage.emulation.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Params } from '../../../../src/core/rpc/client';
import { httpFailure, rpcErrorFailure, RpcFailure, timeoutFailure, type FailureContext } from '../../../../src/core/rpc/failure';
import { errorOf, makeRequest, matchBatch, type BatchItem } from '../../../../src/core/rpc/jsonrpc';
import type { CallOptions, JsonRpcErrorObject, JsonRpcRequest, JsonRpcResponse, RpcCall } from '../../../../src/core/rpc/types';
import {
  batchOutcome,
  emulationOutput,
  interpretRead,
  readBudget,
  readCall,
  scanFast,
  scanOneByOne,
  warningLine,
  windowSize,
  type FastScanOptions,
  type ScanParams,
  type ScanResult,
} from '../../../../src/core/storage/emulate';
import { StorageRangeError } from '../../../../src/core/storage/errors';
import { MAX_SLOT, word } from '../../../../src/core/storage/inputs';
import type { StorageProgress, StorageRpc } from '../../../../src/core/storage/types';
import { prng } from '../../../support/prng';

/** How the in-memory node treats batches. */
type BatchPolicy =
  | { kind: 'ok' }
  /** HTTP 400 to any array body (ganache's answer to a body it cannot read). */
  | { kind: 'http'; status: number }
  /** One error object instead of an array (anvil's answer to a batch it rejects). */
  | { kind: 'single-error'; code: number; message: string }
  /** Batches above `cap` calls refused with a "too large" error object. */
  | { kind: 'cap'; cap: number }
  /** Some answers left out of the batch reply (a flaky gateway). */
  | { kind: 'drop'; rate: number };

interface NodeConfig {
  values: Map<bigint, string>;
  /** Slots whose read the node answers with a JSON-RPC error: deterministic, same for every way of asking. */
  failing: Map<bigint, JsonRpcErrorObject>;
  /** Slots whose value comes back as something that is not a storage word. */
  garbage: Set<bigint>;
  /** Answer "0x" for empty slots, as ganache does. */
  shortZero: boolean;
  batch: BatchPolicy;
  /** More single calls in flight than this get HTTP 429 (a rate limit that only concurrency trips). */
  maxInFlight: number;
  blockNumber: number;
}

const ctx: FailureContext = { url: 'http://127.0.0.1:1/', auth: 'none', secrets: [], timeoutMs: 1000 };

class MemoryNode implements StorageRpc {
  private nextId = 1;
  private inFlight = 0;
  /** Every slot asked for, in order (a batch counts each of its calls). */
  readonly slotsAsked: bigint[] = [];
  roundTrips = 0;

  constructor(
    private readonly config: NodeConfig,
    private readonly random: () => number,
  ) {}

  private answer(request: JsonRpcRequest): JsonRpcResponse {
    const [address, key, block] = request.params as string[];
    assert.equal(request.method, 'eth_getStorageAt');
    assert.match(address, /^0x[0-9a-fA-F]{40}$/);
    assert.equal(block, `0x${this.config.blockNumber.toString(16)}`, 'reads at the looked-up block number');
    assert.match(key, /^0x[0-9a-f]{64}$/, 'slot keys are sent as 32 bytes');
    const slot = BigInt(key);
    this.slotsAsked.push(slot);
    const error = this.config.failing.get(slot);
    if (error) return { jsonrpc: '2.0', id: request.id, error };
    if (this.config.garbage.has(slot)) return { jsonrpc: '2.0', id: request.id, result: 'not hex' };
    const value = this.config.values.get(slot);
    const result = value ?? (this.config.shortZero ? '0x' : word(0n));
    return { jsonrpc: '2.0', id: request.id, result };
  }

  async call<T = unknown>(method: string, params?: Params, options: CallOptions = {}): Promise<T> {
    if (options.signal?.aborted) throw new RpcFailure('cancelled', 'cancelled');
    this.roundTrips++;
    this.inFlight++;
    try {
      await new Promise((r) => setImmediate(r));
      if (this.inFlight > this.config.maxInFlight) throw httpFailure({ status: 429, statusText: 'Too Many Requests', text: '' }, ctx);
      const response = this.answer(makeRequest(this.nextId++, { method, params: params as unknown[] }));
      const error = errorOf(response);
      if (error) throw rpcErrorFailure(error, ctx);
      return response.result as T;
    } finally {
      this.inFlight--;
    }
  }

  async batch(calls: readonly RpcCall[], options: CallOptions = {}): Promise<BatchItem[]> {
    if (options.signal?.aborted) throw new RpcFailure('cancelled', 'cancelled');
    this.roundTrips++;
    await new Promise((r) => setImmediate(r));
    const requests = calls.map((c) => makeRequest(this.nextId++, c));
    const policy = this.config.batch;
    if (policy.kind === 'http') throw httpFailure({ status: policy.status, statusText: '', text: 'Bad Request' }, ctx);
    if (policy.kind === 'single-error') return matchBatch(requests, { jsonrpc: '2.0', id: null, error: { code: policy.code, message: policy.message } }, ctx);
    if (policy.kind === 'cap' && requests.length > policy.cap) {
      return matchBatch(requests, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `batch size ${requests.length} exceeds the limit of ${policy.cap}` } }, ctx);
    }
    let replies = requests.map((r) => this.answer(r));
    if (policy.kind === 'drop') replies = replies.filter(() => this.random() >= policy.rate);
    // Batch replies may come in any order.
    replies.sort(() => this.random() - 0.5);
    return matchBatch(requests, replies, ctx);
  }
}

interface Case {
  seed: number;
  config: NodeConfig;
  params: ScanParams;
  fast: FastScanOptions;
  /** As storageRange starts a page: a first window as large as the page may read, maybe read beforehand (beside the lookup) and handed over. */
  lead?: 'window' | 'prefetched';
}

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

function randomValue(rand: () => number, short: boolean): string {
  const digits = short ? 1 + Math.floor(rand() * 6) : 64;
  let hex = '';
  for (let i = 0; i < digits; i++) hex += Math.floor(rand() * 16).toString(16);
  if (/^0+$/.test(hex)) hex = `${hex.slice(0, -1)}1`;
  return `0x${hex}`;
}

function makeCase(seed: number): Case {
  const rand = prng(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const maxResults = 1 + Math.floor(rand() * (rand() < 0.2 ? 60 : 15));
  const nearEnd = rand() < 0.08;
  const start = nearEnd ? MAX_SLOT - BigInt(Math.floor(rand() * 3 * maxResults)) : BigInt(Math.floor(rand() * 40));
  const density = pick([0, 0.01, 0.03, 0.05, 0.1, 0.25, 0.5, 0.8, 1, rand()]);
  const failRate = pick([0, 0, 0.02, 0.1, 0.3]);
  const span = readBudget(maxResults) + 20;
  const values = new Map<bigint, string>();
  const failing = new Map<bigint, JsonRpcErrorObject>();
  const garbage = new Set<bigint>();
  const shortValues = rand() < 0.3;
  for (let k = 0; k < span; k++) {
    const slot = start + BigInt(k);
    if (slot > MAX_SLOT) break;
    if (rand() < density) values.set(slot, randomValue(rand, shortValues && rand() < 0.5));
    if (rand() < failRate) failing.set(slot, { code: -32000, message: `slot ${slot.toString(16)} is unreadable` });
    else if (rand() < failRate / 5) garbage.add(slot);
  }
  const batch = pick<BatchPolicy>([
    { kind: 'ok' },
    { kind: 'ok' },
    { kind: 'ok' },
    { kind: 'http', status: 400 },
    { kind: 'http', status: 500 },
    { kind: 'single-error', code: -32600, message: 'Invalid request' },
    { kind: 'cap', cap: 1 + Math.floor(rand() * 20) },
    { kind: 'drop', rate: 0.05 + rand() * 0.3 },
  ]);
  return {
    seed,
    config: { values, failing, garbage, shortZero: rand() < 0.5, batch, maxInFlight: pick([1, 2, 4, 100]), blockNumber: 1 + Math.floor(rand() * 1000) },
    params: { address: ADDRESS, blockNumber: 0, start, maxResults },
    fast: { maxBatch: pick([1, 3, 16, 200]), concurrency: pick([1, 3, 8]) },
    lead: pick([undefined, 'window', 'prefetched']),
  };
}

interface Run {
  result: ScanResult;
  warned: string[];
  node: MemoryNode;
  progress: StorageProgress[];
}

async function runScan(c: Case, which: 'reference' | 'fast'): Promise<Run> {
  const node = new MemoryNode(c.config, prng(c.seed ^ 0x5bd1e995));
  const warned: string[] = [];
  const progress: StorageProgress[] = [];
  const params = { ...c.params, blockNumber: c.config.blockNumber };
  const hooks = { onWarning: (l: string) => warned.push(l), onProgress: (p: StorageProgress) => progress.push(p) };
  let fast: FastScanOptions = c.fast;
  if (which === 'fast' && c.lead) {
    const window = Math.min(readBudget(params.maxResults), c.fast.maxBatch ?? 200, Number(MAX_SLOT - params.start + 1n));
    fast = { ...c.fast, firstWindow: Number.MAX_SAFE_INTEGER };
    if (c.lead === 'prefetched') {
      const items = await node.batch(Array.from({ length: window }, (_, k) => readCall(params, params.start + BigInt(k)))).catch(() => undefined);
      if (items) fast.prefetched = items.map(batchOutcome);
    }
  }
  const result = which === 'reference' ? await scanOneByOne(node, params, hooks) : await scanFast(node, params, hooks, fast);
  return { result, warned, node, progress };
}

function describeCase(c: Case): string {
  return `seed ${c.seed}: start ${c.params.start.toString(16)}, max ${c.params.maxResults}, ${c.config.values.size} values, ${c.config.failing.size} failing, batch ${JSON.stringify(c.config.batch)}, in-flight ${c.config.maxInFlight}, fast ${JSON.stringify(c.fast)}, lead ${c.lead}`;
}

describe('fast emulation = one-slot-at-a-time reference', () => {
  const CASES = 1500;

  test(`${CASES} random sparse layouts: same entries, nextKey, warnings and reads`, async () => {
    let fallbacks = 0;
    let capped = 0;
    let paged = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const c = makeCase(seed);
      const ref = await runScan(c, 'reference');
      const fast = await runScan(c, 'fast');
      const why = describeCase(c);
      assert.deepEqual(emulationOutput(fast.result), emulationOutput(ref.result), why);
      assert.deepEqual(fast.result.entries, ref.result.entries, why);
      assert.equal(fast.result.nextSlot, ref.result.nextSlot, why);
      assert.deepEqual(fast.result.warnings, ref.result.warnings, why);
      assert.deepEqual(fast.warned, ref.warned, `${why}: warning lines passed to onWarning`);
      assert.deepEqual(fast.warned, fast.result.warnings, why);
      assert.equal(fast.result.reads, ref.result.reads, why);

      // The reference's own contract (spec steps 5–7).
      const budget = readBudget(c.params.maxResults);
      assert.ok(ref.result.reads <= budget, why);
      assert.deepEqual(
        ref.node.slotsAsked,
        Array.from({ length: ref.result.reads }, (_, k) => c.params.start + BigInt(k)),
        `${why}: one read per slot upward`,
      );
      if (ref.result.entries.length === c.params.maxResults) {
        paged++;
        const last = ref.result.entries[ref.result.entries.length - 1].slot;
        assert.equal(ref.result.nextSlot, last < MAX_SLOT ? last + 1n : null, `${why}: nextKey is the slot after the last read`);
      } else {
        assert.equal(ref.result.nextSlot, null, why);
        if (ref.result.reads === budget) capped++;
      }

      // The fast scan never reads outside the budget's slots.
      for (const s of fast.node.slotsAsked) assert.ok(s >= c.params.start && s < c.params.start + BigInt(budget) && s <= MAX_SLOT, `${why}: read slot ${s} outside the budget`);
      if (fast.result.strategy !== 'batch') fallbacks++;
      const last = fast.progress[fast.progress.length - 1];
      if (last) assert.deepEqual([last.slotsRead, last.entriesFound], [ref.result.reads, ref.result.entries.length], `${why}: final progress`);
    }
    // The generator must reach every branch, or the property proves less than it claims.
    assert.ok(fallbacks > 100, `fallbacks exercised: ${fallbacks}`);
    assert.ok(capped > 100, `10 × max cap reached: ${capped}`);
    assert.ok(paged > 100, `max results reached: ${paged}`);
  });

  test('with a healthy node, a page of 10 takes few round trips and reads little past the reference', async () => {
    const rand = prng(42);
    for (const density of [1, 0.5, 0.25, 0.05]) {
      let trips = 0;
      let extra = 0;
      const runs = 200;
      for (let i = 0; i < runs; i++) {
        const values = new Map<bigint, string>();
        for (let s = 0n; s < 200n; s++) if (rand() < density) values.set(s, word(s + 1n));
        const c: Case = {
          seed: i,
          config: { values, failing: new Map(), garbage: new Set(), shortZero: false, batch: { kind: 'ok' }, maxInFlight: 100, blockNumber: 7 },
          params: { address: ADDRESS, blockNumber: 7, start: 0n, maxResults: 10 },
          fast: {},
        };
        const ref = await runScan(c, 'reference');
        const fast = await runScan(c, 'fast');
        assert.deepEqual(fast.result.entries, ref.result.entries);
        trips += fast.node.roundTrips;
        extra += fast.node.slotsAsked.length - ref.result.reads;
        assert.ok(fast.node.roundTrips <= 3, `density ${density}: ${fast.node.roundTrips} round trips`);
      }
      if (density === 1) assert.equal(trips, runs, 'a dense page is one batch of exactly max reads');
      if (density === 1) assert.equal(extra, 0);
      assert.ok(trips / runs <= 2.1, `density ${density}: ${trips / runs} round trips on average`);
    }
  });

  test('cancellation stops the scan with a cancelled error', async () => {
    const c = makeCase(7);
    c.config.batch = { kind: 'ok' };
    const controller = new AbortController();
    controller.abort();
    const node = new MemoryNode(c.config, prng(1));
    for (const scan of [
      () => scanFast(node, { ...c.params, blockNumber: c.config.blockNumber }, { signal: controller.signal }),
      () => scanOneByOne(node, { ...c.params, blockNumber: c.config.blockNumber }, { signal: controller.signal }),
    ]) {
      await assert.rejects(scan(), (err: Error & { reason?: string; code?: number }) => err.reason === 'cancelled' && err.code === -32000 && /cancelled/.test(err.message));
    }
    assert.equal(node.roundTrips, 0);
  });

  test("the operation's deadline running out mid-scan fails the range as a whole, naming why", async () => {
    const spent = timeoutFailure(ctx, true);
    const node: StorageRpc = {
      call: () => Promise.reject(spent),
      batch: () => Promise.reject(spent),
    };
    const params = { address: ADDRESS, blockNumber: 7, start: 0n, maxResults: 10 };
    for (const scan of [scanFast, scanOneByOne]) {
      const warned: string[] = [];
      await assert.rejects(scan(node, params, { onWarning: (l) => warned.push(l) }), (err: unknown) => {
        assert.ok(err instanceof StorageRangeError);
        assert.deepEqual([err.reason, err.code, err.message], ['timeout', -32000, `Storage range not finished: ${spent.message}`]);
        return true;
      });
      assert.deepEqual(warned, [], 'no slot is skipped with a warning');
    }
  });
});

describe('emulation pieces', () => {
  test('interpretRead: 32 bytes, short answers padded, ganache "0x" is zero, garbage is a failed read', () => {
    assert.deepEqual(interpretRead(word(0x2an)), { ok: true, value: word(0x2an) });
    assert.deepEqual(interpretRead('0x2A'), { ok: true, value: word(0x2an) });
    assert.deepEqual(interpretRead('0x'), { ok: true, value: word(0n) });
    const bad = interpretRead(null);
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.reason : '', /answered null, not a 32-byte hex value/);
    assert.equal(interpretRead(`0x${'1'.repeat(66)}`).ok, false, 'more than 32 bytes');
  });

  test('warning lines name the slot in minimal hex', () => {
    assert.equal(warningLine(11n, 'JSON-RPC error -32000: boom'), 'Warning: failed to read slot 0xb: JSON-RPC error -32000: boom; skipped');
  });

  test('windowSize: first the entries wanted, then from the density seen, within budget and cap', () => {
    assert.equal(windowSize(0, 0, 10, 100, 200), 10);
    assert.equal(windowSize(0, 0, 10, 4, 200), 4, 'never past the budget');
    assert.equal(windowSize(0, 10, 10, 90, 200), 90, 'nothing found: the rest of the budget');
    assert.equal(windowSize(0, 10, 10, 90, 25), 25, 'never past the batch cap');
    const dense = windowSize(9, 10, 1, 90, 200);
    assert.ok(dense >= 1 && dense <= 4, `dense: ${dense}`);
    const quarter = windowSize(3, 10, 7, 90, 200);
    assert.ok(quarter > 28 && quarter <= 90, `a quarter dense: ${quarter}`);
  });
});

describe('how the fast scan reads: the way each node answer leads to', () => {
  /** 20 non-zero slots from 0, a page of 10, the given batch policy and failing slots. */
  async function scanWith(batch: BatchPolicy, failing: [bigint, JsonRpcErrorObject][] = [], fast: FastScanOptions = {}) {
    const values = new Map<bigint, string>();
    for (let s = 0n; s < 20n; s++) values.set(s, word(s + 1n));
    const config: NodeConfig = { values, failing: new Map(failing), garbage: new Set(), shortZero: false, batch, maxInFlight: 100, blockNumber: 7 };
    const node = new MemoryNode(config, prng(3));
    const warned: string[] = [];
    const params = { address: ADDRESS, blockNumber: 7, start: 0n, maxResults: 10 };
    const result = await scanFast(node, params, { onWarning: (l) => warned.push(l) }, fast);
    const reference = await scanOneByOne(new MemoryNode(config, prng(3)), params);
    assert.deepEqual({ ...result, strategy: reference.strategy }, reference, 'same page as the reference');
    return { strategy: result.strategy, roundTrips: node.roundTrips, asked: node.slotsAsked.length, warned };
  }
  const rateLimited = (message: string, code = -32000): [bigint, JsonRpcErrorObject][] => [[3n, { code, message }]];

  test('a healthy node: one batch of the page', async () => {
    assert.deepEqual(await scanWith({ kind: 'ok' }), { strategy: 'batch', roundTrips: 1, asked: 10, warned: [] });
  });

  test('"batch too large": halved until it passes, batches kept', async () => {
    // 10 refused, 5 refused, then batches of 2.
    assert.deepEqual(await scanWith({ kind: 'cap', cap: 4 }), { strategy: 'batch', roundTrips: 7, asked: 10, warned: [] });
    assert.deepEqual(await scanWith({ kind: 'single-error', code: -32600, message: 'batch limit exceeded' }, [], { maxBatch: 1 }), {
      strategy: 'concurrent',
      roundTrips: 11,
      asked: 10,
      warned: [],
    });
  });

  test('HTTP 413: halved down to one call, then single calls', async () => {
    // 10, 5, 2 and 1 refused, then ten single calls.
    assert.deepEqual(await scanWith({ kind: 'http', status: 413 }), { strategy: 'concurrent', roundTrips: 14, asked: 10, warned: [] });
  });

  test('any other refusal of the batch: single calls at once', async () => {
    assert.deepEqual(await scanWith({ kind: 'http', status: 400 }), { strategy: 'concurrent', roundTrips: 11, asked: 10, warned: [] });
    assert.deepEqual(await scanWith({ kind: 'single-error', code: -32600, message: 'Invalid request' }), { strategy: 'concurrent', roundTrips: 11, asked: 10, warned: [] });
  });

  test('an error about the slot itself is the reference warning, read once, in the batch', async () => {
    // 10 slots, 9 found; at that density 3 more are likely to hold the tenth.
    const run = await scanWith({ kind: 'ok' }, [[3n, { code: -32000, message: 'slot unreadable' }]]);
    assert.deepEqual(run, { strategy: 'batch', roundTrips: 2, asked: 13, warned: ['Warning: failed to read slot 0x3: JSON-RPC error -32000: slot unreadable; skipped'] });
  });

  test('rate limits inside a batch: that slot is read again more slowly, down to one by one', async () => {
    for (const failing of [rateLimited('anything', -32005), rateLimited('Rate limit reached'), rateLimited('ratelimit'), rateLimited('Too Many Requests'), rateLimited('over capacity')]) {
      const run = await scanWith({ kind: 'ok' }, failing);
      assert.equal(run.strategy, 'one-by-one', failing[0][1].message);
      assert.deepEqual(run.warned, [`Warning: failed to read slot 0x3: JSON-RPC error ${failing[0][1].code}: ${failing[0][1].message}; skipped`]);
    }
  });
});
