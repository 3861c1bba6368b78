/**
 * The storage-range emulation against anvil behind the loopback proxy, which adds 50 ms to every
 * HTTP request (a stand-in for a network round trip): the one-slot-at-a-time reference vs the
 * fast scan, pages of max 10. Prints each page's time and HTTP requests (the block lookup
 * included) for both, checks that both printed the same page, and the ratios. The fast scan is
 * timed twice: with the block given by number (the lookup, the page's reads and the check of the
 * block go in one batch) and by hash (reads pinned by an EIP-1898 block hash, one batch too),
 * each the median of FAST_RUNS runs.
 *
 * Then the same sparse pages as users run them: `node dist/cli.js storage-range … --mode
 * emulate`, a process per page, timed from spawn to exit. The reference has no CLI switch, so its
 * figure with process start is its in-process time (measured in this run) plus the median start
 * of the same CLI (`--version`, also measured in this run): the ratio is CLI time against that.
 *
 * Two layouts, reported separately because they behave differently:
 *  - sparse, about one non-zero slot in twenty: the 10 × max cap (100 reads) usually ends a page
 *    with ~5 entries and nextKey null, so each page starts 100 slots after the previous start
 *    (where a user would go on);
 *  - dense, about one in four: pages end on max results and the next starts at nextKey.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/storage.bench.ts` (starts its own anvil).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { getAddress } from 'ethers';
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { word } from '../src/core/storage/inputs';
import { storageRange, toSpecOutput, type StorageRangeOptions } from '../src/core/storage/range';
import { benchAnvil } from '../test/support/devnets';
import { startProxy, type Proxy } from '../test/support/proxy';
import { prng } from '../test/support/prng';

const LATENCY_MS = 50;
const MAX = 10;
const PAGES = 5;
const SLOTS = 2000;
/** Fast pages take ~50 ms, so one noisy run (a busy machine) skews them: the median of a few. */
const FAST_RUNS = 5;

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url, auth: 'none' }, {}));

interface Layout {
  name: string;
  address: string;
  block: number;
  /** How the next page's start follows from a page. */
  next(start: bigint, nextKey: string | null): bigint | undefined;
}

async function writeLayout(direct: RpcClient, name: string, density: number, seed: number, tag: string): Promise<Omit<Layout, 'next'> & { hash: string; count: number }> {
  const rand = prng(seed);
  const address = getAddress(`0x${tag.padEnd(40, '0')}`);
  const calls = [];
  for (let s = 0; s < SLOTS; s++) {
    if (rand() < density) calls.push({ method: 'anvil_setStorageAt', params: [address, word(BigInt(s)), word(BigInt(s) * 31n + 1n)] });
  }
  for (let i = 0; i < calls.length; i += 500) {
    for (const item of await direct.batch(calls.slice(i, i + 500))) if ('error' in item) throw item.error;
  }
  await direct.call('evm_mine');
  const latest = await direct.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
  await direct.call('evm_mine'); // fixes the state of that block (anvil writes into the latest block until the next is mined)
  return { name, address, block: Number(BigInt(latest.number)), hash: latest.hash, count: calls.length };
}

interface PageRun {
  ms: number;
  trips: number;
  entries: number;
  nextKey: string | null;
  output: string;
}

async function page(proxy: Proxy, layout: Layout, start: bigint, emulation: StorageRangeOptions['emulation'], block: number | string = layout.block): Promise<PageRun> {
  const c = client(proxy.url);
  proxy.clear();
  const started = performance.now();
  const r = await storageRange(c, { block, address: layout.address, startKey: start.toString(16), maxResults: MAX, mode: 'emulate', emulation });
  const ms = performance.now() - started;
  return { ms, trips: proxy.requests.length, entries: Object.keys(r.storage).length, nextKey: r.nextKey, output: JSON.stringify(toSpecOutput(r)) };
}

async function median(run: () => Promise<PageRun>): Promise<PageRun> {
  const runs: PageRun[] = [];
  for (let i = 0; i < FAST_RUNS; i++) runs.push(await run());
  return runs.sort((a, b) => a.ms - b.ms)[Math.floor(FAST_RUNS / 2)];
}

interface Totals {
  reference: number;
  fast: number;
  fastByHash: number;
  maxRequests: number;
  worstRatio: number;
  /** Each page's start and reference run, for the CLI runs. */
  pages: { start: bigint; reference: PageRun }[];
}

