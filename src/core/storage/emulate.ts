/**
 * The storage-range emulation (spec "Storage-range emulation (eth_getStorageAt based)", steps
 * 4–8): read slots upward from the start key at one block number, skip zero values and failed
 * reads (the latter with a warning line), stop at max results entries or after 10 × max results
 * reads, whichever comes first.
 *
 * Two implementations with identical output (entries, nextKey and warning lines):
 *  - scanOneByOne, the reference: one eth_getStorageAt per round trip, exactly as the spec says.
 *    Kept as the yardstick of tests and benchmarks, and as the last fallback of the fast one.
 *  - scanFast, the default: the same reads in JSON-RPC batches sized from the density of
 *    non-zero slots seen so far, results consumed strictly in slot order and cut off exactly
 *    where the reference stops (so no warning past that point is ever emitted). Nodes that refuse
 *    batches get bounded concurrency; when that fails too, the reference takes over where the
 *    fast scan stood.
 *
 * The reading of the spec's one ambiguity, step 7 "nextKey is set to the next slot number": the
 * slot after the last slot READ. Reading stops as soon as max results entries are collected, so
 * the last slot read is then the last entry's slot and nextKey = last entry + 1; no slot between
 * is skipped or read twice when paging. When reading stopped on the 10 × max budget (fewer
 * entries), nextKey is null as step 7 says, even if slots above were never read.
 */
import { RpcFailure } from '../rpc/failure';
import type { BatchItem } from '../rpc/jsonrpc';
import type { RpcCall } from '../rpc/types';
import { blockCheckCall, checkBlock, type BlockInfo } from './block';
import { cancelledError, timeUpError } from './errors';
import { MAX_SLOT, minimalHex, word } from './inputs';
import type { ReadStrategy, ScanHooks, StorageEntry, StorageRpc } from './types';

/** What the scan reads: a checksum address at one block number, from a start slot. */
export interface ScanParams {
  address: string;
  blockNumber: number;
  start: bigint;
  maxResults: number;
}

/** Where a scan stands; the fast scan hands it to the reference when it falls back that far. */
export interface ScanState {
  /** The next slot to read. */
  slot: bigint;
  /** Reads made (each counts against the 10 × max budget, failed or not). */
  reads: number;
  entries: { slot: bigint; value: string }[];
  warnings: string[];
}

export interface ScanResult extends ScanState {
  /** The slot after the last slot read when max results entries were found, else null. */
  nextSlot: bigint | null;
  /** How the last reads were made. */
  strategy: ReadStrategy;
}

/** Tuning of the fast scan. */
export interface FastScanOptions {
  /** Largest batch sent (default 200); halved when the node says a batch is too large. */
  maxBatch?: number;
  /** Calls in flight when the node refuses batches (default 8). */
  concurrency?: number;
  /** Start from a later strategy (tests use it to exercise each one). */
  strategy?: ReadStrategy;
  /** Slots in the first window (default: the entries wanted); within the budget and the batch cap. */
  firstWindow?: number;
  /** The outcomes of the first slots from the start, already read (beside the block lookup): recorded as the first window. */
  prefetched?: ReadOutcome[];
  /** The looked-up block: every later batch also asks for the block at its number, which must still have this hash. */
  check?: BlockInfo;
}

export const DEFAULT_MAX_BATCH = 200;
export const DEFAULT_CONCURRENCY = 8;

/** The spec's budget: at most 10 × max results reads per run (Limits 2, step 6). */
export function readBudget(maxResults: number): number {
  return 10 * maxResults;
}

/** The eth_getStorageAt call for one slot: 32-byte key, block as a hex quantity (or `at`, an EIP-1898 block object). */
export function readCall(p: ScanParams, slot: bigint, at: unknown = minimalHex(BigInt(p.blockNumber))): RpcCall {
  return { method: 'eth_getStorageAt', params: [p.address, word(slot), at] };
}

/** A batch's answer to a read. */
export function batchOutcome(item: BatchItem): ReadOutcome {
  return 'error' in item ? failed(item.error) : interpretRead(item.result);
}

/** The outcome of reading one slot: its value (32 bytes, lower case) or why it failed. */
export type ReadOutcome = { ok: true; value: string } | { ok: false; reason: string; failure?: RpcFailure };

/**
 * A node's eth_getStorageAt result as a 32-byte value. Short answers are left-padded (ganache
 * answers "0x" for an empty slot); anything that is not hex of at most 32 bytes is a failed read.
 */
export function interpretRead(result: unknown): ReadOutcome {
  if (typeof result === 'string' && /^0x[0-9a-fA-F]{0,64}$/.test(result)) {
    return { ok: true, value: `0x${result.slice(2).toLowerCase().padStart(64, '0')}` };
  }
  return { ok: false, reason: `the node answered ${JSON.stringify(result)?.slice(0, 80) ?? 'nothing'}, not a 32-byte hex value` };
}

