/**
 * TEMPORARY (deleted before merging): the gndtest core's interfaces as agreed, until
 * src/core/gndtest/{results,run,database,testFile}.ts and capture/ land. Every function fails.
 */
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { findPostgres, startPostgres } from '../../../core/localnode/postgres';

export interface AssertionResult {
  query: string;
  passed: boolean;
  expected?: unknown;
  actual?: unknown;
}
export interface TestResult {
  file: string;
  name: string;
  passed: boolean;
  assertions: AssertionResult[];
  error?: string;
  durationMs?: number;
}
export type BuildStep = (signal: AbortSignal, out: (line: string) => void) => Promise<void>;
export interface TestDatabase {
  readonly url: string;
  stop(): Promise<void>;
}
const notYet = () => Promise.reject(new Error('capturing tests is not available in this build yet'));

// ---- TEMPORARY stand-ins for RUNNER's database.ts and run.ts, to exercise the editor until they land ----
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export async function startTestDatabase(options: { dataDir?: string; signal?: AbortSignal }): Promise<TestDatabase> {
  const bins = findPostgres();
  if (!bins) throw new Error('Postgres is not installed');
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gndtest-'));
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pg = await startPostgres(bins, dataDir, await freePort());
  return { url: pg.url, stop: () => pg.stop() };
}

