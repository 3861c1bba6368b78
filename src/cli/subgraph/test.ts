/**
 * `chaindeck subgraph test`: runs a subgraph's `gnd test` files with a private Postgres (started
 * for the run, stopped after it; its password never shown) and prints one line per test, then a
 * diff per failed assertion; or, with --format json, one JSON array on stdout.
 */
import * as path from 'node:path';
import { inertLine, inertText } from '../../core/inert';
import { diffJson, summaryLine, type TestResult } from '../../core/gndtest/results';
import { UsageError, type OptionTable } from '../args';
import { abortOnSignals, defineCommand, EXIT, printJson, reportFailure, type CliIO } from '../command';
import { userCacheDir } from '../graphNode';
import { DEFAULT_MANIFEST, manifestPath } from '../validate';

const FORMATS = ['text', 'json'] as const;

const options = {
  manifest: { type: 'string', value: 'PATH', help: 'the subgraph manifest, or its folder (default ./subgraph.yaml)' },
  'skip-build': { type: 'boolean', help: 'run on the build/ folder as it is: no codegen and build first' },
  format: { type: 'string', value: 'FORMAT', help: 'text (default): a line per test and a diff per failed assertion; json: one JSON array on stdout' },
  gnd: { type: 'string', value: 'PATH', help: 'use this gnd binary as is (default: gnd on PATH, else the pinned gnd, installed once into the user cache)' },
} satisfies OptionTable;

interface SubgraphTestArgs {
  manifest: string;
  files: string[];
  skipBuild: boolean;
  format: (typeof FORMATS)[number];
  gndPath?: string;
}

/** A result as `--format json` prints it: exactly these keys, the file relative to the working folder. */
export function jsonResult(result: TestResult, cwd: string): Record<string, unknown> {
  return {
    file: path.relative(cwd, result.file) || result.file,
    name: result.name,
    passed: result.passed,
    assertions: result.assertions.map((a) => ({
      query: a.query,
      passed: a.passed,
      ...(a.passed || !('expected' in a) ? {} : { expected: a.expected }),
      ...(a.passed || !('actual' in a) ? {} : { actual: a.actual }),
    })),
    ...(result.error !== undefined ? { error: result.error } : {}),
  };
}

/** Above this many line pairs the diff is not searched: both values are shown whole. */
const MAX_DIFF_CELLS = 4_000_000;

/** A line diff of two texts (longest common subsequence): lines marked '-', '+' or ' '. */
export function lineDiff(expected: string, actual: string): string[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  if (a.length * b.length > MAX_DIFF_CELLS) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common length of a[i..] and b[j..], one row at a time from the end.
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`  ${a[i++]}`);
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '' : `  ${(ms / 1000).toFixed(1)} s`);