export function isZeroWord(value: string): boolean {
  return /^0x0*$/.test(value);
}

/** The warning line of a failed read (step 5). */
export function warningLine(slot: bigint, reason: string): string {
  return `Warning: failed to read slot ${minimalHex(slot)}: ${reason}; skipped`;
}

/** A failed read: the node's answer about that call (a JSON-RPC error, no answer); cancels and the deadline end the scan. */
export function failed(err: unknown): ReadOutcome {
  if (err instanceof RpcFailure) {
    if (err.cancelled) throw cancelledError();
    if (err.outOfTime) throw timeUpError(err);
    return { ok: false, reason: err.message, failure: err };
  }
  throw err;
}

/** One slot read on its own. */
async function readOne(rpc: StorageRpc, p: ScanParams, slot: bigint, signal?: AbortSignal): Promise<ReadOutcome> {
  const call = readCall(p, slot);
  try {
    return interpretRead(await rpc.call(call.method, call.params, { signal }));
  } catch (err) {
    return failed(err);
  }
}

/** Whether reading can go on: entries still wanted, budget left, key space not exhausted. */
function canRead(state: ScanState, maxResults: number): boolean {
  return state.entries.length < maxResults && state.reads < readBudget(maxResults) && state.slot <= MAX_SLOT;
}

/** Records one read of `state.slot` (the reference's step 5) and moves to the next slot. */
function record(state: ScanState, outcome: ReadOutcome, hooks: ScanHooks): void {
  if (outcome.ok) {
    if (!isZeroWord(outcome.value)) state.entries.push({ slot: state.slot, value: outcome.value });
  } else {
    const line = warningLine(state.slot, outcome.reason);
    state.warnings.push(line);
    hooks.onWarning?.(line);
  }
  state.reads++;
  state.slot++;
}

function finish(state: ScanState, p: ScanParams, strategy: ReadStrategy): ScanResult {
  // Step 7: the slot after the last read, only when max results entries were collected (and
  // that slot exists: past the last 32-byte key there is nothing to page to).
  const nextSlot = state.entries.length === p.maxResults && state.slot <= MAX_SLOT ? state.slot : null;
  return { ...state, nextSlot, strategy };
}

function progress(state: ScanState, p: ScanParams, hooks: ScanHooks): void {
  hooks.onProgress?.({ slotsRead: state.reads, entriesFound: state.entries.length, maxReads: readBudget(p.maxResults), maxResults: p.maxResults });
}

function freshState(p: ScanParams): ScanState {
  return { slot: p.start, reads: 0, entries: [], warnings: [] };
}

/** The reference: one slot per call, in order, from `from` (a fresh start by default). */
export async function scanOneByOne(rpc: StorageRpc, p: ScanParams, hooks: ScanHooks = {}, from?: ScanState): Promise<ScanResult> {
  const state = from ?? freshState(p);
  while (canRead(state, p.maxResults)) {
    if (hooks.signal?.aborted) throw cancelledError();
    record(state, await readOne(rpc, p, state.slot, hooks.signal), hooks);
    progress(state, p, hooks);
  }
  return finish(state, p, 'one-by-one');
}

/**
 * How many slots to read in the next round trip. The first: the entries still wanted (all of
 * them could be non-zero). Later ones: enough that, at a pessimistic estimate of the density of
 * non-zero slots seen so far, the entries still wanted are very likely found, so a page rarely
 * needs a third round trip; never beyond the budget or the batch cap.
 */
export function windowSize(found: number, observed: number, wanted: number, readsLeft: number, cap: number): number {
  const limit = Math.max(1, Math.min(readsLeft, cap));
  if (observed === 0) return Math.min(wanted, limit);
  const p = (found + 0.5) / (observed + 1);
  const pLow = Math.max(p - 1.5 * Math.sqrt((p * (1 - p)) / (observed + 1)), 1e-6);
  // Negative binomial: reads needed for `wanted` more successes, mean plus two deviations.
  const estimate = wanted / pLow + (2 * Math.sqrt(wanted * (1 - pLow))) / pLow;
  return Math.max(1, Math.min(Math.ceil(estimate), limit));
}

/** A batch refusal that says the batch is too large, so a smaller one may pass. */
export function isSizeRefusal(failure: RpcFailure): boolean {
  return failure.status === 413 || /batch.*(limit|size|too (large|many|big)|exceed|max)|(limit|exceed|max).*batch|too many (calls|requests)/i.test(failure.message);
}

/**
 * A failed read that says nothing about the slot: the node did not answer that call (HTTP error,
 * no connection, timeout, no answer in the batch) or asked to slow down. The fast scan reads such
 * a slot again a slower way, so its warnings are only ever those the reference would print.
 */
