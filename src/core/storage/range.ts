/**
 * The storage range of a contract at a block, behind one function with three modes:
 *  - 'native': debug_storageRangeAt (hashed keys, preimages in `key`);
 *  - 'emulate': the eth_getStorageAt emulation of the spec (plain slot keys, `key` null);
 *  - 'auto' (default): native where the node has the method, the emulation where it does not.
 * toSpecOutput turns a result, or any failure, into the spec's JSON-RPC output form.
 *
 * Auto mode remembers, per client object, a node found without the native method, so paging
 * asks it only once. Every mode looks the block up first (step 1). The fast emulation sends its
 * first window of reads in the same JSON-RPC batch as the lookup, so a page is one HTTP request:
 * given a number, reads at that number followed by the block at that number again, whose hash
 * must be the looked-up one (else the page is read again, at most MAX_ATTEMPTS times); given a
 * hash, reads pinned to it by an EIP-1898 block object (anvil), or, where the node refuses those
 * (ganache), reads at its number in a second request, checked against the hash the same way.
 * Later batches carry the same check. A tag is looked up on its own first.
 */
import { RpcFailure } from '../rpc/failure';
import type { RpcCall } from '../rpc/types';
import { blockCall, blockFailure, blockFromResult, checkBlock, lookupBlock, pinByHash, type BlockInfo } from './block';
import {
  batchOutcome,
  DEFAULT_MAX_BATCH,
  emulationOutput,
  failed,
  isSizeRefusal,
  isTransient,
  readBudget,
  readCall,
  scanFast,
  scanOneByOne,
  type FastScanOptions,
  type ReadOutcome,
  type ScanParams,
  type ScanResult,
} from './emulate';
import { cancelledError, StorageRangeError, STORAGE_ERROR_CODE, timeUpError } from './errors';
import { checkMaxResults, checkTxIndex, MAX_SLOT, normaliseAddress, parseBlockRef, parseStartKey, word, type BlockRef } from './inputs';
import { nativeRange } from './native';
import type { ReadStrategy, ScanHooks, StorageEntry, StorageMode, StorageModeChoice, StorageRpc } from './types';

export interface StorageRangeOptions extends ScanHooks {
  /** A block hash, a block number (number, bigint, decimal or 0x-hex string) or a tag ('latest'). */
  block: string | number | bigint;
  /** The contract; any case (normalised to its checksum form). */
  address: string;
  /** Hex, with or without 0x; default 32 zero bytes. Emulation: a slot number; native: a hashed key. */
  startKey?: string;
  /** Default 10. Emulation: entries wanted (at most 10 × as many reads); native: the method's last parameter. */
  maxResults?: number;
  /** Native only (the emulation ignores it, spec step 2); default 0. */
  txIndex?: number;
  /** Default 'auto'. */
  mode?: StorageModeChoice;
  /** Emulation reads: 'fast' (default) or the reference 'one-by-one'. */
  emulation?: 'fast' | 'one-by-one';
  /** Tuning of the fast emulation (batch cap, concurrency). */
  fast?: Omit<FastScanOptions, 'strategy'>;
}

export interface StorageRangeResult {
  /** The mode that produced the result. */
  mode: StorageMode;
  /** The block looked up; the emulation reads at its number, the native method gets its hash. */
  block: BlockInfo;
  /** Native: hashed keys in ascending order. Emulation: minimal-hex slots in ascending order. */
  storage: Record<string, StorageEntry>;
  nextKey: string | null;
  /** Emulation: one line per failed read, skipped (also passed to onWarning). */
  warnings: string[];
  /** Auto mode on a node without the native method: what the node said. */
  nativeUnavailable?: string;
  /** Emulation: reads counted against the budget, and how the last ones were made. */
  emulation?: { reads: number; strategy: ReadStrategy };
}

/** Per client: nodes found without the native method, so auto mode asks them only once. */
const nativeMissing = new WeakMap<object, string>();

