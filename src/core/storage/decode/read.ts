/**
 * Reading slots for the decoder: eth_getStorageAt of every slot asked for, at every pinned block,
 * in JSON-RPC batches (chunked, a few in flight, halved when the node says a batch is too large).
 * Blocks are pinned by number (ganache takes no EIP-1898 block object) and checked: each round
 * trip also asks for the block at that number, and a hash that changed (a reorganisation) fails
 * the decode rather than mixing two states.
 */
import { RpcFailure } from '../../rpc/failure';
import type { RpcCall } from '../../rpc/types';
import type { BlockInfo } from '../block';
import { interpretRead, isSizeRefusal } from '../emulate';
import { minimalHex, word } from '../inputs';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from './errors';

/** What the reads cost: round trips (rounds of requests sent together), HTTP requests, slot reads. */
export interface ReadStats {
  roundTrips: number;
  requests: number;
  reads: number;
}

export interface ReaderOptions {
  /** Calls per batch (default 2,000). */
  batchSize?: number;
  /** Batches in flight (default 4). */
  concurrency?: number;
  /** The most slot reads of one decode (default 1,000,000): more fails with a message. */
  maxReads?: number;
  signal?: AbortSignal;
}

export const DEFAULT_BATCH_SIZE = 2_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_MAX_READS = 1_000_000;

const cancelled = () => new StorageDecodeError('Storage decode cancelled', 'cancelled');

/**
 * Reads slots at a fixed list of blocks; remembers every word read. The blocks' hashes may come
 * after the first round (pin): a round sent before them, alongside the lookup, is not checked.
 */
export class SlotReader {
  readonly known = new Map<bigint, bigint[]>();
  readonly stats: ReadStats = { roundTrips: 0, requests: 0, reads: 0 };
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly maxReads: number;

  constructor(
    private readonly rpc: StorageRpc,
    private readonly address: string,
    private blocks: readonly BlockInfo[],
    private readonly options: ReaderOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.maxReads = options.maxReads ?? DEFAULT_MAX_READS;
  }

  /** The blocks' hashes, once looked up: every later round checks them. */
  pin(blocks: readonly BlockInfo[]): void {
    this.blocks = blocks;
  }

  /**
   * One round trip: the slots at every block, plus `extra` calls (their results returned, in
   * order; a failed one as its RpcFailure) and, unless `check` is false, the check of every
   * block's hash.
   */
  async round(slots: readonly bigint[], extra: readonly RpcCall[] = [], check = true): Promise<unknown[]> {
    const reads = slots.length * this.blocks.length;
    if (this.stats.reads + reads > this.maxReads) {
      throw new StorageDecodeError(`the decode needs more than ${this.maxReads} slot reads; name fewer mapping keys with --keys, or decode a smaller contract`, 'limit');
    }
    const checks: RpcCall[] = (check ? this.blocks : []).map((b) => ({ method: 'eth_getBlockByNumber', params: [minimalHex(BigInt(b.number)), false] }));
    const calls: RpcCall[] = [...extra, ...checks];
    for (const slot of slots) for (const b of this.blocks) calls.push({ method: 'eth_getStorageAt', params: [this.address, word(slot), minimalHex(BigInt(b.number))] });
    const results = await this.send(calls);
    this.stats.roundTrips++;
    this.stats.reads += reads;
    if (check)
      this.blocks.forEach((b, i) => {
        const answer = results[extra.length + i];
        const hash = (answer as { hash?: unknown } | null)?.hash;
        if (answer instanceof RpcFailure) throw new StorageDecodeError(`checking block ${b.number} failed: ${answer.message}`, 'read');
        if (typeof hash !== 'string' || hash.toLowerCase() !== b.hash) {
          throw new StorageDecodeError(`block ${b.number} changed while it was read (now ${typeof hash === 'string' ? hash : 'gone'}, was ${b.hash}): a reorganisation; run again`, 'reorg');
        }
      });
    let at = extra.length + checks.length;
    for (const slot of slots) {
      const words = this.blocks.map((b) => {
        const answer = results[at++];
        if (answer instanceof RpcFailure) throw new StorageDecodeError(`reading slot ${minimalHex(slot)} at block ${b.number} failed: ${answer.message}`, 'read');
        const read = interpretRead(answer);
        if (!read.ok) throw new StorageDecodeError(`reading slot ${minimalHex(slot)} at block ${b.number} failed: ${read.reason}`, 'read');
        return BigInt(read.value);
      });
      this.known.set(slot, words);
    }
    return results.slice(0, extra.length);
  }

  /** The calls in batches, a few in flight; one result (or RpcFailure) per call, in order. */
  private async send(calls: readonly RpcCall[]): Promise<unknown[]> {
    const results: unknown[] = new Array(calls.length);
    const chunks: [number, number][] = [];
    for (let i = 0; i < calls.length; i += this.batchSize) chunks.push([i, Math.min(calls.length, i + this.batchSize)]);
    const worker = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
        const [from, to] = chunk;
        if (this.options.signal?.aborted) throw cancelled();
        try {
          this.stats.requests++;
          const items = await this.rpc.batch(calls.slice(from, to), { signal: this.options.signal });
          items.forEach((item, k) => (results[from + k] = 'error' in item ? item.error : item.result));
        } catch (err) {
          if (!(err instanceof RpcFailure)) throw err;
          if (err.cancelled) throw cancelled();
          if (isSizeRefusal(err) && to - from > 1) {
            // The node said the batch is too large: the same calls in two halves.
            const mid = from + Math.floor((to - from) / 2);
            chunks.unshift([from, mid], [mid, to]);
            continue;
          }
          throw new StorageDecodeError(`reading storage failed: ${err.message}`, 'read');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, chunks.length) }, worker));
    return results;
  }
}