export function isTransient(outcome: ReadOutcome): boolean {
  if (outcome.ok || !outcome.failure) return false;
  const f = outcome.failure;
  return f.kind !== 'rpc' || f.code === -32005 || /rate.?limit|too many requests|capacity/i.test(f.message);
}

/** Reads `slots` with at most `limit` calls in flight; outcomes in slot order. */
async function readConcurrently(rpc: StorageRpc, p: ScanParams, slots: bigint[], limit: number, signal?: AbortSignal): Promise<ReadOutcome[]> {
  const outcomes: ReadOutcome[] = new Array(slots.length);
  let next = 0;
  const worker = async () => {
    while (next < slots.length) {
      const i = next++;
      outcomes[i] = await readOne(rpc, p, slots[i], signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, slots.length) }, worker));
  return outcomes;
}

/**
 * The fast scan: same output as scanOneByOne, in few round trips. Falls back batch →
 * concurrent → one-by-one (the reference, continuing from the current state).
 *
 * storageRange reads the first window beside the block lookup and passes its outcomes
 * (`prefetched`); with `check`, every later batch also checks that the block is unchanged.
 */
export async function scanFast(rpc: StorageRpc, p: ScanParams, hooks: ScanHooks = {}, options: FastScanOptions = {}): Promise<ScanResult> {
  const state = freshState(p);
  const budget = readBudget(p.maxResults);
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  let cap = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
  let strategy: ReadStrategy = options.strategy ?? 'batch';
  let found = 0;
  let observed = 0;
  let prefetched = options.prefetched;

  while (canRead(state, p.maxResults)) {
    if (strategy === 'one-by-one') {
      return scanOneByOne(rpc, p, hooks, state);
    }
    if (hooks.signal?.aborted) throw cancelledError();

    const keysLeft = MAX_SLOT - state.slot + 1n;
    const readsLeft = Number(keysLeft < BigInt(budget - state.reads) ? keysLeft : BigInt(budget - state.reads));
    const limit = strategy === 'batch' ? cap : readsLeft;
    const wanted = p.maxResults - state.entries.length;
    const size = observed === 0 && options.firstWindow !== undefined ? Math.max(1, Math.min(options.firstWindow, readsLeft, limit)) : windowSize(found, observed, wanted, readsLeft, limit);
    const slots = Array.from({ length: size }, (_, k) => state.slot + BigInt(k));

    let outcomes: ReadOutcome[] = [];
    let refusal: RpcFailure | undefined;
    if (prefetched) {
      outcomes = prefetched;
      prefetched = undefined;
    } else if (strategy === 'batch') {
      try {
        const check = options.check;
        const items = await rpc.batch([...slots.map((s) => readCall(p, s)), ...(check ? [blockCheckCall(check)] : [])], { signal: hooks.signal });
        outcomes = items.slice(0, slots.length).map(batchOutcome);
        // The check is read before any read of this batch is recorded. Unanswered (a flaky
        // gateway, a rate limit): the window is read again without batches, so unchecked.
        if (check) {
          const answer = items[slots.length];
          if ('error' in answer && isTransient(failed(answer.error))) outcomes = [failed(answer.error)];
          else checkBlock(check, answer);
        }
      } catch (err) {
        if (!(err instanceof RpcFailure)) throw err;
        if (err.cancelled) throw cancelledError();
        if (err.outOfTime) throw timeUpError(err);
        refusal = err;
      }
    } else {
      outcomes = await readConcurrently(rpc, p, slots, concurrency, hooks.signal);
    }
    if (refusal) {
      // The node refused the batch as a whole: smaller batches if it said "too large",
      // otherwise no batches at all. Nothing was consumed; the same slots are read again.
      if (isSizeRefusal(refusal) && size > 1) cap = Math.max(1, Math.floor(size / 2));
      else strategy = 'concurrent';
      continue;
    }
    // Strictly in slot order, stopping exactly where the reference stops.
    for (const outcome of outcomes) {
      if (!canRead(state, p.maxResults)) break;
      if (isTransient(outcome)) {
        // Read this slot and the rest again a slower way; nothing of it is recorded.
        strategy = strategy === 'batch' ? 'concurrent' : 'one-by-one';
        break;
      }
      if (outcome.ok && !isZeroWord(outcome.value)) found++;
      observed++;
      record(state, outcome, hooks);
    }
    progress(state, p, hooks);
  }
  return finish(state, p, strategy);
}

/** The emulation's output form: minimal-hex slot keys, `key` null, nextKey minimal hex or null. */
export function emulationOutput(result: ScanResult): { storage: Record<string, StorageEntry>; nextKey: string | null } {
  const storage: Record<string, StorageEntry> = {};
  for (const e of result.entries) storage[minimalHex(e.slot)] = { key: null, value: e.value };
  return { storage, nextKey: result.nextSlot === null ? null : minimalHex(result.nextSlot) };
}
