/**
 * A manifest whose mapping holds 40,000 keys (one of them twice), validated in-process: time and
 * peak RSS against the same manifest with 1,000 and 10,000 keys, so the ratios show how the cost
 * grows with the size. Two paths: the fast subset parser (plain manifests) and the `yaml` package
 * (taken when the text has anchors, tags, …). Beside them, the `yaml` package with uniqueKeys on,
 * as validation parsed before (quadratic: 27 s at 40,000 keys), up to 20,000 keys, run once.
 *
 * Each case runs in its own child process, so its peak RSS is its own: the figure is the peak
 * minus the child's RSS just before validating (modules loaded, text built). Times are the median
 * of 5 warm runs, wall and CPU. No node is needed: the anvil scripts/bench.mjs starts is unused.
 * Run alone with `node --import tsx bench/manyKeys.bench.ts`.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { parseDocument } from 'yaml';
import { memoryFileSource } from '../src/core/subgraph/fileSource';
import { validateSubgraph } from '../src/core/subgraph/rules/validate';
import { tutorialFiles } from '../test/fixtures/subgraphs/corpus';
import { manyKeys } from '../test/fixtures/subgraphs/manyKeys';

type Path = 'fast' | 'yaml' | 'uniqueKeys';
interface Result {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
  duplicates: number;
}

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One case, in this (child) process. */
function measure(kind: Path, keys: number): Result {
  const text = manyKeys(keys, { duplicate: true, yamlOnly: kind === 'yaml' });
  const files = { ...tutorialFiles(), 'subgraph.yaml': text };
  const once = (): number => {
    if (kind === 'uniqueKeys') return parseDocument(text, { uniqueKeys: true }).errors.filter((e) => e.code === 'DUPLICATE_KEY').length;
    return validateSubgraph('subgraph.yaml', memoryFileSource(files)).findings.filter((f) => f.code === 'duplicate-key').length;
  };
  const before = process.memoryUsage.rss();
  const walls: number[] = [];
  const cpus: number[] = [];
  let duplicates = 0;
  for (let i = 0; i < (kind === 'uniqueKeys' ? 1 : RUNS); i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    duplicates = once();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const peak = process.resourceUsage().maxRSS * 1024;
  return { wallMs: median(walls), cpuMs: median(cpus), rssMiB: (peak - before) / 2 ** 20, duplicates };
}

function inChild(kind: Path, keys: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', __filename, '--case', kind, String(keys)], { timeout: 600_000, maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) return reject(err);
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Result);
    });
  });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--case');
  if (at !== -1) {
    console.log(JSON.stringify(measure(process.argv[at + 1] as Path, Number(process.argv[at + 2]))));
    return;
  }
  const cases: [Path, number[]][] = [
    ['fast', [1000, 10_000, 40_000]],
    ['yaml', [1000, 10_000, 40_000]],
    ['uniqueKeys', [1000, 10_000, 20_000]],
  ];
  const label = { fast: 'fast parser', yaml: 'yaml package', uniqueKeys: 'yaml, uniqueKeys (before)' };
  console.log('| path | keys | wall (median) | CPU | ×1,000 keys (CPU) | peak RSS over idle | duplicates found |');
  console.log('|---|---|---|---|---|---|---|');
  let failed = false;
  for (const [kind, sizes] of cases) {
    let base: Result | undefined;
    for (const keys of sizes) {
      const r = await inChild(kind, keys);
      base ??= r;
      const ratio = r.cpuMs / Math.max(base.cpuMs, 0.1);
      console.log(
        `| ${label[kind]} | ${keys.toLocaleString('en')} | ${r.wallMs.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${ratio.toFixed(1)}× (size ${keys / 1000}×) | ${r.rssMiB.toFixed(0)} MiB | ${r.duplicates} |`,
      );
      if (r.duplicates !== 1) failed = true;
      if (kind === 'fast' && keys === 40_000 && r.cpuMs >= 1000) failed = true;
    }
  }
  console.log(
    `\n${path.basename(__filename)}: ${failed ? 'FAILED (a duplicate not found once, or the fast path over 1 s of CPU)' : 'every case found the duplicate once; the 40,000-key fast path took under 1 s of CPU'}`,
  );
  if (failed) process.exitCode = 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
