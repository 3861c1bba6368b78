/**
 * The lock in a local graph-node's data folder: who runs the node (the supervising process) and
 * the processes it started, so that the next start with the same folder finds and stops what a
 * killed supervisor left running. It holds pids, roles and start times, never a command line (a
 * command line may hold the RPC URL's key), and only its user can read it.
 *
 * A process is ours only by exact identity: its pid, the start time recorded with it (a pid the
 * system has since given to another program started later), and one of its arguments naming the
 * data folder as a whole path (so a node running from /x/gn1 is never taken for one of /x/gn).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const LOCK_FILE = 'chaindeck-graph-node.lock';

export interface LockedProcess {
  role: 'gnd' | 'postgres';
  pid: number;
  /** When it started (processStart): with the pid, its identity. */
  since?: string;
}

export interface LockRecord {
  /** The process that supervises the node (the CLI, the extension host). */
  owner: number;
  /** When the owner started: a pid the system gave to another program since is no owner. */
  ownerSince?: string;
  started: string;
  processes: LockedProcess[];
  /**
   * The Postgres cluster folder, written before Postgres is started: a supervisor killed while
   * pg_ctl runs never learns the postmaster's pid, so the cleanup finds it by its postmaster.pid.
   */
  postgres?: string;
}

export const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

export function readLock(dataDir: string): LockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockRecord;
    return Number.isInteger(record.owner) && Array.isArray(record.processes) ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the lock, readable by its user only (it names the user's processes). A rewrite goes
 * through a file beside it, renamed over it: a supervisor killed mid-write never leaves a lock
 * that names nothing (the watchdog and the next start would then stop nothing).
 */
export function writeLock(dataDir: string, record: LockRecord, flag: 'w' | 'wx' = 'w'): void {
  const text = `${JSON.stringify(record, null, 2)}\n`;
  if (flag === 'wx') return writeFileSync(lockPath(dataDir), text, { flag, mode: 0o600 });
  const next = `${lockPath(dataDir)}.${process.pid}.next`;
  writeFileSync(next, text, { mode: 0o600 });
  renameSync(next, lockPath(dataDir));
}

export function removeLock(dataDir: string): void {
  rmSync(lockPath(dataDir), { force: true });
}

/** Whether `pid` runs. A zombie does not: Postgres's postmaster, detached by pg_ctl, may stay one when nothing reaps it (a container's init). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): kill(0) is the answer
  }
}

/** A process's arguments (the program first), or [] when it is gone or cannot be read. */
export function argumentsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  } catch {
    // No /proc (macOS): ps joins the arguments with spaces, so a path with a space is not found (and the process not taken for ours).
    const ps = spawnSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim().split(/\s+/) : [];
  }
}

/** When a process started, as the system says it ('' when it is gone): with the pid, its identity. */
export function processStart(pid: number): string {
  try {
    // The fields after the command name (which may hold spaces and parentheses); the start time is field 22.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    const ps = spawnSync('ps', ['-p', String(pid), '-o', 'lstart='], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim() : '';
  }
}

/** Whether one argument is `dir` or a path inside it (a whole path: /x/gn1 is not inside /x/gn). */
export function namesFolder(args: readonly string[], dir: string): boolean {
  const inside = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return args.some((arg) => arg === dir || arg.startsWith(inside));
}

/**
 * Pids of the processes (but this one) that have `arg` as a whole argument, from /proc; [] where
 * there is none (macOS). With the folder's lock held, a gnd on the folder's own manifest is one
 * a killed supervisor started and had no time to write into the lock.
 */
export function processesWithArgument(arg: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg);
    } catch {
      return false;
    }
  });
}

/** What the cleanup may do to the system: the real one, or a test's. */
export interface ProcessControl {
  isAlive(pid: number): boolean;
  argumentsOf(pid: number): string[];
  processStart(pid: number): string;
  /** Stops one leftover process (gnd: SIGINT, then SIGKILL; Postgres: pg_ctl stop) and resolves once it is gone. */
  stop(process: LockedProcess): Promise<void>;
}

/** Whether the locked process still runs, is the one started (same start time) and runs from `dataDir`. */
export function isOurs(p: LockedProcess, dataDir: string, control: Pick<ProcessControl, 'isAlive' | 'argumentsOf' | 'processStart'>): boolean {
  if (!control.isAlive(p.pid)) return false;
  if (p.since !== undefined && control.processStart(p.pid) !== p.since) return false;
  return namesFolder(control.argumentsOf(p.pid), dataDir);
}

/** The data folder is in use by a supervisor that is still running. */
export class DataFolderBusy extends Error {}

/**
 * Before a start: stops whatever a previous supervisor of `dataDir` left running, and removes its
 * lock. A supervisor still alive (another CLI, another window) keeps its node: that is refused.
 */
export async function cleanLeftovers(dataDir: string, control: ProcessControl, self: number = process.pid): Promise<LockedProcess[]> {
  const lock = readLock(dataDir);
  if (!lock) return [];
  const ownerRuns = lock.owner !== self && control.isAlive(lock.owner) && (lock.ownerSince === undefined || control.processStart(lock.owner) === lock.ownerSince);
  // The same owner (same pid, same start) still supervises, even while it is starting its processes;
  // a lock of an earlier version (no start time) counts as running while one of its processes does.
  if (ownerRuns && (lock.ownerSince !== undefined || lock.processes.some((p) => isOurs(p, dataDir, control)))) {
    throw new DataFolderBusy(`A local graph-node already runs from ${dataDir} (supervised by process ${lock.owner}): stop it first, or choose another data folder.`);
  }
  const stopped: LockedProcess[] = [];
  // gnd first: it holds connections to Postgres.
  const order = [...lock.processes].sort((a, b) => (a.role === b.role ? 0 : a.role === 'gnd' ? -1 : 1));
  for (const leftover of order) {
    if (!isOurs(leftover, dataDir, control)) continue;
    await control.stop(leftover);
    stopped.push(leftover);
  }
  removeLock(dataDir);
  return stopped;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the data folder's lock for this process before anything starts: created exclusively
 * (O_EXCL), so of two starts on the same folder exactly one gets it and the other is refused
 * (DataFolderBusy). A lock left by a supervisor that is gone is cleaned up first (what it left
 * running is stopped); returns what was stopped.
 */
export async function acquireLock(dataDir: string, control: ProcessControl, self: number = process.pid): Promise<{ record: LockRecord; stopped: LockedProcess[] }> {
  const record: LockRecord = { owner: self, ownerSince: control.processStart(self), started: new Date().toISOString(), processes: [] };
  const stopped: LockedProcess[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      writeLock(dataDir, record, 'wx');
      return { record, stopped };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // Another start may be writing its lock this instant: an unreadable lock gets a moment before it counts as garbage.
    if (!readLock(dataDir) && attempt < 10) {
      await sleep(50);
      continue;
    }
    if (attempt > 20) throw new DataFolderBusy(`Another start keeps taking the lock of ${dataDir}: stop it first, or choose another data folder.`);
    stopped.push(...(await cleanLeftovers(dataDir, control, self)));
    removeLock(dataDir); // garbage, or the leftovers' lock
  }
}

/** The real system's processes. */
export const SYSTEM_PROCESSES: Pick<ProcessControl, 'isAlive' | 'argumentsOf' | 'processStart'> = { isAlive, argumentsOf, processStart };