export async function storageRange(rpc: StorageRpc, options: StorageRangeOptions): Promise<StorageRangeResult> {
  // Arguments first: a bad one is refused before anything is sent.
  const mode = options.mode ?? 'auto';
  if (!['auto', 'native', 'emulate'].includes(mode)) throw new StorageRangeError(`Invalid mode '${String(mode)}': expected auto, native or emulate`, 'input');
  const ref = parseBlockRef(options.block);
  const address = normaliseAddress(options.address);
  const start = parseStartKey(options.startKey);
  const maxResults = checkMaxResults(options.maxResults);
  const txIndex = checkTxIndex(options.txIndex);

  const known = mode === 'auto' ? nativeMissing.get(rpc) : undefined;
  const emulateOnly = mode === 'emulate' || known !== undefined;
  const fast = options.emulation !== 'one-by-one';
  if (emulateOnly && fast) return emulated(...(await fastPage(rpc, ref, { address, start, maxResults }, options)), known);

  // Step 1: the block is looked up first.
  const block = await lookupBlock(rpc, ref, options.signal);

  let nativeUnavailable = known;
  if (mode !== 'emulate' && known === undefined) {
    try {
      const range = await nativeRange(rpc, { blockHash: block.hash, txIndex, address, startKey: word(start), maxResults }, options.signal);
      return { mode: 'native', block, ...range, warnings: [] };
    } catch (err) {
      if (!(err instanceof StorageRangeError) || err.reason !== 'native-unavailable' || mode === 'native') throw err;
      nativeUnavailable = err.detail ?? err.message;
      nativeMissing.set(rpc, nativeUnavailable);
    }
  }

  // Steps 2–8: tx index ignored, reads at the looked-up block's number.
  const params: ScanParams = { address, blockNumber: block.number, start, maxResults };
  const scan = fast ? await scanFast(rpc, params, options, fastOptions(block, options)) : await scanOneByOne(rpc, params, options);
  return emulated(block, scan, nativeUnavailable);
}

/** Lookups and page reads tried when the block at the number read keeps changing under them. */
export const MAX_ATTEMPTS = 3;

/** Per client: nodes that refused reads pinned by an EIP-1898 block object (ganache). */
const blockObjectsRefused = new WeakSet<object>();

/** The fast scan's options once the block is known: the first window as large as the page may read, later batches checked. */
function fastOptions(block: BlockInfo, options: StorageRangeOptions, prefetched?: ReadOutcome[]): FastScanOptions {
  return { ...options.fast, firstWindow: Number.MAX_SAFE_INTEGER, check: block, prefetched };
}

/**
 * The fast emulation of one page, its first window read in the lookup's batch (see the top).
 * A batch the node refuses as a whole falls back to the lookup alone, then the scan's own
 * fallbacks; a failed lookup is step 1's error whatever the reads beside it answered.
 */
