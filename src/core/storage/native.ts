/**
 * The native method, debug_storageRangeAt [blockHash, txIndex, address, startKey, maxResult]:
 * its result as the node sent it, with the entries put in ascending hashed-key order (nodes do
 * not sort them reliably), each checked to be hex, and at most maxResult of them (the rest is
 * the next page: a node that ignores the parameter must not flood the output). Tells "the node has no such method" (anvil and Reth-like clients:
 * -32601, anvil over WebSocket -32602 "… untagged enum EthRpcCall"; ganache: -32700 "… does not
 * exist/is not available"; hardhat: -32004 "… is not supported"; Reth: a null result) apart from
 * real errors (a bad block hash, a tx index out of
 * range), which the auto mode must not hide behind the emulation.
 */
import { quoteStart, RpcFailure } from '../rpc/failure';
import { cancelledError, StorageRangeError } from './errors';
import type { StorageEntry, StorageRpc } from './types';

export interface NativeParams {
  blockHash: string;
  txIndex: number;
  address: string;
  /** 32-byte hex: geth-style nodes take the start key as bytes. */
  startKey: string;
  maxResults: number;
}

export interface NativeRange {
  storage: Record<string, StorageEntry>;
  nextKey: string | null;
}

/** A hashed key, a preimage, a value or a nextKey: hex of at most 32 bytes. */
const HEX_WORD = /^0x[0-9a-f]{1,64}$/i;

const UNAVAILABLE_MESSAGE = /not supported|does not exist|not available|not found|not implemented|unknown|no such/i;

/**
 * Whether a failure of debug_storageRangeAt means the node does not offer the method: -32601, or
 * a JSON-RPC error that says the METHOD is missing (so "historical state not available" on a
 * pruned node stays a real error).
 */
export function isMethodUnavailable(failure: RpcFailure): boolean {
  if (failure.code === -32601) return true;
  // anvil over WebSocket: its call dispatcher has no such method (over HTTP it says -32601).
  if (failure.code === -32602 && /did not match any variant of untagged enum EthRpcCall/.test(failure.message)) return true;
  return failure.code !== undefined && /method/i.test(failure.message) && UNAVAILABLE_MESSAGE.test(failure.message);
}

/** Thrown (reason 'native-unavailable') when the node does not implement the method. */
function unavailable(why: string): StorageRangeError {
  return new StorageRangeError(`debug_storageRangeAt is not available on this node (${why}); use the emulation (mode emulate)`, 'native-unavailable', why);
}

export async function nativeRange(rpc: StorageRpc, p: NativeParams, signal?: AbortSignal): Promise<NativeRange> {
  let result: unknown;
  try {
    result = await rpc.call('debug_storageRangeAt', [p.blockHash, p.txIndex, p.address, p.startKey, p.maxResults], { signal });
  } catch (err) {
    if (!(err instanceof RpcFailure)) throw err;
    if (err.cancelled) throw cancelledError();
    if (isMethodUnavailable(err)) throw unavailable(err.message);
    throw new StorageRangeError(`debug_storageRangeAt failed: ${err.message}`, 'native', err.message);
  }
  if (result === null || result === undefined) throw unavailable('the node answered null, as Reth does for this method');
  const r = result as { storage?: unknown; nextKey?: unknown };
  const storage = r.storage;
  if (
    typeof storage !== 'object' ||
    storage === null ||
    Array.isArray(storage) ||
    (r.nextKey !== null && r.nextKey !== undefined && !(typeof r.nextKey === 'string' && HEX_WORD.test(r.nextKey)))
  ) {
    throw new StorageRangeError(`debug_storageRangeAt answered something that is not a storage range: ${quoteStart(JSON.stringify(result), 120)}`, 'native');
  }
  const entries = Object.entries(storage as Record<string, unknown>);
  const bad = entries.find(([hashed, entry]) => !isEntry(hashed, entry));
  if (bad) throw new StorageRangeError(`debug_storageRangeAt answered an entry that is not a storage entry: ${quoteStart(JSON.stringify({ [bad[0]]: bad[1] }), 120)}`, 'native');
  // At most maxResults entries, whatever the node sent: the rest is the next page, from the first key left out.
  const kept = (entries as [string, StorageEntry][]).sort(([a], [b]) => compareHex(a, b)).slice(0, p.maxResults + 1);
  const nextKey = kept.length > p.maxResults ? kept.pop()![0] : ((r.nextKey as string | null | undefined) ?? null);
  return { storage: Object.fromEntries(kept.map(([hashed, e]) => [hashed, { key: e.key ?? null, value: e.value }])), nextKey };
}

/** An entry as the spec describes it: keyed by a hashed slot, `key` null or hex, `value` hex (at most 32 bytes each). */
function isEntry(hashed: string, entry: unknown): entry is StorageEntry {
  if (!HEX_WORD.test(hashed) || typeof entry !== 'object' || entry === null) return false;
  const { key, value } = entry as { key?: unknown; value?: unknown };
  return (key === null || key === undefined || (typeof key === 'string' && HEX_WORD.test(key))) && typeof value === 'string' && HEX_WORD.test(value);
}

/** Hex keys in numeric order (all are 32 bytes, but a node may differ in case or padding). */
function compareHex(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}
