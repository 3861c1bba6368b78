/**
 * A diff of raw slots, without a layout: which slots changed is asked of the node's state-diff
 * tracing over the blocks in (FROM, TO] — debug_traceBlockByNumber with the prestateTracer in
 * diffMode (geth, anvil), else trace_replayBlockTransactions with stateDiff (Erigon, Nethermind,
 * anvil) — and each slot found is then read at both blocks (a slot may change and change back).
 * A node with neither (ganache) fails with a message that says so.
 */
import { maskedLine } from '../../redact';
import { RpcFailure } from '../../rpc/failure';
import type { RpcCall } from '../../rpc/types';
import type { BlockInfo } from '../block';
import { minimalHex, normaliseAddress, word } from '../inputs';
import { isSizeRefusal } from '../emulate';
import { isMethodUnavailable } from '../native';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from './errors';
import { checkCode, resolveBlocks } from './decode';
import { SlotReader, type ReaderOptions, type ReadStats } from './read';

/** The most blocks one raw diff traces. */
export const MAX_TRACED_BLOCKS = 10_000;
/** Blocks traced per batch at first; halved while the node finds the answer or the batch too large. */
const TRACE_BATCH = 50;

export interface RawSlotChange {
  slot: string;
  before: string;
  after: string;
}

export interface RawStorageDiff {
  from: BlockInfo;
  to: BlockInfo;
  changes: RawSlotChange[];
  /** The tracing method that found the slots. */
  method: 'debug_traceBlockByNumber' | 'trace_replayBlockTransactions';
  stats: ReadStats;
}

type Tracer = RawStorageDiff['method'];

/** The number of transactions in a block, asked beside its trace: a trace is a diff only when it covers every one. */
function countCall(block: number): RpcCall {
  return { method: 'eth_getBlockTransactionCountByNumber', params: [minimalHex(BigInt(block))] };
}

/** A block's transaction count from its answer (a hex quantity), or undefined for anything else (null: no such block). */
function countOf(result: unknown): number | undefined {
  return typeof result === 'string' && /^0x[0-9a-f]{1,8}$/i.test(result) ? Number(result) : undefined;
}

function traceCall(method: Tracer, block: number): RpcCall {
  const n = minimalHex(BigInt(block));
  return method === 'debug_traceBlockByNumber' ? { method, params: [n, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] } : { method, params: [n, ['stateDiff']] };
}

