/**
 * A watchdog beside a running local graph-node: a tiny detached process that outlives the
 * supervisor only to clean up after it. A supervisor killed without notice (SIGKILL, an editor
 * window closed hard, an extension host torn down before `deactivate` ends) cannot stop what it
 * started; Postgres in particular runs detached and would stay. Once the supervisor is gone, the
 * watchdog does what the data folder's lock says is still running: SIGINT (gnd exits on it only,
 * and it is Postgres's fast shutdown), then SIGKILL; then it removes the lock (and a temporary
 * data folder). A supervisor that stops normally kills its watchdog first.
 *
 * Plain JavaScript run by `node -e`, so it needs no file of its own in the package and runs the
 * same from the sources and from the bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LOCK_FILE } from './lock';

/** How often the watchdog looks for its supervisor (ms). */
export const WATCH_INTERVAL_MS = 500;

// argv: owner pid, data folder, lock file name, "temporary" or "", interval ms, grace ms.
const WATCHDOG = `
const fs = require('fs'), path = require('path');
const [owner, dataDir, lockName, temporary, interval, grace] = process.argv.slice(1);
const alive = (pid) => {
  try { process.kill(pid, 0); } catch (e) { if (e.code !== 'EPERM') return false; }
  try { return !/^\\d+ \\(.*\\) Z/s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8')); } catch { return true; }
};
const ours = (pid) => { try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(dataDir); } catch { return alive(pid); } };
const signal = (pid, sig) => { try { process.kill(pid, sig); } catch {} };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function cleanUp() {
  let lock;
  try { lock = JSON.parse(fs.readFileSync(path.join(dataDir, lockName), 'utf8')); } catch { lock = undefined; }
  if (lock && Number(lock.owner) === Number(owner)) {
    // Postgres last: the indexer holds connections to it.
    const order = (lock.processes || []).slice().sort((a, b) => (a.role === 'postgres' ? 1 : 0) - (b.role === 'postgres' ? 1 : 0));
    for (const p of order) {
      if (!alive(p.pid) || !ours(p.pid)) continue;
      signal(p.pid, 'SIGINT');
      const deadline = Date.now() + Number(grace);
      while (alive(p.pid) && Date.now() < deadline) await sleep(50);
      if (alive(p.pid)) signal(p.pid, 'SIGKILL');
    }
    try { fs.rmSync(path.join(dataDir, lockName), { force: true }); } catch {}
  }
  if (temporary) { try { fs.rmSync(dataDir, { recursive: true, force: true }); } catch {} }
  process.exit(0);
}
process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {});
const timer = setInterval(() => { if (!alive(Number(owner))) { clearInterval(timer); cleanUp(); } }, Number(interval));
`;

/** Starts the watchdog of the node whose data is in `dataDir`, supervised by this process. */
export function startWatchdog(dataDir: string, options: { temporary: boolean; graceMs: number; intervalMs?: number }): ChildProcess | undefined {
  try {
    const child = spawn(
      process.execPath,
      ['-e', WATCHDOG, String(process.pid), dataDir, LOCK_FILE, options.temporary ? 'temporary' : '', String(options.intervalMs ?? WATCH_INTERVAL_MS), String(options.graceMs)],
      // Its own session: a Ctrl+C or a kill of the supervisor's process group does not reach it.
      { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' } },
    );
    child.on('error', () => undefined);
    child.unref();
    return child;
  } catch {
    return undefined; // without a watchdog, the next start's cleanup still finds the leftovers
  }
}
