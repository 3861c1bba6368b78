/**
 * Indexing speed over time, per deployment: blocks/s and triggers/s over a sliding window of
 * samples, and the time left to the chain head at that pace. graph-node writes in batches (its
 * index-node status may stand still for seconds, then jump), so a rate between two neighbouring
 * samples swings; one over a window of seconds reads as Ponder's and Envio's counters do. The
 * metrics' block moves with every block processed: 10 s follows a change of pace (cheap blocks,
 * then eth_call-heavy ones) within seconds; the status, which jumps, is read as batched.
 * Samples come from the metrics endpoint (local node: block, triggers) or, for other
 * graph-nodes, from the index-node status (latest block and chain head only: no triggers).
 */

export interface SpeedSample {
  /** When it was taken (ms since the epoch). */
  at: number;
  /** The last block the deployment processed. */
  block?: number;
  /** Triggers handled so far (a counter). */
  triggers?: number;
  chainHead?: number;
  synced?: boolean;
}

export interface Speed {
  blocksPerSecond?: number;
  triggersPerSecond?: number;
  /** Blocks left to the chain head. */
  behind?: number;
  /** Seconds to the chain head at the current pace: 0 when synced; undefined while unknown or stalled. */
  etaSeconds?: number;
  synced: boolean;
  /** Over how many seconds the rates were measured. */
  spanSeconds: number;
}

export interface SpeedOptions {
  /** How far back the rates look (default 10 s). */
  windowMs?: number;
  /** The most samples kept per deployment (default 120). */
  maxSamples?: number;
  /** The least span a rate is given over (default 1 s). */
  minSpanMs?: number;
  /**
   * The block moves in jumps (a graph-node's index-node status: its latest block advances when a
   * write batch is flushed, every GRAPH_STORE_WRITE_BATCH_DURATION, 300 s by default, while it
   * catches up): rates run to the last jump, and are unknown, not zero, before one is seen.
   */
  batched?: boolean;
}

export class SpeedTracker {
  private readonly series = new Map<string, SpeedSample[]>();
  private readonly windowMs: number;
  private readonly maxSamples: number;
  private readonly minSpanMs: number;
  private readonly batched: boolean;

  constructor(options: SpeedOptions = {}) {
    this.windowMs = options.windowMs ?? 10_000;
    this.maxSamples = options.maxSamples ?? 120;
    this.minSpanMs = options.minSpanMs ?? 1000;
    this.batched = options.batched ?? false;
  }

  add(deployment: string, sample: SpeedSample): void {
    let list = this.series.get(deployment);
    if (!list) this.series.set(deployment, (list = []));
    const last = list.at(-1);
    // A counter or block that went back (gnd restarted, a rewind): what came before says nothing of now.
    if (last && (sample.at < last.at || less(sample.block, last.block) || less(sample.triggers, last.triggers))) list.length = 0;
    list.push(sample);
    // Keep one sample at or before the window's start, so the span covers the whole window once it can.
    const from = sample.at - this.windowMs;
    let drop = 0;
    while (drop + 1 < list.length && list[drop + 1].at <= from) drop++;
    drop = Math.max(drop, list.length - this.maxSamples);
    if (drop > 0) list.splice(0, drop);
  }

  /** Only the deployments in `ids` are kept (the others were removed). */
  keep(ids: Iterable<string>): void {
    const wanted = new Set(ids);
    for (const id of [...this.series.keys()]) if (!wanted.has(id)) this.series.delete(id);
  }

  speed(deployment: string): Speed | undefined {
    const list = this.series.get(deployment);
    const last = list?.at(-1);
    if (!list || !last) return undefined;
    const first = list[0];
    // Batched: up to the last sample whose block moved (after it, the node has written nothing yet).
    let end = list.length - 1;
    if (this.batched) while (end > 0 && list[end].block === list[end - 1].block) end--;
    const to = list[end];
    const spanMs = to.at - first.at;
    const rate = (a?: number, b?: number) => (a !== undefined && b !== undefined && spanMs >= this.minSpanMs ? ((b - a) * 1000) / spanMs : undefined);
    const blocksPerSecond = rate(first.block, to.block);
    const triggersPerSecond = rate(first.triggers, to.triggers);
    const behind = last.chainHead !== undefined && last.block !== undefined ? Math.max(0, last.chainHead - last.block) : undefined;
    const synced = last.synced ?? behind === 0;
    let etaSeconds: number | undefined;
    if (synced || behind === 0) etaSeconds = 0;
    else if (behind !== undefined && blocksPerSecond !== undefined && blocksPerSecond > 0) etaSeconds = behind / blocksPerSecond;
    return { blocksPerSecond, triggersPerSecond, behind, etaSeconds, synced, spanSeconds: spanMs / 1000 };
  }
}

const less = (a?: number, b?: number) => a !== undefined && b !== undefined && a < b;

/** "12.3", "0.41", "1,204": a rate short enough for a tree row. */
export function rateText(perSecond: number): string {
  if (perSecond >= 100) return Math.round(perSecond).toLocaleString('en-US');
  if (perSecond >= 10) return perSecond.toFixed(1);
  return perSecond.toFixed(2);
}

/** "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h", "over a year". */
export function durationText(seconds: number): string {
  // Past a year the figure says nothing more (and a stray pace would print days by the quadrillion).
  if (!(seconds < 365 * 86_400)) return 'over a year';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/**
 * One short line: "8.4 blocks/s · 8.4 triggers/s · ETA 1 min 5 s", "synced", "0.00 blocks/s ·
 * stalled, 120 blocks behind", "120 blocks behind" (no rate yet); undefined when nothing is known.
 */
export function speedSummary(speed: Speed | undefined): string | undefined {
  if (!speed) return undefined;
  if (speed.synced) return 'synced';
  if (speed.blocksPerSecond === undefined) return speed.behind ? `${speed.behind.toLocaleString('en-US')} blocks behind` : undefined;
  const parts = [`${rateText(speed.blocksPerSecond)} blocks/s`];
  if (speed.triggersPerSecond !== undefined) parts.push(`${rateText(speed.triggersPerSecond)} triggers/s`);
  if (speed.etaSeconds !== undefined) parts.push(`ETA ${durationText(speed.etaSeconds)}`);
  else if (speed.behind !== undefined) parts.push(`stalled, ${speed.behind.toLocaleString('en-US')} blocks behind`);
  return parts.join(' · ');
}
