/**
 * The rooms of src/ stay small enough to find one's way in (ARCHITECTURE.md): no folder holds more
 * than 20 files directly, no source file is longer than 600 lines, and every folder of the subgraph core
 * says in a README.md what it holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoPath } from '../support/paths';

const SRC = repoPath('src');
const folders = [
  SRC,
  ...fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(SRC, name))
    .filter((p) => fs.statSync(p).isDirectory()),
];
const sourceFiles = (folder: string) => fs.readdirSync(folder).filter((name) => /\.tsx?$/.test(name));

test('no folder of src holds more than 20 source files directly', () => {
  const crowded = folders.filter((folder) => sourceFiles(folder).length > 20).map((folder) => `${path.relative(SRC, folder)}: ${sourceFiles(folder).length}`);
  assert.deepEqual(crowded, []);
  assert.ok(folders.length > 20, 'the walk found the folders');
});

test('no source file is longer than 600 lines', () => {
  const long = folders.flatMap((folder) =>
    sourceFiles(folder)
      .map((name) => path.join(folder, name))
      .filter((file) => fs.readFileSync(file, 'utf8').trimEnd().split('\n').length > 600)
      .map((file) => path.relative(SRC, file)),
  );
  assert.deepEqual(long, []);
});

test('every folder of the subgraph core says what it holds', () => {
  const core = path.join(SRC, 'core', 'subgraph');
  const silent = folders.filter((folder) => folder.startsWith(core) && !fs.existsSync(path.join(folder, 'README.md'))).map((folder) => path.relative(SRC, folder));
  assert.deepEqual(silent, []);
});
