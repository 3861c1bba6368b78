/**
 * `npm test` stopped by a signal (Ctrl+C, a CI timeout's SIGTERM) still ends with the counts so
 * far and leaves nothing running: the runner is started on a tiny unit layer whose second file
 * hangs, and stopped while it does.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { isAlive } from '../../../src/core/localnode/lock';
import { processesIn } from '../../support/processes';
import { runnerProject } from '../../support/runnerProject';
import { until } from '../../support/until';

const tests = {
  'a.test.ts': "import { test } from 'node:test';\ntest('passes at once', () => {});\n",
  'b.test.ts': [
    "import { writeFileSync } from 'node:fs';",
    "import { test } from 'node:test';",
    "test('hangs until stopped', async () => {",
    '  writeFileSync(`${process.cwd()}/hanging.pid`, String(process.pid));',
    '  await new Promise(() => setInterval(() => {}, 1000));',
    '});',
    '',
  ].join('\n'),
};

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const) {
  test(`stopped by ${signal}, the runner prints the counts so far, stops every process it started and exits ${code}`, async () => {
    const dir = runnerProject(true, tests);
    // Without NODE_TEST_CONTEXT the runner's own `node --test` reports as if run from a shell.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const runner = spawn(process.execPath, ['scripts/test.mjs', 'unit'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    runner.stdout.on('data', (d) => (out += d));
    runner.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => runner.on('close', (c) => resolve(c)));
    try {
      const pidFile = path.join(dir, 'hanging.pid');
      await until('the hanging test to start', () => existsSync(pidFile) || undefined, 60_000);
      const hanging = Number(readFileSync(pidFile, 'utf8'));
      assert.ok(processesIn(dir).length >= 3, 'the runner, node --test and the hanging file run in the project');
      runner.kill(signal);
      const exitCode = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running 30 s after the signal'), 30_000))]);
      assert.equal(exitCode, code, out);
      assert.match(out, new RegExp(`stopped by ${signal} during unit`));
      assert.match(out.trimEnd().split('\n').at(-1) ?? '', /^1 passed, 1 failed$/, 'the closing line counts the finished test and the stopped layer');
      await until('every process of the run to end', () => (processesIn(dir).length === 0 && !isAlive(hanging)) || undefined, 5_000);
    } finally {
      runner.kill('SIGKILL');
      for (const pid of processesIn(dir)) process.kill(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
