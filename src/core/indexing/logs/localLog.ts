/**
 * The log of a Chaindeck local graph-node, read by another process (`chaindeck graph-node logs`):
 * the node is found from its GraphQL URL (the gnd on this machine serving that port, started on a
 * data folder's placeholder manifest), its output read from the data folder's logs/ (see
 * localnode/gndLogFile.ts), and followed as it grows.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { GND_LOG_DIR, GND_LOG_FILE, GND_LOG_ROTATED } from '../../localnode/gndLogFile';
import { argumentsOf, processesWithArgument } from '../../localnode/lock';
import type { LogEntry } from './entry';
import { GndEntries, IDLE_FLUSH_MS } from './gndEntries';

/** How much of the saved log a read takes at most (both files are bounded; this bounds a stranger's). */
const MAX_READ_BYTES = 40 * 1024 * 1024;
const POLL_MS = 250;
/** A mapping line still waiting for its handler's "Done processing trigger" is told after this long without news. */

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);

/** The placeholder subgraph gnd dev deploys itself (its id is the path of its build's manifest): not the user's. */
export const isPlaceholderDeployment = (id: string) => !id.startsWith('Qm') && /[/\\]dev[/\\]build[/\\]subgraph\.yaml$/.test(id);

/** The data folder of the Chaindeck local node serving `graphqlUrl` on this machine, or undefined when none does. */
export function localNodeDataFolder(graphqlUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(graphqlUrl);
  } catch {
    return undefined;
  }
  if (!LOOPBACK.has(url.hostname) || !url.port) return undefined;
  for (const pid of processesWithArgument(url.port)) {
    const args = argumentsOf(pid);
    const port = args.indexOf('--http-port');
    const manifest = args[args.indexOf('--manifests') + 1];
    if (args[1] !== 'dev' || port < 0 || args[port + 1] !== url.port || !manifest) continue;
    const dataDir = path.dirname(path.dirname(manifest));
    if (existsSync(path.join(dataDir, GND_LOG_DIR, GND_LOG_FILE))) return dataDir;
  }
  return undefined;
}

/**
 * The log file open for reading, or an error saying why not: only a regular file of this user's,
 * never through a symlink (the folder is named by another process's arguments) nor a FIFO (an
 * open that would wait for ever).
 */
function openLog(file: string): number {
  const refused = new Error(`${file} is no log file of this user's: not read.`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw (err as NodeJS.ErrnoException).code === 'ELOOP' ? refused : err;
  }
  const stat = fstatSync(fd);
  if (stat.isFile() && (typeof process.getuid !== 'function' || stat.uid === process.getuid())) return fd;
  closeSync(fd);
  throw refused;
}

/** The bytes of `file` from `offset` on (at most the last `max`), and the offset after them. */
function readFrom(file: string, offset: number, max: number): { bytes: Buffer; end: number } {
  const fd = openLog(file);
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(offset, size - max);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return { bytes: buffer.subarray(0, read), end: start + read };
  } finally {
    closeSync(fd);
  }
}

export interface LocalLogReader {
  /** Stops following. */
  stop(): void;
  /** Resolves once the saved log was read (every entry in it told). */
  read: Promise<void>;
}

/**
 * Tells `onEntry` every entry of the saved log (the rotated file first), then, with `follow`,
 * each new one as gnd writes it, until stopped or `signal` aborts.
 */
export function readLocalLog(dataDir: string, onEntry: (entry: LogEntry) => void, options: { follow?: boolean; signal?: AbortSignal } = {}): LocalLogReader {
  const dir = path.join(dataDir, GND_LOG_DIR);
  const current = path.join(dir, GND_LOG_FILE);
  const reader = new GndEntries(onEntry, isPlaceholderDeployment);
  let partial = '';
  let offset = 0;
  const take = ({ bytes, end }: { bytes: Buffer; end: number }) => {
    offset = end;
    const lines = (partial + bytes.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) reader.line(line);
  };
  const rotated = path.join(dir, GND_LOG_ROTATED);
  const statOf = (file: string) => (existsSync(file) ? statSync(file) : undefined);
  const now = statOf(current)?.size ?? 0;
  /** The file `offset` is in: when gnd.log is another, this one is gnd.log.1 now. */
  let inode = statOf(current)?.ino;
  if (existsSync(rotated)) take(readFrom(rotated, 0, Math.max(0, MAX_READ_BYTES - now)));
  partial = '';
  offset = 0;
  if (now) take(readFrom(current, 0, MAX_READ_BYTES));
  if (!options.follow) {
    reader.flushAll();
    return { stop: () => undefined, read: Promise.resolve() };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let idleSince = Date.now();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  const poll = () => {
    if (stopped) return;
    try {
      const stat = statOf(current);
      if (stat && stat.ino !== inode) {
        // gnd.log became gnd.log.1: what was written to it since the last poll first, then the new one from its start.
        if (inode !== undefined && statOf(rotated)?.ino === inode) take(readFrom(rotated, offset, MAX_READ_BYTES));
        inode = stat.ino;
        offset = 0;
      }
      const size = stat?.size ?? 0;
      // Smaller: cut short in place; read from its start.
      if (size < offset) offset = 0;
      if (size > offset) {
        take(readFrom(current, offset, MAX_READ_BYTES));
        idleSince = Date.now();
      } else if (Date.now() - idleSince > IDLE_FLUSH_MS) {
        reader.flushAll();
        idleSince = Date.now();
      }
    } catch {
      // The file is being rotated: the next poll reads the new one.
    }
    timer = setTimeout(poll, POLL_MS);
  };
  timer = setTimeout(poll, POLL_MS);
  return { stop, read: Promise.resolve() };
}