/** The text report: a line per test, then per failed assertion its query and a diff, then the count. */
export function textReport(results: readonly TestResult[], cwd: string, totalMs?: number): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.passed ? '✔' : '✘'} ${inertLine(r.name)}  ${inertLine(path.relative(cwd, r.file) || r.file)}${seconds(r.durationMs)}`);
    if (r.error !== undefined) lines.push(`    ${inertLine(r.error)}`);
  }
  for (const r of results) {
    for (const a of r.assertions) {
      if (a.passed || !('expected' in a) || !('actual' in a)) continue;
      lines.push('', `● ${inertLine(r.name)} → ${inertLine(path.relative(cwd, r.file) || r.file)}`);
      const [first, ...rest] = inertText(a.query).split('\n');
      lines.push(`  Query: ${first}`, ...rest.map((l) => `         ${l}`));
      lines.push('  - expected', '  + actual');
      const diff = lineDiff(diffJson(a.expected), diffJson(a.actual));
      lines.push(...diff.map((l) => `  ${inertText(l)}`));
    }
  }
  lines.push('', summaryLine(results, totalMs));
  return `${lines.join('\n')}\n`;
}

async function run(args: SubgraphTestArgs, io: CliIO): Promise<number> {
  // Loaded here: the help and the argument checks need none of it.
  const { resolveGnd } = await import('../../core/localnode/gnd');
  const { startTestDatabase } = await import('../../core/gndtest/database');
  const { runSubgraphTests } = await import('../../core/gndtest/run');
  const { findTestFiles } = await import('../../core/gndtest/testFile');
  const { buildStep, chooseToolchain, toolchainName } = await import('../../core/subgraph/graphcli/toolchain');
  const cwd = process.cwd();
  const say = (line: string) => io.err(`chaindeck subgraph test: ${inertLine(line)}\n`);
  const abort = new AbortController();
  // Ctrl+C cancels the run: gnd is interrupted and Postgres stopped before the exit.
  const stopListening = abortOnSignals(abort);
  const started = performance.now();
  let database: Awaited<ReturnType<typeof startTestDatabase>> | undefined;
  try {
    const manifest = path.resolve(args.manifest);
    findTestFiles(manifest, args.files, cwd); // no tests: said before anything is built or started
    const gnd = async () => (await resolveGnd({ gndPath: args.gndPath, cacheDir: userCacheDir(io.env), env: io.env, signal: abort.signal })).path;
    const gndPath = await gnd();
    let build;
    if (!args.skipBuild) {
      const toolchain = await chooseToolchain({ fromDir: path.dirname(manifest), gnd: async () => gndPath });
      say(`building with ${toolchainName(toolchain)} (codegen, build)`);
      const step = buildStep(manifest, toolchain, { env: io.env });
      // The build's own lines are shown only when it fails: its last ones say why.
      build = async (signal: AbortSignal) => {
        const tail: string[] = [];
        try {
          await step(signal, (line) => {
            tail.push(line);
            if (tail.length > 30) tail.shift();
          });
        } catch (err) {
          for (const line of tail) io.err(`${inertLine(line)}\n`);
          throw err;
        }
      };
    }
    database = await startTestDatabase({ signal: abort.signal, env: io.env });
    const results = await runSubgraphTests({
      manifest,
      files: args.files.map((f) => path.resolve(cwd, f)),
      skipBuild: args.skipBuild,
      gnd: gndPath,
      postgresUrl: database.url,
      build,
      signal: abort.signal,
      out: args.format === 'text' ? say : () => undefined,
      env: io.env,
    });
    if (args.format === 'json') {
      printJson(
        io,
        results.map((r) => jsonResult(r, cwd)),
      );
    } else {
      io.out(textReport(results, cwd, performance.now() - started));
    }
    return results.every((r) => r.passed) ? EXIT.done : EXIT.failed;
  } catch (err) {
    if (abort.signal.aborted) {
      say('cancelled');
      return EXIT.failed;
    }
    return reportFailure(io, 'subgraph test', err);
  } finally {
    stopListening();
    await database?.stop().catch(() => undefined);
  }
}

export const subgraphTestAction = defineCommand({
  name: 'subgraph test',
  summary: "Run the subgraph's gnd test files",
  usage: ['[--manifest PATH] [FILE…] [--skip-build] [--format text|json] [--gnd PATH]'],
  description:
    "Each file's blocks, events and mocked calls are fed to graph-node and its GraphQL assertions checked. The subgraph is built first (codegen, build: with the graph CLI the project has, else with gnd) unless --skip-build. Each test file runs in graph-node's own test runner, `gnd test`, with a private Postgres started for the run on 127.0.0.1 and stopped after it.",
  arguments: [['FILE…', 'test files or folders (default: every *.json in tests/ beside the manifest, subfolders too)']],
  options,
  notes:
    'The test file format is graph-node\'s (gnd/docs/gnd-test.md): {"name", "blocks": [{"number", "events", "ethCalls"}], "assertions": [{"query", "expected"}]}; one test per file. --format json prints [{"file", "name", "passed", "assertions": [{"query", "passed", "expected", "actual"}]}], expected and actual only for a failed assertion, and "error" for a test that could not run (a handler error, a file that is not a test). Postgres comes from the system (initdb and pg_ctl on PATH or in the usual folders).',
  environment: [['XDG_CACHE_HOME', 'gnd is installed into $XDG_CACHE_HOME/chaindeck (default ~/.cache/chaindeck)']],
  exit: { done: 'every test passed', failed: 'a test failed or could not run, or the run could not start (no tests, no Postgres, a failed build)', usageExample: '--format yaml' },
  examples: ['chaindeck subgraph test', 'chaindeck subgraph test --manifest subgraph.yaml tests/transfer.json --skip-build', 'chaindeck subgraph test --format json'],

  check({ values, positionals }): SubgraphTestArgs {
    const format = values.format ?? 'text';
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format takes text or json, not '${format}'`);
    if (values.manifest === '') throw new UsageError("--manifest takes a path, not ''");
    const manifest = manifestPath(values.manifest ?? DEFAULT_MANIFEST, 'give --manifest');
    if (values.gnd === '') throw new UsageError("--gnd takes a path, not ''");
    return {
      manifest,
      files: positionals,
      skipBuild: values['skip-build'] === true,
      format: format as SubgraphTestArgs['format'],
      gndPath: values.gnd,
    };
  },
  work: run,
});
