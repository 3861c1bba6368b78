/**
 * Emulation step 1 (and the native method's block hash): the block is looked up first. A node
 * that gives no JSON-RPC answer at all fails with the spec's `Failed to connect to Ethereum
 * node`; a lookup the node answers with an error, or with no block, fails with `Failed to get
 * block: <reason>`.
 */
import { RpcFailure } from '../rpc/failure';
import { BLOCK_FAILED_PREFIX, cancelledError, CONNECT_FAILED, StorageRangeError } from './errors';
import { describeBlock, minimalHex, type BlockRef } from './inputs';
import type { BatchItem } from '../rpc/jsonrpc';
import type { RpcCall } from '../rpc/types';
import type { StorageRpc } from './types';

export interface BlockInfo {
  number: number;
  hash: string;
}

/**
 * Failures where the node never answered as a JSON-RPC node (no connection, TLS, silence, an
 * HTTP error or a page that is not JSON): "cannot be reached" in the spec's sense, like a
 * client's is-connected check failing. A JSON-RPC error object means the node was reached.
 */
export function isConnectFailure(failure: RpcFailure): boolean {
  return failure.kind !== 'rpc' && failure.kind !== 'mismatch' && failure.kind !== 'cancelled' && failure.kind !== 'invalid-request';
}

/** The call that looks a block up. */
export function blockCall(ref: BlockRef): RpcCall {
  return ref.kind === 'hash'
    ? { method: 'eth_getBlockByHash', params: [ref.hash, false] }
    : { method: 'eth_getBlockByNumber', params: [ref.kind === 'tag' ? ref.tag : minimalHex(ref.number), false] };
}

/** A failed block lookup as the error the storage features show. */
export function blockFailure(err: unknown): unknown {
  if (!(err instanceof RpcFailure)) return err;
  if (err.cancelled) return cancelledError();
  if (isConnectFailure(err)) return new StorageRangeError(CONNECT_FAILED, 'connect', err.message);
  return new StorageRangeError(`${BLOCK_FAILED_PREFIX}${err.message}`, 'block');
}

/** The block in a lookup's answer; no block (null), or one without number and hash, is an error naming the block (as `given`, when known). */
export function blockFromResult(ref: BlockRef, block: unknown, given?: string): BlockInfo {
  if (block === null || block === undefined) {
    throw new StorageRangeError(`${BLOCK_FAILED_PREFIX}block ${given ?? describeBlock(ref)} not found`, 'block');
  }
  const b = block as { number?: unknown; hash?: unknown };
  if (typeof b.number !== 'string' || !/^0x[0-9a-f]+$/i.test(b.number) || typeof b.hash !== 'string' || !/^0x[0-9a-f]{64}$/i.test(b.hash)) {
    // e.g. a pending block, whose number and hash are null
    throw new StorageRangeError(`${BLOCK_FAILED_PREFIX}the node's answer for block ${given ?? describeBlock(ref)} has no number and hash: ${JSON.stringify(block).slice(0, 120)}`, 'block');
  }
  return { number: Number(BigInt(b.number)), hash: b.hash.toLowerCase() };
}

export async function lookupBlock(rpc: StorageRpc, ref: BlockRef, signal?: AbortSignal): Promise<BlockInfo> {
  const { method, params } = blockCall(ref);
  let block: unknown;
  try {
    block = await rpc.call(method, params, { signal });
  } catch (err) {
    throw blockFailure(err);
  }
  return blockFromResult(ref, block);
}

/**
 * Reads pinned to a block by hash (EIP-1898), refused when the block is not canonical so that they
 * equal reads at its number. anvil takes it; ganache answers every such read with an error.
 */
export function pinByHash(hash: string): { blockHash: string; requireCanonical: true } {
  return { blockHash: hash, requireCanonical: true };
}

/** The call that checks, in the same batch as reads at a block's number, that the block there is still the one looked up. */
export function blockCheckCall(block: BlockInfo): RpcCall {
  return blockCall({ kind: 'number', number: BigInt(block.number) });
}

/**
 * The check's answer: the block at that number must still have the looked-up hash, or the reads
 * beside it may be of another block (a reorganisation, or a hash that is not on the chain).
 */
export function checkBlock(block: BlockInfo, item: BatchItem): void {
  const answer = 'error' in item ? undefined : (item.result as { hash?: unknown } | null);
  const now = typeof answer?.hash === 'string' ? answer.hash.toLowerCase() : undefined;
  if (now === block.hash) return;
  const seen = 'error' in item ? `the check failed: ${item.error.message}` : `it is now ${now ?? 'gone'}`;
  throw new StorageRangeError(`Block ${block.number} changed while its storage was read (${seen}; looked up as ${block.hash}), a chain reorganisation: read the page again`, 'reorg');
}
