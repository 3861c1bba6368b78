/**
 * Reading a text file whose path the user controls (a manifest, a schema, an ABI, a mapping, a
 * request file, a compiler artifact): the one place for the rules, used by the CLI and the
 * editor alike. Only regular files are read (a FIFO or a device such as /dev/zero, directly or
 * through a symlink, is refused without blocking), never more than a cap per kind of file, and
 * each way of failing has its own message naming the file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Caps per kind of file, far above any real one: the largest manifests seen are ~200 KB, schemas
 * ~100 KB, ABIs ~1 MB (a Hardhat build-info with every source can reach tens of MB).
 */
export const FILE_CAPS = {
  manifest: 8 * 1024 * 1024,
  schema: 8 * 1024 * 1024,
  abi: 32 * 1024 * 1024,
  mapping: 8 * 1024 * 1024,
  /** A compiled mapping (graph build writes ~30 KB to a few MB). */
  wasm: 64 * 1024 * 1024,
  request: 8 * 1024 * 1024,
  artifact: 256 * 1024 * 1024,
  /** Anything else read as text (package.json, query files). */
  text: 8 * 1024 * 1024,
} as const;

export type FileKind = keyof typeof FILE_CAPS;

export type FileProblemKind = 'missing' | 'directory' | 'not-regular' | 'too-large' | 'permission' | 'unreadable';

/** A file that could not be read, and why, in a message naming it. */
export class FileReadError extends Error {
  constructor(
    readonly kind: FileProblemKind,
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'FileReadError';
  }
}

/** 8 MiB, 256 MiB, 1.5 KiB: caps are written the way they are chosen. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

interface StatLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO?(): boolean;
  isCharacterDevice?(): boolean;
  isBlockDevice?(): boolean;
  isSocket?(): boolean;
  size: number;
}

/** What is wrong with a file given its stat (after symlinks), or undefined when it may be read. */
export function statProblem(file: string, stat: StatLike, cap: number): FileReadError | undefined {
  if (stat.isDirectory()) return new FileReadError('directory', file, `${file} is a folder, not a file`);
  if (!stat.isFile()) {
    const what = stat.isFIFO?.() ? 'a named pipe (FIFO)' : stat.isCharacterDevice?.() || stat.isBlockDevice?.() ? 'a device' : stat.isSocket?.() ? 'a socket' : 'not a regular file';
    return new FileReadError('not-regular', file, `${file} is ${what}: only regular files are read`);
  }
  if (stat.size > cap) return tooLarge(file, cap, stat.size);
  return undefined;
}

function tooLarge(file: string, cap: number, size?: number): FileReadError {
  return new FileReadError('too-large', file, `${file} is larger than the ${formatBytes(cap)} cap for this kind of file${size === undefined ? '' : ` (${formatBytes(size)})`}`);
}

/** A Node error from open/read turned into our message (unit-tested directly: root reads anything). */
export function fileErrorOf(file: string, err: unknown): FileReadError {
  if (err instanceof FileReadError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new FileReadError('missing', file, `${file} does not exist`);
    case 'ENOTDIR':
      return new FileReadError('missing', file, `${file} does not exist (a part of its path is a file, not a folder)`);
    case 'EISDIR':
      return new FileReadError('directory', file, `${file} is a folder, not a file`);
    case 'EACCES':
    case 'EPERM':
      return new FileReadError('permission', file, `${file} cannot be read: permission denied`);
    case 'ELOOP':
      return new FileReadError('unreadable', file, `${file} cannot be read: too many symbolic links (a loop?)`);
    case 'ENAMETOOLONG':
      return new FileReadError('missing', file, `${file} cannot be read: the path is too long`);
    default:
      return new FileReadError('unreadable', file, `${file} cannot be read${code ? ` (${code})` : ''}`);
  }
}

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one; the
// fstat after it then refuses the FIFO. (Windows has no such flag and no FIFOs in the file tree.)
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** The text of a regular file of at most `cap` bytes (UTF-8). Throws FileReadError. */
export function readTextFile(file: string, cap: number = FILE_CAPS.text): string {
  return readFileBytes(file, cap).toString('utf8');
}

/** The bytes of a regular file of at most `cap` bytes. Throws FileReadError. */
export function readFileBytes(file: string, cap: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw fileErrorOf(file, err);
  }
  try {
    const problem = statProblem(file, fs.fstatSync(fd), cap);
    if (problem) throw problem;
    // Read up to one byte past the cap: a file growing after the fstat is still bounded.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, cap + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > cap) throw tooLarge(file, cap);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    throw fileErrorOf(file, err);
  } finally {
    fs.closeSync(fd);
  }
}

/** readTextFile without blocking the thread (the editor's reads). */
export async function readTextFileAsync(file: string, cap: number = FILE_CAPS.text): Promise<string> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, OPEN_FLAGS);
  } catch (err) {
    throw fileErrorOf(file, err);
  }
  try {
    const problem = statProblem(file, await handle.stat(), cap);
    if (problem) throw problem;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, cap + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > cap) throw tooLarge(file, cap);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (err) {
    throw fileErrorOf(file, err);
  } finally {
    await handle.close();
  }
}

/** The text, or undefined when the file is missing; other problems still throw. */
export function readTextFileIfExists(file: string, cap: number = FILE_CAPS.text): string | undefined {
  try {
    return readTextFile(file, cap);
  } catch (err) {
    if (err instanceof FileReadError && err.kind === 'missing') return undefined;
    throw err;
  }
}

/** The cap for a path by its name, for readers that take any file a manifest names. */
export function capFor(file: string): number {
  const lower = file.toLowerCase();
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return FILE_CAPS.manifest;
  if (lower.endsWith('.graphql') || lower.endsWith('.gql')) return FILE_CAPS.schema;
  if (lower.endsWith('.json')) return FILE_CAPS.abi;
  if (lower.endsWith('.ts') || lower.endsWith('.js')) return FILE_CAPS.mapping;
  if (lower.endsWith('.jsonrpc')) return FILE_CAPS.request;
  return FILE_CAPS.text;
}

/** Whether `file` is `folder` or below it (a sibling whose name starts like the folder is not). */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}
