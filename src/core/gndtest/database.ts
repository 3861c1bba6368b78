/**
 * The Postgres a test run gives gnd: a private cluster of the system's Postgres (as the local
 * graph-node's, localnode/postgres.ts), on 127.0.0.1 only, in a data folder that is kept between
 * runs when given (a second run only starts it: no initdb) and temporary otherwise. gnd wants a
 * password in its URL; the cluster trusts local TCP, so a random one per start is as good and
 * shows nothing. Like the local graph-node, the folder's lock records what runs and a watchdog
 * stops it when this process dies without stopping it; an exit stops it too.
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { registerSecret } from '../redact';
import { prepareDataFolder } from '../localnode/dataFolder';
import { acquireLock, isAlive, processStart, removeLock, SYSTEM_PROCESSES, writeLock, type LockRecord } from '../localnode/lock';
import { findPostgres, MISSING_POSTGRES, PG_DATABASE, PG_USER, PostgresError, runningPostmaster, startPostgres, stopPostgres, stopPostgresSync } from '../localnode/postgres';
import { startWatchdog } from '../localnode/watchdog';

export interface TestDatabase {
  /** postgresql://USER:PASSWORD@127.0.0.1:PORT/DATABASE: a secret, never shown. */
  readonly url: string;
  /** How long the start took (ms), initdb included on a first run. */
  readonly startMs: number;
  stop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Kept between runs; default: a temporary folder, removed on stop. */
  dataDir?: string;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Progress (initdb, createdb), one line at a time. */
  log?: (line: string) => void;
}

const STOP_GRACE_MS = 5000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the cluster (creating it on the first run); stop() stops it (and removes a temporary folder). */
export async function startTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const started = performance.now();
  const bins = findPostgres(options.env ?? process.env);
  if (!bins) throw new PostgresError(MISSING_POSTGRES);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const { dir, temporary } = await prepareDataFolder(options.dataDir, root);
  const cluster = path.join(dir, 'pg');
  let watchdog: ChildProcess | undefined;
  let lock: LockRecord | undefined;
  const exitGuard = () => stopPostgresSync(bins, cluster);

  const stop = async () => {
    process.off('exit', exitGuard);
    const pid = runningPostmaster(cluster);
    await stopPostgres(bins, cluster).catch(() => {
      if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    watchdog?.kill('SIGKILL');
    watchdog = undefined;
    if (temporary) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    else if (lock) removeLock(dir);
    lock = undefined;
  };

  try {
    const control = {
      ...SYSTEM_PROCESSES,
      stop: async () => {
        await stopPostgres(bins, cluster).catch(() => undefined);
      },
    };
    // A run killed before it stopped its cluster left it running: stopped here first (the lock says so).
    lock = (await acquireLock(dir, control)).record;
    watchdog = startWatchdog(dir, { temporary, graceMs: STOP_GRACE_MS });
    if (runningPostmaster(cluster) !== undefined) await stopPostgres(bins, cluster);
    if (options.signal?.aborted) throw new PostgresError('cancelled');
    process.on('exit', exitGuard);
    lock = { ...lock, postgres: cluster };
    writeLock(dir, lock);
    const port = await freePort();
    const running = await startPostgres(bins, cluster, port, options.log);
    if (running.pid > 0) {
      lock = { ...lock, processes: [{ role: 'postgres', pid: running.pid, since: processStart(running.pid) }] };
      writeLock(dir, lock);
    }
    const password = randomBytes(18).toString('base64url');
    registerSecret(password);
    const url = `postgresql://${PG_USER}:${password}@127.0.0.1:${running.port}/${PG_DATABASE}`;
    return { url, startMs: Math.round(performance.now() - started), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
