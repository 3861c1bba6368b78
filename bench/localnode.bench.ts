/**
 * The local graph-node's times, on the real gnd, Postgres, IPFS endpoint and anvil, with the demo
 * subgraph (DemoToken's Transfers and Approvals) deployed through the real graph CLI:
 * - gnd's first-run install (npm pack of the pinned package through an empty npm cache, integrity
 *   check, unpack), reported on its own;
 * - a first start on a new data folder, warm starts on the same folder (start() until gnd
 *   answers), and stops; target: warm start to ready ≤ 3 s;
 * - `graph deploy` returning → the first query answered with records; target ≤ 2 s;
 * - a new block → its records answered; target ≤ 2 s;
 * - deploy → synced with 1,000 and 10,000 airdropped Transfers, as events a second; target ≥ 1,000/s.
 * Each figure is printed with its target and the ratio to it (the baseline of the same run).
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/localnode.bench.ts` (starts its own anvil).
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../src/cli/graphNode';
import { installGnd } from '../src/core/localnode/gnd';
import { LocalGraphNode } from '../src/core/localnode/supervisor';
import { airdrop, deployDemoToken, makeActivity, writeDemoSubgraph, compileDemoToken } from '../scripts/demo/chain';
import { benchAnvil } from '../test/support/devnets';
import { linkNodeModules, removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../test/support/localGraph';

const WARM_RUNS = 3;
const NEW_BLOCK_RUNS = 5;
const EVENT_COUNTS = [1_000, 10_000];

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 20 ms until it is true; the time it took. */
async function timeUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  while (!(await probe().catch(() => false))) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  return performance.now() - started;
}

interface Row {
  what: string;
  figure: string;
  target?: string;
  /** How far inside the target (> 1 is better than the target). */
  ratio?: number;
}

/** A figure against a time target. */
const againstTime = (what: string, ms: number, targetMs?: number): Row => ({
  what,
  figure: seconds(ms),
  target: targetMs ? `≤ ${seconds(targetMs)}` : undefined,
  ratio: targetMs ? targetMs / ms : undefined,
});

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const scratch = scratchFolder('chaindeck-localnode-bench-');
  linkNodeModules(scratch);
  const rows: Row[] = [];
  let graph: LocalGraph | undefined;
  try {
    const [, install] = await timed(() => installGnd({ cacheDir: path.join(scratch, 'cache'), env: { ...process.env, npm_config_cache: path.join(scratch, 'npm-cache') } }));
    rmSync(path.join(scratch, 'cache'), { recursive: true, force: true });
    rows.push(againstTime('gnd first-run install (npm pack, empty npm cache; verify; unpack)', install));

    const dataDir = path.join(scratch, 'data');
    const node = new LocalGraphNode({ rpcUrl: anvil.url, dataDir, cacheDir: userCacheDir(process.env) });
    try {
      const [, first] = await timed(() => node.start());
      const [, firstStop] = await timed(() => node.stop());
      rows.push(againstTime('first start to ready (initdb, createdb, migrations)', first), againstTime('stop', firstStop));
      const warm: number[] = [];
      const stops: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        warm.push((await timed(() => node.start()))[1]);
        stops.push((await timed(() => node.stop()))[1]);
      }
      rows.push(againstTime(`warm start to ready (median of ${WARM_RUNS})`, median(warm), 3000), againstTime(`stop (median of ${WARM_RUNS})`, median(stops)));
    } finally {
      await node.stop();
    }

    graph = await startLocalGraph(anvil.url, { dataDir });
    const compiled = compileDemoToken();
    const g = graph;

    // The demo: the token and its everyday activity, deployed; then the first answer and new blocks.
    const token = await deployDemoToken(anvil.url, compiled);
    await makeActivity(anvil.url, token.address, compiled.abi);
    const demoDir = path.dirname(writeDemoSubgraph(path.join(scratch, 'demo'), token));
    const [{ deployment }, deployMs] = await timed(() => g.deploy(demoDir, 'bench/demo', 'v1'));
    const firstAnswer = await timeUntil('the first records', async () => (await g.query<{ transfers: unknown[] }>('bench/demo', '{ transfers(first: 1) { id } }')).transfers.length > 0);
    rows.push(againstTime('graph codegen + build + create + deploy (the CLI)', deployMs), againstTime('`graph deploy` returned → first query answered with records', firstAnswer, 2000));
    await g.waitSynced(deployment);
    const newBlock: number[] = [];
    for (let i = 0; i < NEW_BLOCK_RUNS; i++) {
      const { lastBlock } = await airdrop(anvil.url, token.address, 1, { abi: compiled.abi });
      newBlock.push(
        await timeUntil(
          `block ${lastBlock}'s records`,
          async () => (await g.query<{ transfers: unknown[] }>('bench/demo', `{ transfers(where: { blockNumber: "${lastBlock}" }) { id } }`)).transfers.length > 0,
        ),
      );
    }
    rows.push(againstTime(`a new block mined → its records answered (median of ${NEW_BLOCK_RUNS})`, median(newBlock), 2000));

    // Deploy → synced over many events: each count on a token of its own, airdropped before the deploy.
    for (const count of EVENT_COUNTS) {
      const own = await deployDemoToken(anvil.url, compiled);
      const { lastBlock, transactions } = await airdrop(anvil.url, own.address, count, { abi: compiled.abi });
      const dir = path.dirname(writeDemoSubgraph(path.join(scratch, `demo-${count}`), own));
      const name = `bench/airdrop-${count}`;
      const [deployed, cliMs] = await timed(() => g.deploy(dir, name, 'v1'));
      const [, syncMs] = await timed(() => g.waitSynced(deployed.deployment, lastBlock, 600_000));
      const events = count + own.events.transfers;
      const { transfers } = await g.query<{ transfers: unknown[] }>(name, '{ transfers(first: 1000, skip: 0) { id } }');
      if (transfers.length !== Math.min(events, 1000)) throw new Error(`${name} answered ${transfers.length} transfers`);
      const rate = events / (syncMs / 1000);
      rows.push({
        what: `${count.toLocaleString('en')} events in ${transactions} blocks: \`graph deploy\` returned → synced (the CLI took ${seconds(cliMs)})`,
        figure: `${seconds(syncMs)}, ${Math.round(rate).toLocaleString('en')} events/s`,
        target: '≥ 1,000 events/s',
        ratio: rate / 1000,
      });
    }
  } finally {
    await graph?.stop();
    removeScratch(scratch);
    await anvil.stop();
  }
  console.log('| what | figure | target | × target |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.what} | ${r.figure} | ${r.target ?? ''} | ${r.ratio !== undefined ? `${r.ratio.toFixed(1)}×` : ''} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
