/**
 * The local graph-node's times: gnd's first-run install (npm pack of the pinned package through
 * an empty npm cache, integrity check, unpack), a first start on a new data folder, warm starts
 * on the same folder (start() until gnd answers), and stops. Target: warm start to ready ≤ 3 s.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/localnode.bench.ts` (starts its own anvil).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { userCacheDir } from '../src/cli/graphNode';
import { installGnd } from '../src/core/localnode/gnd';
import { LocalGraphNode } from '../src/core/localnode/supervisor';
import { benchAnvil } from '../test/support/devnets';

const WARM_RUNS = 3;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const scratch = mkdtempSync(path.join(tmpdir(), 'chaindeck-localnode-bench-'));
  chmodSync(scratch, 0o711); // as root, Postgres runs as the postgres user, which must pass through it
  try {
    const [, install] = await timed(() => installGnd({ cacheDir: path.join(scratch, 'cache'), env: { ...process.env, npm_config_cache: path.join(scratch, 'npm-cache') } }));
    rmSync(path.join(scratch, 'cache'), { recursive: true, force: true });

    const dataDir = path.join(scratch, 'data');
    const node = new LocalGraphNode({ rpcUrl: anvil.url, dataDir, cacheDir: userCacheDir(process.env) });
    const rows: [string, number][] = [['gnd first-run install (npm pack, empty npm cache; verify; unpack)', install]];
    try {
      const [, first] = await timed(() => node.start());
      const [, firstStop] = await timed(() => node.stop());
      rows.push(['first start to ready (initdb, createdb, migrations)', first], ['stop', firstStop]);
      const warm: number[] = [];
      const stops: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        warm.push((await timed(() => node.start()))[1]);
        stops.push((await timed(() => node.stop()))[1]);
      }
      warm.sort((a, b) => a - b);
      stops.sort((a, b) => a - b);
      rows.push([`warm start to ready (median of ${WARM_RUNS}; target ≤ 3 s)`, warm[Math.floor(WARM_RUNS / 2)]], [`stop (median of ${WARM_RUNS})`, stops[Math.floor(WARM_RUNS / 2)]]);
    } finally {
      await node.stop();
    }
    console.log('| what | time |\n|---|---|');
    for (const [what, ms] of rows) console.log(`| ${what} | ${seconds(ms)} |`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await anvil.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
