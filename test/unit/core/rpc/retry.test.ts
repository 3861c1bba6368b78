/**
 * The retry and deadline helpers at their edges (the common cases are in failure.test.ts): which
 * statuses are retried, Retry-After dates in the past, the default policy, sleep's cancellation,
 * and a deadline's remaining time and per-request limit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deadline, DEFAULT_MAX_RESPONSE_MB, MAX_TIMEOUT_MS, responseLimit } from '../../../../src/core/rpc/deadline';
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelay, retryPlan, sleep } from '../../../../src/core/rpc/retry';

test('only 429 and 500 to 599 are retried', () => {
  const statuses = [200, 408, 428, 429, 430, 499, 500, 504, 599, 600];
  assert.deepEqual(statuses.filter(isRetryableStatus), [429, 500, 504, 599]);
});

test('Retry-After: a date in the past means no wait; whole and fractional seconds; junk ignored', () => {
  const now = Date.parse('2026-01-01T00:00:10Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('1.5'), 1500);
  assert.equal(parseRetryAfter('0'), 0);
  assert.equal(parseRetryAfter(''), undefined);
  assert.equal(parseRetryAfter('1e3'), undefined);
  assert.equal(parseRetryAfter('0x10'), undefined);
  for (const junk of ['-1', '-5', '12 ', '1-2']) assert.equal(parseRetryAfter(junk), junk === '12 ' ? 12_000 : undefined, junk);
  assert.equal(parseRetryAfter('Sunday, 01-Jan-2026 00:00:00 GMT', now), 0);
});

test('retryPlan: a negative or unreadable Retry-After is treated as absent (backoff), never a wait of 0', () => {
  for (const bad of [-1000, NaN])
    assert.equal(
      retryPlan(0, DEFAULT_RETRY, bad, 60_000, () => 0.5),
      188,
      String(bad),
    );
  assert.equal(retryPlan(0, DEFAULT_RETRY, 0, 60_000), 0);
});

test('the default policy: 2 retries, 250 ms doubling, 10 s cap; jitter stays between half and all of the step', () => {
  assert.deepEqual(DEFAULT_RETRY, { retries: 2, baseDelayMs: 250, maxDelayMs: 10_000 });
  assert.equal(
    retryDelay(1, DEFAULT_RETRY, undefined, () => 0.5),
    375,
  );
  assert.equal(
    retryDelay(6, DEFAULT_RETRY, undefined, () => 0),
    5000,
  );
  assert.equal(retryDelay(0, DEFAULT_RETRY, 0), 0, 'Retry-After: 0 means now, not the backoff');
  for (let i = 0; i < 50; i++) {
    const d = retryDelay(2, DEFAULT_RETRY);
    assert.ok(d >= 500 && d <= 1000, String(d));
  }
});

test('sleep resolves after its time, rejects at once when already aborted, and when aborted while waiting', async () => {
  assert.equal(await sleep(5, undefined, () => new Error('never')), undefined);
  await assert.rejects(
    sleep(10_000, AbortSignal.abort(), () => new Error('cancelled early')),
    /cancelled early/,
  );
  const controller = new AbortController();
  const waiting = sleep(10_000, controller.signal, () => new Error('cancelled while waiting'));
  setTimeout(() => controller.abort(), 10);
  const before = performance.now();
  await assert.rejects(waiting, /cancelled while waiting/);
  assert.ok(performance.now() - before < 5000, 'rejected at the abort, not after the sleep');
  // A finished sleep leaves no listener on the signal: aborting later calls nothing.
  const later = new AbortController();
  let called = 0;
  await sleep(1, later.signal, () => {
    called++;
    return new Error('x');
  });
  later.abort();
  assert.equal(called, 0);
});

test('a deadline: shared by default, remaining time never negative, a request limit cut to what is left', async () => {
  const d = new Deadline(10_000);
  assert.equal(d.shared, true);
  assert.equal(new Deadline(1, false).shared, false);
  assert.equal(d.totalMs, 10_000);
  assert.ok(d.remainingMs() > 9000 && d.remainingMs() <= 10_000);
  assert.equal(d.limit(500), 500);
  assert.ok(d.limit(20_000) <= 10_000 && d.limit(20_000) > 9000);
  assert.ok(Number.isInteger(d.limit(20_000)), 'rounded up to whole ms');
  const spent = new Deadline(5);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(spent.remainingMs(), 0);
  assert.equal(spent.limit(1000), 0);
  assert.equal(MAX_TIMEOUT_MS, 86_400_000);
  assert.equal(DEFAULT_MAX_RESPONSE_MB, 64);
  assert.equal(responseLimit(), 64 * 1024 * 1024);
});

test('Retry-After accepts fractional seconds with several decimals', () => {
  assert.equal(parseRetryAfter('1.25', 0), 1250);
  assert.equal(parseRetryAfter('2.5', 0), 2500);
});
