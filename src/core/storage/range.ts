/**
 * The storage range of a contract at a block, behind one function with three modes:
 *  - 'native': debug_storageRangeAt (hashed keys, preimages in `key`);
 *  - 'emulate': the eth_getStorageAt emulation of the spec (plain slot keys, `key` null);
 *  - 'auto' (default): native where the node has the method, the emulation where it does not.
 * toSpecOutput turns a result, or any failure, into the spec's JSON-RPC output form.
 *
 * Auto mode remembers, per client object, a node found without the native method, so paging
 * asks it only once. Every mode looks the block up first (step 1); when the emulation reads a
 * block given by number, its first batch is sent alongside the lookup and used only once the
 * lookup has succeeded: the output is the same, a page takes one round trip less.
 */
import { lookupBlock, type BlockInfo } from './block';
import { emulationOutput, scanFast, scanOneByOne, type FastScanOptions, type ScanParams, type ScanResult } from './emulate';
import { StorageRangeError, STORAGE_ERROR_CODE } from './errors';
import { checkMaxResults, checkTxIndex, normaliseAddress, parseBlockRef, parseStartKey, word } from './inputs';
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
  if (emulateOnly && fast && ref.kind === 'number' && ref.number <= BigInt(Number.MAX_SAFE_INTEGER)) {
    // The block number is known in advance: the first reads travel with the lookup (step 1)
    // and count only once it has succeeded, so a page takes one round trip less.
    const lookup = lookupBlock(rpc, ref, options.signal);
    const params: ScanParams = { address, blockNumber: Number(ref.number), start, maxResults };
    const [block, scan] = await Promise.all([lookup, scanFast(rpc, params, options, options.fast, lookup)]);
    return emulated(block, scan, known);
  }

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
  const scan = fast ? await scanFast(rpc, params, options, options.fast) : await scanOneByOne(rpc, params, options);
  return emulated(block, scan, nativeUnavailable);
}

function emulated(block: BlockInfo, scan: ScanResult, nativeUnavailable: string | undefined): StorageRangeResult {
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