async function bench(proxy: Proxy, layout: Layout & { hash: string }): Promise<Totals> {
  console.log(`\n${layout.name}`);
  console.log(`  page  start   entries  nextKey   one-by-one (requests)   fast, by number (requests)   fast, by hash (requests)`);
  let start: bigint | undefined = 0n;
  const t: Totals = { reference: 0, fast: 0, fastByHash: 0, maxRequests: 0, worstRatio: Infinity, pages: [] };
  const ms = (v: number) => `${v.toFixed(0).padStart(4)} ms`;
  for (let i = 1; i <= PAGES && start !== undefined; i++) {
    const ref = await page(proxy, layout, start, 'one-by-one');
    const quick = await median(() => page(proxy, layout, start!, 'fast'));
    const byHash = await median(() => page(proxy, layout, start!, 'fast', layout.hash));
    for (const r of [quick, byHash]) if (r.output !== ref.output) throw new Error(`${layout.name} page ${i}: the fast scan printed another page than the reference`);
    t.pages.push({ start, reference: ref });
    t.reference += ref.ms;
    t.fast += quick.ms;
    t.fastByHash += byHash.ms;
    t.maxRequests = Math.max(t.maxRequests, quick.trips, byHash.trips);
    t.worstRatio = Math.min(t.worstRatio, ref.ms / quick.ms);
    console.log(
      `  ${String(i).padStart(4)}  ${('0x' + start.toString(16)).padEnd(6)}  ${String(quick.entries).padStart(7)}  ${String(quick.nextKey).padEnd(8)}` +
        `  ${(ref.ms / 1000).toFixed(2).padStart(6)} s (${String(ref.trips).padStart(3)})      ` +
        `  ${ms(quick.ms)} (${quick.trips}) ${(ref.ms / quick.ms).toFixed(1).padStart(5)}×       ` +
        `  ${ms(byHash.ms)} (${byHash.trips}) ${(ref.ms / byHash.ms).toFixed(1).padStart(5)}×`,
    );
    start = layout.next(start, quick.nextKey);
  }
  console.log(
    `  total: one-by-one ${(t.reference / 1000).toFixed(2)} s; fast by number ${(t.fast / 1000).toFixed(2)} s (${(t.reference / t.fast).toFixed(1)}×), ` +
      `by hash ${(t.fastByHash / 1000).toFixed(2)} s (${(t.reference / t.fastByHash).toFixed(1)}×); at most ${t.maxRequests} requests per fast page`,
  );
  return t;
}

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const CLI_RUNS = 5;

/** Runs the built CLI; wall time from spawn to exit. */
function runCli(args: string[]): Promise<{ ms: number; code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code: code ?? 1, stdout, stderr }));
  });
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The sparse pages through the CLI, process start included, against the reference timed here. */
async function cliPages(proxy: Proxy, layout: Omit<Layout, 'next'>, inProcess: Totals): Promise<{ ratio: number; worstRatio: number; maxRequests: number }> {
  const starts: number[] = [];
  for (let i = 0; i < CLI_RUNS; i++) starts.push((await runCli(['--version'])).ms);
  const start = medianOf(starts);
  console.log(`\nsparse, through the CLI (node dist/cli.js storage-range … --mode emulate, a process per page; median of ${CLI_RUNS}); process start (--version): ${start.toFixed(0)} ms`);
  console.log(`  page  start   CLI (requests)   one-by-one + start   ratio, start included`);
  let cliTotal = 0;
  let refTotal = 0;
  let worstRatio = Infinity;
  let maxRequests = 0;
  for (let i = 0; i < inProcess.pages.length; i++) {
    const { start: slot, reference } = inProcess.pages[i];
    const runs: number[] = [];
    let requests = 0;
    for (let k = 0; k < CLI_RUNS; k++) {
      proxy.clear();
      const run = await runCli([
        'storage-range',
        '--rpc',
        proxy.url,
        '--block',
        String(layout.block),
        '--address',
        layout.address,
        '--start',
        slot.toString(16),
        '--max',
        String(MAX),
        '--mode',
        'emulate',
      ]);
      if (run.code !== 0) throw new Error(`the CLI failed: ${run.stderr}`);
      if (JSON.stringify(JSON.parse(run.stdout)) !== reference.output) throw new Error(`page ${i + 1}: the CLI printed another page than the reference`);
      runs.push(run.ms);
      requests = Math.max(requests, proxy.requests.length);
    }
    const ms = medianOf(runs);
    const refWithStart = reference.ms + start;
    cliTotal += ms;
    refTotal += refWithStart;
    worstRatio = Math.min(worstRatio, refWithStart / ms);
    maxRequests = Math.max(maxRequests, requests);
    console.log(
      `  ${String(i + 1).padStart(4)}  ${('0x' + slot.toString(16)).padEnd(6)}  ${ms.toFixed(0).padStart(5)} ms (${requests})  ${(refWithStart / 1000).toFixed(2).padStart(8)} s (${reference.trips})      ${(refWithStart / ms).toFixed(1).padStart(5)}×`,
    );
  }
  console.log(
    `  total: CLI ${(cliTotal / 1000).toFixed(2)} s, one-by-one + start ${(refTotal / 1000).toFixed(2)} s: ${(refTotal / cliTotal).toFixed(1)}×; at most ${maxRequests} requests per page`,
  );
  return { ratio: refTotal / cliTotal, worstRatio, maxRequests };
}

