/**
 * The sampler behind the speed shown in the editor (and measured by the bench): every interval,
 * one bounded read of the node, each deployment's block, triggers and chain head fed to a
 * SpeedTracker. The local node is read through its metrics endpoint (one GET of every
 * deployment at once); another graph-node, whose metrics port is not known, through its
 * index-node status (latest block and chain head: blocks/s and an ETA, no triggers; coarse, as
 * graph-node moves that block only when it writes a batch, every 300 s by default while it
 * catches up: gnd 0.45.0 reported block 0 for the whole of a 20 s sync of 300 blocks). One read at
 * a time: the next is timed from the end of the last, so a slow node is never asked twice at once.
 */
import { fetchStatuses, type DeploymentStatus } from '../../localnode/status';
import { fetchNodeMetrics, type NodeMetrics } from './metrics';
import { SpeedTracker, type SpeedSample } from './speed';

/** How often the editor samples while a deployment indexes: the bench measures its overhead at this interval. */
export const SPEED_SAMPLE_INTERVAL_MS = 2000;

export type SpeedSource = { kind: 'metrics'; url: string } | { kind: 'status'; indexNodeUrl: string };

export interface SamplerOptions {
  intervalMs?: number;
  /** Bound of one read. */
  timeoutMs?: number;
  tracker?: SpeedTracker;
  now?: () => number;
}

export class SpeedSampler {
  readonly tracker: SpeedTracker;
  /** The last metrics read (metrics source only): the profile is made from them. */
  metrics?: NodeMetrics;
  /** The last statuses read (status source only). */
  statuses?: DeploymentStatus[];
  /** Why the last read failed, if it did. */
  problem?: string;
  /** Reads made, for the bench and tests. */
  reads = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private running = false;
  private reading?: Promise<void>;
  /** Runs started, so a read that outlives its run ends it. */
  private runs = 0;
  private abort?: AbortController;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: SpeedSource,
    options: SamplerOptions = {},
  ) {
    // The index-node status moves in jumps, minutes apart while a deployment catches up; the metrics block by block.
    this.tracker = options.tracker ?? new SpeedTracker(source.kind === 'status' ? { windowMs: 15 * 60_000, batched: true } : { windowMs: 10_000 });
    this.intervalMs = options.intervalMs ?? SPEED_SAMPLE_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  /**
   * One read now; resolves once its samples are in the tracker (a failed read is kept in `problem`,
   * not thrown). A read already under way is joined, not doubled: the node is asked once, and an
   * earlier read landing after a later one would look like a block that went back and wipe the rates.
   */
  sample(signal?: AbortSignal): Promise<void> {
    if (this.reading) return this.reading;
    const reading = this.read(signal).finally(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    return (this.reading = reading);
  }

  private async read(signal?: AbortSignal): Promise<void> {
    this.reads++;
    const at = this.now();
    try {
      if (this.source.kind === 'metrics') {
        const metrics = await fetchNodeMetrics(this.source.url, signal, this.timeoutMs);
        this.metrics = metrics;
        for (const d of metrics.deployments.values()) {
          this.tracker.add(d.deployment, { at, block: d.head, triggers: d.triggers, chainHead: d.network === undefined ? undefined : metrics.chainHeads.get(d.network), synced: d.synced });
        }
        this.tracker.keep(metrics.deployments.keys());
      } else {
        const statuses = await fetchStatuses(this.source.indexNodeUrl, signal);
        this.statuses = statuses;
        for (const s of statuses) this.tracker.add(s.deployment, statusSample(s, at));
        this.tracker.keep(statuses.map((s) => s.deployment));
      }
      this.problem = undefined;
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
  }

  /** Samples every interval until stop(); `onSample` after each read, and whether to go on (false stops it). */
  start(onSample: () => boolean | void): void {
    if (this.running) return;
    this.running = true;
    // A read of an earlier run may still be under way (stop() then start() within it): it ends that run, not this one.
    const run = ++this.runs;
    const tick = async () => {
      this.abort = new AbortController();
      await this.sample(this.abort.signal);
      if (!this.running || run !== this.runs) return;
      if (onSample() === false) return this.stop();
      this.timer = setTimeout(() => void tick(), this.intervalMs);
    };
    void tick();
  }

  get active(): boolean {
    return this.running;
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort?.abort();
    // The aborted read is no read to join.
    this.reading = undefined;
  }
}

/** What an index-node status says of speed: the latest block and the chain head. */
export function statusSample(s: DeploymentStatus, at: number): SpeedSample {
  return { at, block: s.indexed, chainHead: s.chainHead, synced: s.synced };
}
