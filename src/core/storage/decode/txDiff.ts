/**
 * The state of a contract just before and just after one transaction, from ONE trace call: the
 * prestateTracer in diffMode over the transaction's whole block (debug_traceBlockByNumber) gives
 * every transaction's writes. "Before" is the parent block's state with the writes of the block's
 * earlier transactions laid over it; "after" is "before" with the transaction's own writes. So a
 * slot the transaction did not write, read at the parent block, is exact only with that overlay
 * (an earlier transaction of the block may have pushed to an array whose element this one writes).
 * Writes made through delegatecall are traced under the account whose storage they change: the proxy.
 *
 * Without a layout the changed slots come from the trace alone; with one, the decoder reads the
 * parent block and the overlay gives both states (mapping keys from the logs up to the
 * transaction's block).
 */
import { maskedLine } from '../../redact';
import { RpcFailure } from '../../rpc/failure';
import type { BatchItem } from '../../rpc/jsonrpc';
import { blockFailure, blockFromResult, type BlockInfo } from '../block';
import { minimalHex, normaliseAddress, word } from '../inputs';
import type { ContractLayout } from '../layout';
import type { StorageRpc } from '../types';
import { changedLeaves, readStorage, type LeafChange, type StorageReadOptions, type StorageReading } from './decode';
import { StorageDecodeError } from './errors';
import type { RawSlotChange } from './rawDiff';
import type { ReadStats } from './read';

/** The tracer call: every transaction of the block, as state diffs. */
export const TX_TRACER = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } } as const;

