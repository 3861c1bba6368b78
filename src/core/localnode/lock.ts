/**
 * The lock in a local graph-node's data folder: who runs the node (the supervising process) and
 * the processes it started, so that the next start with the same folder finds and stops what a
 * killed supervisor left running. A process is only stopped when its command line still names
 * the data folder, so a pid the system has since given to another program is left alone.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const LOCK_FILE = 'chaindeck-graph-node.lock';

export interface LockedProcess {
  role: 'gnd' | 'postgres';
  pid: number;
}

export interface LockRecord {
  /** The process that supervises the node (the CLI, the extension host). */
  owner: number;
  /** The owner's command line when it took the lock: a pid the system gave to another program since is no owner. */
  ownerCommand?: string;
  started: string;
  processes: LockedProcess[];
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

export function writeLock(dataDir: string, record: LockRecord, flag: 'w' | 'wx' = 'w'): void {
  writeFileSync(lockPath(dataDir), `${JSON.stringify(record, null, 2)}\n`, { flag });
}

export function removeLock(dataDir: string): void {
  rmSync(lockPath(dataDir), { force: true });
}

/** Whether `pid` runs. A zombie does not: Postgres's postmaster, detached by pg_ctl, may stay one when nothing reaps it (a container's init). */
export function isAlive(pid: number): boolean {
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

/** A process's command line, or '' when it is gone or cannot be read. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    const ps = spawnSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout.trim() : '';
  }
}

/** What the cleanup may do to the system: the real one, or a test's. */
export interface ProcessControl {
  isAlive(pid: number): boolean;
  commandLineOf(pid: number): string;
  /** Stops one leftover process (gnd: SIGINT, then SIGKILL; Postgres: pg_ctl stop) and resolves once it is gone. */
  stop(process: LockedProcess): Promise<void>;
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
  // Running: its processes run from the folder, or it is still starting them (its owner, the same program, is alive).
  const running =
    lock.processes.some((p) => control.isAlive(p.pid) && control.commandLineOf(p.pid).includes(dataDir)) ||
    (lock.ownerCommand !== undefined && control.commandLineOf(lock.owner) === lock.ownerCommand);
  if (lock.owner !== self && control.isAlive(lock.owner) && running) {
    throw new DataFolderBusy(`A local graph-node already runs from ${dataDir} (supervised by process ${lock.owner}): stop it first, or choose another data folder.`);
  }
  const stopped: LockedProcess[] = [];
  // gnd first: it holds connections to Postgres.
  const order = [...lock.processes].sort((a, b) => (a.role === b.role ? 0 : a.role === 'gnd' ? -1 : 1));
  for (const leftover of order) {
    if (!control.isAlive(leftover.pid) || !control.commandLineOf(leftover.pid).includes(dataDir)) continue;
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
  const record: LockRecord = { owner: self, ownerCommand: control.commandLineOf(self), started: new Date().toISOString(), processes: [] };
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
