/**
 * The Nodes view: one item per configured node; expanding one shows its live facts (client
 * version, latest block, chain), each as a child. The facts come from NodeFacts, the cache the
 * status bar's poller refreshes too, so the tree redraws a node whenever its facts change and
 * its block number is the status bar's; expanding a node whose facts are older than the poll
 * interval asks it again. A node whose every fact failed shows an error icon and
 * the error's first line while collapsed, the full text in its tooltip, and one error row.
 */
import * as vscode from 'vscode';
import { shortError } from '../../core/nodes/health';
import { FACT_LABELS, factText, nodeDescription } from '../../core/nodes/labels';
import type { NodeConfig } from '../../core/nodes/model';
import type { Fact, LiveFacts } from '../../core/nodes/protocols';
import type { Settings } from '../kit/settings';
import type { NodeFacts, NodeHealth } from './facts';
import { nodeTooltip, protocolIcon } from './labels';
import type { NodeStore } from './store';

export interface NodeElement {
  kind: 'node';
  node: NodeConfig;
}

interface FactElement {
  kind: 'fact';
  id: string;
  label: string;
  fact: Fact;
}

interface NoteElement {
  kind: 'note';
  id: string;
  text: string;
  error?: boolean;
}

export type NodesTreeElement = NodeElement | FactElement | NoteElement;

export class NodesTree implements vscode.TreeDataProvider<NodesTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NodesTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The elements handed out, by node id: VS Code refreshes one node by its element object. */
  private readonly elements = new Map<string, NodeElement>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: NodeStore,
    private readonly facts: NodeFacts,
    private readonly settings: Settings,
  ) {
    this.subscriptions = [
      store.onDidChange(() => {
        facts.forget();
        this.changed.fire(undefined);
      }),
      // Whoever fetched them (this tree, the status bar's poller), new facts redraw their node.
      facts.onDidChange((id) => {
        const element = this.elements.get(id);
        if (element) this.changed.fire(element);
      }),
    ];
  }

  /** Fetches the facts of one node, or of all, again and redraws. */
  refresh(node?: NodeConfig): void {
    const nodes = node ? [node] : this.store.all();
    this.facts.forget(node?.id);
    for (const n of nodes) void this.facts.refresh(n);
    this.changed.fire(node ? this.elements.get(node.id) : undefined);
  }

  getChildren(element?: NodesTreeElement): NodesTreeElement[] | Promise<NodesTreeElement[]> {
    if (!element) {
      this.elements.clear();
      return this.store.all().map((node) => {
        const item: NodeElement = { kind: 'node', node };
        this.elements.set(node.id, item);
        // Collapsed nodes show their health too: ask each node once, in the background.
        if (!this.facts.get(node.id)) void this.facts.refresh(node);
        return item;
      });
    }
    if (element.kind !== 'node') return [];
    // Expanding a node shows facts no older than the status bar's poll interval (15 s when it is off).
    const maxAge = (this.settings.statusBarRefreshSeconds() || 15) * 1000;
    return this.facts.current(element.node, maxAge).then((health) => childrenOf(element.node, health));
  }

  getTreeItem(element: NodesTreeElement): vscode.TreeItem {
    switch (element.kind) {
      case 'node': {
        const { node } = element;
        const isDefault = this.store.isDefault(node);
        const health = this.facts.get(node.id);
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `node:${node.id}`;
        item.description = nodeDescription(node, isDefault);
        item.contextValue = isDefault ? 'node.default' : 'node';
        const tooltip = nodeTooltip(node, isDefault);
        if (health?.failure) {
          item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsIcon.errorForeground'));
          item.description = `${item.description} · ${shortError(health.failure)}`;
          tooltip.appendMarkdown('\n\n$(error) ');
          tooltip.appendText(health.failure);
        } else {
          item.iconPath = protocolIcon(node.protocol);
          const block = health?.facts.latestBlock;
          if (block && !('error' in block)) item.description = `${item.description} · #${block.value}`;
        }
        item.tooltip = tooltip;
        return item;
      }
      case 'fact': {
        const item = new vscode.TreeItem(element.label);
        item.id = element.id;
        item.description = factText(element.fact);
        if ('error' in element.fact) {
          item.tooltip = item.description;
          item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsIcon.errorForeground'));
        } else {
          item.tooltip = `${element.label}: ${item.description}`;
          item.iconPath = new vscode.ThemeIcon('info');
        }
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(element.text);
        item.id = element.id;
        item.tooltip = element.text;
        item.iconPath = new vscode.ThemeIcon(element.error ? 'error' : 'info', element.error ? new vscode.ThemeColor('problemsIcon.errorForeground') : undefined);
        return item;
      }
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

/** A node's rows: its one failure, else each fact (a fact the node refused keeps its own error). */
function childrenOf(node: NodeConfig, health: NodeHealth): NodesTreeElement[] {
  if (health.failure) return [{ kind: 'note', id: `${node.id}:error`, text: health.failure, error: true }];
  const names = (Object.keys(FACT_LABELS) as (keyof LiveFacts)[]).filter((name) => health.facts[name]);
  if (names.length === 0) {
    return [{ kind: 'note', id: `${node.id}:none`, text: 'No live facts for this protocol; use Call Method… to ask the node.' }];
  }
  return names.map((name) => ({ kind: 'fact', id: `${node.id}:${name}`, label: FACT_LABELS[name], fact: health.facts[name]! }));
}
