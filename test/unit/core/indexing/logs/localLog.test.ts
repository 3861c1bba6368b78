/**
 * gnd's output kept in the data folder (bounded: one rotated file), redacted, and read back by
 * another process into entries, also while it grows and across a rotation.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { LogEntry } from '../../../../../src/core/indexing/logs/entry';
import { readLocalLog } from '../../../../../src/core/indexing/logs/localLog';
import { GND_LOG_DIR, GND_LOG_FILE, GND_LOG_ROTATED, GndLogFile } from '../../../../../src/core/localnode/gndLogFile';

const tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-gndlog-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const fixture = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'gnd-logs', 'emitter-supervisor.log'), 'utf8').split('\n');
const DEPLOYMENT = 'QmaSGUNZKigtRCXTE2eTfRLF7evEiLqF2a5L4VnKyVgiNj';
const until = async (ok: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !ok();) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

test('the file stays under its bound: past it the log becomes gnd.log.1 and a new one starts; URLs are masked', () => {
  const dir = mkdtempSync(path.join(tmp, 'rotate-'));
  const file = new GndLogFile(dir, 4096);
  file.write('Nov 29 07:21:21.917 INFO Connecting, url: https://node.example/v2/k3ySecretKey');
  for (let i = 0; i < 100; i++) file.write(`Nov 29 07:21:21.917 INFO line ${i} ${'x'.repeat(80)}`);
  file.close();
  const logs = path.join(dir, GND_LOG_DIR);
  assert.ok(statSync(path.join(logs, GND_LOG_FILE)).size <= 4096);
  assert.ok(statSync(path.join(logs, GND_LOG_ROTATED)).size <= 4096);
  const all = readFileSync(path.join(logs, GND_LOG_ROTATED), 'utf8') + readFileSync(path.join(logs, GND_LOG_FILE), 'utf8');
  assert.ok(all.includes('line 99 '));
  assert.ok(!all.includes('k3ySecretKey'));
});

test("the saved log is read into entries (the placeholder's left out), then followed as gnd writes", async () => {
  const dir = mkdtempSync(path.join(tmp, 'follow-'));
  const file = new GndLogFile(dir);
  const half = fixture.findIndex((l) => l.includes('block_number: 3') && l.includes(DEPLOYMENT));
  fixture.slice(0, half).forEach((l) => file.write(l));
  const seen: LogEntry[] = [];
  const abort = new AbortController();
  readLocalLog(dir, (e) => seen.push(e), { follow: true, signal: abort.signal });
  try {
    assert.deepEqual([...new Set(seen.map((e) => e.block))], [2]);
    assert.ok(seen.every((e) => e.deployment === DEPLOYMENT && e.handler === 'handlePing'));
    fixture.slice(half).forEach((l) => file.write(l));
    await until(() => seen.some((e) => e.handler === 'handleBoom' && e.origin === 'graph-node'));
    assert.deepEqual([...new Set(seen.map((e) => e.block))], [2, 3, 4]);
  } finally {
    abort.abort();
    file.close();
  }
});

test('a log that is a FIFO or a symlink is refused in one line, never waited on nor followed out', () => {
  for (const make of [(f: string) => execFileSync('mkfifo', [f]), (f: string) => symlinkSync('/etc/hostname', f)]) {
    const dir = mkdtempSync(path.join(tmp, 'odd-'));
    mkdirSync(path.join(dir, GND_LOG_DIR));
    make(path.join(dir, GND_LOG_DIR, GND_LOG_ROTATED));
    assert.throws(() => readLocalLog(dir, () => undefined), /gnd\.log\.1 is no log file of this user's: not read\.$/);
  }
});

test('a mapping line of 1 MB keeps whose it is: cut in the middle of its text, kept and read back as an entry', () => {
  const dir = mkdtempSync(path.join(tmp, 'huge-'));
  const file = new GndLogFile(dir);
  const context = `, data_source: Emitter, runner_index: 1, sgd: 2, subgraph_id: ${DEPLOYMENT}, component: SubgraphInstanceManager > UserMapping`;
  file.write(`Nov 29 07:25:50.178 INFO big ${'x'.repeat(1024 * 1024)}${context}`);
  file.close();
  const seen: LogEntry[] = [];
  readLocalLog(dir, (e) => seen.push(e));
  assert.equal(seen.length, 1);
  assert.equal(seen[0].deployment, DEPLOYMENT);
  assert.equal(seen[0].dataSource, 'Emitter');
  assert.ok(seen[0].message.startsWith('big xxx') && seen[0].message.includes('…') && seen[0].message.length < 64 * 1024, seen[0].message.slice(0, 40));
});

test('a follow across a rotation loses nothing: what went to gnd.log before it became gnd.log.1 is read too', async () => {
  const dir = mkdtempSync(path.join(tmp, 'rotate-'));
  const lines = fixture.filter((l) => l.includes(DEPLOYMENT));
  const file = new GndLogFile(dir, Math.ceil(Buffer.byteLength(lines.join('\n')) * 0.6));
  file.write(lines[0]);
  const seen: LogEntry[] = [];
  const abort = new AbortController();
  readLocalLog(dir, (e) => seen.push(e), { follow: true, signal: abort.signal });
  try {
    // Between two polls: the file fills, becomes gnd.log.1, and a new one starts.
    lines.slice(1).forEach((l) => file.write(l));
    assert.ok(existsSync(path.join(dir, GND_LOG_DIR, GND_LOG_ROTATED)));
    await until(() => seen.some((e) => e.handler === 'handleBoom' && e.origin === 'graph-node'));
    assert.deepEqual([...new Set(seen.map((e) => e.block))], [2, 3, 4]);
  } finally {
    abort.abort();
    file.close();
  }
});
