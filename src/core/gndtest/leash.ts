/**
 * A leash on one gnd test process: a tiny detached process that interrupts gnd (SIGINT, then
 * SIGKILL) when the process that started it dies without doing so (SIGKILL, an editor window
 * closed hard). Without it, gnd outlives its parent: when the test database's watchdog stops
 * Postgres under it, gnd waits for its database for ever and ignores SIGINT. The leash ends by
 * itself once gnd does, and is killed by its owner when gnd ends normally.
 *
 * Plain JavaScript run by `node -e` (as the local graph-node's watchdog), so it runs the same
 * from the sources and from the bundle. A pid is signalled only while its start time is the one
 * recorded at spawn: a pid the system has given to another program since is left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { processStart } from '../localnode/lock';

/** How often the leash looks at its owner and at gnd (ms). */
const INTERVAL_MS = 500;

// argv: owner pid, owner start time, gnd pid, gnd start time, interval ms, grace ms.
const LEASH = `
const fs = require('fs'), { spawnSync } = require('child_process');
const [owner, ownerSince, target, targetSince, interval, grace] = process.argv.slice(1).map(String);
const since = (pid) => { try { const s = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); return s.slice(s.lastIndexOf(')') + 2).split(' ')[19] || ''; } catch { const r = spawnSync('ps', ['-p', String(pid), '-o', 'lstart='], { encoding: 'utf8' }); return r.status === 0 ? r.stdout.trim() : ''; } };
const alive = (pid, was) => { try { process.kill(Number(pid), 0); } catch (e) { if (e.code !== 'EPERM') return false; } return was === '' || since(pid) === was; };
const signal = (sig) => { try { process.kill(Number(target), sig); } catch {} };
process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {});
const timer = setInterval(() => {
  if (!alive(target, targetSince)) process.exit(0);
  if (alive(owner, ownerSince)) return;
  clearInterval(timer);
  signal('SIGINT');
  setTimeout(() => { if (alive(target, targetSince)) signal('SIGKILL'); process.exit(0); }, Number(grace));
}, Number(interval));
`;

/** Puts a leash on `child` (a running gnd); returns it, or undefined when it could not be started. */
export function leash(child: ChildProcess, graceMs: number): ChildProcess | undefined {
  if (child.pid === undefined) return undefined;
  try {
    const watcher = spawn(
      process.execPath,
      ['-e', LEASH, String(process.pid), processStart(process.pid), String(child.pid), processStart(child.pid), String(INTERVAL_MS), String(graceMs)],
      // Its own session: a Ctrl+C or a kill of the owner's process group does not reach it.
      { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', ELECTRON_RUN_AS_NODE: '1' } },
    );
    watcher.on('error', () => undefined);
    watcher.unref();
    return watcher;
  } catch {
    return undefined;
  }
}
