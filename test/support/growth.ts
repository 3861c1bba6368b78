/**
 * "Nothing quadratic" as a test: the same work at two sizes, timed in the same process, must grow
 * about as the size does. A ratio holds on a slow or loaded machine and under a mutation tool's
 * instrumented code, where an absolute bound in milliseconds does not.
 */
import assert from 'node:assert/strict';

/** CPU milliseconds of `work()`, best of `runs` (wall time stretches several times on shared cores). */
export function cpuMs(work: () => void, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/**
 * Asserts that `work(large)` costs less than `slack` times what linear growth from `work(small)`
 * predicts. With large = 40 × small, quadratic growth is 1,600×: slack 4 allows 160×.
 */
export function assertGrowsLinearly(work: (size: number) => void, small: number, large: number, slack = 4): void {
  // A floor of 1 ms on the small run keeps timer resolution from making the ratio explode.
  const smallMs = Math.max(
    cpuMs(() => work(small)),
    1,
  );
  const largeMs = cpuMs(() => work(large));
  const limit = (large / small) * slack;
  assert.ok(largeMs / smallMs < limit, `size ${small}: ${smallMs.toFixed(1)} ms, size ${large}: ${largeMs.toFixed(1)} ms of CPU (ratio ${(largeMs / smallMs).toFixed(0)}, limit ${limit})`);
}

/** cpuMs for asynchronous work (e.g. a command against a loopback server in this process). */
export async function cpuMsAsync(work: () => Promise<void>, runs = 3): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage();
    await work();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** assertGrowsLinearly for asynchronous work; `prepare` (not timed) readies each size first. */
export async function assertGrowsLinearlyAsync<T>(prepare: (size: number) => Promise<T>, work: (prepared: T) => Promise<void>, small: number, large: number, slack = 4): Promise<void> {
  const smallReady = await prepare(small);
  const smallMs = Math.max(await cpuMsAsync(() => work(smallReady)), 1);
  const largeReady = await prepare(large);
  const largeMs = await cpuMsAsync(() => work(largeReady));
  const limit = (large / small) * slack;
  assert.ok(largeMs / smallMs < limit, `size ${small}: ${smallMs.toFixed(1)} ms, size ${large}: ${largeMs.toFixed(1)} ms of CPU (ratio ${(largeMs / smallMs).toFixed(0)}, limit ${limit})`);
}
