/**
 * Replay of a failing block, save → result, on the real gnd, Postgres, IPFS endpoint and anvil,
 * with the demo subgraph (DemoToken's Transfers and Approvals) whose handleApproval aborts: it
 * fails at the block of the first Approval (N). Each run "saves" a fixed mapping (a new version
 * string each time, so each is a new deployment) and times until block N's entity changes are
 * read from the debug deployment:
 * - baseline: what a user does by hand: the manifest grafted at N−1, then `graph codegen`,
 *   `graph build`, `graph create`, `graph deploy`, then the same wait and read;
 * - ours: runReplay (the mapping compiled alone by a warm asc, the build uploaded to IPFS and
 *   deployed over the admin port), the first run (cold compiler) and the median of warm runs.
 * Target: save → result ≤ 5 s. Ratios are against the baseline of the same run.
 *
 * `npm run bench replay` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/replay.bench.ts` (starts its own anvil).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AscWorker } from '../src/core/indexing/replay/ascWorker';
import { entityChanges } from '../src/core/indexing/replay/entities';
import { replayManifestText } from '../src/core/indexing/replay/manifest';
import { deployedSchema, planReplay, runReplay } from '../src/core/indexing/replay/replay';
import { schemaTables } from '../src/core/indexing/replay/schemaTables';
import { deployDemoToken, makeActivity, writeDemoSubgraph } from '../scripts/demo/chain';
import { benchAnvil } from '../test/support/devnets';
import { graphCli, linkNodeModules, removeScratch, scratchFolder, startLocalGraph } from '../test/support/localGraph';

const WARM_RUNS = 3;
const NAME = 'bench/demo';
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const BROKEN = `export function handleApproval(event: ApprovalEvent): void {\n  assert(false, 'approvals are not handled yet');\n}\n`;
const fixed = (version: number) => `export function handleApproval(event: ApprovalEvent): void {
  const approval = new Approval(event.transaction.hash.concatI32(event.logIndex.toI32()));
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value.plus(BigInt.fromI32(${version}));
  approval.blockNumber = event.block.number;
  approval.transactionHash = event.transaction.hash;
  approval.save();
}
`;

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const scratch = scratchFolder('chaindeck-replay-bench-');
  linkNodeModules(scratch);
  const graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  const project = path.join(scratch, 'demo');
  const asc = new AscWorker(project);
  try {
    const token = await deployDemoToken(anvil.url);
    await makeActivity(anvil.url, token.address, token.abi);
    const manifest = writeDemoSubgraph(project, token);
    const mapping = path.join(project, 'src', 'mapping.ts');
    const original = readFileSync(mapping, 'utf8').replace(/^import \{/m, "import { BigInt } from '@graphprotocol/graph-ts';\nimport {");
    const setMapping = (handleApproval: string) => writeFileSync(mapping, original.replace(/export function handleApproval[\s\S]*$/, handleApproval));
    setMapping(BROKEN);
    const { deployment: failed } = await graph.deploy(project, NAME);
    const status = await graph.waitStatus(failed, 'failed', (s) => s.health === 'failed');
    const block = status.fatalError!.block!;
    const plan = planReplay({
      projectDir: project,
      manifest,
      block,
      name: NAME,
      schema: readFileSync(path.join(project, 'schema.graphql'), 'utf8'),
      base: { deployment: failed, schema: await deployedSchema(graph.urls.ipfs, failed), queryUrl: `${graph.urls.graphql}/subgraphs/id/${failed}` },
    });
    if (plan.start.kind !== 'graft') throw new Error(`the demo should graft: ${plan.reason}`);
    console.log(`demo subgraph failed at block ${block}; ${plan.reason}`);

    // Baseline: the graph CLI's four steps on a grafted manifest, then the same wait and read.
    setMapping(fixed(1));
    const baseManifest = path.join(project, 'subgraph.replay.yaml');
    writeFileSync(baseManifest, replayManifestText(readFileSync(manifest, 'utf8'), plan.start));
    const b0 = performance.now();
    await graphCli(['codegen', 'subgraph.replay.yaml'], project);
    await graphCli(['build', 'subgraph.replay.yaml'], project);
    await graphCli(['create', '--node', graph.urls.admin, `${NAME}-baseline`], project);
    const { output } = await graphCli(['deploy', '--node', graph.urls.admin, '--ipfs', graph.urls.ipfs, `${NAME}-baseline`, 'subgraph.replay.yaml', '--version-label', 'v1'], project);
    const baseDeployment = /Build completed:\s+(Qm\w{44})/.exec(output)?.[1];
    if (!baseDeployment) throw new Error(`graph deploy printed no deployment id: ${output.slice(-1000)}`);
    await graph.waitStatus(baseDeployment, `at block ${block}`, (s) => (s.indexed ?? -1) >= block || s.health === 'failed', 120_000);
    const baseChanges = await entityChanges(
      schemaTables(readFileSync(path.join(project, 'schema.graphql'), 'utf8')),
      block,
      `${graph.urls.graphql}/subgraphs/id/${baseDeployment}`,
      plan.beforeUrl,
    );
    const baseline = performance.now() - b0;
    if (!baseChanges.changes.length) throw new Error('the baseline wrote no entity at the failing block');

    const fullBuild = async () => {
      await graphCli(['codegen'], project);
      await graphCli(['build'], project);
    };
    // The project's own build/ as a user has it after the failed deploy (the baseline built the replay manifest's).
    await fullBuild();
    const runs: number[] = [];
    const steps: string[] = [];
    for (let i = 0; i <= WARM_RUNS; i++) {
      setMapping(fixed(i + 2));
      const t0 = performance.now();
      const run = await runReplay({ plan, node: graph.urls, changed: 'mapping', fullBuild, asc: (args, signal) => asc.compile(args, signal) });
      const took = performance.now() - t0;
      if (run.outcome.kind !== 'indexed' || !run.outcome.changes.changes.length) throw new Error(`replay ${i} gave ${JSON.stringify(run.outcome).slice(0, 500)}`);
      runs.push(took);
      steps.push(`build ${run.timings.build} · deploy ${run.timings.deploy} · index ${run.timings.index} · read ${run.timings.read} ms`);
    }
    const warm = median(runs.slice(1));
    const row = (what: string, ms: number, detail = '') => `| ${what} | ${seconds(ms)} | ${(baseline / ms).toFixed(1)}× | ${ms <= 5000 ? 'within' : 'over'} 5 s | ${detail} |`;
    console.log(`\n| save → result | time | ratio to baseline | target | steps |\n|---|---|---|---|---|`);
    console.log(row('baseline: graph codegen + build + create + deploy', baseline));
    console.log(row('ours, first run (cold compiler)', runs[0], steps[0]));
    console.log(row(`ours, warm (median of ${WARM_RUNS})`, warm, steps[1 + runs.slice(1).indexOf(warm)]));
  } finally {
    asc.close();
    await graph.stop();
    await anvil.stop();
    removeScratch(scratch);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