/** A tracing failure that means the node has no such method or tracer (ganache: -32700 "… does not exist/is not available"). */
function isUnavailable(failure: RpcFailure): boolean {
  return isMethodUnavailable(failure) || /does not exist|not available|not supported|unknown tracer|tracer .*not found/i.test(failure.message);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Adds the slots of `address` (lowercase) a block's traces name; or says why the answer is no
 * state diff: not a list, a transaction the node could not trace (geth's `{txHash, error}`), or
 * (a prestateTracer that ignores diffMode) traces without pre and post.
 */
function slotsOf(method: Tracer, result: unknown, address: string, into: Set<bigint>): 'not-list' | 'not-diff' | { error: string } | undefined {
  if (!Array.isArray(result)) return 'not-list';
  const add = (storage: unknown) => {
    if (!isObject(storage)) return;
    for (const key of Object.keys(storage)) if (/^(0x)?[0-9a-f]{1,64}$/i.test(key)) into.add(BigInt(key.startsWith('0x') ? key : `0x${key}`));
  };
  const pick = (accounts: Record<string, unknown>) => {
    const entry = Object.entries(accounts).find(([a]) => a.toLowerCase() === address);
    return isObject(entry?.[1]) ? entry[1].storage : undefined;
  };
  for (const tx of result as unknown[]) {
    if (isObject(tx) && tx.error !== undefined && tx.error !== null) {
      const error = typeof tx.error === 'string' ? tx.error : JSON.stringify(tx.error);
      return { error: typeof tx.txHash === 'string' ? `transaction ${tx.txHash}: ${error}` : error };
    }
    if (method === 'debug_traceBlockByNumber') {
      const diff = isObject(tx) ? tx.result : undefined;
      if (!isObject(diff) || !isObject(diff.pre) || !isObject(diff.post)) return 'not-diff';
      add(pick(diff.pre));
      add(pick(diff.post));
    } else {
      const diff = isObject(tx) ? tx.stateDiff : undefined;
      if (!isObject(diff)) return 'not-diff';
      add(pick(diff));
    }
  }
  return undefined;
}

export async function rawStorageDiff(rpc: StorageRpc, from: string, to: string, options: ReaderOptions & { address: string }): Promise<RawStorageDiff> {
  const address = normaliseAddress(options.address);
  const stats: ReadStats = { roundTrips: 0, requests: 0, reads: 0 };
  const [a, b] = await resolveBlocks(rpc, [from, to], stats, options.signal);
  const low = Math.min(a.number, b.number);
  const high = Math.max(a.number, b.number);
  if (high - low > MAX_TRACED_BLOCKS) {
    throw new StorageDecodeError(`blocks ${a.number} and ${b.number} are ${high - low} blocks apart; a diff without --layout traces at most ${MAX_TRACED_BLOCKS}`, 'limit');
  }
  const slots = new Set<bigint>();
  let method: Tracer = 'debug_traceBlockByNumber';
  const unavailable: string[] = [];
  let batchSize = TRACE_BATCH;
  for (let start = low + 1; start <= high;) {
    const blocks = Array.from({ length: Math.min(batchSize, high - start + 1) }, (_, i) => start + i);
    let items, counts;
    try {
      stats.requests++;
      stats.roundTrips++;
      const answers = await rpc.batch([...blocks.map((n) => traceCall(method, n)), ...blocks.map(countCall)], { signal: options.signal });
      items = answers.slice(0, blocks.length);
      counts = answers.slice(blocks.length);
    } catch (err) {
      if (err instanceof RpcFailure && err.cancelled) throw new StorageDecodeError('Storage diff cancelled', 'cancelled');
      if (err instanceof RpcFailure && (err.kind === 'too-large' || isSizeRefusal(err)) && blocks.length > 1) {
        batchSize = Math.max(1, Math.floor(blocks.length / 2));
        continue; // the same blocks, fewer at a time
      }
      throw new StorageDecodeError(`tracing blocks ${blocks[0]}–${blocks[blocks.length - 1]} failed: ${err instanceof Error ? err.message : String(err)}`, 'read');
    }
    const failed = items.find((item): item is { error: RpcFailure } => 'error' in item);
    const found = new Set<bigint>();
    const problems = failed ? [] : items.map((item, i) => [blocks[i], slotsOf(method, (item as { result: unknown }).result, address.toLowerCase(), found)] as const);
    // A tracer that ignores diffMode answers the state before each transaction: no diff, so the other way is tried.
    const ignored = problems.find(([, p]) => p === 'not-diff');
    if ((failed && isUnavailable(failed.error)) || ignored) {
      unavailable.push(
        `${method}: ${failed ? failed.error.message : `block ${ignored![0]} answered traces that are not state diffs${method === 'debug_traceBlockByNumber' ? ' (no pre and post: the prestateTracer ignored diffMode)' : ' (no stateDiff)'}`}`,
      );
      if (method === 'debug_traceBlockByNumber') {
        method = 'trace_replayBlockTransactions';
        continue; // the same blocks, the other way
      }
      throw new StorageDecodeError(
        `the node cannot trace state diffs (${unavailable.join('; ')}), which a diff without --layout needs: give --layout FILE to diff the decoded variables, or use a node with the prestateTracer or trace_replayBlockTransactions (anvil, geth, Erigon, Nethermind)`,
        'trace',
      );
    }
    if (failed) throw new StorageDecodeError(`${method} failed: ${failed.error.message}`, 'read');
    const traceFailed = problems.find((entry): entry is readonly [number, { error: string }] => typeof entry[1] === 'object');
    if (traceFailed) throw new StorageDecodeError(`${method} of block ${traceFailed[0]} failed: ${maskedLine(traceFailed[1].error)}`, 'read');
    const notList = problems.find(([, p]) => p === 'not-list');
    if (notList) throw new StorageDecodeError(`${method} of block ${notList[0]} answered something that is not a list of transaction traces`, 'read');
    // An empty (or short) list for a block with transactions is no diff, not "nothing changed".
    for (const [i, n] of blocks.entries()) {
      const answer = counts[i];
      const count = answer && 'result' in answer ? countOf(answer.result) : undefined;
      if (count === undefined) {
        const why = answer && 'error' in answer ? answer.error.message : 'the node did not answer a transaction count';
        throw new StorageDecodeError(`reading the transaction count of block ${n} failed: ${maskedLine(why)}`, 'read');
      }
      const traced = (items[i] as { result: unknown[] }).result.length;
      if (traced !== count) throw new StorageDecodeError(`the node traced ${traced} of ${count} transactions in block ${n} (${method}), so its answer is not a diff`, 'read');
    }
    for (const slot of found) slots.add(slot);
    start += blocks.length;
  }
  const reader = new SlotReader(rpc, address, [a, b], options);
  const sorted = [...slots].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const codes = await reader.round(
    sorted,
    [a, b].map((blk) => ({ method: 'eth_getCode', params: [address, minimalHex(BigInt(blk.number))] })),
  );
  checkCode(address, [a, b], codes);
  stats.roundTrips += reader.stats.roundTrips;
  stats.requests += reader.stats.requests;
  stats.reads += reader.stats.reads;
  const changes: RawSlotChange[] = [];
  for (const slot of sorted) {
    const [before, after] = reader.known.get(slot)!;
    if (before !== after) changes.push({ slot: word(slot), before: word(before), after: word(after) });
  }
  return { from: a, to: b, changes, method, stats };
}
