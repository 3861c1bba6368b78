/** The disk as a FileSource (the CLI, tests and benchmarks; the editor supplies its own). */
import * as fs from 'node:fs';
import { capFor, FILE_CAPS, FileReadError, readFileBytes, readTextFileIfExists } from '../files';
import type { FileSource } from './types';

export function nodeFileSource(): FileSource {
  return {
    // Missing: undefined; a folder, a FIFO, a device, too large or unreadable: a FileReadError.
    read: (file) => readTextFileIfExists(file, capFor(file)),
    readBytes(file) {
      try {
        return readFileBytes(file, FILE_CAPS.wasm);
      } catch (err) {
        if (err instanceof FileReadError && err.kind === 'missing') return undefined;
        throw err;
      }
    },
    mtime(file) {
      try {
        return fs.statSync(file).mtimeMs;
      } catch {
        return undefined;
      }
    },
  };
}

/** In-memory files, e.g. for tests: path → text (and optional mtimes and binary files). */
export function memoryFileSource(files: Record<string, string>, mtimes: Record<string, number> = {}, binaries: Record<string, Uint8Array> = {}): FileSource {
  return {
    read: (file) => files[file],
    readBytes: (file) => binaries[file],
    mtime: (file) => mtimes[file] ?? (file in files ? 0 : undefined),
  };
}