async function main(): Promise<void> {
  const build = await new Promise<number>((resolve) => spawn(process.execPath, ['esbuild.js'], { cwd: ROOT, stdio: 'inherit' }).on('close', (c) => resolve(c ?? 1)));
  if (build !== 0) throw new Error('node esbuild.js failed');
  const devnet = await benchAnvil();
  const anvil = devnet.url;
  const proxy = await startProxy({ target: anvil, delayMs: LATENCY_MS });
  try {
    const direct = client(anvil);
    const sparse = await writeLayout(direct, 'sparse', 1 / 20, 20, 'b0a1');
    const dense = await writeLayout(direct, 'dense', 1 / 4, 4, 'b0a2');
    console.log(`storage: emulated pages of max ${MAX} on anvil through a loopback proxy adding ${LATENCY_MS} ms per HTTP request; round trips include the block lookup`);
    const results = [
      await bench(proxy, {
        ...sparse,
        name: `sparse: ${sparse.count} non-zero of ${SLOTS} slots (~1 in 20); each page starts 100 slots on (nextKey is null)`,
        next: (start) => start + BigInt(10 * MAX),
      }),
      await bench(proxy, {
        ...dense,
        name: `dense: ${dense.count} non-zero of ${SLOTS} slots (~1 in 4); each page starts at the previous nextKey`,
        next: (_start, nextKey) => (nextKey === null ? undefined : BigInt(nextKey)),
      }),
    ];

    const cli = await cliPages(proxy, sparse, results[0]);

    // auto mode asks for the native method once per client: one more round trip on the first page.
    const c = client(proxy.url);
    for (const label of ['first', 'second']) {
      proxy.clear();
      const started = performance.now();
      const r = await storageRange(c, { block: sparse.block, address: sparse.address, maxResults: MAX });
      console.log(`\nauto mode, ${label} page on one client: ${(performance.now() - started).toFixed(0)} ms, ${proxy.requests.length} round trips (${r.mode})`);
    }
    const worst = Math.max(...results.map((r) => r.maxRequests), cli.maxRequests);
    const ratio = (r: Totals) => `${(r.reference / r.fast).toFixed(1)}× by number (worst page ${r.worstRatio.toFixed(1)}×), ${(r.reference / r.fastByHash).toFixed(1)}× by hash`;
    console.log(
      `\ntargets: one HTTP request per page (two at most): ${worst <= 1 ? 'met, one' : worst <= 2 ? 'met, two at most' : `NOT met (${worst} requests)`}; ` +
        `≥ 20× faster than one-by-one, process start included (sparse, CLI): ${cli.ratio.toFixed(1)}× (worst page ${cli.worstRatio.toFixed(1)}×) ${cli.worstRatio >= 20 ? 'met' : 'NOT met'}; ` +
        `in process: sparse ${ratio(results[0])}; dense ${ratio(results[1])}`,
    );
  } finally {
    closeIdleConnections();
    await proxy.close();
    await devnet.stop();
  }
}

main().catch((err: unknown) => {
  console.error(`storage bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
