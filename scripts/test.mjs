// Runs the test layers: static checks, then the unit, integration, packaging and workbench
// layers, and ends with one summary line `N passed, N failed`.
//   node scripts/test.mjs [--setup] [layer…]     (no layer: every one)
// Installing is scripts/setup.sh's job, never this file's: with --setup (`npm test`,
// `npm run test:workbench`) it runs first and the layers only if it succeeded; without, the
// layers need node_modules as it is and a missing one is a failure that says what to run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cleanEnv } from './clean-env.mjs';

const root = new URL('..', import.meta.url).pathname;
const all = ['static', 'unit', 'integration', 'package', 'workbench'];
const args = process.argv.slice(2);
const setupFirst = args.includes('--setup');
const named = args.filter((arg) => arg !== '--setup');
const chosen = named.length ? named : all;

function findTests(dir) {
  const abs = join(root, dir);
  return readdirSync(abs, { recursive: true })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relative(root, join(abs, f)))
    .sort();
}

/**
 * Runs a command, streams its output, returns {code, output}. Its environment has no variables
 * of an outer `npm test` (clean-env.mjs), so a run behaves the same started by npm or by hand.
 */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: cleanEnv({ FORCE_COLOR: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const tee = (stream) => (d) => {
      output += d;
      stream.write(d);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** Reads node:test's spec-reporter totals, or a plain `N passed, N failed` line. */
function counts(output) {
  const pass = [...output.matchAll(/^ℹ pass (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  const fail = [...output.matchAll(/^ℹ fail (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  const plain = [...output.matchAll(/^\w+: (\d+) passed, (\d+) failed/gm)];
  return {
    passed: pass + plain.reduce((n, m) => n + Number(m[1]), 0),
    failed: fail + plain.reduce((n, m) => n + Number(m[2]), 0),
  };
}

const nodeTest = (files) => ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files];

const layers = {
  static: async () => {
    const build = await run('node', ['esbuild.js', '--production']);
    const types = await run('node', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']);
    const lint = await run('node', ['node_modules/eslint/bin/eslint.js', '--max-warnings=0', '.']);
    // The one style: a file Prettier would change fails here (`npm run format` fixes it).
    const format = await run('node', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level=warn', '.']);
    const checks = [build, types, lint, format];
    const ok = checks.filter((r) => r.code === 0).length;
    return { code: ok === checks.length ? 0 : 1, passed: ok, failed: checks.length - ok };
  },
  unit: () => run('node', nodeTest(findTests('test/unit'))),
  integration: () => run('node', ['--import', 'tsx', 'test/integration/harness.ts', ...findTests('test/integration')]),
  package: () => run('node', nodeTest(findTests('test/package'))),
  workbench: () => run('node', ['scripts/workbench/run.mjs']),
};

const unknown = chosen.filter((name) => !layers[name]);
if (unknown.length) {
  console.error(`unknown test layer '${unknown[0]}'; layers: ${all.join(', ')}`);
  process.exit(2);
}

if (setupFirst) {
  // A fresh machine has none of the tools: install what is missing (quick when all is there).
  const setup = await run('bash', ['scripts/setup.sh']);
  if (setup.code !== 0) {
    console.error('setup failed: the tests cannot run without their tools');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed)) {
  console.error('node_modules is missing: run `npm ci` first (or `npm test`, which installs what is missing)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installed).mtimeMs) {
  console.error('note: package-lock.json is newer than node_modules; run `npm ci` if a package is missing');
}

let passed = 0;
let failed = 0;
const times = [];
for (const name of chosen) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = await layers[name]();
  const c = result.passed !== undefined ? result : counts(result.output);
  // A layer that exits non-zero without counting a failure still fails the run.
  const layerFailed = c.failed + (result.code !== 0 && c.failed === 0 ? 1 : 0);
  passed += c.passed;
  failed += layerFailed;
  times.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)} s (${c.passed} passed, ${layerFailed} failed)`);
}
console.log(`\n=== summary ===\n${times.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