async function fastPage(rpc: StorageRpc, ref: BlockRef, page: Omit<ScanParams, 'blockNumber'>, options: StorageRangeOptions): Promise<[BlockInfo, ScanResult]> {
  const byNumber = ref.kind === 'number' && ref.number <= BigInt(Number.MAX_SAFE_INTEGER);
  const byHash = ref.kind === 'hash' && !blockObjectsRefused.has(rpc);
  if (!byNumber && !byHash) {
    const block = await lookupBlock(rpc, ref, options.signal);
    return [block, await scanFast(rpc, { ...page, blockNumber: block.number }, options, fastOptions(block, options))];
  }
  // As many reads as the page may make, within the batch cap and the key space.
  const keysLeft = MAX_SLOT - page.start + 1n;
  const window = Math.min(readBudget(page.maxResults), Math.max(1, options.fast?.maxBatch ?? DEFAULT_MAX_BATCH), keysLeft < 1_000_000n ? Number(keysLeft) : Infinity);
  for (let attempt = 1; ; attempt++) {
    const params: ScanParams = { ...page, blockNumber: byNumber ? Number(ref.number) : 0 };
    const reads = Array.from({ length: window }, (_, k) => readCall(params, page.start + BigInt(k), byNumber ? undefined : pinByHash((ref as { hash: string }).hash)));
    // By number, the block at that number again after the reads: both must be the same block.
    const calls: RpcCall[] = [blockCall(ref), ...reads, ...(byNumber ? [blockCall(ref)] : [])];
    let items;
    try {
      items = await rpc.batch(calls, { signal: options.signal });
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      if (err.cancelled) throw cancelledError();
      if (err.outOfTime) throw timeUpError(err);
      // Refused as a whole: the lookup alone, then smaller batches if the node said "too large", else none.
      const block = await lookupBlock(rpc, ref, options.signal);
      const fallback: FastScanOptions = isSizeRefusal(err) && calls.length > 2 ? { maxBatch: Math.floor(calls.length / 2) } : { strategy: 'concurrent' };
      return [block, await scanFast(rpc, { ...page, blockNumber: block.number }, options, { ...fastOptions(block, options), ...fallback })];
    }
    const [lookup, ...answers] = items;
    if ('error' in lookup) throw blockFailure(lookup.error);
    const block = blockFromResult(ref, lookup.result);
    params.blockNumber = block.number;
    let outcomes = answers.slice(0, reads.length).map(batchOutcome);
    const check = answers[reads.length];
    if (byNumber && check && 'error' in check && isTransient(failed(check.error))) {
      // The check went unanswered (a rate limit, a flaky gateway): the reads are read again, checked.
      outcomes = [];
    } else if (byNumber) {
      try {
        checkBlock(block, check ?? { error: new RpcFailure('rpc', 'no answer') });
      } catch (err) {
        if (attempt < MAX_ATTEMPTS && err instanceof StorageRangeError && err.reason === 'reorg') continue;
        throw err;
      }
    } else if (outcomes.some((o) => !o.ok)) {
      // Pinned reads refused (ganache takes no block object, or the block is not canonical):
      // the spec's way, at the number, checked. Every read refused: the node takes no objects.
      if (outcomes.every((o) => !o.ok && !isTransient(o))) blockObjectsRefused.add(rpc);
      outcomes = [];
    }
    const scan = await scanFast(rpc, params, options, fastOptions(block, options, outcomes.length > 0 ? outcomes : undefined));
    return [block, scan];
  }
}

function emulated(block: BlockInfo, scan: ScanResult, nativeUnavailable?: string): StorageRangeResult {
  return {
    mode: 'emulate',
    block,
    ...emulationOutput(scan),
    warnings: scan.warnings,
    ...(nativeUnavailable !== undefined ? { nativeUnavailable } : {}),
    emulation: { reads: scan.reads, strategy: scan.strategy },
  };
}

/** The spec's output form (jsonrpc 2.0, id 1): a result {storage, nextKey}, or an error {code -32000, message}. */
export type SpecOutput =
  { jsonrpc: '2.0'; id: 1; result: { storage: Record<string, StorageEntry>; nextKey: string | null } } | { jsonrpc: '2.0'; id: 1; error: { code: number; message: string } };

/** A result, a StorageRangeError or any other failure, in the spec's output form. */
export function toSpecOutput(outcome: StorageRangeResult | unknown): SpecOutput {
  if (isResult(outcome)) return { jsonrpc: '2.0', id: 1, result: { storage: outcome.storage, nextKey: outcome.nextKey } };
  const message = outcome instanceof Error ? outcome.message : String(outcome);
  return { jsonrpc: '2.0', id: 1, error: { code: STORAGE_ERROR_CODE, message } };
}

function isResult(v: unknown): v is StorageRangeResult {
  const r = v as StorageRangeResult | null;
  return typeof r === 'object' && r !== null && !(r instanceof Error) && typeof r.storage === 'object' && r.storage !== null && 'nextKey' in r;
}
