/** Finding Postgres's programs, and a postmaster.pid whose postmaster is gone. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { findPostgres, removeStalePidFile } from '../../../../src/core/localnode/postgres';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('Postgres is looked for on PATH, then in the usual folders; none: undefined', () => {
  assert.equal(findPostgres({ PATH: '' }, []), undefined);
  const bin = path.join(tmp, 'pg-bin');
  mkdirSync(bin, { recursive: true });
  for (const name of ['initdb', 'pg_ctl', 'createdb']) writeFileSync(path.join(bin, name), '');
  assert.deepEqual(findPostgres({ PATH: '' }, [bin]), { initdb: path.join(bin, 'initdb'), pgCtl: path.join(bin, 'pg_ctl'), createdb: path.join(bin, 'createdb') });
  assert.equal(findPostgres({ PATH: bin }, [])?.pgCtl, path.join(bin, 'pg_ctl'));
});

test('a postmaster.pid whose postmaster is gone is removed before Postgres starts; a live one is kept', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-pidfile-'));
  try {
    const file = path.join(dir, 'postmaster.pid');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(file, `${gone}\n${dir}\n`);
    removeStalePidFile(dir);
    assert.equal(existsSync(file), false, 'the stale pid file is still there');
    writeFileSync(file, `${process.pid}\n${dir}\n`);
    removeStalePidFile(dir);
    assert.equal(existsSync(file), false, 'a pid now of a program that does not run on the folder is stale');
    const postmaster = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '-D', dir], { stdio: 'ignore' });
    writeFileSync(file, `${postmaster.pid}\n${dir}\n`);
    removeStalePidFile(dir);
    postmaster.kill('SIGKILL');
    assert.equal(existsSync(file), true, 'the pid file of a running postmaster was removed');
    removeStalePidFile(path.join(dir, 'none')); // no data folder: nothing to do
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
