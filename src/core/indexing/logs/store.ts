/**
 * The log entries kept per deployment: a ring (the oldest go first once it is full), read through
 * filters a page at a time, and followed (each new entry told to whoever listens).
 */
import { levelRank, type EntryLevel, type LogEntry } from './entry';

/** How many entries a deployment keeps by default (a busy mapping logs thousands per minute). */
export const DEFAULT_CAPACITY = 50_000;
/** How many handler names a filter offers at most (a node may name any number). */
const MAX_HANDLERS = 500;

export interface LogFilter {
  /** This level and above. */
  level?: EntryLevel;
  /** Exactly this handler. */
  handler?: string;
  fromBlock?: number;
  toBlock?: number;
  /** Text the message, handler, data source or transaction holds (case-insensitive). */
  text?: string;
}

/** A filter as a test of one entry (the text lowered once, not per entry). */
export function matcher(filter: LogFilter): (entry: LogEntry) => boolean {
  const rank = filter.level ? levelRank(filter.level) : 0;
  const needle = filter.text?.toLowerCase();
  const has = (text: string | undefined) => text !== undefined && text.toLowerCase().includes(needle!);
  return (entry) =>
    levelRank(entry.level) >= rank &&
    (!filter.handler || entry.handler === filter.handler) &&
    (filter.fromBlock === undefined || (entry.block !== undefined && entry.block >= filter.fromBlock)) &&
    (filter.toBlock === undefined || (entry.block !== undefined && entry.block <= filter.toBlock)) &&
    (!needle || has(entry.message) || has(entry.handler) || has(entry.dataSource) || has(entry.tx));
}

export function matches(entry: LogEntry, filter: LogFilter): boolean {
  return matcher(filter)(entry);
}

/** A fixed-size ring of one deployment's entries. */
class Ring {
  private readonly items: LogEntry[] = [];
  private start = 0;
  /** How many entries were dropped to make room. */
  dropped = 0;

  constructor(private readonly capacity: number) {}

  push(entry: LogEntry): void {
    if (this.items.length < this.capacity) this.items.push(entry);
    else {
      this.items[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
      this.dropped++;
    }
  }

  *oldestFirst(): Iterable<LogEntry> {
    for (let i = 0; i < this.items.length; i++) yield this.items[(this.start + i) % this.items.length];
  }

  get size(): number {
    return this.items.length;
  }
}

export interface LogPage {
  entries: LogEntry[];
  /** How many entries match the filter in all. */
  total: number;
}

type Listener = (entry: LogEntry) => void;

export class LogStore {
  private readonly rings = new Map<string, Ring>();
  private readonly listeners = new Set<Listener>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  add(entry: LogEntry): void {
    let ring = this.rings.get(entry.deployment);
    if (!ring) this.rings.set(entry.deployment, (ring = new Ring(this.capacity)));
    ring.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  /** Tells `listener` each entry added from now on; the result stops it. */
  follow(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The matching entries of a deployment, oldest first, `limit` from `offset` on (`offset` 'last': the newest `limit`). */
  page(deployment: string, filter: LogFilter, offset: number | 'last' = 0, limit = 500): LogPage {
    const test = matcher(filter);
    const entries: LogEntry[] = [];
    let total = 0;
    for (const entry of this.rings.get(deployment)?.oldestFirst() ?? []) {
      if (!test(entry)) continue;
      if (offset === 'last') {
        entries.push(entry);
        if (entries.length > limit) entries.shift();
      } else if (total >= offset && entries.length < limit) entries.push(entry);
      total++;
    }
    return { entries, total };
  }

  /** The handlers a deployment's entries name, sorted (for a filter's choices): the first `max` (a subgraph has a few dozen). */
  handlers(deployment: string, max = MAX_HANDLERS): string[] {
    const names = new Set<string>();
    for (const entry of this.rings.get(deployment)?.oldestFirst() ?? []) {
      if (entry.handler) names.add(entry.handler);
      if (names.size >= max) break;
    }
    return [...names].sort();
  }

  size(deployment: string): number {
    return this.rings.get(deployment)?.size ?? 0;
  }

  dropped(deployment: string): number {
    return this.rings.get(deployment)?.dropped ?? 0;
  }

  clear(deployment?: string): void {
    if (deployment === undefined) this.rings.clear();
    else this.rings.delete(deployment);
  }
}
