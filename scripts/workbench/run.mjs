// The workbench test layer: the extension inside a real VS Code (code-server 4.139.1), offline.
//   (a) extension-host tests: test/workbench/suite/*.test.ts under mocha in the real extension
//       host of code-server's bundled server, driven by headless Chromium;
//   (b) UI tests: test/workbench/ui/*.test.ts (node:test + playwright) against code-server with
//       the packaged .vsix installed.
// Usage: node scripts/workbench/run.mjs   (expects dist/ to be built; prints a last line
// `workbench: N passed, M failed` and exits non-zero on any failure).
// Env: CHAINDECK_WORKBENCH_TIMEOUT_MS (per phase, default 900000: the UI phase clicks through every feature), CHROMIUM_PATH.
// To run a part while working on it: CHAINDECK_WORKBENCH_SUITES and CHAINDECK_WORKBENCH_UI, each
// a comma-separated list of test file base names (`nodes,storage`), or `none` to skip that phase;
// unset runs every file. The extension host reads the first itself (it inherits the environment).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { require as tsRequire } from 'tsx/cjs/api';
import { ensureWorkbench } from './install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT_MS = Number(process.env.CHAINDECK_WORKBENCH_TIMEOUT_MS || 900_000);
const totals = { passed: 0, failed: 0 };
const times = {};

// ---- cleanup: everything started registers how to stop it; run in reverse order, once ----
const cleanups = [];
let stopping = false;
async function cleanup(mark = 0) {
  while (cleanups.length > mark) {
    try {
      await cleanups.pop()();
    } catch (err) {
      console.error(`[workbench] cleanup: ${err.message}`);
    }
  }
}
// Interrupted or crashed: still stop everything, and still print the summary line.
async function abort(reason, exitCode) {
  if (stopping) return;
  stopping = true;
  console.error(`[workbench] ${reason}: stopping everything`);
  await cleanup();
  console.log(`workbench: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`);
  process.exit(exitCode);
}
process.on('SIGINT', () => abort('SIGINT', 130));
process.on('SIGTERM', () => abort('SIGTERM', 143));
process.on('uncaughtException', (err) => abort(`uncaught ${err.stack ?? err}`, 1));
process.on('unhandledRejection', (err) => abort(`unhandled rejection ${err?.stack ?? err}`, 1));

