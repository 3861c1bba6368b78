// StrykerJS settings for `npm run mutate` (docs/mutation.md).
import { readdirSync } from 'node:fs';
import { basename, sep } from 'node:path';

// A mutant runs the test files that reach it one after another, in the dry run's order, and stops
// at the first that fails. So the run lists quick, precise files first and the slow ones (which
// spawn the CLI, replay storage, wait on timers or run property tests) last: a killed mutant then
// rarely waits for them. Left out: the doc test (it reads source text the instrumented copy no
// longer matches), the setup-script tests (not src/) and the 40,000-key growth test (~100 s a run).
const LEFT_OUT = /\.doc\.test\.ts$|^scripts\.|^subgraph\.scale\.test\.ts$/;
const LAST = [
  'graph.cli',
  'subgraph.corpus',
  'hostile.depth',
  'cli.rpc',
  'cli.storage',
  'rpc.client',
  'validate.exit',
  'subgraph.fuzz',
  'graph.run',
  'rpc.ws',
  'rpc.http',
  'storage.emulation',
  'rpc.bounds',
].map((name) => `test/unit/${name}.test.ts`);
const rank = (file) => (LAST.includes(file) ? 1 + LAST.indexOf(file) : 0);
// test/unit mirrors src/ in folders: every test file below it, left out by its file name.
const testFiles = readdirSync(new URL('test/unit', import.meta.url), { recursive: true })
  .map((name) => name.split(sep).join('/'))
  .filter((name) => name.endsWith('.test.ts') && !LEFT_OUT.test(basename(name)))
  .map((name) => `test/unit/${name}`)
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

export default {
  testRunner: 'tap',
  tap: {
    testFiles: testFiles,
    nodeArgs: ['--require', './scripts/mutate-sandbox.cjs'],
  },
  mutate: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
  coverageAnalysis: 'perTest',
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['json', 'progress'],
  jsonReporter: {
    fileName: 'reports/mutation/mutation.json',
  },
  concurrency: 4,
  timeoutMS: 5000,
  disableTypeChecks: false,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'out', '.vscode-test', 'test-results', '.demo', '.bench', '*.vsix', '*.log'],
  ignoreStatic: true,
  buildCommand: 'node scripts/mutate-sandbox.cjs',
};
