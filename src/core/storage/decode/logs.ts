/**
 * The contract's event logs up to a block, for mapping keys: eth_getLogs over block ranges,
 * halving a range whenever the provider refuses it as too wide or too many results (public
 * providers cap ranges at 1k–10k blocks or 10k logs), so key discovery works on any of them;
 * waiting when it says "slow down", and never sending more than a bounded number of requests.
 */
import { RpcFailure } from '../../rpc/failure';
import { retryDelay, sleep, type RetryPolicy } from '../../rpc/retry';
import { minimalHex } from '../inputs';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from './errors';
import { KeyGroups, logWords, MAX_CANDIDATE_WORDS } from './keys';

/** The most logs read for key discovery; the rest are left out, with a warning. */
export const MAX_LOGS = 200_000;

/** The most eth_getLogs requests one search sends: a node that refuses every range must not be split down to single blocks. */
export const MAX_LOG_REQUESTS = 1_000;

/** Waits after a rate-limit refusal before the range is asked again; after `retries` refusals in a row the search stops. */
export const LOG_BACKOFF: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 5_000 };

/** A refusal that says "slow down" (HTTP 429, or a JSON-RPC error about a rate, a quota, a capacity): asking again later may pass, narrower not. */
export function isRateLimit(failure: RpcFailure): boolean {
  if (failure.kind === 'rate-limited') return true;
  return (
    failure.kind === 'rpc' &&
    (failure.code === -32029 || /rate.?limit|too many requests|request rate|requests? per|throttl|capacity|quota|compute units|credits|daily request/i.test(failure.message))
  );
}

/** A refusal that says the range or the result is too large, so a narrower range may pass. */
export function isRangeCap(failure: RpcFailure): boolean {
  if (failure.kind === 'too-large') return true;
  if (failure.kind !== 'rpc' || isRateLimit(failure)) return false;
  return failure.code === -32005 || /range|limit|too (many|large|wide|big)|exceed|more than|max(imum)? /i.test(failure.message);
}

export interface LogWords {
  words: Set<bigint>;
  /** Each log's words in order (the first MAX_KEY_GROUPS distinct ones): keys named together. */
  groups: bigint[][];
  logs: number;
  requests: number;
  warnings: string[];
}

/** How many times a rate limit, once waited out, may come back before the node answers any logs: then the search stops. */
export const RATE_LIMITS_WITHOUT_LOGS = 3;

/** The ranges a search left out, told in one warning line however many there are. */
class SkippedRanges {
  private count = 0;
  private blocks = 0;
  private first = '';
  private last = '';
  private reason = '';

  add(from: number, to: number, reason: string): void {
    const range = `blocks ${from}–${to}`;
    if (!this.count++) this.first = range;
    this.last = range;
    this.blocks += to - from + 1;
    this.reason = reason;
  }

  /** One clause, or undefined when nothing was left out. */
  describe(): string | undefined {
    if (this.count === 1) return `eth_getLogs for ${this.first} failed (${this.reason}); those blocks' logs are left out`;
    if (this.count > 1)
      return `${this.count} ranges of eth_getLogs (${this.blocks} blocks, the first ${this.first}, the last ${this.last}) failed and were not searched; the node's last reason: ${this.reason}`;
    return undefined;
  }
}

/**
 * The candidate words of the logs of `address` in blocks [0, toBlock]: ranges are tried whole,
 * then halved on a cap, in block order; a rate-limit refusal is waited out (LOG_BACKOFF) and the
 * range asked again. At most MAX_LOG_REQUESTS requests. A failure that is no cap leaves its range
 * out; a rate limit that does not pass (or keeps coming back without any logs answered), a node
 * that stops answering, or the request bound ends the search. Everything left out is one warning
 * line (the decode goes on with the keys found and those the user gave).
 */
export async function discoverLogWords(rpc: StorageRpc, address: string, toBlock: number, signal?: AbortSignal, backoff: RetryPolicy = LOG_BACKOFF): Promise<LogWords> {
  const out: LogWords = { words: new Set(), groups: [], logs: 0, requests: 0, warnings: [] };
  const groups = new KeyGroups();
  const ranges: [number, number][] = [[0, toBlock]];
  const cancelled = () => new StorageDecodeError('Storage decode cancelled', 'cancelled');
  const notSearched = (from: number) => `blocks ${from}–${toBlock}`;
  const skipped = new SkippedRanges();
  /** Why the search ended before its last range, if it did. */
  let stopped: string | undefined;
  let limited = 0;
  /** Rate-limit refusals, each after the last was waited out, since the node last answered logs. */
  let limits = 0;
  while (ranges.length) {
    const [from, to] = ranges[0];
    if (signal?.aborted) throw cancelled();
    if (out.requests >= MAX_LOG_REQUESTS) {
      stopped = `eth_getLogs was asked ${MAX_LOG_REQUESTS} times, the most one search sends; ${notSearched(from)} were not searched`;
      break;
    }
    let logs: unknown;
    try {
      out.requests++;
      logs = await rpc.call('eth_getLogs', [{ address, fromBlock: minimalHex(BigInt(from)), toBlock: minimalHex(BigInt(to)) }], { signal });
    } catch (err) {
      if (!(err instanceof RpcFailure)) throw err;
      if (err.cancelled) throw cancelled();
      if (isRateLimit(err)) {
        if (limited >= backoff.retries) {
          stopped = `eth_getLogs was refused as rate-limited ${limited + 1} times in a row (${err.message}); ${notSearched(from)} were not searched`;
          break;
        }
        if (limited === 0 && ++limits > RATE_LIMITS_WITHOUT_LOGS) {
          stopped = `eth_getLogs was refused as rate-limited again ${limits - 1} times after waiting, with no logs answered between (${err.message}); ${notSearched(from)} were not searched`;
          break;
        }
        await sleep(retryDelay(limited++, backoff, err.retryAfterMs), signal, cancelled);
        continue;
      }
      limited = 0;
      ranges.shift();
      if (isRangeCap(err) && to > from) {
        const mid = from + Math.floor((to - from) / 2);
        ranges.unshift([from, mid], [mid + 1, to]);
        continue;
      }
      if (err.kind !== 'rpc') {
        // The node is not answering: no use asking again.
        stopped = `eth_getLogs for blocks ${from}–${to} failed (${err.message}); ${notSearched(from)} were not searched`;
        break;
      }
      skipped.add(from, to, err.message);
      continue;
    }
    limited = 0;
    ranges.shift();
    if (!Array.isArray(logs)) {
      skipped.add(from, to, `it answered ${JSON.stringify(logs)?.slice(0, 80)}, not a list of logs`);
      continue;
    }
    limits = 0;
    const take = logs.slice(0, MAX_LOGS - out.logs);
    out.logs += take.length;
    logWords(take, out.words, groups);
    if (out.logs >= MAX_LOGS && (take.length < logs.length || ranges.length)) {
      out.warnings.push(`mapping keys: only the first ${MAX_LOGS} logs were read`);
      break;
    }
  }
  out.groups = groups.list;
  const left = [stopped, skipped.describe()].filter(Boolean);
  if (left.length) out.warnings.push(`mapping keys: ${left.join('; ')}`);
  if (out.words.size > MAX_CANDIDATE_WORDS) {
    out.warnings.push(`mapping keys: the logs hold ${out.words.size} distinct words; the first ${MAX_CANDIDATE_WORDS} are tried`);
    out.words = new Set([...out.words].slice(0, MAX_CANDIDATE_WORDS));
  }
  return out;
}
