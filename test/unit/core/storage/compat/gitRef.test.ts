/**
 * Layouts at a git ref, in a repository of the test's own (a temp folder): the compiler output
 * committed at that commit is read (Foundry and Hardhat files, from a subfolder too), not what is
 * in the work tree now; a commit without compiler output, a ref that names nothing and one that
 * looks like an option each fail in one line.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GitLayoutError, layoutsAtRef } from '../../../../../src/core/storage/compat/gitRef';
import type { SolcStorageLayout } from '../../../../../src/core/storage/layout';

let repo: string;
const run = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd: repo,
    timeout: 20_000,
    stdio: 'pipe',
  });
const write = (file: string, content: unknown) => {
  mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  writeFileSync(path.join(repo, file), JSON.stringify(content));
};
const layoutOf = (labels: string[]): SolcStorageLayout => ({
  storage: labels.map((label, i) => ({ label, offset: 0, slot: String(i), type: 't_uint256' })),
  types: { t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' } },
});
const foundry = (name: string, labels: string[]) => ({ abi: [], storageLayout: layoutOf(labels), metadata: { settings: { compilationTarget: { [`src/${name}.sol`]: name } } } });

before(() => {
  repo = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-gitref-'));
  run('init', '-q');
  write('README.json', {});
  run('add', '.');
  run('commit', '-qm', 'no artifacts yet');
  run('tag', 'bare');
  write('contracts/out/Box.sol/Box.json', foundry('Box', ['a', 'b']));
  write('artifacts/build-info/abc.json', { output: { contracts: { 'contracts/Vault.sol': { Vault: { storageLayout: layoutOf(['v']) } } } } });
  run('add', '.');
  run('commit', '-qm', 'v1');
  run('tag', 'v1');
  write('contracts/out/Box.sol/Box.json', foundry('Box', ['a', 'b', 'c']));
  run('commit', '-qam', 'v2');
});
after(() => rmSync(repo, { recursive: true, force: true }));

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof GitLayoutError, String(err));
    assert.ok(!err.message.includes('\n'), 'one line');
    return err;
  }
  assert.fail('no error');
};

describe('layouts at a git ref', () => {
  test('the artifacts as committed at the ref, from the work tree or a subfolder of it', async () => {
    const { commit, layouts } = await layoutsAtRef(path.join(repo, 'contracts'), 'v1');
    assert.match(commit, /^[0-9a-f]{40}$/);
    assert.deepEqual(layouts.map((l) => [l.contractName, l.storage.map((v) => v.label), l.artifact]).sort(), [
      ['Box', ['a', 'b'], 'v1:contracts/out/Box.sol/Box.json'],
      ['Vault', ['v'], 'v1:artifacts/build-info/abc.json'],
    ]);
    const now = await layoutsAtRef(repo, 'HEAD');
    assert.deepEqual(
      now.layouts.find((l) => l.contractName === 'Box')!.storage.map((v) => v.label),
      ['a', 'b', 'c'],
    );
  });

  test('a commit without compiler output: says what to do instead', async () => {
    const err = await failure(layoutsAtRef(repo, 'bare'));
    assert.equal(err.reason, 'no-artifacts');
    assert.match(
      err.message,
      /^bare \([0-9a-f]{10}\) has no compiler output with a storage layout committed \(artifacts\/build-info\/\*\.json or out\/\*\.sol\/\*\.json\): build that version .* and compare with its layout file instead$/,
    );
  });

  test('a ref that names nothing, and one that looks like an option, are refused', async () => {
    assert.equal(
      (await failure(layoutsAtRef(repo, 'no-such-branch'))).message,
      `'no-such-branch' names no commit in ${execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: repo, timeout: 20_000 }).toString().trim()}`,
    );
    const option = await failure(layoutsAtRef(repo, '--output=/tmp/x'));
    assert.equal(option.reason, 'ref');
    assert.equal((await failure(layoutsAtRef(repo, 'a b'))).reason, 'ref');
  });

  test('a folder outside any repository: git says so, in one line', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-nogit-'));
    try {
      const err = await failure(layoutsAtRef(outside, 'HEAD'));
      assert.equal(err.reason, 'git');
      assert.match(err.message, /^git rev-parse failed: fatal: not a git repository/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
