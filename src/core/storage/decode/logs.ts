/**
 * The contract's event logs up to a block, for mapping keys: eth_getLogs over block ranges,
 * halving a range whenever the provider refuses it as too wide or too many results (public
 * providers cap ranges at 1k–10k blocks or 10k logs), so key discovery works on any of them.
 */
import { RpcFailure } from '../../rpc/failure';
import { minimalHex } from '../inputs';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from './errors';
import { logWords, MAX_CANDIDATE_WORDS } from './keys';

/** The most logs read for key discovery; the rest are left out, with a warning. */
export const MAX_LOGS = 200_000;

/** A refusal that says the range or the result is too large, so a narrower range may pass. */
export function isRangeCap(failure: RpcFailure): boolean {
  if (failure.kind === 'too-large') return true;
  if (failure.kind !== 'rpc') return false;
  return failure.code === -32005 || /range|limit|too (many|large|wide|big)|exceed|more than|max(imum)? /i.test(failure.message);
}

export interface LogWords {
  words: Set<bigint>;
  logs: number;
  requests: number;
  warnings: string[];
}

/**
 * The candidate words of the logs of `address` in blocks [0, toBlock]: ranges are tried whole,
 * then halved on a cap, in block order. A failure that is no cap ends discovery with a warning
 * (the decode goes on with the keys the user gave).
 */
export async function discoverLogWords(rpc: StorageRpc, address: string, toBlock: number, signal?: AbortSignal): Promise<LogWords> {
  const out: LogWords = { words: new Set(), logs: 0, requests: 0, warnings: [] };
  const ranges: [number, number][] = [[0, toBlock]];
  while (ranges.length) {
    const [from, to] = ranges.shift()!;
    if (signal?.aborted) throw new StorageDecodeError('Storage decode cancelled', 'cancelled');
    let logs: unknown;
    try {
      out.requests++;
      logs = await rpc.call('eth_getLogs', [{ address, fromBlock: minimalHex(BigInt(from)), toBlock: minimalHex(BigInt(to)) }], { signal });
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      if (err.cancelled) throw new StorageDecodeError('Storage decode cancelled', 'cancelled');
      if (isRangeCap(err) && to > from) {
        const mid = from + Math.floor((to - from) / 2);
        ranges.unshift([from, mid], [mid + 1, to]);
        continue;
      }
      out.warnings.push(`mapping keys: eth_getLogs for blocks ${from}–${to} failed (${err.message}); those blocks' logs are left out`);
      if (err.kind !== 'rpc') return out; // the node is not answering: no use asking again
      continue;
    }
    if (!Array.isArray(logs)) {
      out.warnings.push(`mapping keys: eth_getLogs for blocks ${from}–${to} answered ${JSON.stringify(logs)?.slice(0, 80)}, not a list of logs`);
      continue;
    }
    const take = logs.slice(0, MAX_LOGS - out.logs);
    out.logs += take.length;
    logWords(take as { topics?: string[]; data?: string }[], out.words);
    if (out.logs >= MAX_LOGS && (take.length < logs.length || ranges.length)) {
      out.warnings.push(`mapping keys: only the first ${MAX_LOGS} logs were read`);
      break;
    }
  }
  if (out.words.size > MAX_CANDIDATE_WORDS) {
    out.warnings.push(`mapping keys: the logs hold ${out.words.size} distinct words; the first ${MAX_CANDIDATE_WORDS} are tried`);
    out.words = new Set([...out.words].slice(0, MAX_CANDIDATE_WORDS));
  }
  return out;
}
