/**
 * The profile of a real deployment's metrics (test/fixtures/metrics, the `profiled` fixture
 * subgraph): handleWeigh, which makes 20 eth_calls per event, named as the slow handler with its
 * count, total, mean and share; the eth_call share from deployment_eth_call_execution_time; the
 * `calls:` hint pointing at handleWeigh's line in subgraph.yaml and at specVersion 1.2.0.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readNodeMetrics } from '../../../../../src/core/indexing/speed/metrics';
import { handlerPlaces, profileOf } from '../../../../../src/core/indexing/speed/profile';
import { parsePrometheusText } from '../../../../../src/core/indexing/speed/prometheus';

const DEPLOYMENT = 'QmVKyC4ssQxm16QmuUjEYKcuafCZem7LkX2LTa1zyQNqR5';
const fixtures = path.join(__dirname, '..', '..', '..', '..', 'fixtures');
const metricsOf = (name: string) => readNodeMetrics(parsePrometheusText(readFileSync(path.join(fixtures, 'metrics', name), 'utf8')).samples);
const manifest = readFileSync(path.join(fixtures, 'subgraphs', 'profiled', 'subgraph.yaml'), 'utf8');
const weighLine = manifest.split('\n').findIndex((l) => l.includes('handler: handleWeigh'));

test('the metrics of each deployment: head, triggers, handlers, eth_calls, declared-call time, chain heads', () => {
  const node = metricsOf('gnd-synced.txt');
  assert.equal(node.deployments.size, 2, 'the profiled deployment and gnd’s placeholder');
  const d = node.deployments.get(DEPLOYMENT)!;
  assert.deepEqual([d.head, d.triggers, d.synced, d.network], [294, 893, true, 'mainnet']);
  assert.deepEqual(
    d.handlers.map((h) => [h.handler, h.count]),
    [
      ['handleTick', 750],
      ['handleWeigh', 142],
    ],
  );
  assert.deepEqual(d.ethCalls, [{ contract: 'Profiled', method: 'valueAt', count: 2859, seconds: 13.895764892000013 }]);
  assert.equal(d.declaredCallSeconds, 0.0015602920000000009);
  assert.equal(node.chainHeads.get('mainnet'), 301);
});

test('the profile names the slow handler first, with count, total, mean and share', () => {
  const profile = profileOf(metricsOf('gnd-synced.txt').deployments.get(DEPLOYMENT)!, manifest);
  const [slow, cheap] = profile.handlers;
  assert.equal(slow.handler, 'handleWeigh');
  assert.equal(slow.count, 142);
  assert.ok(Math.abs(slow.seconds - 17.213668663) < 1e-9);
  assert.ok(Math.abs(slow.meanMs - 17213.668663 / 142) < 1e-6);
  assert.ok(Math.abs(slow.share - 17.213668663 / (17.213668663 + 1.112769006000002)) < 1e-9);
  assert.equal(cheap.handler, 'handleTick');
  assert.ok(slow.meanMs > 50 * cheap.meanMs, `handleWeigh ${slow.meanMs} ms vs handleTick ${cheap.meanMs} ms`);
  assert.ok(Math.abs(slow.share + cheap.share - 1) < 1e-9);
});

test('eth_call dominates: its share, and the calls: hint at handleWeigh’s line with the specVersion it needs', () => {
  const profile = profileOf(metricsOf('gnd-synced.txt').deployments.get(DEPLOYMENT)!, manifest);
  const whole = 17.213668663 + 1.112769006000002 + 0.0015602920000000009;
  assert.ok(Math.abs(profile.ethCall.share - 13.895764892000013 / whole) < 1e-9);
  assert.equal(profile.ethCall.count, 2859);
  const hint = profile.hint!;
  assert.ok(hint, 'a hint where eth_call takes most of the time');
  assert.deepEqual(hint.places, [{ handler: 'handleWeigh', dataSource: 'Profiled', line: weighLine, declaresCalls: false }]);
  assert.equal(hint.needsSpecVersion, true);
  assert.match(
    hint.message,
    /^eth_call takes 76 % of the handler time \(2,859 calls, 4\.9 ms each; most: Profiled\.valueAt\)\. Where a call's arguments come from the event, declare it under `calls:` on handleWeigh \(subgraph\.yaml line 27\), as `label: Profiled\[event\.address\]\.valueAt\(event\.params\.…\)`/,
  );
  assert.match(hint.message, /specVersion 1\.2\.0 or later \(this manifest: 0\.0\.5\)/);
});

test('no hint where eth_call is a small share; a handler that declares its calls is not pointed at again', () => {
  const d = metricsOf('gnd-synced.txt').deployments.get(DEPLOYMENT)!;
  assert.equal(profileOf({ ...d, ethCalls: [{ contract: 'Profiled', method: 'valueAt', count: 10, seconds: 1 }] }, manifest).hint, undefined);
  const declared = manifest
    .replace('handler: handleWeigh', 'handler: handleWeigh\n          calls:\n            value: Profiled[event.address].valueAt(event.params.n)')
    .replace('specVersion: 0.0.5', 'specVersion: 1.2.0');
  const hint = profileOf(d, declared).hint!;
  assert.deepEqual(hint.places, []);
  assert.equal(hint.needsSpecVersion, false);
  assert.doesNotMatch(hint.message, /specVersion/, 'a manifest at 1.2.0 is not told of the specVersion');
  assert.match(hint.message, /answered from its cache\.$/);
  assert.equal(handlerPlaces(declared).places.find((p) => p.handler === 'handleWeigh')?.declaresCalls, true);
});

test('the profile of a deployment that handled nothing yet is empty, not NaN', () => {
  const profile = profileOf({ deployment: 'x', handlers: [], ethCalls: [], declaredCallSeconds: 0 });
  assert.deepEqual([profile.totalSeconds, profile.ethCall.share, profile.handlers.length, profile.hint], [0, 0, 0, undefined]);
});

test('NaN, ±Inf and 1e400 from a node are no block, count or time: nothing shows as NaN or ∞', () => {
  const values = ['NaN', '+Inf', '-Inf', '1e400'];
  const text = values
    .map((v, i) =>
      [
        `deployment_head{deployment="Q${i}",network="mainnet"} ${v}`,
        `deployment_block_trigger_count_sum{deployment="Q${i}"} ${v}`,
        `deployment_handler_execution_time_count{deployment="Q${i}",handler="h"} ${v}`,
        `deployment_handler_execution_time_sum{deployment="Q${i}",handler="h"} ${v}`,
        `deployment_sync_secs{deployment="Q${i}",section="declared_ethereum_call"} ${v}`,
        `ethereum_chain_head_number{network="n${i}"} ${v}`,
      ].join('\n'),
    )
    .join('\n');
  const node = readNodeMetrics(parsePrometheusText(text).samples);
  assert.equal(node.chainHeads.size, 0);
  for (const d of node.deployments.values()) {
    assert.deepEqual([d.head, d.triggers, d.declaredCallSeconds], [undefined, undefined, 0], d.deployment);
    const profile = profileOf(d);
    assert.ok([profile.totalSeconds, profile.ethCall.share, ...profile.handlers.flatMap((h) => [h.count, h.seconds, h.meanMs, h.share])].every(Number.isFinite), d.deployment);
  }
});
