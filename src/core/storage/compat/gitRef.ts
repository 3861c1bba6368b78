/**
 * The storage layouts a git commit holds: the compiler output committed at that ref (Hardhat's
 * artifacts/build-info/*.json, Foundry's out/<File>.sol/<Name>.json), read with `git ls-tree` and
 * `git cat-file` only — nothing checked out, no build run, no hook. When no compiler output is
 * committed there, the error says in one line what the check needs instead.
 */
import { execFile } from 'node:child_process';
import { FILE_CAPS } from '../../files';
import { ASK_FOR_LAYOUT, parseFoundryArtifact, parseHardhatBuildInfo, type ContractLayout } from '../layout';

/** What a ref may look like: a branch, tag, commit, HEAD~2, v1.0^{commit}; never an option. */
const REF = /^(?!-)[\w./@^~{}+-]{1,200}$/;
const HARDHAT = /(^|\/)artifacts\/build-info\/[^/]+\.json$/;
const FOUNDRY = /(^|\/)out\/[^/]+\.sol\/[^/]+\.json$/;
/** The most artifact files read from one commit. */
const MAX_FILES = 2000;

export class GitLayoutError extends Error {
  override readonly name = 'GitLayoutError';
  constructor(
    message: string,
    readonly reason: 'ref' | 'git' | 'no-artifacts',
  ) {
    super(message);
  }
}

export interface GitOptions {
  signal?: AbortSignal;
  /** Per git command (default 20 s). */
  timeoutMs?: number;
}

/** Runs git in `cwd` (no pager, no prompt, no fsmonitor program): its stdout, or a GitLayoutError with its first line of stderr. */
function git(cwd: string, args: string[], options: GitOptions, maxBuffer = 16 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '--no-pager', ...args],
      { cwd, timeout: options.timeoutMs ?? 20_000, maxBuffer, signal: options.signal, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' }, windowsHide: true },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const line = String(stderr).trim().split('\n')[0] || err.message.split('\n')[0];
        reject(new GitLayoutError(`git ${args[0]} failed: ${line}`, 'git'));
      },
    );
  });
}

/** The repository's top folder that holds `folder`. */
export async function gitTopLevel(folder: string, options: GitOptions = {}): Promise<string> {
  return (await git(folder, ['rev-parse', '--show-toplevel'], options)).trim();
}

/**
 * Every layout committed at `ref` in the repository holding `folder`, with the commit it
 * resolved to. Throws a GitLayoutError for a ref that is not one, and for a commit that holds no
 * compiler output (the message says what to do instead).
 */
export async function layoutsAtRef(folder: string, ref: string, options: GitOptions = {}): Promise<{ commit: string; layouts: ContractLayout[] }> {
  if (!REF.test(ref)) throw new GitLayoutError(`'${ref.slice(0, 60)}' is not a git ref (a branch, tag or commit, e.g. main, v1.2.0, HEAD~1)`, 'ref');
  const top = await gitTopLevel(folder, options);
  let commit: string;
  try {
    commit = (await git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], options)).trim();
  } catch {
    throw new GitLayoutError(`'${ref}' names no commit in ${top}`, 'ref');
  }
  const names = (await git(top, ['ls-tree', '-r', '-z', '--name-only', commit], options, 256 * 1024 * 1024))
    .split('\0')
    .filter((p) => p && !p.split('/').includes('node_modules') && (HARDHAT.test(p) || FOUNDRY.test(p)))
    .sort()
    .slice(0, MAX_FILES);
  const layouts: ContractLayout[] = [];
  for (const name of names) {
    let json: unknown;
    try {
      json = JSON.parse(await git(top, ['cat-file', 'blob', `${commit}:${name}`], options, FILE_CAPS.artifact));
    } catch (err) {
      if (err instanceof GitLayoutError && options.signal?.aborted) throw err;
      continue; // not JSON, or larger than any artifact: no layout from it
    }
    const at = `${ref}:${name}`;
    if (HARDHAT.test(name)) layouts.push(...parseHardhatBuildInfo(json, at));
    else {
      const layout = parseFoundryArtifact(json, at);
      if (layout) layouts.push(layout);
    }
  }
  if (!layouts.length) {
    throw new GitLayoutError(
      `${ref} (${commit.slice(0, 10)}) has no compiler output with a storage layout committed (artifacts/build-info/*.json or out/*.sol/*.json): build that version (${ASK_FOR_LAYOUT}) and compare with its layout file instead`,
      'no-artifacts',
    );
  }
  return { commit, layouts };
}
