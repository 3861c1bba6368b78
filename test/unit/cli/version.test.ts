/**
 * `chaindeck --version` prints the version the build defines as CHAINDECK_VERSION (esbuild's
 * `define`); here the global is set before main is first loaded, as the bundle would have it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('--version: the version built in, on stdout, exit 0', async () => {
  (globalThis as { CHAINDECK_VERSION?: string }).CHAINDECK_VERSION = '9.8.7-test';
  const { runMain } = await import('../../support/cli');
  assert.deepEqual(await runMain(['--version']), { code: 0, out: '9.8.7-test\n', revealed: '', err: '' });
});
