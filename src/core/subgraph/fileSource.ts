/** The disk as a FileSource (the CLI, tests and benchmarks; the editor supplies its own). */
import * as fs from 'node:fs';
import { capFor, readTextFileIfExists } from '../files';
import type { FileSource } from './types';

export function nodeFileSource(): FileSource {
  return {
    // Missing: undefined; a folder, a FIFO, a device, too large or unreadable: a FileReadError.
    read: (file) => readTextFileIfExists(file, capFor(file)),
    mtime(file) {
      try {
        return fs.statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    },
  };
}

/** In-memory files, e.g. for tests: path → text (and optional mtimes). */
export function memoryFileSource(files: Record<string, string>, mtimes: Record<string, number> = {}): FileSource {
  return {
    read: (file) => files[file],
    mtime: (file) => mtimes[file] ?? (file in files ? 0 : undefined),
  };
}
