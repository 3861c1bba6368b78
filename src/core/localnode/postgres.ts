/**
 * The local graph-node's Postgres: the system's own binaries (initdb, pg_ctl) on a private data
 * folder, listening on 127.0.0.1 only, with no Unix socket. Postgres refuses to run as root, so
 * as root it runs as the unprivileged `postgres` user (runuser), which must be able to reach the
 * folder. gnd needs a password in its URL; the cluster trusts local TCP, so any one works.
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, chownSync, constants, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { argumentsOf, isAlive, namesFolder } from './lock';

const run = promisify(execFile);

export const PG_USER = 'graph';
export const PG_DATABASE = 'graphnode';

/** Postgres cannot be run: the message says what to install or do. */
export class PostgresError extends Error {}

export const MISSING_POSTGRES =
  'Postgres is not installed (initdb and pg_ctl were found neither on PATH nor in the usual folders). Install it — Debian/Ubuntu: `sudo apt-get install postgresql`; macOS: `brew install postgresql@16` (Homebrew) — or give the URL of a Postgres you run (postgresql://USER:PASSWORD@HOST:PORT/DATABASE).';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** createdb, beside pg_ctl. */
  createdb: string;
}

/** The folders where Postgres installs its binaries off PATH: Debian's versioned folders, Homebrew's. */
export function defaultPostgresDirs(platform: NodeJS.Platform = process.platform): string[] {
  const versioned = (root: string, inner: string) => {
    try {
      return readdirSync(root)
        .filter((v) => /^\d+(\.\d+)?$/.test(v) || /^postgresql@\d+$/.test(v))
        .sort((a, b) => Number(b.replace(/\D+/g, '')) - Number(a.replace(/\D+/g, '')))
        .map((v) => path.join(root, v, inner));
    } catch {
      return [];
    }
  };
  if (platform === 'darwin')
    return [
      '/opt/homebrew/bin',
      '/usr/local/bin',
      ...versioned('/opt/homebrew/opt', 'bin'),
      ...versioned('/usr/local/opt', 'bin'),
      '/Applications/Postgres.app/Contents/Versions/latest/bin',
    ];
  if (platform === 'win32') return versioned('C:\\Program Files\\PostgreSQL', 'bin');
  return versioned('/usr/lib/postgresql', 'bin');
}