/** One transaction's writes to the contract, as the trace of its block tells them. */
export interface TxTrace {
  tx: string;
  /** The transaction's block and the block before it. */
  block: BlockInfo;
  parent: BlockInfo;
  /** Its index in the block. */
  index: number;
  /** The slots it changed: [before, after]. */
  writes: Map<bigint, [bigint, bigint]>;
  /** The slots the block's earlier transactions changed, as they stood before it. */
  earlier: Map<bigint, bigint>;
  /** The contract was created in the block, by this transaction or an earlier one (no code at the parent). */
  created: boolean;
  stats: ReadStats;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const HASH = /^0x[0-9a-fA-F]{64}$/;
const SLOT = /^(0x)?[0-9a-fA-F]{1,64}$/;
const asWord = (v: unknown) => (typeof v === 'string' && SLOT.test(v) ? BigInt(v.startsWith('0x') ? v : `0x${v}`) : undefined);

/** A transaction hash as given: 0x and 64 hex digits. */
export function parseTxHash(text: string): string {
  const hash = text.trim();
  if (!HASH.test(hash)) throw new RangeError(`'${hash.slice(0, 80)}' is not a transaction hash (0x followed by 64 hex digits)`);
  return hash.toLowerCase();
}

/** A tracing failure that means the node cannot trace (ganache: -32700 "… does not exist/is not available"). */
function cannotTrace(detail: string): StorageDecodeError {
  return new StorageDecodeError(
    `the node cannot trace a transaction's state diff (${maskedLine(detail)}): a transaction's diff needs debug_traceBlockByNumber with the prestateTracer in diffMode (anvil, geth, Erigon, Nethermind, Reth)`,
    'trace',
  );
}

const UNAVAILABLE = /method not found|does not exist|not available|not supported|unknown tracer|tracer .*not found|unsupported/i;

/** The account's storage in one side (pre or post) of a trace, by lowercase address. */
function storageOf(side: unknown, address: string): { present: boolean; code: boolean; storage: Map<bigint, bigint> } {
  const storage = new Map<bigint, bigint>();
  if (!isObject(side)) return { present: false, code: false, storage };
  const entry = Object.entries(side).find(([a]) => a.toLowerCase() === address)?.[1];
  if (!isObject(entry)) return { present: false, code: false, storage };
  if (isObject(entry.storage)) {
    for (const [k, v] of Object.entries(entry.storage)) {
      const slot = asWord(k);
      const value = asWord(v);
      if (slot !== undefined && value !== undefined) storage.set(slot, value);
    }
  }
  return { present: true, code: typeof entry.code === 'string' && !/^0x0*$/.test(entry.code), storage };
}

/** The writes of one transaction's diff: every slot in pre or post, before = pre (or zero), after = post (or zero: diffMode leaves zeros out). */
function writesOf(diff: { pre: unknown; post: unknown }, address: string): { writes: Map<bigint, [bigint, bigint]>; created: boolean } {
  const pre = storageOf(diff.pre, address);
  const post = storageOf(diff.post, address);
  const writes = new Map<bigint, [bigint, bigint]>();
  for (const slot of new Set([...pre.storage.keys(), ...post.storage.keys()])) {
    const before = pre.storage.get(slot) ?? 0n;
    const after = post.storage.get(slot) ?? 0n;
    if (before !== after) writes.set(slot, [before, after]);
  }
  return { writes, created: post.code && !pre.present };
}

/** Looks the transaction up and traces its block: two round trips, one trace call. */
export async function traceTransaction(rpc: StorageRpc, hash: string, address: string, signal?: AbortSignal): Promise<TxTrace> {
  const tx = parseTxHash(hash);
  const contract = normaliseAddress(address).toLowerCase();
  const stats: ReadStats = { roundTrips: 0, requests: 0, reads: 0 };
  const failed = (err: unknown) => {
    if (err instanceof RpcFailure && err.cancelled) return new StorageDecodeError('Storage diff cancelled', 'cancelled');
    return blockFailure(err);
  };
  let found: unknown;
  try {
    stats.roundTrips++;
    stats.requests++;
    found = await rpc.call('eth_getTransactionByHash', [tx], { signal });
  } catch (err) {
    throw failed(err);
  }
  if (found === null || found === undefined) throw new StorageDecodeError(`no transaction ${tx} on the node`, 'read');
  const t = found as { blockNumber?: unknown; blockHash?: unknown; transactionIndex?: unknown };
  if (t.blockNumber === null || t.blockNumber === undefined) throw new StorageDecodeError(`transaction ${tx} is not in a block yet (pending): there is no state after it to compare`, 'read');
  if (typeof t.blockNumber !== 'string' || typeof t.transactionIndex !== 'string' || typeof t.blockHash !== 'string') {
    throw new StorageDecodeError(`the node's answer for transaction ${tx} has no block number, block hash and index`, 'read');
  }
  const number = Number(BigInt(t.blockNumber));
  const index = Number(BigInt(t.transactionIndex));
  const n = minimalHex(BigInt(number));
  let items: BatchItem[];
  try {
    stats.roundTrips++;
    stats.requests++;
    items = await rpc.batch(
      [
        { method: 'debug_traceBlockByNumber', params: [n, TX_TRACER] },
        { method: 'eth_getBlockByNumber', params: [n, false] },
        { method: 'eth_getBlockByNumber', params: [minimalHex(BigInt(Math.max(0, number - 1))), false] },
      ],
      { signal },
    );
  } catch (err) {
    throw failed(err);
  }
  const [traced, blockItem, parentItem] = items;
  for (const item of [blockItem, parentItem]) if ('error' in item) throw new StorageDecodeError(`looking up block ${number} of transaction ${tx} failed: ${item.error.message}`, 'read');
  const block = blockFromResult({ kind: 'number', number: BigInt(number) }, (blockItem as { result: unknown }).result);
  const parent = blockFromResult({ kind: 'number', number: BigInt(number - 1) }, (parentItem as { result: unknown }).result);
  if (block.hash !== t.blockHash.toLowerCase()) {
    throw new StorageDecodeError(`block ${number} is now ${block.hash}, not ${t.blockHash.toLowerCase()} that holds transaction ${tx}: a reorganisation; run again`, 'reorg');
  }
  const count = (blockItem as { result: { transactions?: unknown } }).result.transactions;
  if ('error' in traced) {
    if (UNAVAILABLE.test(traced.error.message) || traced.error.code === -32601) throw cannotTrace(`debug_traceBlockByNumber: ${traced.error.message}`);
    throw new StorageDecodeError(`tracing block ${number} failed: ${maskedLine(traced.error.message)}`, 'read');
  }
  const traces = traced.result;
  if (!Array.isArray(traces)) throw new StorageDecodeError(`debug_traceBlockByNumber of block ${number} answered something that is not a list of transaction traces`, 'read');
  if (Array.isArray(count) && traces.length !== count.length) {
    throw new StorageDecodeError(`the node traced ${traces.length} of ${count.length} transactions in block ${number}, so its answer is not a diff`, 'read');
  }
  const writes = new Map<bigint, [bigint, bigint]>();
  const earlier = new Map<bigint, bigint>();
  let created = false;
  for (let i = 0; i <= index; i++) {
    const entry: unknown = traces[i];
    if (isObject(entry) && entry.error !== undefined && entry.error !== null) {
      const error = typeof entry.error === 'string' ? entry.error : JSON.stringify(entry.error);
      throw new StorageDecodeError(`tracing transaction ${i} of block ${number} failed: ${maskedLine(error)}`, 'read');
    }
    const diff = isObject(entry) ? entry.result : undefined;
    if (!isObject(diff) || !isObject(diff.pre) || !isObject(diff.post)) {
      throw cannotTrace(`block ${number} answered traces that are not state diffs (no pre and post: the prestateTracer ignored diffMode)`);
    }
    const txHash = isObject(entry) ? entry.txHash : undefined;
    if (i === index && typeof txHash === 'string' && txHash.toLowerCase() !== tx) {
      throw new StorageDecodeError(`trace ${index} of block ${number} is of transaction ${txHash}, not ${tx}`, 'read');
    }
    const own = writesOf(diff as { pre: unknown; post: unknown }, contract);
    created ||= own.created;
    if (i === index) for (const [slot, change] of own.writes) writes.set(slot, change);
    else for (const [slot, [, after]] of own.writes) earlier.set(slot, after);
  }
  return { tx, block, parent, index, writes, earlier, created, stats };
}

export interface RawTxDiff {
  trace: TxTrace;
  changes: RawSlotChange[];
}

/** The slots the transaction changed, from the trace alone, in slot order (32-byte hex). */
export async function rawTxDiff(rpc: StorageRpc, hash: string, options: { address: string; signal?: AbortSignal }): Promise<RawTxDiff> {
  const trace = await traceTransaction(rpc, hash, options.address, options.signal);
  const changes = [...trace.writes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([slot, [before, after]]) => ({ slot: word(slot), before: word(before), after: word(after) }));
  return { trace, changes };
}

export interface TxStorageDiff {
  trace: TxTrace;
  /** The variables at two states, just before and just after the transaction, labelled with the parent block and the transaction's. */
  reading: StorageReading;
  changes: LeafChange[];
  warnings: string[];
  stats: ReadStats;
}

/** How the storage is read: readStorage with a layout, or a front end's reading as deployed (through a proxy, the layout picked by code). */
export type StorageReader = (blockRefs: string[], options: StorageReadOptions) => Promise<StorageReading>;

/**
 * The decoded leaves the transaction changed: the storage read at the parent block (by `layout`,
 * or by `read`), before and after laid over it.
 */
export async function txStorageDiff(rpc: StorageRpc, layout: Pick<ContractLayout, 'storage' | 'types'> | StorageReader, hash: string, options: StorageReadOptions): Promise<TxStorageDiff> {
  const read: StorageReader = typeof layout === 'function' ? layout : (refs, o) => readStorage(rpc, layout, refs, o);
  const trace = await traceTransaction(rpc, hash, options.address, options.signal);
  const reached = new Set<bigint>();
  const reading = await read([String(trace.parent.number)], {
    ...options,
    overlay: {
      states: 2,
      logsTo: trace.block.number,
      mayLackCode: trace.created,
      words(slot, [read]) {
        reached.add(slot);
        const write = trace.writes.get(slot);
        if (write) return [...write];
        const before = trace.earlier.get(slot) ?? read;
        return [before, before];
      },
    },
  });
  const warnings = [...reading.warnings];
  const missed = [...trace.writes.keys()].filter((s) => !reached.has(s));
  if (missed.length) {
    const shown = missed.slice(0, 5).map((s) => minimalHex(s));
    const line = `${missed.length} slot(s) the transaction changed are not reached by the layout (a mapping entry whose key no log names, or storage outside the layout): ${shown.join(', ')}${missed.length > shown.length ? ', …' : ''}`;
    warnings.push(line);
    options.onWarning?.(line);
  }
  const stats = { roundTrips: trace.stats.roundTrips + reading.stats.roundTrips, requests: trace.stats.requests + reading.stats.requests, reads: reading.stats.reads };
  return { trace, reading: { ...reading, blocks: [trace.parent, trace.block], warnings, stats }, changes: changedLeaves(reading.variables), warnings, stats };
}
