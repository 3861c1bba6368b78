/**
 * When and how long to wait before sending an idempotent read again: only after HTTP 429 or 5xx,
 * with exponential backoff and jitter (so many clients do not retry in step), or after the
 * node's Retry-After when it sends one; a Retry-After past the longest delay is not waited for at
 * all (the failure is the answer), so a huge value can neither stall the editor nor be cut short.
 */

export interface RetryPolicy {
  /** How many times a failed read is sent again. */
  retries: number;
  /** Delay before the first retry; doubles for each further one. */
  baseDelayMs: number;
  /** Upper bound of any delay; a longer Retry-After fails the request instead (retryPlan). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 250, maxDelayMs: 10_000 };

/** The statuses worth retrying: the node is busy (429) or its server failed (5xx). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (which starts with the day's name);
 * undefined when absent or unreadable, a negative number included (`-1`, which Date.parse would
 * read as a year, so no "wait 0 s").
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/^[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before retry number `retry` (0 for the first): the node's Retry-After when given,
 * otherwise base × 2^retry with "equal jitter" (between half and all of it); always capped.
 */
export function retryDelay(retry: number, policy: RetryPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const full = Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs);
  return Math.round(full / 2 + (random() * full) / 2);
}

/**
 * Whether and when to send a failed idempotent request again (after `isRetryableStatus`): the
 * wait in ms, or why not. The node's Retry-After is honoured, never shortened: one longer than
 * the policy's longest delay is the node saying "not now", so the failure is the answer
 * ('policy'; a longer timeout would not help), and a wait that would end after the deadline
 * fails now ('deadline'), not after the wait.
 */
export function retryPlan(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, remainingMs: number, random: () => number = Math.random): number | 'deadline' | 'policy' {
  // A negative or unreadable wait is no Retry-After at all.
  if (retryAfterMs !== undefined && !(retryAfterMs >= 0)) retryAfterMs = undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs) return 'policy';
  const wait = retryAfterMs ?? retryDelay(retry, policy, undefined, random);
  return wait >= remainingMs ? 'deadline' : wait;
}

/** Waits `ms`, or rejects with `onAbort()` as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