/** initdb, pg_ctl and createdb from one folder: PATH first, then the usual folders. */
export function findPostgres(env: NodeJS.ProcessEnv = process.env, extraDirs: readonly string[] = defaultPostgresDirs()): PostgresBinaries | undefined {
  const ext = process.platform === 'win32' ? '.exe' : '';
  const dirs = [...(env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    const [initdb, pgCtl, createdb] = ['initdb', 'pg_ctl', 'createdb'].map((n) => path.join(dir, n + ext));
    if ([initdb, pgCtl, createdb].every((f) => existsSync(f))) return { initdb, pgCtl, createdb };
  }
  return undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The command line of a Postgres program: as the `postgres` user when we are root. */
function asPostgresUser(program: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

/** As root, the `postgres` user must reach `dir`: every folder above it must be traversable by others. */
function checkReachable(dir: string): void {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    try {
      accessSync(at, constants.F_OK);
      if ((statSync(at).mode & 0o001) === 0) {
        throw new PostgresError(
          `Postgres runs as the user postgres (it refuses root), which cannot reach ${dir}: ${at} is not traversable by other users. Choose a data folder under /tmp or /var/lib, or allow it (chmod o+x ${at}).`,
        );
      }
    } catch (err) {
      if (err instanceof PostgresError) throw err;
    }
    if (path.dirname(at) === at) return;
  }
}

export interface RunningPostgres {
  url: string;
  port: number;
  /** The postmaster's pid (from postmaster.pid). */
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The postmaster's pid recorded in the data folder, if it is there. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pid of the postmaster that runs on `dataDir`: the one its postmaster.pid names, alive, and
 * started with that folder as an argument. A pid the system has given to another program since
 * is not it (and is never signalled: pg_ctl stop would signal whatever has the pid).
 */
export function runningPostmaster(dataDir: string): number | undefined {
  const pid = postmasterPid(dataDir);
  return pid !== undefined && isAlive(pid) && namesFolder(argumentsOf(pid), dataDir) ? pid : undefined;
}

function failureText(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (e.stderr?.trim() || e.message || String(err)).split('\n').slice(-4).join(' ');
}

/**
 * Removes postmaster.pid when its postmaster is gone. Postgres itself takes a killed postmaster
 * that its parent has not reaped yet (a zombie, which answers kill(pid, 0)), or a program that
 * got its pid since, for a running one and refuses to start ("lock file postmaster.pid already exists").
 */
export function removeStalePidFile(dataDir: string): void {
  if (postmasterPid(dataDir) !== undefined && runningPostmaster(dataDir) === undefined) rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
}

/** Where initdb makes a new cluster before it is moved into place: a killed initdb leaves only this behind, never a half-made cluster. */
const STAGING_SUFFIX = '.initdb';

/**
 * Creates the cluster in `dataDir` when it has none (made beside it, then moved into place),
 * starts it on 127.0.0.1:`port`, and creates the database when it is missing: a first start
 * killed after initdb left a cluster without it. `log` says what is done, a rebuild too.
 */
export async function startPostgres(bins: PostgresBinaries, dataDir: string, port: number, log: (line: string) => void = () => {}): Promise<RunningPostgres> {
  const root = isRoot();
  if (root) checkReachable(dataDir);
  const staging = dataDir + STAGING_SUFFIX;
  if (existsSync(staging)) {
    log(`removing ${staging}, a Postgres cluster an interrupted start left half-made; it is made again`);
    await rm(staging, { recursive: true, force: true, maxRetries: 5 });
  }
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (existsSync(dataDir) && (await readdir(dataDir)).length > 0)
      throw new PostgresError(`${dataDir} holds files but no Postgres cluster (no PG_VERSION): move them away, or choose another data folder.`);
    await mkdir(staging, { recursive: true, mode: 0o700 });
    if (root) chownSync(staging, Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim()), Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim()));
    await chmod(staging, 0o700);
    log(`initdb ${dataDir}`);
    const [cmd, args] = asPostgresUser(bins.initdb, ['-D', staging, '-U', PG_USER, '--encoding=UTF8', '--locale=C', '-A', 'trust']);
    try {
      await run(cmd, args, { maxBuffer: 8 * 1024 * 1024 });
    } catch (err) {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      throw new PostgresError(`initdb failed: ${failureText(err)}`);
    }
    await rm(dataDir, { recursive: true, force: true }); // an empty folder, if any
    await rename(staging, dataDir);
  }
  removeStalePidFile(dataDir);
  const [cmd, args] = asPostgresUser(bins.pgCtl, [
    '-D',
    dataDir,
    '-l',
    path.join(dataDir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`,
    'start',
  ]);
  try {
    await run(cmd, args);
  } catch (err) {
    let detail = failureText(err);
    try {
      detail += ` — ${readFileSync(path.join(dataDir, 'server.log'), 'utf8').trim().split('\n').slice(-3).join(' ')}`;
    } catch {
      // no log written
    }
    throw new PostgresError(`Postgres did not start on 127.0.0.1:${port}: ${detail}`);
  }
  const running: RunningPostgres = {
    url: `postgresql://${PG_USER}:${PG_USER}@127.0.0.1:${port}/${PG_DATABASE}`,
    port,
    pid: postmasterPid(dataDir) ?? -1,
    dataDir,
    stop: () => stopPostgres(bins, dataDir),
  };
  try {
    await run(bins.createdb, ['-h', '127.0.0.1', '-p', String(port), '-U', PG_USER, '-E', 'UTF8', '-T', 'template0', '--lc-collate=C', '--lc-ctype=C', PG_DATABASE]);
    log(`created the database ${PG_DATABASE}`);
  } catch (err) {
    if (!/already exists/.test(failureText(err))) {
      await running.stop();
      throw new PostgresError(`createdb failed: ${failureText(err)}`);
    }
  }
  return running;
}

/** Stops the cluster of `dataDir` (fast: open sessions are ended); nothing when it is not running. */
export async function stopPostgres(bins: Pick<PostgresBinaries, 'pgCtl'>, dataDir: string): Promise<void> {
  const pid = runningPostmaster(dataDir);
  // Not running, or ended (pg_ctl would wait for a postmaster that is a zombie, or signal a stranger with its pid).
  if (pid === undefined) return;
  const [cmd, args] = asPostgresUser(bins.pgCtl, ['-D', dataDir, '-m', 'fast', '-w', '-t', '20', 'stop']);
  try {
    await run(cmd, args);
  } catch (err) {
    if (isAlive(pid)) throw new PostgresError(`pg_ctl stop failed: ${failureText(err)}`);
  }
}

/** The same stop, synchronous, for the last moment of a process that is exiting. */
export function stopPostgresSync(bins: Pick<PostgresBinaries, 'pgCtl'>, dataDir: string): void {
  if (runningPostmaster(dataDir) === undefined) return;
  const [cmd, args] = asPostgresUser(bins.pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop']);
  spawnSync(cmd, args, { stdio: 'ignore' });
}
