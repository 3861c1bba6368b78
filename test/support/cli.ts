/** Running the built `chaindeck` CLI (dist/cli.js) as a subprocess, the way a user's CI would. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const CLI = path.join(root, 'dist', 'cli.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env, timeout: timeoutMs }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Builds dist/ (the CLI included) for a suite, unless dist/cli.js is newer than every source
 * file and the build script (test files that each build would otherwise bundle it again and
 * again, once per mutant in a mutation run); fails with esbuild's message.
 */
export async function buildCli(): Promise<void> {
  if (newestMtime(CLI) > Math.max(newestMtime(path.join(root, 'src')), newestMtime(path.join(root, 'esbuild.js')), newestMtime(path.join(root, 'package.json')))) return;
  const build = await exec(['esbuild.js'], process.env);
  assert.equal(build.code, 0, `node esbuild.js failed:\n${build.stderr}`);
}

/** The newest modification time of a file, or of any file under a folder; 0 when missing. */
function newestMtime(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestMtime(path.join(file, name))));
}

/**
 * Runs `node dist/cli.js ARGS` (killed after `timeoutMs`, default 20 s). The credential variables of the test process are removed first,
 * so a test sees only the ones it passes in `env`.
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs?: number): Promise<CliRun> {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  delete clean.CHAINDECK_PASSWORD;
  delete clean.CHAINDECK_API_KEY;
  return exec([CLI, ...args], { ...clean, ...env }, timeoutMs);
}

/** Neither stdout nor stderr may show any of the secrets. */
export function assertNoSecret(run: CliRun, ...secrets: string[]): void {
  for (const s of secrets) {
    assert.ok(!run.stdout.includes(s), `stdout shows a secret:\n${run.stdout}`);
    assert.ok(!run.stderr.includes(s), `stderr shows a secret:\n${run.stderr}`);
  }
}

export interface MainRun {
  code: number;
  out: string;
  /** What was printed through outRevealed (--show-secrets), apart from `out`. */
  revealed: string;
  err: string;
}

/**
 * Runs the CLI in-process (`main` from src/cli/main.ts) with the given environment only, and
 * collects what it printed. Nothing is redacted on the way, so what it holds is what the
 * command itself wrote; `redacted`: printed as the real CLI prints (redactingIO), everything
 * on `out` and `err`.
 */
export async function runMain(argv: string[], env: NodeJS.ProcessEnv = {}, redacted = false): Promise<MainRun> {
  const run: MainRun = { code: -1, out: '', revealed: '', err: '' };
  const { main, redactingIO } = await import('../../src/cli/main');
  const io = redacted
    ? redactingIO(
        (t) => void (run.out += t),
        (t) => void (run.err += t),
        env,
      )
    : { out: (t: string) => void (run.out += t), outRevealed: (t: string) => void (run.revealed += t), err: (t: string) => void (run.err += t), env };
  run.code = await main(argv, io);
  return run;
}

/** A command's usage as its help prints it: its name, the usage's first lines and, to check the whole usage followed, its last. */
export interface Usage {
  command: string;
  start: string;
  end?: string;
}

/**
 * A usage error as every command reports it: exit 2, nothing on stdout, `chaindeck COMMAND:
 * MESSAGE` and the usage on stderr; with `requests` (a scripted node's or the platform API's),
 * nothing was sent.
 */
export function assertUsageError(run: MainRun, usage: Usage, message: string, requests?: readonly unknown[]): void {
  assert.equal(run.code, 2, run.err);
  assert.equal(run.out, '');
  assert.ok(run.err.startsWith(`chaindeck ${usage.command}: ${message}${usage.start}`), run.err);
  if (usage.end !== undefined) assert.ok(run.err.endsWith(usage.end), 'the whole usage follows');
  if (requests) assert.equal(requests.length, 0, 'nothing was sent');
}
