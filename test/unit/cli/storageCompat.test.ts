/**
 * `chaindeck storage-compat` in-process on compiled V1/V2 pairs (test/fixtures/solidity/
 * UpgradeCompat.sol as one solc output file): the exit status (0 fine, 1 an error finding, 2
 * usage), the text lines and summary, the JSON array, FILE:CONTRACT (PATH:NAME too), and the
 * usage errors before anything is read. The node check is in test/integration/storage.compat.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { splitLayoutSpec } from '../../../src/cli/storageCompat';
import { runMain } from '../../support/cli';
import { compileFixture } from '../../support/solidity';

let dir: string;
let out: string;

before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-compat-'));
  out = path.join(dir, 'solc-output.json');
  writeFileSync(out, JSON.stringify(compileFixture('UpgradeCompat.sol').output));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('storage-compat on the command line', () => {
  test('an append: exit 0, no finding line, a summary naming what was added', async () => {
    const run = await runMain(['storage-compat', '--from', `${out}:BoxV1`, '--to', `${out}:BoxV2Appended`]);
    assert.deepEqual(run, { code: 0, out: '0 errors, 0 warnings: BoxV1 → BoxV2Appended keeps the storage layout; 1 added (fee)\n', revealed: '', err: '' });
  });

  test('an insert: exit 1, one line per finding, then the summary', async () => {
    const run = await runMain(['storage-compat', '--from', `${out}:BoxV1`, '--to', `${out}:contracts/UpgradeCompat.sol:BoxV2Inserted`]);
    assert.equal(run.code, 1, run.err);
    assert.equal(run.out, 'error: inserted fee: nothing → uint256 fee at slot 1\n1 error, 0 warnings: BoxV1 → BoxV2Inserted does not keep the storage layout\n');
  });

  test('json: the array of {kind, path, before, after, severity}; [] when fine', async () => {
    const run = await runMain(['storage-compat', '--from', `${out}:GapV1`, '--to', `${out}:GapV2Bad`, '--format', 'json']);
    assert.equal(run.code, 1);
    assert.deepEqual(JSON.parse(run.out), [{ kind: 'gap-resized', path: '__gap', before: 'uint256[50] __gap at slot 1', after: 'uint256[48] __gap at slot 2', severity: 'error' }]);
    const fine = await runMain(['storage-compat', '--from', `${out}:GapV1`, '--to', `${out}:GapV2Good`, '--format', 'json']);
    assert.deepEqual([fine.code, JSON.parse(fine.out)], [0, []]);
  });

  test('usage errors: exit 2, nothing on stdout', async () => {
    for (const [argv, says] of [
      [['--to', out], '--from is required'],
      [['--from', out], '--to is required'],
      [['--from', `${out}:BoxV1`, '--to', `${out}:NoSuch`], `--to: NoSuch is not in ${out}; it holds: `],
      [['--from', out, '--to', `${out}:BoxV1`], `--from: ${out} holds `],
      [['--from', `${out}:BoxV1`, '--to', `${out}:BoxV1`, '--address', '0x5FbDB2315678afecb367f032d93F642f64180aa3'], '--rpc and --address go together'],
      [['--from', `${out}:BoxV1`, '--to', `${out}:BoxV1`, '--rpc', 'http://127.0.0.1:1'], '--rpc and --address go together'],
      [['--from', `${out}:BoxV1`, '--to', `${out}:BoxV1`, '--format', 'table'], "--format is text or json, not 'table'"],
    ] as const) {
      const run = await runMain(['storage-compat', ...argv]);
      assert.equal(run.code, 2, `${argv.join(' ')}: ${run.err}`);
      assert.equal(run.out, '');
      assert.ok(run.err.startsWith(`chaindeck storage-compat: ${says}`), run.err);
    }
  });

  test('a FILE that does not exist fails (exit 1) in one line', async () => {
    const missing = path.join(dir, 'absent.json');
    const run = await runMain(['storage-compat', '--from', `${missing}:BoxV1`, '--to', out]);
    assert.deepEqual(run, { code: 1, out: '', revealed: '', err: `chaindeck storage-compat: ${missing}:BoxV1 does not exist\n` });
  });

  test('FILE[:CONTRACT]: the first part before a colon that is a file; CONTRACT may be PATH:NAME', () => {
    const files = new Set(['a.json', 'C:\\x\\b.json', 'odd:name.json']);
    const isFile = (f: string) => files.has(f);
    assert.deepEqual(splitLayoutSpec('a.json', isFile), { file: 'a.json' });
    assert.deepEqual(splitLayoutSpec('a.json:Box', isFile), { file: 'a.json', contract: 'Box' });
    assert.deepEqual(splitLayoutSpec('a.json:contracts/Box.sol:Box', isFile), { file: 'a.json', contract: 'contracts/Box.sol:Box' });
    assert.deepEqual(splitLayoutSpec('C:\\x\\b.json:Box', isFile), { file: 'C:\\x\\b.json', contract: 'Box' });
    assert.deepEqual(splitLayoutSpec('odd:name.json:Box', isFile), { file: 'odd:name.json', contract: 'Box' });
    assert.deepEqual(splitLayoutSpec('none.json:Box', isFile), { file: 'none.json:Box' });
  });
});
