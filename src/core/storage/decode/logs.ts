/**
 * A contract's event logs over block ranges (the keys of its mappings; a proxy's upgrades):
 * eth_getLogs halving a range whenever the provider refuses it as too wide or too many results
 * (public providers cap ranges at 1k–10k blocks or 10k logs), so a search works on any of them;
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

/** Which logs a scan asks for: one contract's, optionally only those whose topics match (eth_getLogs's `topics`). */
export interface LogFilter {
  address: string;
  topics?: (string | string[] | null)[];
}

/** What a scan did: the logs it handed over, the requests it sent, and what it left out. */
export interface LogScan {
  logs: number;
  requests: number;
  /** Whether it stopped at `maxLogs`, with logs left unread. */
  capped: boolean;
  /** Why ranges were left out (a cause that ended the search, the ranges that failed), as clauses; empty when none was. */
  left: string[];
}

/**
 * The logs matching `filter` in blocks [fromBlock, toBlock], handed to `visit` range by range in
 * block order: ranges are tried whole, then halved on a cap; a rate-limit refusal is waited out
 * (`backoff`) and the range asked again. At most MAX_LOG_REQUESTS requests and `maxLogs` logs. A
 * failure that is no cap leaves its range out; a rate limit that does not pass (or keeps coming
 * back without any logs answered), a node that stops answering, or the request bound ends the
 * scan. What was left out is said in `left`.
 */
export async function scanLogs(
  rpc: StorageRpc,
  filter: LogFilter,
  fromBlock: number,
  toBlock: number,
  visit: (logs: unknown[]) => void,
  options: { signal?: AbortSignal; backoff?: RetryPolicy; maxLogs?: number; cancelled?: () => Error } = {},
): Promise<LogScan> {
  const { signal, backoff = LOG_BACKOFF, maxLogs = MAX_LOGS } = options;
  const out: LogScan = { logs: 0, requests: 0, capped: false, left: [] };
  const ranges: [number, number][] = fromBlock <= toBlock ? [[fromBlock, toBlock]] : [];
  const cancelled = options.cancelled ?? (() => new StorageDecodeError('Storage decode cancelled', 'cancelled'));
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
      logs = await rpc.call('eth_getLogs', [{ ...filter, fromBlock: minimalHex(BigInt(from)), toBlock: minimalHex(BigInt(to)) }], { signal });
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
    const take = logs.slice(0, maxLogs - out.logs);
    out.logs += take.length;
    visit(take);
    if (out.logs >= maxLogs && (take.length < logs.length || ranges.length)) {
      out.capped = true;
      break;
    }
  }
  out.left = [stopped, skipped.describe()].filter((l): l is string => l !== undefined);
  return out;
}

/**
 * The candidate words of the logs of `address` in blocks [0, toBlock] (scanLogs). Everything left
 * out is one warning line (the decode goes on with the keys found and those the user gave).
 */
export async function discoverLogWords(rpc: StorageRpc, address: string, toBlock: number, signal?: AbortSignal, backoff: RetryPolicy = LOG_BACKOFF): Promise<LogWords> {
  const out: LogWords = { words: new Set(), groups: [], logs: 0, requests: 0, warnings: [] };
  const groups = new KeyGroups();
  const scan = await scanLogs(rpc, { address }, 0, toBlock, (logs) => logWords(logs, out.words, groups), { signal, backoff });
  out.groups = groups.list;
  out.logs = scan.logs;
  out.requests = scan.requests;
  if (scan.capped) out.warnings.push(`mapping keys: only the first ${MAX_LOGS} logs were read`);
  if (scan.left.length) out.warnings.push(`mapping keys: ${scan.left.join('; ')}`);
  if (out.words.size > MAX_CANDIDATE_WORDS) {
    out.warnings.push(`mapping keys: the logs hold ${out.words.size} distinct words; the first ${MAX_CANDIDATE_WORDS} are tried`);
    out.words = new Set([...out.words].slice(0, MAX_CANDIDATE_WORDS));
  }
  return out;
}
