/**
 * A captured subgraph test's times, on the real anvil, graph CLI, gnd and Postgres, with the
 * demo's 1,006 Transfers (the token's mint, its everyday activity, an airdrop of 1,000) and its
 * two Approvals:
 * - `captureTest` over the whole range (a local graph-node behind the recording gateway, the
 *   deploy, indexing, the entities read, the file checked by gnd), with the JSON-RPC requests
 *   graph-node sent through the gateway;
 * - the captured file run by the test runner (`gnd test`, the subgraph already built, a private
 *   Postgres started before and not counted); target ≤ 10 s.
 * Each figure is printed with its target and the ratio to it.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/gndtest.bench.ts` (starts its own anvil).
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../src/cli/graphNode';
import { captureTest } from '../src/core/gndtest/capture/capture';
import { startTestDatabase } from '../src/core/gndtest/database';
import { runSubgraphTests } from '../src/core/gndtest/run';
import { resolveGnd } from '../src/core/localnode/gnd';
import { setUpDemoChain, writeDemoSubgraph } from '../scripts/demo/chain';
import { benchAnvil } from '../test/support/devnets';
import { linkNodeModules, removeScratch, scratchFolder } from '../test/support/localGraph';

const AIRDROP = 1_000;
const RUN_TARGET_MS = 10_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const scratch = scratchFolder('chaindeck-gndtest-bench-');
  linkNodeModules(scratch);
  const rows: [string, string, string, string][] = [];
  try {
    const gnd = (await resolveGnd({ cacheDir: userCacheDir(process.env) })).path;
    const chain = await setUpDemoChain(anvil.url, AIRDROP);
    const manifest = writeDemoSubgraph(path.join(scratch, 'demo'), chain);
    const [captured, captureMs] = await timed(() => captureTest({ manifest, rpcUrl: anvil.url, from: chain.startBlock, to: chain.lastBlock, gnd, cacheDir: userCacheDir(process.env) }));
    if (captured.events !== chain.events.transfers + chain.events.approvals)
      throw new Error(`captured ${captured.events} events, the chain has ${chain.events.transfers + chain.events.approvals}`);
    rows.push([
      `captureTest: blocks ${chain.startBlock}–${chain.lastBlock}, ${chain.events.transfers} Transfers + ${chain.events.approvals} Approvals → ${captured.blocks} blocks, ${captured.entities} entities, ${(statSync(captured.file).size / 1024).toFixed(0)} KiB`,
      seconds(captureMs),
      '',
      `${captured.roundTrips} requests through the gateway`,
    ]);

    const database = await startTestDatabase();
    try {
      const [[result], runMs] = await timed(() => runSubgraphTests({ manifest, files: [captured.file], gnd, postgresUrl: database.url, skipBuild: true }));
      if (!result?.passed) throw new Error(`the captured test failed: ${result?.error ?? JSON.stringify(result?.assertions.find((a) => !a.passed)?.query)}`);
      const assertions = (JSON.parse(readFileSync(captured.file, 'utf8')) as { assertions: unknown[] }).assertions.length;
      rows.push([`the captured file run by gnd test (${assertions} assertions; built before)`, seconds(runMs), `≤ ${seconds(RUN_TARGET_MS)}`, `${(RUN_TARGET_MS / runMs).toFixed(1)}×`]);
    } finally {
      await database.stop();
    }
  } finally {
    await anvil.stop();
    removeScratch(scratch);
  }
  console.log('| what | figure | target | × target / notes |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
