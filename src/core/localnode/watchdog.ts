/**
 * A watchdog beside a running local graph-node: a tiny detached process that outlives the
 * supervisor only to clean up after it. A supervisor killed without notice (SIGKILL, an editor
 * window closed hard, an extension host torn down before `deactivate` ends) cannot stop what it
 * started; Postgres in particular runs detached and would stay. Once the supervisor is gone, the
 * watchdog stops what the data folder's lock says is still running (a Postgres whose start had
 * begun is found by its postmaster.pid): SIGINT (gnd exits on it only,
 * and it is Postgres's fast shutdown), then SIGKILL; then it removes the lock (and a temporary
 * data folder). A supervisor that stops normally kills its watchdog first.
 *
 * Plain JavaScript run by `node -e`, so it needs no file of its own in the package and runs the
 * same from the sources and from the bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LOCK_FILE, processStart } from './lock';
import { placeholderManifest } from './placeholder';

/** How often the watchdog looks for its supervisor (ms). */
export const WATCH_INTERVAL_MS = 500;

/** How long the watchdog waits for a Postgres whose start the supervisor began (pg_ctl may still be starting it). */
export const POSTGRES_WAIT_MS = 10_000;

// argv: owner pid, owner start time, data folder, lock file name, "temporary" or "", interval ms, grace ms, Postgres wait ms, gnd's manifest.
// A process is ours by the identity lock.ts checks: alive, the start time recorded, an argument naming the folder as a whole path.
const WATCHDOG = `
const fs = require('fs'), path = require('path'), { spawnSync } = require('child_process');
const [owner, ownerSince, dataDir, lockName, temporary, interval, grace, pgWait, manifestArg] = process.argv.slice(1);
const manifest = manifestArg.slice('manifest='.length);
const alive = (pid) => {
  if (!(pid > 0)) return false;
  try { process.kill(pid, 0); } catch (e) { if (e.code !== 'EPERM') return false; }
  try { return !/^\\d+ \\(.*\\) Z/s.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8')); } catch { return true; }
};
const ps = (pid, field) => { const r = spawnSync('ps', ['-p', String(pid), '-o', field + '='], { encoding: 'utf8' }); return r.status === 0 ? r.stdout.trim() : ''; };
const args = (pid) => { try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').slice(0, -1); } catch { return ps(pid, 'command').split(/\\s+/); } };
const since = (pid) => { try { const s = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); return s.slice(s.lastIndexOf(')') + 2).split(' ')[19] || ''; } catch { return ps(pid, 'lstart'); } };
const names = (list, dir) => list.some((a) => a === dir || a.startsWith(dir + path.sep));
const ours = (p, dir) => alive(p.pid) && (p.since === undefined || since(p.pid) === p.since) && names(args(p.pid), dir);
const postmaster = (cluster) => {
  try { const pid = Number(fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\\n')[0]); return ours({ pid }, cluster) ? pid : undefined; } catch { return undefined; }
};
const signal = (pid, sig) => { try { process.kill(pid, sig); } catch {} };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function cleanUp() {
  let lock;
  try { lock = JSON.parse(fs.readFileSync(path.join(dataDir, lockName), 'utf8')); } catch { lock = undefined; }
  if (lock && Number(lock.owner) === Number(owner)) {
    const processes = (lock.processes || []).filter((p) => ours(p, dataDir));
    // A gnd on the folder's manifest that the supervisor, killed just after spawning it, never wrote into the lock.
    let all = [];
    try { all = fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).map(Number); } catch {}
    for (const pid of all) if (pid !== process.pid && !processes.some((p) => p.pid === pid) && args(pid).includes(manifest)) processes.push({ role: 'gnd', pid });
    // A Postgres being started when the supervisor died: found by its postmaster.pid, once pg_ctl has written it.
    if (lock.postgres && !processes.some((p) => p.role === 'postgres')) {
      for (const deadline = Date.now() + Number(pgWait); ; await sleep(100)) {
        const pid = postmaster(lock.postgres);
        if (pid) { processes.push({ role: 'postgres', pid }); break; }
        if (Date.now() > deadline) break;
      }
    }
    // Postgres last: the indexer holds connections to it.
    processes.sort((a, b) => (a.role === 'postgres' ? 1 : 0) - (b.role === 'postgres' ? 1 : 0));
    for (const p of processes) {
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
const ownerGone = () => !alive(Number(owner)) || (ownerSince !== '' && since(Number(owner)) !== ownerSince);
const timer = setInterval(() => { if (ownerGone()) { clearInterval(timer); cleanUp(); } }, Number(interval));
`;

/** Starts the watchdog of the node whose data is in `dataDir`, supervised by this process. */
export function startWatchdog(dataDir: string, options: { temporary: boolean; graceMs: number; intervalMs?: number; postgresWaitMs?: number }): ChildProcess | undefined {
  try {
    const child = spawn(
      process.execPath,
      [
        '-e',
        WATCHDOG,
        String(process.pid),
        processStart(process.pid),
        dataDir,
        LOCK_FILE,
        options.temporary ? 'temporary' : '',
        String(options.intervalMs ?? WATCH_INTERVAL_MS),
        String(options.graceMs),
        String(options.postgresWaitMs ?? POSTGRES_WAIT_MS),
        // Not the path as a whole argument: the watchdog is no gnd.
        `manifest=${placeholderManifest(dataDir)}`,
      ],
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
