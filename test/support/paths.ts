/** Paths from the repository root, whichever folder of test/unit a test file sits in. */
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A path below the repository root: repoPath('test', 'fixtures', 'tls'). */
export const repoPath = (...parts: string[]): string => path.join(REPO_ROOT, ...parts);