export async function runSubgraphTests(options: {
  manifest: string;
  files?: string[];
  skipBuild?: boolean;
  gnd: string;
  postgresUrl: string;
  build?: BuildStep;
  signal?: AbortSignal;
  out?: (line: string) => void;
  timeoutMs?: number;
}): Promise<TestResult[]> {
  const out = options.out ?? (() => undefined);
  const signal = options.signal ?? new AbortController().signal;
  if (!options.skipBuild && options.build) await options.build(signal, out);
  const cwd = path.dirname(options.manifest);
  // gnd keeps a failed test's database for inspection, and the next file then fails with its error: one database per file.
  const files =
    options.files ??
    fs
      .readdirSync(path.join(cwd, 'tests'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => path.join(cwd, 'tests', f));
  const results: TestResult[] = [];
  const url = new URL(options.postgresUrl);
  for (const file of files.sort()) {
    const db = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    await new Promise<void>((resolve, reject) =>
      execFile(findPostgres()!.createdb, ['-h', url.hostname, '-p', url.port, '-U', url.username, '-E', 'UTF8', '-T', 'template0', '--lc-collate=C', '--lc-ctype=C', db], (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    url.pathname = `/${db}`;
    const child = spawn(options.gnd, ['test', '--skip-build', '--manifest', path.basename(options.manifest), file], {
      cwd,
      env: { ...process.env, POSTGRES_URL: url.toString(), NO_COLOR: '1', CLICOLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill);
    let text = '';
    const take = (d: Buffer) => {
      text += d.toString();
      for (const line of d.toString().split('\n')) if (line.trim()) out(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', (d: Buffer) =>
      d
        .toString()
        .split('\n')
        .filter((l) => l.trim())
        .forEach(out),
    );
    await new Promise((resolve) => child.once('close', resolve));
    signal.removeEventListener('abort', kill);
    if (signal.aborted) throw Object.assign(new Error('cancelled'), { cancelled: true });
    results.push(...parseGndOutput(text, cwd));
  }
  return results;
}

function parseGndOutput(text: string, cwd: string): TestResult[] {
  const results: TestResult[] = [];
  const lines = text.split('\n');
  let current: TestResult | undefined;
  let query: AssertionResult | undefined;
  let i = 0;
  for (; i < lines.length && !lines[i].startsWith('Failures:'); i++) {
    const line = lines[i];
    const running = /^→ Running (.*)$/.exec(line);
    if (running) {
      current = { file: path.resolve(cwd, running[1].trim()), name: '', passed: false, assertions: [] };
      results.push(current);
      query = undefined;
      continue;
    }
    if (!current) continue;
    const test = /^ {2}([✔✘]) (.*)$/.exec(line);
    if (test) {
      current.name = test[2];
      current.passed = test[1] === '✔';
      continue;
    }
    const handler = /^ {4}Handler error: (.*)$/.exec(line);
    if (handler) {
      current.error = handler[1];
      continue;
    }
    const assertion = /^ {4}([✔✘]) (.*)$/.exec(line);
    if (assertion) {
      query = { query: assertion[2], passed: assertion[1] === '✔' };
      current.assertions.push(query);
      continue;
    }
    if (query && !/^(Tests:|→)/.test(line) && line.trim()) query.query += `\n${line}`;
  }
  // Failures: "  ● name →", "    Query: …", "    Diff: …", then "      - " / "      + " / "        " lines.
  let failing: TestResult | undefined;
  let expected: string[] = [];
  let actual: string[] = [];
  let inDiff = false;
  const flush = () => {
    if (!failing || !inDiff) return;
    const a = failing.assertions.find((x) => !x.passed && x.expected === undefined && x.actual === undefined);
    if (a) {
      try {
        a.expected = JSON.parse(expected.join('\n'));
        a.actual = JSON.parse(actual.join('\n'));
      } catch {
        // left without a diff
      }
    }
    expected = [];
    actual = [];
    inDiff = false;
  };
  for (; i < lines.length; i++) {
    const line = lines[i];
    const head = /^ {2}● (.*) →$/.exec(line);
    if (head) {
      flush();
      failing = results.find((r) => r.name === head[1]);
      continue;
    }
    if (/^ {4}Diff:/.test(line)) {
      inDiff = true;
      continue;
    }
    if (!inDiff) continue;
    if (/^Tests:/.test(line)) break;
    if (line.startsWith('      - ')) expected.push(line.slice(8));
    else if (line.startsWith('      + ')) actual.push(line.slice(8));
    else if (line.startsWith('        ')) {
      expected.push(line.slice(8));
      actual.push(line.slice(8));
    }
  }
  flush();
  return results;
}

export function captureTest(_options: {
  manifest: string;
  rpcUrl: string;
  from: number;
  to: number;
  out?: string;
  gnd: string;
  build?: BuildStep;
  signal?: AbortSignal;
  progress?: (message: string) => void;
}): Promise<{ file: string; blocks: number; events: number; ethCalls: number; entities: number }> {
  return notYet();
}

export interface Span {
  start: number;
  end: number;
}
export interface TestFileOutline {
  name?: string;
  nameAt?: Span;
  assertions: { query: string; at: Span }[];
}
/** The top-level "name" and each element of "assertions", with where they sit in the text. */
export function outlineTestFile(text: string): TestFileOutline {
  const parsed = JSON.parse(text) as { name?: unknown; assertions?: unknown };
  const queries = Array.isArray(parsed.assertions) ? parsed.assertions.map((a) => (typeof (a as { query?: unknown })?.query === 'string' ? (a as { query: string }).query : '')) : [];
  const outline: TestFileOutline = { name: typeof parsed.name === 'string' ? parsed.name : undefined, assertions: [] };
  let depth = 0;
  let key: string | undefined;
  let inAssertions = false;
  let assertionStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const after = text.slice(j + 1).match(/^\s*:/);
      if (depth === 1 && after) key = JSON.parse(text.slice(i, j + 1)) as string;
      else if (depth === 1 && key === 'name') outline.nameAt = { start: i, end: j + 1 };
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth === 2 && key === 'assertions' && c === '[') inAssertions = true;
      if (depth === 3 && inAssertions) assertionStart = i;
    } else if (c === '}' || c === ']') {
      if (depth === 3 && inAssertions && assertionStart >= 0) {
        outline.assertions.push({ query: queries[outline.assertions.length] ?? '', at: { start: assertionStart, end: i + 1 } });
        assertionStart = -1;
      }
      if (depth === 2) inAssertions = false;
      depth--;
    }
  }
  return outline;
}
