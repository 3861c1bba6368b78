/**
 * The validator's corpus (test/fixtures/subgraphs/corpus.ts) through gnd: every broken variant of
 * the tutorial subgraph, and the tutorial itself, run by `gnd codegen` and, when codegen passes,
 * `gnd build` (graph-ts and AssemblyScript 0.19.23 from the repository's node_modules), next to
 * what graph-cli 0.98.1 does with it (the corpus's own record, which the graph CLI integration
 * test checks). Writes test/fixtures/subgraphs/corpus.gnd.txt: one line per project,
 * `name | graph-cli | gnd | gnd's first message`; docs/validation-rules.md's gnd table is held to
 * it by test/unit/validation-rules.doc.test.ts.
 *
 * Usage: node --import tsx scripts/gnd-corpus.ts [--check]   (--check: compare, write nothing; exit 1 on a difference)
 * Takes about a minute on two cores (each gnd build compiles the mapping with asc).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cachedGndPath } from '../src/core/localnode/gnd';
import { userCacheDir } from '../src/cli/graphNode';
import { VARIANTS, writeProject, type Variant } from '../test/fixtures/subgraphs/corpus';

const ROOT = path.resolve(__dirname, '..');
export const RECORD = path.join(ROOT, 'test', 'fixtures', 'subgraphs', 'corpus.gnd.txt');
const PARALLEL = 2;
const TIMEOUT_MS = 120_000;

interface Run {
  code: number;
  output: string;
}

function gnd(bin: string, args: string[], cwd: string): Promise<Run> {
  const env = { ...process.env, NO_COLOR: '1', PATH: [path.join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter) };
  return new Promise((resolve) => {
    execFile(bin, [...args, '--skip-migrations'], { cwd, env, timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** graph-cli 0.98.1's result, as the corpus records it (checked by test/integration/subgraph.cli.test.ts). */
export function graphCliResult(variant: Pick<Variant, 'codegen' | 'build'>): string {
  if (variant.codegen === 'fails') return 'codegen fails';
  return variant.build === 'fails' ? 'build fails' : 'passes';
}

/** gnd's first message that says what is wrong: a validation line, an AssemblyScript error, or its Error line. */
export function firstMessage(output: string): string {
  const lines = output.split(/\r?\n/);
  const listed = lines.find((l) => /^\s+- /.test(l));
  const asc = lines.find((l) => /^ERROR [A-Z]+\d+:/.test(l));
  const error = lines.find((l) => /^Error: /.test(l));
  return (listed?.replace(/^\s+- /, '') ?? asc ?? error?.replace(/^Error: /, '') ?? '').trim();
}

export interface GndResult {
  name: string;
  graphCli: string;
  gnd: string;
  message: string;
}

async function runOne(bin: string, tmp: string, variant: Pick<Variant, 'name' | 'edit' | 'codegen' | 'build'>, codegenOnly: boolean): Promise<GndResult> {
  const dir = writeProject(tmp, variant.name.replace(/[^\w-]+/g, '-'), (files) => variant.edit(files));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const codegen = await gnd(bin, ['codegen'], dir);
  // A Substreams-only subgraph has nothing to generate; gnd says so and exits 0.
  const result = (gnd: string, run: Run) => ({ name: variant.name, graphCli: graphCliResult(variant), gnd, message: gnd === 'passes' ? '' : firstMessage(run.output) });
  if (codegen.code !== 0) return result('codegen fails', codegen);
  if (codegenOnly) return result('codegen passes', codegen);
  const build = await gnd(bin, ['build'], dir);
  return result(build.code === 0 ? 'passes' : 'build fails', build);
}

/**
 * Runs the tutorial and every variant; results in the corpus's order. `codegenOnly`: no build
 * (a few seconds in all instead of minutes); a project whose codegen passes is `codegen passes`.
 */
export async function runCorpus(options: { bin?: string; codegenOnly?: boolean } = {}): Promise<GndResult[]> {
  const bin = options.bin ?? cachedGndPath(userCacheDir(process.env));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-gnd-corpus-'));
  try {
    const projects = [{ name: 'the tutorial (no mistake)', edit: () => undefined, codegen: 'passes' as const }, ...VARIANTS];
    const results: GndResult[] = new Array(projects.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < projects.length) {
          const i = next++;
          results[i] = await runOne(bin, tmp, projects[i], options.codegenOnly === true);
        }
      }),
    );
    return results;
  } finally {
    // The node_modules links go first, by themselves, so the shared node_modules is never walked.
    for (const entry of fs.readdirSync(tmp)) fs.rmSync(path.join(tmp, entry, 'node_modules'), { force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function formatRecord(results: readonly GndResult[]): string {
  return `${results.map((r) => [r.name, r.graphCli, r.gnd, ...(r.message ? [r.message] : [])].join(' | ')).join('\n')}\n`;
}

/** The record as written: one GndResult per line. */
export function readRecord(text = fs.readFileSync(RECORD, 'utf8')): GndResult[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, graphCli, gnd, ...message] = line.split(' | ');
      return { name, graphCli, gnd, message: message.join(' | ') };
    });
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const started = Date.now();
  const text = formatRecord(await runCorpus());
  console.error(`gnd corpus: ${VARIANTS.length + 1} projects in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!check) {
    fs.writeFileSync(RECORD, text);
    process.stdout.write(text);
    return 0;
  }
  const recorded = fs.readFileSync(RECORD, 'utf8');
  if (recorded === text) return 0;
  console.error(`gnd's results differ from ${path.relative(ROOT, RECORD)}: run node --import tsx scripts/gnd-corpus.ts and update docs/validation-rules.md\n${text}`);
  return 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
