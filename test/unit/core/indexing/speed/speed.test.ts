/**
 * Speed from real gnd metrics taken 9.1 s apart while it indexed (test/fixtures/metrics): blocks/s
 * and triggers/s over the span, the ETA to the chain head at that pace; a window that forgets old
 * samples, a counter that went back (gnd restarted) starting over, a stall, samples from the
 * index-node status only (no triggers), the summary line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readNodeMetrics } from '../../../../../src/core/indexing/speed/metrics';
import { parsePrometheusText } from '../../../../../src/core/indexing/speed/prometheus';
import { durationText, SpeedTracker, speedSummary, type SpeedSample } from '../../../../../src/core/indexing/speed/speed';

const DEPLOYMENT = 'QmVKyC4ssQxm16QmuUjEYKcuafCZem7LkX2LTa1zyQNqR5';
const fixture = (name: string) => readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'metrics', name), 'utf8');
const T0 = 1795937189278;

function sampleOf(name: string, at: number): SpeedSample {
  const node = readNodeMetrics(parsePrometheusText(fixture(name)).samples);
  const d = node.deployments.get(DEPLOYMENT)!;
  return { at, block: d.head, triggers: d.triggers, chainHead: node.chainHeads.get(d.network!), synced: d.synced };
}

test('blocks/s, triggers/s and the ETA between two real samples 9.1 s apart', () => {
  const tracker = new SpeedTracker();
  const a = sampleOf('gnd-indexing-a.txt', T0);
  const b = sampleOf('gnd-indexing-b.txt', T0 + 9118);
  assert.deepEqual([a.block, a.triggers, a.chainHead, a.synced], [163, 762, 301, false]);
  tracker.add(DEPLOYMENT, a);
  assert.equal(tracker.speed(DEPLOYMENT)?.blocksPerSecond, undefined, 'one sample gives no rate');
  tracker.add(DEPLOYMENT, b);
  const speed = tracker.speed(DEPLOYMENT)!;
  assert.ok(Math.abs(speed.blocksPerSecond! - 77 / 9.118) < 1e-9);
  assert.ok(Math.abs(speed.triggersPerSecond! - 77 / 9.118) < 1e-9);
  assert.equal(speed.behind, 61);
  assert.ok(Math.abs(speed.etaSeconds! - 61 / (77 / 9.118)) < 1e-9);
  assert.equal(speed.synced, false);
  assert.equal(speedSummary(speed), '8.44 blocks/s · 8.44 triggers/s · ETA 7 s');
  tracker.add(DEPLOYMENT, sampleOf('gnd-synced.txt', T0 + 16223));
  assert.equal(tracker.speed(DEPLOYMENT)?.etaSeconds, 0);
  assert.equal(speedSummary(tracker.speed(DEPLOYMENT)), 'synced');
});

test('the rates look back over the window only, keeping one sample at its start', () => {
  const tracker = new SpeedTracker({ windowMs: 10_000 });
  // 1 block/s for 20 s, then 10 blocks/s.
  for (let t = 0; t <= 20; t++) tracker.add('d', { at: t * 1000, block: t, chainHead: 1000 });
  for (let t = 21; t <= 30; t++) tracker.add('d', { at: t * 1000, block: 20 + (t - 20) * 10, chainHead: 1000 });
  const speed = tracker.speed('d')!;
  assert.equal(speed.spanSeconds, 10);
  assert.equal(speed.blocksPerSecond, 10);
  assert.equal(speed.etaSeconds, (1000 - 120) / 10);
});

test('a block or counter that went back (gnd restarted) starts the series over; a stall has no ETA', () => {
  const tracker = new SpeedTracker();
  tracker.add('d', { at: 0, block: 100, triggers: 500, chainHead: 200 });
  tracker.add('d', { at: 5000, block: 150, triggers: 900, chainHead: 200 });
  tracker.add('d', { at: 6000, block: 150, triggers: 10, chainHead: 200 });
  assert.equal(tracker.speed('d')?.blocksPerSecond, undefined);
  tracker.add('d', { at: 8000, block: 150, triggers: 10, chainHead: 200 });
  const stalled = tracker.speed('d')!;
  assert.equal(stalled.blocksPerSecond, 0);
  assert.equal(stalled.etaSeconds, undefined);
  assert.equal(speedSummary(stalled), '0.00 blocks/s · 0.00 triggers/s · stalled, 50 blocks behind');
});

test('from the index-node status only: blocks/s and ETA, no triggers/s', () => {
  const tracker = new SpeedTracker();
  tracker.add('q', { at: 0, block: 1000, chainHead: 100_000 });
  tracker.add('q', { at: 4000, block: 1200, chainHead: 100_004 });
  const speed = tracker.speed('q')!;
  assert.equal(speed.blocksPerSecond, 50);
  assert.equal(speed.triggersPerSecond, undefined);
  assert.equal(speedSummary(speed), `50.0 blocks/s · ETA ${durationText(98_804 / 50)}`);
  assert.equal(durationText(98_804 / 50), '32 min 56 s');
  tracker.keep([]);
  assert.equal(tracker.speed('q'), undefined);
});

test('batched (a graph-node’s index-node status): no rate before the block jumps, then the rate up to the last jump', () => {
  const tracker = new SpeedTracker({ windowMs: 15 * 60_000, batched: true });
  // What gnd 0.45.0's status did while it synced 300 blocks: the same block for seconds.
  for (const at of [0, 2000, 4000]) tracker.add('q', { at, block: 1000, chainHead: 3000, synced: false });
  const before = tracker.speed('q')!;
  assert.equal(before.blocksPerSecond, undefined, 'a flat status is not a stall');
  assert.equal(speedSummary(before), '2,000 blocks behind');
  tracker.add('q', { at: 10_000, block: 1500, chainHead: 3000, synced: false });
  tracker.add('q', { at: 12_000, block: 1500, chainHead: 3000, synced: false });
  const after = tracker.speed('q')!;
  assert.equal(after.blocksPerSecond, 50);
  assert.equal(after.etaSeconds, 30);
  assert.equal(speedSummary(after), '50.0 blocks/s · ETA 30 s');
});

test('durations read as a person says them', () => {
  assert.deepEqual([durationText(42), durationText(185), durationText(7800), durationText(3 * 86_400 + 4 * 3600 + 5)], ['42 s', '3 min 5 s', '2 h 10 min', '3 d 4 h']);
});

test('an ETA past a year, or of a chain head no chain has (1e300), reads "over a year"; a head that is no whole number is not a head', () => {
  assert.deepEqual(
    [durationText(364 * 86_400), durationText(365 * 86_400), durationText(1e300), durationText(Infinity), durationText(-3)],
    ['364 d', 'over a year', 'over a year', 'over a year', '0 s'],
  );
  const node = readNodeMetrics(
    parsePrometheusText(
      'deployment_head{deployment="Q",network="n"} 1e300\ndeployment_head{deployment="R",network="n"} 4.5\ndeployment_head{deployment="S",network="n"} -2\nethereum_chain_head_number{network="n"} 1e300',
    ).samples,
  );
  assert.deepEqual(
    [...node.deployments.values()].map((d) => d.head),
    [undefined, undefined, undefined],
  );
  assert.equal(node.chainHeads.get('n'), undefined);
});
