/**
 * A deployment's entries kept in a bounded ring, read through filters a page at a time, and
 * followed: the oldest go first once it is full, a filter keeps only what it names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogEntry } from '../../../../../src/core/indexing/logs/entry';
import { LogStore } from '../../../../../src/core/indexing/logs/store';

const entry = (n: number, over: Partial<LogEntry> = {}): LogEntry => ({
  time: new Date(1_700_000_000_000 + n).toISOString(),
  level: 'info',
  message: `ping ${n}`,
  deployment: 'QmA',
  block: n,
  origin: 'mapping',
  ...over,
});

test('the ring keeps the newest entries of each deployment, oldest first, and counts what it dropped', () => {
  const store = new LogStore(3);
  for (let n = 1; n <= 5; n++) store.add(entry(n));
  store.add(entry(9, { deployment: 'QmB' }));
  assert.deepEqual(
    store.page('QmA', {}).entries.map((e) => e.block),
    [3, 4, 5],
  );
  assert.equal(store.dropped('QmA'), 2);
  assert.equal(store.size('QmB'), 1);
});

test('filters: level and above, one handler, a block range, text in the message, handler or transaction', () => {
  const store = new LogStore();
  store.add(entry(1, { level: 'debug', handler: 'handlePing' }));
  store.add(entry(2, { level: 'warning', handler: 'handlePing', tx: '0xabc' }));
  store.add(entry(3, { level: 'error', handler: 'handleBoom', message: 'boom after 3 pings' }));
  store.add(entry(4, { level: 'critical', message: 'no block', block: undefined }));
  const blocks = (f: Parameters<LogStore['page']>[1]) => store.page('QmA', f).entries.map((e) => e.block ?? null);
  assert.deepEqual(blocks({ level: 'warning' }), [2, 3, null]);
  assert.deepEqual(blocks({ handler: 'handlePing' }), [1, 2]);
  assert.deepEqual(blocks({ fromBlock: 2, toBlock: 3 }), [2, 3]);
  assert.deepEqual(blocks({ text: 'BOOM' }), [3]);
  assert.deepEqual(blocks({ text: '0xab' }), [2]);
  assert.deepEqual(blocks({ level: 'error', fromBlock: 1 }), [3]);
  assert.deepEqual(store.handlers('QmA'), ['handleBoom', 'handlePing']);
});

test('a page is `limit` entries from `offset`, with the total that match', () => {
  const store = new LogStore();
  for (let n = 0; n < 1200; n++) store.add(entry(n, { level: n % 2 ? 'error' : 'info' }));
  const page = store.page('QmA', { level: 'error' }, 500, 100);
  assert.equal(page.total, 600);
  assert.deepEqual([page.entries[0].block, page.entries.at(-1)!.block, page.entries.length], [1001, 1199, 100]);
});

test('follow tells each new entry until stopped', () => {
  const store = new LogStore();
  const seen: number[] = [];
  const stop = store.follow((e) => seen.push(e.block!));
  store.add(entry(1));
  stop();
  store.add(entry(2));
  assert.deepEqual(seen, [1]);
});