const log = (msg) => console.log(`[workbench] ${msg}`);
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns a process in its own process group (so servers' children die with it), keeps its
 * output (echoed if `echo`), and registers a cleanup that kills the whole group.
 */
function start(name, cmd, args, { echo = false, ...opts } = {}) {
  const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { name, child, output: '', exited: false, code: null };
  let partial = '';
  const keep = (d) => {
    proc.output = (proc.output + d).slice(-200_000);
    if (!echo) return;
    // Indented, so a caller that scans for summaries (e.g. `ℹ pass N`) sees only ours.
    const lines = (partial + d).split('\n');
    partial = lines.pop();
    for (const line of lines) console.log(`  | ${line}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  proc.done = new Promise((resolve) => {
    child.on('error', (err) => {
      keep(`${err.message}\n`);
      proc.exited = true;
      resolve(-1);
    });
    child.on('exit', (code, signal) => {
      proc.exited = true;
      proc.code = code ?? signal;
      resolve(proc.code);
    });
  });
  proc.stop = async () => {
    const group = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    };
    if (!child.pid) return;
    group('SIGTERM');
    await Promise.race([proc.done, sleep(5000)]);
    group('SIGKILL'); // leftovers in the group, or a leader that ignored SIGTERM
  };
  cleanups.push(proc.stop);
  return proc;
}

/** Runs a process to completion (within timeoutMs); returns {code, output}. */
async function run(name, cmd, args, { timeoutMs = TIMEOUT_MS, ...opts } = {}) {
  const proc = start(name, cmd, args, opts);
  const timer = setTimeout(() => {
    proc.output += `\n[workbench] ${name} timed out after ${timeoutMs / 1000} s\n`;
    proc.stop();
  }, timeoutMs);
  const code = await proc.done;
  clearTimeout(timer);
  const i = cleanups.indexOf(proc.stop);
  if (i >= 0) cleanups.splice(i, 1);
  return { code, output: proc.output };
}

async function waitForHttp(url, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exited) throw new Error(`${proc.name} exited (${proc.code}) before answering:\n${proc.output}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${proc.output}`);
      await sleep(250);
    }
  }
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

/** HOME and XDG folders inside `dir`: code-server writes there despite --user-data-dir. */
function isolatedEnv(dir, node24) {
  const env = { ...process.env, PATH: `${path.dirname(node24)}:${process.env.PATH}` };
  for (const [k, sub] of [
    ['HOME', 'home'],
    ['XDG_CONFIG_HOME', 'config'],
    ['XDG_DATA_HOME', 'data'],
    ['XDG_CACHE_HOME', 'cache'],
  ]) {
    env[k] = path.join(dir, sub);
    fs.mkdirSync(env[k], { recursive: true });
  }
  return env;
}

// ---- preparation ---------------------------------------------------------------------------

async function packageVsix(out) {
  const res = await run('vsce', process.execPath, [path.join(root, 'scripts', 'package.mjs'), out], { cwd: root, timeoutMs: 300_000 });
  if (res.code !== 0 || !fs.existsSync(out)) throw new Error(`packaging the .vsix failed:\n${res.output}`);
}

// ---- (a) extension-host tests ---------------------------------------------------------------

// The browser console without the workbench's chattiest offline noise.
const workbenchLog = (lines) => lines.filter((l) => !/^\[(AgentHost|ChatModelSelection)\]/.test(l)).join('\n');

async function extensionHostTests(wb, testEnv, ws, tmp, ui) {
  const dir = path.join(tmp, 'ext-host');
  const env = { ...isolatedEnv(dir, wb.node24), ...testEnv };
  const { freePort } = devnets();
  const port = await freePort();
  const d = (sub) => path.join(dir, sub);
  // The extension host is a child of this server and inherits its environment (testEnv).
  const server = start(
    'server-main',
    wb.node24,
    [
      wb.serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      '--enable-smoke-test-driver',
      '--disable-workspace-trust',
      '--disable-telemetry',
      '--server-data-dir',
      d('server-data'),
      '--user-data-dir',
      d('user-data'),
      '--extensions-dir',
      d('extensions'),
    ],
    { env, cwd: dir },
  );
  await waitForHttp(`http://127.0.0.1:${port}/`, server);

  const browser = await ui.launchBrowser(true);
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  const consoleLines = [];
  page.on('console', (msg) => {
    // Log lines arrive styled ("%c INFO color: #33f …"); strip that. Show the suite's lines now
    // and the rest (much offline noise) only if the run fails.
    const text = msg.text().replace(/^%c\s*[A-Z]*\s*color: #\w+ /, '');
    consoleLines.push(text);
    if (/^\[suite\] |^CHAINDECK_MOCHA /.test(text)) console.log(text.replace(/^\[suite\] /, '').replace(/^/gm, '  | '));
  });
  let exited;
  const exitCode = new Promise((resolve) => (exited = resolve));
  await page.exposeFunction('codeAutomationExit', (code) => exited(code));
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://remote${root}`],
    ['extensionTestsPath', `vscode-remote://remote${path.join(root, 'out', 'test', 'workbench', 'suite', 'index.js')}`],
  ];
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url);
  let code;
  try {
    code = await withTimeout(exitCode, TIMEOUT_MS, `extension-host tests did not finish within ${TIMEOUT_MS / 1000} s (no codeAutomationExit)`);
  } catch (err) {
    console.log(`[workbench] browser console:\n${workbenchLog(consoleLines)}\n[workbench] server output:\n${server.output}`);
    throw err;
  }
  const line = consoleLines.map((l) => /CHAINDECK_MOCHA (\{.*?\})/.exec(l)).find(Boolean);
  const counts = line ? JSON.parse(line[1]) : { passed: 0, failed: 0 };
  if (code !== 0 || !line) {
    // Failing tests were shown above; without counts the suite never ran: show everything.
    console.log(`[workbench] extension-host run exited with ${code}${line ? '' : ' without reporting counts'}`);
    if (!line) console.log(`[workbench] browser console:\n${workbenchLog(consoleLines)}`);
    counts.failed = Math.max(counts.failed, 1);
  }
  return counts;
}

// ---- (b) UI tests ----------------------------------------------------------------------------

async function uiTests(wb, testEnv, ws, vsix, tmp) {
  const dir = path.join(tmp, 'ui');
  const env = isolatedEnv(dir, wb.node24);
  const ud = path.join(dir, 'user-data');
  const ext = path.join(dir, 'extensions');
  const inst = await run('install-extension', wb.node24, [wb.codeServerBin, '--install-extension', vsix, '--extensions-dir', ext, '--user-data-dir', ud], {
    env,
    cwd: dir,
    timeoutMs: 60_000,
  });
  if (inst.code !== 0 || !fs.existsSync(ext) || !fs.readdirSync(ext).some((f) => f.startsWith('chaindeck.chaindeck-'))) {
    throw new Error(`installing the .vsix into code-server failed (${inst.code}):\n${inst.output}`);
  }
  const { freePort } = devnets();
  const port = await freePort();
  const server = start(
    'code-server',
    wb.node24,
    [
      wb.codeServerBin,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      ud,
      '--extensions-dir',
      ext,
      ws,
    ],
    { env, cwd: dir },
  );
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);

  const uiDir = path.join(root, 'test', 'workbench', 'ui');
  const files = selectTests(fs.readdirSync(uiDir), process.env.CHAINDECK_WORKBENCH_UI).map((f) => path.join(uiDir, f));
  if (!files.length) throw new Error(`no UI tests in ${uiDir} match CHAINDECK_WORKBENCH_UI=${process.env.CHAINDECK_WORKBENCH_UI ?? ''}`);
  const res = await run('node --test', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    cwd: root,
    echo: true,
    env: { ...process.env, ...testEnv, CHAINDECK_TEST_WORKBENCH_URL: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}` },
  });
  const count = (label) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(res.output)?.[1] ?? NaN);
  const counts = { passed: count('pass'), failed: count('fail') };
  if (Number.isNaN(counts.passed) || Number.isNaN(counts.failed)) {
    console.log(`[workbench] UI tests printed no summary; code-server output:\n${server.output}`);
    return { passed: counts.passed || 0, failed: Math.max(counts.failed || 0, 1) };
  }
  if (res.code !== 0) counts.failed = Math.max(counts.failed, 1);
  return counts;
}

// ---- main --------------------------------------------------------------------------------------

// The test helpers are TypeScript, loaded as CommonJS (they use __dirname) through tsx.
const devnets = () => tsRequire('../../test/support/devnets.ts', import.meta.url);

/** The test files of a phase a filter variable lets through (all when it is unset), sorted. */
function selectTests(files, filter) {
  const all = files.filter((f) => f.endsWith('.test.ts') || f.endsWith('.test.js')).sort();
  if (!filter?.trim()) return all;
  const wanted = new Set(
    filter
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );
  return all.filter((f) => wanted.has(path.basename(f).replace(/\.test\.[jt]s$/, '')));
}
const skipped = (filter) => filter?.trim() === 'none';

/** Runs one phase and stops what it started; a phase that cannot start counts as one failure. */
async function phase(name, fn) {
  const t0 = Date.now();
  const mark = cleanups.length;
  log(`${name}…`);
  try {
    const counts = await fn();
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    log(`${name}: ${counts.passed} passed, ${counts.failed} failed (${secs(t0)})`);
  } catch (err) {
    totals.failed += 1;
    console.error(`[workbench] ${name} FAILED: ${err.stack ?? err}`);
  } finally {
    await cleanup(mark);
    times[name] = secs(t0);
  }
}

async function main() {
  const t0 = Date.now();
  let t = Date.now();
  const wb = await ensureWorkbench();
  times.install = secs(t);

  t = Date.now();
  const build = await run('esbuild --tests', process.execPath, ['esbuild.js', '--tests'], { cwd: root, timeoutMs: 120_000 });
  if (build.code !== 0) throw new Error(`node esbuild.js --tests failed:\n${build.output}`);
  times['compile tests'] = secs(t);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-workbench-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true }));

  t = Date.now();
  const vsix = path.join(tmp, 'chaindeck.vsix');
  if (!skipped(process.env.CHAINDECK_WORKBENCH_UI)) await packageVsix(vsix);
  times.package = secs(t);

  const anvil = await devnets().startDevnet('anvil');
  cleanups.push(() => anvil.stop());
  const { writeWorkspace, KEYED_NODE } = tsRequire('../../test/workbench/fixture.ts', import.meta.url);
  // The node whose key settings.json holds in the clear answers through the key-in-path proxy.
  const keyed = await tsRequire('../../test/support/proxy.ts', import.meta.url).startProxy({ target: anvil.url, key: KEYED_NODE.secret });
  cleanups.push(() => keyed.close());
  const ws = writeWorkspace(path.join(tmp, 'workspace'), anvil.url, keyed.url);
  // The suites' own local graph-nodes take gnd from this user's cache: the extension host's HOME is a fresh one.
  const gndCache = tsRequire('../../src/cli/graphNode.ts', import.meta.url).userCacheDir(process.env);
  const testEnv = { CHAINDECK_TEST_ANVIL_URL: anvil.url, CHAINDECK_TEST_WORKSPACE: ws, CHAINDECK_TEST_KEYED_URL: keyed.url, CHAINDECK_TEST_GND_CACHE: gndCache };
  log(`anvil at ${anvil.url}, workspace ${ws}`);

  const ui = tsRequire('../../test/workbench/ui/workbench.ts', import.meta.url);
  if (!skipped(process.env.CHAINDECK_WORKBENCH_SUITES)) await phase('extension-host tests', () => extensionHostTests(wb, testEnv, ws, tmp, ui));
  if (!skipped(process.env.CHAINDECK_WORKBENCH_UI)) await phase('UI tests', () => uiTests(wb, testEnv, ws, vsix, tmp));
  log(
    `times: ${Object.entries(times)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; total ${secs(t0)}`,
  );
}

main()
  .catch((err) => {
    totals.failed = Math.max(totals.failed, 1);
    console.error(`[workbench] FAILED: ${err.stack ?? err}`);
  })
  .finally(async () => {
    if (stopping) return;
    await cleanup();
    console.log(`workbench: ${totals.passed} passed, ${totals.failed} failed`);
    process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
  });
