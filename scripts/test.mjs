// Runs the test layers: static checks, then the unit, integration, packaging and workbench
// layers, and ends with one summary line `N passed, N failed`, also when it is stopped (Ctrl+C,
// a CI timeout's SIGTERM): then it stops what it started, counts what ran and exits 130/143.
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

/** The children running now, most in a process group of their own: a signal reaches all of them. */
const running = new Set();
let stoppedBy = null;

/**
 * Runs a command, streams its output, returns {code, output}. Its environment has no variables
 * of an outer `npm test` (clean-env.mjs), so a run behaves the same started by npm or by hand.
 * Once the run is stopped, nothing new starts. `ownGroup: false` keeps the child in our group.
 */
function run(cmd, args, env = {}, { ownGroup = true } = {}) {
  if (stoppedBy) return Promise.resolve({ code: 1, output: '' });
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: cleanEnv({ FORCE_COLOR: '0', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownGroup,
    });
    child.ownGroup = ownGroup;
    running.add(child);
    let output = '';
    const tee = (stream) => (d) => {
      output += d;
      stream.write(d);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code, signal) => {
      running.delete(child);
      signalGroup(child, 'SIGKILL'); // what the leader left behind in its group
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

function signalGroup(child, sig) {
  try {
    if (child.ownGroup) process.kill(-child.pid, sig);
    else if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  } catch {
    // the group is gone
  }
}

// Stopped: pass the signal to every group (the integration harness and the workbench runner stop
// their servers and print their counts), give them STOP_GRACE_MS (short: a CI runner that cancels
// kills everything about 10 s after its signal), then kill what is left; the
// layer loop below then prints the counts so far. A second Ctrl+C kills at once.
const STOP_GRACE_MS = 5_000;
function stop(sig) {
  if (stoppedBy) {
    for (const child of running) signalGroup(child, 'SIGKILL');
    return;
  }
  stoppedBy = sig;
  console.error(`\n${sig}: stopping the tests`);
  for (const child of running) signalGroup(child, sig);
  setTimeout(() => {
    for (const child of running) signalGroup(child, 'SIGKILL');
  }, STOP_GRACE_MS).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
const stoppedCode = () => (stoppedBy === 'SIGINT' ? 130 : 143);

/**
 * Reads node:test's spec-reporter totals, or a plain `N passed, N failed` line. A run stopped
 * before its totals counts the ✔ and ✖ lines of the tests finished so far (not of suites).
 */
function counts(output) {
  const total = (re) => [...output.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  const plain = [...output.matchAll(/^\w+: (\d+) passed, (\d+) failed/gm)];
  const found = {
    passed: total(/^ℹ pass (\d+)$/gm) + plain.reduce((n, m) => n + Number(m[1]), 0),
    failed: total(/^ℹ fail (\d+)$/gm) + plain.reduce((n, m) => n + Number(m[2]), 0),
  };
  if (!stoppedBy || found.passed + found.failed > 0) return found;
  const suites = new Set([...output.matchAll(/^(\s*)▶ (.*)$/gm)].map((m) => m[1] + m[2]));
  const finished = (mark) => [...output.matchAll(new RegExp(`^(\\s*)${mark} (.*?)(?: \\([\\d.]+m?s\\))?$`, 'gm'))].filter((m) => !suites.has(m[1] + m[2])).length;
  return { passed: finished('✔'), failed: finished('✖') };
}

const nodeTest = (files) => ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files];

const layers = {
  static: async () => {
    const checks = [
      ['esbuild.js', '--production'],
      ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'],
      ['node_modules/eslint/bin/eslint.js', '--max-warnings=0', '.'],
      // The one style: a file Prettier would change fails here (`npm run format` fixes it).
      ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level=warn', '.'],
    ];
    let ok = 0;
    let bad = 0;
    for (const check of checks) {
      if (stoppedBy) break;
      if ((await run('node', check)).code === 0) ok++;
      else bad++;
    }
    return { code: bad ? 1 : 0, passed: ok, failed: bad };
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
  // On a terminal setup stays in our process group, where sudo can ask for a password and
  // Ctrl+C reaches it directly; elsewhere (CI) it gets its own, which a stop signals whole.
  const setup = await run('bash', ['scripts/setup.sh'], {}, { ownGroup: !process.stdin.isTTY });
  if (setup.code !== 0) {
    console.error(stoppedBy ? `stopped by ${stoppedBy} during setup` : 'setup failed: the tests cannot run without their tools');
    console.log('0 passed, 1 failed');
    process.exit(stoppedBy ? stoppedCode() : 1);
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
  if (stoppedBy) {
    times.push(`stopped by ${stoppedBy} during ${name}${chosen.at(-1) === name ? '' : `; not run: ${chosen.slice(chosen.indexOf(name) + 1).join(', ')}`}`);
    break;
  }
}
console.log(`\n=== summary ===\n${times.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(stoppedBy ? stoppedCode() : failed ? 1 : 0);
