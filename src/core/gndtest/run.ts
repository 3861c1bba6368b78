/**
 * Runs a subgraph's `gnd test` files and reads the results back. The subgraph is built first
 * (through the caller's build step) unless skipped; then each file runs in a gnd of its own:
 * within one gnd, a test whose handler failed leaves every later test waiting out gnd's 60 s sync
 * timeout, and one gnd per file costs no more (measured: ten files, 18 s apart, 20 s together).
 * A file that cannot be read or is not a test file is a result with its error and never reaches
 * gnd. The Postgres URL (with its password) goes to gnd by its environment, never on its command
 * line, and gnd's output is searched for it before any of it is shown.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { CANCELLED, type Cancellable } from '../cancel';
import { oneLine } from '../inert';
import { gndTestArgs } from '../subgraph/graphcli/toolchain';
import { gndFailureLine, parseGndOutput, type KnownTest } from './output';
import type { AssertionResult, TestResult } from './results';
import { findTestFiles, readTestFile, TestFileError, type ReadTestFile } from './testFile';

export interface RunSubgraphTestsOptions {
  /** The subgraph's manifest. */
  manifest: string;
  /** Test files or folders (default: `tests/` beside the manifest). */
  files?: string[];
  skipBuild?: boolean;
  /** The gnd binary. */
  gnd: string;
  /** From a TestDatabase: a secret, never shown. */
  postgresUrl: string;
  /** The toolchain's codegen and build; without it, nothing is built. */
  build?: (signal: AbortSignal, out: (line: string) => void) => Promise<void>;
  signal?: AbortSignal;
  /** Progress and gnd's warnings, a line at a time, the Postgres URL masked. */
  out?: (line: string) => void;
  /** Per test file (default 120 s: gnd gives up syncing after 60 s). */
  timeoutMs?: number;
  /** The environment gnd runs in (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_TEST_TIMEOUT_MS = 120_000;
/** gnd exits on SIGINT only, and not while it waits for Postgres: then it is killed after this. */
const INTERRUPT_GRACE_MS = 3000;
/** gnd's report is a few KB; a runaway one is cut here (a diff of a huge entity list stays far below). */
const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;

/** The run could not go on (the build failed, gnd is missing) or was cancelled. */
export class SubgraphTestError extends Error implements Cancellable {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

/** Runs the tests; resolves with one result per test file, in the order gnd sorts them. */
export async function runSubgraphTests(options: RunSubgraphTestsOptions): Promise<TestResult[]> {
  const manifest = path.resolve(options.manifest);
  const signal = options.signal ?? new AbortController().signal;
  const out = options.out ?? (() => undefined);
  const files = findTestFiles(manifest, options.files);
  const cancelled = () => new SubgraphTestError(CANCELLED, true);

  if (!options.skipBuild && options.build) {
    await options.build(signal, out);
    if (signal.aborted) throw cancelled();
  }

  const results: TestResult[] = [];
  for (const file of files) {
    if (signal.aborted) throw cancelled();
    let read: ReadTestFile;
    try {
      read = readTestFile(file);
    } catch (err) {
      const e = err as TestFileError;
      results.push({ file, name: e.testName ?? path.basename(file), passed: false, assertions: [], error: oneLine(e.message) });
      continue;
    }
    out(`running ${read.test.name} (${file})`);
    results.push(await runOne(read, manifest, options, signal, out));
    if (signal.aborted) throw cancelled();
  }
  return results;
}

/** One gnd for one file. */
async function runOne(read: ReadTestFile, manifest: string, options: RunSubgraphTestsOptions, signal: AbortSignal, out: (line: string) => void): Promise<TestResult> {
  const known: KnownTest = {
    file: read.file,
    name: read.test.name,
    assertions: (read.test.assertions ?? []).map((a) => ({ query: a.query, expected: a.expected })),
  };
  const base = { file: read.file, name: read.test.name };
  const mask = masker(options.postgresUrl);
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const run = await runGnd(options.gnd, gndTestArgs({ manifest, files: [read.file], skipBuild: true }), {
    cwd: path.dirname(manifest),
    env: { ...(options.env ?? process.env), POSTGRES_URL: options.postgresUrl, NO_COLOR: '1', CLICOLOR: '0' },
    signal,
    timeoutMs,
    onStderrLine: (line) => {
      // gnd names the database it keeps after a failure, password and all, and counts failures the results show: neither is worth showing.
      if (!/database preserved for inspection|^Error: \d+ test\(s\) failed$/.test(line) && line.trim()) out(mask(line));
    },
  });
  const durationMs = Math.round(performance.now() - started);
  if (run.spawnError) throw new SubgraphTestError(`gnd could not be started (${options.gnd}): ${run.spawnError}`);
  if (signal.aborted) throw new SubgraphTestError(CANCELLED, true);
  const parsed = parseGndOutput(run.stdout, [known]).get(read.file);
  const notRun = (error: string): TestResult => ({
    ...base,
    passed: false,
    assertions: known.assertions.map((a) => ({ query: a.query, passed: false })),
    error: oneLine(mask(error)),
    durationMs,
  });
  if (run.timedOut) return notRun(`timed out after ${Math.round(timeoutMs / 1000)} s`);
  if (!parsed) {
    const why = gndFailureLine(`${run.stdout}\n${run.stderr}`) ?? 'it printed nothing';
    return notRun(`gnd ended without running the test (${run.signal ?? `exit status ${run.code}`}): ${why}`);
  }
  // gnd reports no assertion after a handler error: they did not run.
  const assertions: AssertionResult[] = known.assertions.map((a, i) => parsed.assertions[i] ?? { query: a.query, passed: false });
  const passed = parsed.passed && parsed.error === undefined && assertions.every((a) => a.passed);
  return { ...base, passed, assertions, ...(parsed.error !== undefined ? { error: oneLine(mask(parsed.error)) } : {}), durationMs };
}

/** A function that masks the Postgres URL's password (and the URL whole) wherever it shows. */
function masker(postgresUrl: string): (text: string) => string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(postgresUrl).password);
  } catch {
    // not a URL: the whole of it is masked
  }
  return (text) => {
    let masked = text.split(postgresUrl).join('postgresql://***');
    if (password) masked = masked.split(password).join('***');
    return masked;
  };
}

interface GndRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  spawnError?: string;
}

/** Runs gnd to its end: a cancel or the timeout sends SIGINT (what gnd stops on), then SIGKILL. */
function runGnd(gnd: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; signal: AbortSignal; timeoutMs: number; onStderrLine: (line: string) => void }): Promise<GndRun> {
  return new Promise((resolve) => {
    const child = spawn(gnd, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let timedOut = false;
    let spawnError: string | undefined;
    let killer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      if (pending.length > 64 * 1024) pending = '';
      lines.forEach(o.onStderrLine);
    });
    const stop = () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      killer ??= setTimeout(() => child.kill('SIGKILL'), INTERRUPT_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, o.timeoutMs);
    o.signal.addEventListener('abort', stop, { once: true });
    if (o.signal.aborted) stop();
    child.on('error', (err) => {
      spawnError = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : err.message;
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      clearTimeout(killer);
      o.signal.removeEventListener('abort', stop);
      if (pending) o.onStderrLine(pending);
      resolve({ code, signal: sig, stdout, stderr, timedOut, spawnError });
    });
  });
}
