/**
 * The status-bar item `$(pulse) Local anvil #1234`: the selected node's latest block, refreshed
 * every `chaindeck.statusBar.refreshSeconds` while the window has focus (an unfocused window
 * costs the node nothing). The selection is kept per workspace; without one, the default node.
 * It polls through NodeFacts, the cache the Nodes tree reads, and shows whatever facts arrive
 * there, whoever fetched them: the two never disagree.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { COMMANDS } from '../ids';
import type { Settings } from '../kit/settings';
import type { NodeFacts, NodeHealth } from './facts';
import type { NodeStore } from './store';

const SELECTED_KEY = 'chaindeck.statusBar.nodeId';

export class NodeStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('chaindeck.node', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<unknown> | undefined;
  private shownNodeId: string | undefined;
  private lastUpdate = 0;
  private visible = false;

  constructor(
    private readonly store: NodeStore,
    private readonly state: vscode.Memento,
    private readonly facts: NodeFacts,
    private readonly settings: Settings,
  ) {
    this.item.name = 'Chaindeck Node';
    this.item.command = COMMANDS.nodes.select;
    this.subscriptions.push(
      store.onDidChange(() => this.update()),
      facts.onDidChange((id) => {
        const node = this.node();
        const health = node?.id === id ? facts.get(id) : undefined;
        if (node && health && settings.statusBarRefreshSeconds() > 0) this.showHealth(node, health);
      }),
      vscode.window.onDidChangeWindowState((s) => (s.focused ? this.resume() : this.stop())),
      settings.onDidChange(['statusBarRefreshSeconds'], () => this.update()),
    );
    this.update();
  }

  /** The node shown: the one picked for this workspace, else the default node. */
  node(): NodeConfig | undefined {
    const id = this.state.get<string>(SELECTED_KEY);
    return (id ? this.store.byId(id) : undefined) ?? this.store.defaultNode();
  }

  async select(node: NodeConfig): Promise<void> {
    await this.state.update(SELECTED_KEY, node.id);
    this.update();
  }

  /** Fetches the latest block now, then again after the interval while the window is focused. */
  update(): void {
    this.stop();
    const node = this.node();
    if (!node || this.settings.statusBarRefreshSeconds() === 0) {
      this.visible = false;
      return this.item.hide();
    }
    const known = this.facts.get(node.id);
    if (known) this.showHealth(node, known);
    else if (this.shownNodeId !== node.id) this.show(node, 'pulse', undefined, `${node.name}: fetching the latest block…`);
    this.visible = true;
    this.item.show();
    this.lastUpdate = Date.now();

    const polling = this.facts.refresh(node);
    this.inFlight = polling;
    // The display follows the cache's change event; this only schedules the next poll.
    void polling.finally(() => {
      if (this.inFlight !== polling) return;
      this.inFlight = undefined;
      if (vscode.window.state.focused) this.schedule(this.settings.statusBarRefreshSeconds() * 1000);
    });
  }

  private showHealth(node: NodeConfig, health: NodeHealth): void {
    const block = health.facts.latestBlock;
    if (health.failure) this.show(node, 'warning', undefined, health.failure);
    else if (!block) this.show(node, 'pulse', undefined, `${node.name}: this protocol has no latest block`);
    else if ('error' in block) this.show(node, 'warning', undefined, block.error);
    else this.show(node, 'pulse', block.value, `${node.name}: latest block ${block.value} at ${new Date(health.at).toLocaleTimeString()}`);
  }

  /** Back in focus: update when the interval has passed, not on every switch of windows. */
  private resume(): void {
    if (this.timer || this.inFlight) return;
    const seconds = this.settings.statusBarRefreshSeconds();
    if (seconds > 0) this.schedule(Math.max(0, this.lastUpdate + seconds * 1000 - Date.now()));
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, delayMs);
  }

  /** What the item shows now (extension-host tests read it). */
  shown(): { text: string; tooltip: string; visible: boolean } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? ''), visible: this.visible };
  }

  private show(node: NodeConfig, icon: string, block: string | undefined, detail: string): void {
    this.shownNodeId = node.id;
    this.item.text = `$(${icon}) ${node.name}${block ? ` #${block}` : ''}`;
    this.item.tooltip = `${detail}\nClick to choose the node shown here.`;
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A fetch under way is the cache's (the tree may wait on it too): let it finish, unwatched.
    this.inFlight = undefined;
  }

  dispose(): void {
    this.stop();
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
