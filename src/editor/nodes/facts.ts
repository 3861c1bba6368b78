/**
 * The one source of a node's live facts (latest block, chain, client version) in the editor:
 * the status bar's poller and the Nodes tree both read this cache, and it fires when a node's
 * facts change, so the tree's block number is the status bar's. One fetch per node at a time;
 * a failure is logged once when it starts (or its text changes), not on every poll.
 */
import * as vscode from 'vscode';
import { commonFailure } from '../../core/nodes/health';
import type { NodeConfig } from '../../core/nodes/model';
import type { LiveFacts } from '../../core/nodes/protocols';
import { errorText } from '../kit/errors';
import type { Log } from '../log';
import { factsOf } from './calls';
import type { NodeStore } from './store';

export interface NodeHealth {
  facts: LiveFacts;
  /** Set when the node could not be asked at all, or every fact failed: the one error text. */
  failure?: string;
  /** When the facts arrived (ms since 1970). */
  at: number;
}

export class NodeFacts implements vscode.Disposable {
  private readonly states = new Map<string, NodeHealth>();
  private readonly inFlight = new Map<string, { promise: Promise<NodeHealth>; cancel: AbortController }>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with a node's id when its facts changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly store: NodeStore,
    private readonly log?: Log,
  ) {}

  /** The last facts fetched for the node, if any. */
  get(nodeId: string): NodeHealth | undefined {
    return this.states.get(nodeId);
  }

  isFetching(nodeId: string): boolean {
    return this.inFlight.has(nodeId);
  }

  /** Fetches the node's facts now (joining a fetch already under way). Never rejects. */
  refresh(node: NodeConfig): Promise<NodeHealth> {
    const running = this.inFlight.get(node.id);
    if (running) return running.promise;
    const cancel = new AbortController();
    const promise = this.fetch(node, cancel.signal).finally(() => {
      if (this.inFlight.get(node.id)?.cancel === cancel) this.inFlight.delete(node.id);
    });
    this.inFlight.set(node.id, { promise, cancel });
    return promise;
  }

  /** The cached facts while younger than `maxAgeMs`, else a fetch. */
  current(node: NodeConfig, maxAgeMs = Infinity): Promise<NodeHealth> {
    const known = this.states.get(node.id);
    return known && Date.now() - known.at <= maxAgeMs ? Promise.resolve(known) : this.refresh(node);
  }

  /** Drops the facts of one node or all (a fetch under way is stopped), e.g. when a node changed. */
  forget(nodeId?: string): void {
    for (const [id, entry] of this.inFlight) {
      if (nodeId === undefined || id === nodeId) {
        entry.cancel.abort();
        this.inFlight.delete(id);
      }
    }
    if (nodeId === undefined) this.states.clear();
    else this.states.delete(nodeId);
  }

  private async fetch(node: NodeConfig, signal: AbortSignal): Promise<NodeHealth> {
    let health: NodeHealth;
    try {
      const facts = await factsOf(this.store, node, signal);
      health = { facts, failure: commonFailure(facts), at: Date.now() };
    } catch (error) {
      health = { facts: {}, failure: errorText(error), at: Date.now() };
    }
    if (signal.aborted) return health;
    const before = this.states.get(node.id);
    if (health.failure && health.failure !== before?.failure) this.log?.error(`${node.name}: ${health.failure}`);
    else if (!health.failure && before?.failure) this.log?.info(`${node.name}: answering again`);
    this.states.set(node.id, health);
    this.changed.fire(node.id);
    return health;
  }

  dispose(): void {
    this.forget();
    this.changed.dispose();
  }
}
