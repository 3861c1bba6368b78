/**
 * The metrics reader on real gnd metrics text (test/fixtures/metrics) and on the corners of the
 * text format: escapes in label values, +Inf, timestamps, lines that are not samples skipped.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { METRICS_MAX_LINE_CHARS, METRICS_MAX_SAMPLES, parsePrometheusText } from '../../../../../src/core/indexing/speed/prometheus';

const fixture = (name: string) => readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'metrics', name), 'utf8');
const DEPLOYMENT = 'QmVKyC4ssQxm16QmuUjEYKcuafCZem7LkX2LTa1zyQNqR5';

test('every sample line of gnd’s metrics is read, none skipped, labels and values as written', () => {
  const text = fixture('gnd-indexing-a.txt');
  const { samples, skipped } = parsePrometheusText(text);
  assert.equal(skipped, 0);
  const sampleLines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#')).length;
  assert.equal(samples.length, sampleLines);
  const weigh = samples.find((s) => s.name === 'deployment_handler_execution_time_sum' && s.labels.handler === 'handleWeigh');
  assert.deepEqual(weigh, { name: 'deployment_handler_execution_time_sum', labels: { deployment: DEPLOYMENT, handler: 'handleWeigh' }, value: 1.301261587 });
  const inf = samples.find((s) => s.name === 'deployment_handler_execution_time_bucket' && s.labels.le === '+Inf' && s.labels.handler === 'handleTick');
  assert.equal(inf?.value, 750);
  assert.ok(samples.some((s) => s.name === 'ethereum_chain_head_number' && s.labels.network === 'mainnet' && s.value === 301));
});

test('label values with escapes, special values and timestamps; broken lines are skipped and counted', () => {
  const { samples, skipped } = parsePrometheusText(
    [
      '# HELP x a help line',
      'x{a="quote \\" backslash \\\\ newline \\n",b="}, {"} 1.5 1700000000000',
      'y +Inf',
      'z{} NaN',
      'w{a="1",} -2e-3',
      'broken{a="no end} 1',
      'broken2{a=1} 1',
      'broken3 notanumber',
      '',
    ].join('\n'),
  );
  assert.equal(skipped, 3);
  assert.deepEqual(samples[0], { name: 'x', labels: { a: 'quote " backslash \\ newline \n', b: '}, {' }, value: 1.5 });
  assert.equal(samples[1].value, Infinity);
  assert.ok(Number.isNaN(samples[2].value));
  assert.deepEqual(samples[3], { name: 'w', labels: { a: '1' }, value: -0.002 });
});

test('a text with more samples than the bound is refused with a one-line reason', () => {
  const text = 'a 1\n'.repeat(METRICS_MAX_SAMPLES + 1);
  assert.throws(() => parsePrometheusText(text), /more than 200000 samples/);
});

test('a line longer than the bound (a 15 MB label value) is skipped unread, at once; the lines around it are read', () => {
  const started = performance.now();
  const { samples, skipped } = parsePrometheusText(`a 1\nhuge{v="${'x'.repeat(15_000_000)}"} 1\nb 2\n`);
  const ms = performance.now() - started;
  assert.deepEqual([samples.map((s) => s.name), skipped], [['a', 'b'], 1]);
  assert.ok(ms < 1000, `${ms} ms`);
  assert.equal(parsePrometheusText(`c{v="${'x'.repeat(METRICS_MAX_LINE_CHARS - 10)}"} 1`).samples.length, 1, 'a line within the bound is read');
});
