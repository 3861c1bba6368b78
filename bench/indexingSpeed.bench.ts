/**
 * The cost of watching indexing: events/s of the same 10,000 events (20 blocks of 500 Ticks of the
 * `profiled` fixture subgraph) indexed by fresh deployments on the real local graph-node, without
 * and with the editor's sampler reading the metrics endpoint at its interval
 * (SPEED_SAMPLE_INTERVAL_MS), in pairs whose order alternates so drift on a shared machine falls
 * on both sides. Each run: `graph deploy` returned → the index node says synced at the last block
 * (the same 100 ms status polling in both arms). The ratio is with / without, median of the pairs;
 * target: overhead ≤ 2 % (ratio ≥ 0.98). Beside it, what the sampler asks of gnd directly: reads,
 * the median time of one metrics read, and that time as a share of the indexing time. Since the
 * wall time of a run swings by tens of percent with other work on a shared machine, each run also
 * counts events per second of gnd's own CPU time (/proc), the cost the sampler could add to it.
 *
 * `node --import tsx bench/indexingSpeed.bench.ts` (starts its own anvil), or through
 * `npm run bench indexingSpeed`. CHAINDECK_BENCH_PAIRS sets the number of pairs (default 4).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { processesUsing } from '../test/support/processes';
import * as path from 'node:path';
import { fetchNodeMetrics } from '../src/core/indexing/speed/metrics';
import { SPEED_SAMPLE_INTERVAL_MS, SpeedSampler } from '../src/core/indexing/speed/sampler';
import { benchAnvil } from '../test/support/devnets';
import { removeScratch, scratchFolder, startLocalGraph } from '../test/support/localGraph';
import { deployProfiled, profiledProject } from '../test/support/profiled';

const PAIRS = Number(process.env.CHAINDECK_BENCH_PAIRS ?? 4);
const BLOCKS = 20;
const PER_BLOCK = 500;
const EVENTS = BLOCKS * PER_BLOCK;

/** gnd's CPU time so far (user + system, /proc/PID/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Run {
  sampled: boolean;
  seconds: number;
  eventsPerSecond: number;
  /** Events per second of gnd's own CPU time: what the sampler could take from it, less shaken by other work on the machine. */
  eventsPerCpuSecond: number;
  reads: number;
  readMs: number[];
}

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const scratch = scratchFolder('chaindeck-bench-speed-');
  const graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  const profiled = await deployProfiled(anvil.url);
  try {
    const last = await profiled.send('tick', BLOCKS, PER_BLOCK);
    const project = profiledProject(scratch, profiled.address, profiled.block);
    const manifest = path.join(project, 'subgraph.yaml');
    const original = readFileSync(manifest, 'utf8');
    let n = 0;
    const run = async (sampled: boolean): Promise<Run> => {
      // A new description makes a new manifest, so a new deployment that indexes from the start block.
      writeFileSync(manifest, original.replace(/^description: .*$/m, `description: bench run ${++n}`));
      const { deployment } = await graph.deploy(project, `bench/speed-${n}`, 'v1', { skipBuild: n > 1 });
      const gnd = processesUsing(graph.dataDir).find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'gnd');
      if (!gnd) throw new Error('gnd is not running');
      const cpuBefore = cpuSeconds(gnd);
      const started = performance.now();
      const readMs: number[] = [];
      const sampler = new SpeedSampler({ kind: 'metrics', url: graph.urls.metrics });
      if (sampled) sampler.start(() => undefined);
      await graph.waitSynced(deployment, last, 600_000);
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds(gnd) - cpuBefore;
      sampler.stop();
      // The time of one read, measured apart (not during the run, where it would add to it).
      if (sampled)
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          await fetchNodeMetrics(graph.urls.metrics);
          readMs.push(performance.now() - t);
        }
      const r = { sampled, seconds, eventsPerSecond: EVENTS / seconds, eventsPerCpuSecond: EVENTS / cpu, reads: sampler.reads, readMs };
      console.log(
        `run ${n}: ${sampled ? 'with sampler   ' : 'without sampler'} ${seconds.toFixed(2)} s, ${Math.round(r.eventsPerSecond)} events/s, gnd CPU ${cpu.toFixed(2)} s (${Math.round(r.eventsPerCpuSecond)} events/CPU-s)${sampled ? `, ${r.reads} reads` : ''}`,
      );
      return r;
    };
    const pairs: [Run, Run][] = [];
    for (let i = 0; i < PAIRS; i++) {
      // Alternate which goes first.
      if (i % 2 === 0) {
        const off = await run(false);
        pairs.push([off, await run(true)]);
      } else {
        const on = await run(true);
        pairs.push([await run(false), on]);
      }
    }
    const ratios = pairs.map(([off, on]) => on.eventsPerSecond / off.eventsPerSecond);
    const ratio = median(ratios);
    const cpuRatios = pairs.map(([off, on]) => on.eventsPerCpuSecond / off.eventsPerCpuSecond);
    const cpuRatio = median(cpuRatios);
    const ons = pairs.map(([, on]) => on);
    const readMs = median(ons.flatMap((r) => r.readMs));
    const reads = ons.reduce((s, r) => s + r.reads, 0);
    const onSeconds = ons.reduce((s, r) => s + r.seconds, 0);
    const duty = (reads * readMs) / 1000 / onSeconds;
    console.log('');
    console.log(`| what | figure |`);
    console.log(`|---|---|`);
    console.log(`| events indexed per run | ${EVENTS.toLocaleString('en')} in ${BLOCKS} blocks |`);
    console.log(`| without sampler, median | ${Math.round(median(pairs.map(([off]) => off.eventsPerSecond)))} events/s |`);
    console.log(`| with sampler every ${SPEED_SAMPLE_INTERVAL_MS} ms, median | ${Math.round(median(ons.map((r) => r.eventsPerSecond)))} events/s |`);
    console.log(`| with / without, per pair | ${ratios.map((r) => r.toFixed(3)).join(', ')} |`);
    console.log(`| **with / without, median of ${PAIRS} pairs** | **${ratio.toFixed(3)}** (target ≥ 0.980) |`);
    console.log(
      `| events per gnd CPU-second: without / with, median | ${Math.round(median(pairs.map(([off]) => off.eventsPerCpuSecond)))} / ${Math.round(median(ons.map((r) => r.eventsPerCpuSecond)))} |`,
    );
    console.log(`| events per gnd CPU-second, with / without, per pair | ${cpuRatios.map((r) => r.toFixed(3)).join(', ')} |`);
    console.log(`| **events per gnd CPU-second, with / without, median** | **${cpuRatio.toFixed(3)}** (target ≥ 0.980) |`);
    console.log(`| metrics reads while indexing | ${reads} in ${onSeconds.toFixed(1)} s |`);
    console.log(`| one metrics read (median) | ${readMs.toFixed(1)} ms |`);
    console.log(`| read time / indexing time | ${(duty * 100).toFixed(2)} % |`);
  } finally {
    profiled.close();
    await graph.stop();
    await anvil.stop();
    removeScratch(scratch);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
