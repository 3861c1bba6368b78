/**
 * Reading `_logs` from a node that misbehaves: one that ignores `skip` (the same page again, as
 * far as the paging goes), one that ignores `from` (the whole log again on every poll of a follow),
 * one that answers a time far ahead. Each entry is told once, never one older than what was told.
 * Served by a loopback imitation.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { main } from '../../../../../src/cli/main';
import type { LogEntry } from '../../../../../src/core/indexing/logs/entry';
import { entryOfLogItem, LogsCursor } from '../../../../../src/core/indexing/logs/graphqlLogs';
import { LogStore } from '../../../../../src/core/indexing/logs/store';

const ID = 'QmaSGUNZKigtRCXTE2eTfRLF7evEiLqF2a5L4VnKyVgiNj';
const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString();
const item = (i: number) => ({ id: String(i), timestamp: stamp(i), level: 'INFO', text: `entry ${i}`, arguments: [] });
let server: Server;
let base: string;

before(async () => {
  // 1000 entries on every page, whatever skip and from say.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ data: { _logs: Array.from({ length: 1000 }, (_, i) => item(i)) } })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test('a node that ignores skip: each entry is printed once, not once per page', async () => {
  let out = '';
  const code = await main(['graph-node', 'logs', '--graphql', base, '--deployment', ID, '--format', 'json'], { out: (t: string) => void (out += t), err: () => undefined, env: {} });
  assert.equal(code, 0);
  const lines = out.trim().split('\n');
  assert.equal(lines.length, 1000);
  assert.equal(new Set(lines).size, 1000);
});

const entry = (i: number, time = stamp(i)): LogEntry => ({ id: String(i), time, level: 'info', message: `entry ${i}`, deployment: ID, origin: 'mapping' });

test('a follow passes only what is new: the same page again, or older entries, are not told twice', () => {
  const cursor = new LogsCursor();
  const now = Date.parse(stamp(0)) + 60_000;
  assert.equal(cursor.fresh([entry(1), entry(2), entry(3)], now).length, 3);
  assert.deepEqual(cursor.next(), { first: 1000, skip: 0, from: stamp(3) });
  // The node ignored `from`: the whole log again, one entry new (and one without a time that parses).
  const again = cursor.fresh([entry(1), entry(2), entry(3), entry(4), entry(5, 'garbage')], now);
  assert.deepEqual(
    again.map((e) => e.id),
    ['4', '5'],
  );
  // An entry older than the last told, under an id not seen: left out.
  assert.deepEqual(cursor.fresh([{ ...entry(0), id: 'other' }], now), []);
  // A time far ahead is told but never where the next page starts.
  assert.equal(cursor.fresh([entry(6, '+275760-09-13T00:00:00.000Z')], now).length, 1);
  assert.deepEqual(cursor.next(), { first: 1000, skip: 0, from: stamp(4) });
});

test('a time that is none is kept short and inert (the panel and the CLI show it as a cell)', () => {
  const e = entryOfLogItem({ id: '1', timestamp: `\u202e\u001b[2J${'9'.repeat(1_000_000)}`, level: 'INFO', text: 'x' }, ID)!;
  assert.ok(e.time.length < 100, `${e.time.length} chars`);
  assert.ok(!e.time.includes('\u202e') && !e.time.includes('\u001b'), e.time);
});

test('a node that names handlers without end: what is no function name is no handler, and the filter offers 500 at most', () => {
  const e = entryOfLogItem({ timestamp: stamp(1), level: 'INFO', text: 'x', arguments: [{ key: 'handler', value: `<img src=x>${'h'.repeat(10_000)}` }] }, ID)!;
  assert.equal(e.handler, undefined);
  const store = new LogStore();
  for (let i = 0; i < 2000; i++) store.add({ ...entry(i), handler: `handle${i}` });
  assert.equal(store.handlers(ID).length, 500);
});
