/**
 * What a capture's range and output file must be, apart from the capture itself (light: the
 * command line checks them before gnd is resolved or a node is asked anything).
 */
import { lstatSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The widest range captured at once. */
export const MAX_RANGE = 100_000;

/** Why `out` cannot be written (undefined: it can). */
export function outProblem(out: string, force: boolean): string | undefined {
  let stat;
  try {
    stat = lstatSync(out);
  } catch {
    return parentProblem(out);
  }
  if (stat.isDirectory()) return `${out} is a folder: give a file name for --out.`;
  if (!stat.isFile()) return `${out} is not a regular file: give a file name for --out.`;
  return force ? undefined : `${out} exists: pass --force to replace it, or give another --out.`;
}

/** Why the range cannot be captured (undefined: it can). */
export function rangeProblem(from: number, to: number): string | undefined {
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < 0) return 'Blocks are whole numbers from 0.';
  if (from > to) return `--from ${from} is after --to ${to}: the range must run forwards.`;
  if (to - from >= MAX_RANGE)
    return `The range holds ${(to - from + 1).toLocaleString('en-US')} blocks; at most ${MAX_RANGE.toLocaleString('en-US')} are captured at once: capture a shorter range.`;
  return undefined;
}

/** Why the folders of a file not yet there cannot be made: the nearest one that exists is a file. */
function parentProblem(out: string): string | undefined {
  for (let dir = path.dirname(out); ; dir = path.dirname(dir)) {
    try {
      return statSync(dir).isDirectory() ? undefined : `${dir} is not a folder: give --out a path in a folder.`;
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}
