/** The data folder's lock: what a killed supervisor left behind (its processes, their arguments and start times) is found and cleaned up. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MARK_FILE } from '../../../../src/core/localnode/dataFolder';
import { acquireLock, argumentsOf, cleanLeftovers, DataFolderBusy, isAlive, lockPath, processStart, readLock, writeLock, type ProcessControl } from '../../../../src/core/localnode/lock';
import { LocalGraphNode } from '../../../../src/core/localnode/supervisor';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the lock: leftovers of a killed supervisor', () => {
  /** A real process whose command line names `dir`, as gnd's and Postgres's name the data folder. */
  function sleeper(dir: string) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', dir], { stdio: 'ignore' });
    return { pid: child.pid!, exited: new Promise<void>((resolve) => child.once('exit', () => resolve())), kill: () => child.kill('SIGKILL') };
  }
  const control = (stopped: number[]): ProcessControl => ({
    isAlive,
    argumentsOf,
    processStart,
    async stop(p) {
      stopped.push(p.pid);
      process.kill(p.pid, 'SIGKILL');
      while (isAlive(p.pid)) await new Promise((r) => setTimeout(r, 20));
    },
  });

  test('processes of the folder whose supervisor is gone are stopped (gnd first), others are left alone, the lock removed', async () => {
    const dir = mkdtempSync(path.join(tmp, 'lock-'));
    const [gnd, postgres, stranger] = [sleeper(dir), sleeper(dir), sleeper(path.join(tmp, 'elsewhere'))];
    try {
      const gone = sleeper(dir);
      gone.kill();
      await gone.exited;
      writeLock(dir, {
        owner: gone.pid,
        started: new Date().toISOString(),
        processes: [
          { role: 'postgres', pid: postgres.pid },
          { role: 'gnd', pid: gnd.pid },
          { role: 'gnd', pid: stranger.pid },
        ],
      });
      const stopped: number[] = [];
      const result = await cleanLeftovers(dir, control(stopped));
      assert.deepEqual(stopped, [gnd.pid, postgres.pid]);
      assert.deepEqual(
        result.map((p) => p.role),
        ['gnd', 'postgres'],
      );
      assert.equal(isAlive(stranger.pid), true, 'a pid that no longer names the folder is not touched');
      assert.equal(readLock(dir), undefined);
      assert.deepEqual(await cleanLeftovers(dir, control([])), [], 'no lock, nothing to do');
    } finally {
      for (const p of [gnd, postgres, stranger]) p.kill();
    }
  });

  test('a folder whose supervisor still runs is refused', async () => {
    const dir = mkdtempSync(path.join(tmp, 'busy-'));
    const [owner, gnd] = [sleeper(dir), sleeper(dir)];
    try {
      writeLock(dir, { owner: owner.pid, started: new Date().toISOString(), processes: [{ role: 'gnd', pid: gnd.pid }] });
      await assert.rejects(
        cleanLeftovers(dir, control([])),
        (err: unknown) => err instanceof DataFolderBusy && err.message.startsWith(`A local graph-node already runs from ${dir} (supervised by process ${owner.pid})`),
      );
      assert.equal(isAlive(gnd.pid), true);
    } finally {
      owner.kill();
      gnd.kill();
    }
  });

  test('two starts on the same new folder: the lock is taken by exactly one, the other is refused before it starts anything', async () => {
    const dir = mkdtempSync(path.join(tmp, 'race-'));
    const other = sleeper(dir);
    try {
      const results = await Promise.allSettled([acquireLock(dir, control([])), acquireLock(dir, control([]), other.pid)]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected'],
      );
      const refused = (results[1] as PromiseRejectedResult).reason as Error;
      assert.ok(refused instanceof DataFolderBusy, String(refused));
      assert.match(refused.message, new RegExp(`^A local graph-node already runs from ${dir} \\(supervised by process ${process.pid}\\)`));
      assert.deepEqual(readLock(dir), { ...(results[0] as PromiseFulfilledResult<{ record: object }>).value.record });
      assert.equal(readLock(dir)?.ownerSince, processStart(process.pid));
    } finally {
      other.kill();
    }
  });

  test('a lock whose owner pid now belongs to another program is a leftover, not a running node', async () => {
    const dir = mkdtempSync(path.join(tmp, 'reused-'));
    const stranger = sleeper(path.join(tmp, 'elsewhere'));
    try {
      writeLock(dir, { owner: stranger.pid, ownerSince: '1', started: new Date().toISOString(), processes: [] });
      const { record } = await acquireLock(dir, control([]));
      assert.equal(record.owner, process.pid);
      assert.equal(readLock(dir)?.owner, process.pid);
    } finally {
      stranger.kill();
    }
  });

  test('a process is ours only by exact identity: a folder whose name starts the same, or the same pid started again, is not', async () => {
    const dir = mkdtempSync(path.join(tmp, 'gn-'));
    const [sibling, restarted] = [sleeper(`${dir}1`), sleeper(dir)];
    try {
      const gone = sleeper(dir);
      gone.kill();
      await gone.exited;
      writeLock(dir, {
        owner: gone.pid,
        started: new Date().toISOString(),
        processes: [
          { role: 'postgres', pid: sibling.pid, since: processStart(sibling.pid) },
          { role: 'gnd', pid: restarted.pid, since: String(Number(processStart(restarted.pid)) - 1) },
        ],
      });
      const stopped: number[] = [];
      assert.deepEqual(await cleanLeftovers(dir, control(stopped)), []);
      assert.deepEqual(stopped, [], 'nothing of another folder, nor a pid started after the lock named it, is stopped');
      assert.ok(isAlive(sibling.pid) && isAlive(restarted.pid));
    } finally {
      sibling.kill();
      restarted.kill();
    }
  });

  test('the lock holds pids, roles and start times, never a command line; only its user reads it', async () => {
    const dir = mkdtempSync(path.join(tmp, 'private-'));
    const { record } = await acquireLock(dir, control([]));
    const text = readFileSync(lockPath(dir), 'utf8');
    assert.deepEqual(Object.keys(JSON.parse(text) as object).sort(), ['owner', 'ownerSince', 'processes', 'started']);
    assert.ok(!text.includes(process.argv[1]) && !text.includes(process.execPath), text);
    assert.equal(statSync(lockPath(dir)).mode & 0o777, 0o600);
    assert.equal(record.owner, process.pid);
  });

  test('a second start on a folder whose node runs is refused and leaves that node’s lock in place', async () => {
    const dir = mkdtempSync(path.join(tmp, 'second-'));
    writeFileSync(path.join(dir, MARK_FILE), '{}');
    const [owner, gnd] = [sleeper(dir), sleeper(dir)];
    try {
      writeLock(dir, { owner: owner.pid, started: new Date().toISOString(), processes: [{ role: 'gnd', pid: gnd.pid }] });
      const node = new LocalGraphNode({ rpcUrl: 'http://127.0.0.1:1', dataDir: dir, cacheDir: path.join(tmp, 'cache'), postgresDirs: [], env: { PATH: '' } });
      await assert.rejects(node.start(), DataFolderBusy);
      assert.equal(readLock(dir)?.owner, owner.pid);
      assert.equal(isAlive(gnd.pid), true);
    } finally {
      owner.kill();
      gnd.kill();
    }
  });
});
