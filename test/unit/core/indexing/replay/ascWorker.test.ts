import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AscWorker } from '../../../../../src/core/indexing/replay/ascWorker';

test('a project without AssemblyScript installed gets one line that says so, and the worker is gone', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-asc-'));
  const worker = new AscWorker(dir);
  try {
    await assert.rejects(worker.compile(['src/mapping.ts']), (err: Error) => {
      assert.match(
        err.message,
        /^The AssemblyScript compiler ended \(status 1\): assemblyscript\/cli\/asc cannot be loaded from the subgraph's folder \(Cannot find module 'assemblyscript\/cli\/asc'/,
      );
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
  } finally {
    worker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
