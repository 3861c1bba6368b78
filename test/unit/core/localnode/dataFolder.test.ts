/**
 * The data folder of a local graph-node: a folder that is neither empty nor a local graph-node's
 * is refused with the reason and left as it was; what is made is private.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { MARK_FILE, prepareDataFolder } from '../../../../src/core/localnode/dataFolder';
import { LocalGraphNode } from '../../../../src/core/localnode/supervisor';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-datafolder-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('a data folder that is neither empty nor a local graph-node’s is refused with the reason, nothing in it changed', async () => {
  const project = mkdtempSync(path.join(tmp, 'project-'));
  mkdirSync(path.join(project, 'dev'));
  writeFileSync(path.join(project, 'dev', 'subgraph.yaml'), 'mine');
  chmodSync(project, 0o750);
  const cluster = mkdtempSync(path.join(tmp, 'other-pg-'));
  for (const f of ['PG_VERSION', 'postgresql.conf']) writeFileSync(path.join(cluster, f), 'theirs');
  for (const [dir, holds] of [
    [project, 'dev'],
    [cluster, 'PG_VERSION, postgresql.conf'],
  ] as const) {
    const node = new LocalGraphNode({ rpcUrl: 'http://127.0.0.1:1', dataDir: dir, cacheDir: path.join(tmp, 'cache'), postgresDirs: [], env: { PATH: '' } });
    await assert.rejects(node.start(), {
      message: `The data folder ${dir} is not empty and is not a local graph-node's (it holds ${holds}): nothing in it was changed. Choose a new or empty folder, or one a local graph-node started with.`,
    });
  }
  assert.equal(readFileSync(path.join(project, 'dev', 'subgraph.yaml'), 'utf8'), 'mine');
  assert.equal(statSync(project).mode & 0o777, 0o750, 'its mode is unchanged');
  assert.deepEqual(readdirSync(cluster).sort(), ['PG_VERSION', 'postgresql.conf']);
});

test('a new data folder is made private (as root, traversable for the postgres user); an empty one is taken, marked, its mode kept', async () => {
  const made = await prepareDataFolder(path.join(tmp, 'new-data', 'inner'), false);
  assert.equal(statSync(made.dir).mode & 0o777, 0o700);
  assert.equal((await prepareDataFolder(path.join(tmp, 'new-root-data'), true)).dir.length > 0, true);
  assert.equal(statSync(path.join(tmp, 'new-root-data')).mode & 0o777, 0o711);
  const empty = mkdtempSync(path.join(tmp, 'empty-'));
  chmodSync(empty, 0o755);
  await prepareDataFolder(empty, true);
  assert.equal(statSync(empty).mode & 0o777, 0o755);
  assert.deepEqual(readdirSync(empty), [MARK_FILE]);
  assert.equal(statSync(path.join(empty, MARK_FILE)).mode & 0o777, 0o600);
});

test('a data folder that is a file is refused saying so, and the file is left as it was', async () => {
  const file = path.join(tmp, 'not-a-folder');
  writeFileSync(file, 'mine');
  const node = new LocalGraphNode({ rpcUrl: 'http://127.0.0.1:1', dataDir: file, cacheDir: path.join(tmp, 'cache'), postgresDirs: [], env: { PATH: '' } });
  await assert.rejects(node.start(), { message: `The data folder ${file} is not a folder: choose a folder (a missing one is created).` });
  assert.equal(readFileSync(file, 'utf8'), 'mine');
  assert.equal(node.state.kind, 'failed');
});
