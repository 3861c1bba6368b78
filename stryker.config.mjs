// StrykerJS settings for `npm run mutate` (docs/mutation.md).
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';

// A mutant runs the test files that reach it one after another, in the dry run's order, and stops
// at the first that fails. So the run lists quick, precise files first and the slow ones (which
// spawn the CLI, replay storage, wait on timers or run property tests) last: a killed mutant then
// rarely waits for them. Left out: the doc test (it reads source text the instrumented copy no
// longer matches), the setup-script tests (not src/) and the 40,000-key growth test (~100 s a run).
// Paths are relative to test/unit, whose folders mirror src/.
const LEFT_OUT = /\.doc\.test\.ts$|^scripts\/|^core\/subgraph\/rules\/scale\.test\.ts$/;
const LAST = [
  'core/subgraph/graphcli/graphCli',
  'core/subgraph/rules/corpus',
  'deepInput',
  'cli/rpc',
  'cli/storageRange',
  'core/rpc/client',
  'cli/validateExit',
  'core/subgraph/rules/fuzz',
  'core/subgraph/graphcli/run',
  'core/rpc/ws',
  'core/rpc/http',
  'core/storage/emulate',
  'core/rpc/bounds',
  'core/localnode/supervisor.states',
  'core/localnode/supervisor',
].map((name) => `test/unit/${name}.test.ts`);
const rank = (file) => (LAST.includes(file) ? 1 + LAST.indexOf(file) : 0);
// test/unit mirrors src/ in folders: every test file below it (paths with '/' on every system).
const testFiles = readdirSync(new URL('test/unit', import.meta.url), { recursive: true })
  .map((name) => name.split(sep).join('/'))
  .filter((name) => name.endsWith('.test.ts') && !LEFT_OUT.test(name))
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
