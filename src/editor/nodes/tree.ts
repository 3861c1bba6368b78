/**
 * The Nodes view: one item per configured node; expanding one fetches its live facts (client
 * version, latest block, chain), each shown as a child, a failed one as an error item with its
 * message. Facts are kept until refreshed, so collapsing and expanding does not call the node.
 */
import * as vscode from 'vscode';
import type { Fact, LiveFacts, NodeConfig } from '../../core/nodes';
import { redactText } from '../../core/redact';
import { factsOf } from './calls';
import { nodeDescription, nodeTooltip, protocolIcon } from './labels';
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

const FACT_LABELS: Record<keyof LiveFacts, string> = {
  clientVersion: 'Client version',
  latestBlock: 'Latest block',
  chainId: 'Chain',
};

export class NodesTree implements vscode.TreeDataProvider<NodesTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NodesTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The elements handed out, by node id: VS Code refreshes one node by its element object. */
  private readonly elements = new Map<string, NodeElement>();
  private readonly facts = new Map<string, { promise: Promise<NodesTreeElement[]>; cancel: AbortController }>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: NodeStore) {
    this.subscription = store.onDidChange(() => this.refresh());
  }

  /** Forgets fetched facts, of one node or of all, and redraws. */
  refresh(node?: NodeConfig): void {
    const element = node && this.elements.get(node.id);
    for (const [id, entry] of this.facts) {
      if (!node || id === node.id) {
        entry.cancel.abort();
        this.facts.delete(id);
      }
    }
    this.changed.fire(element);
  }

  getChildren(element?: NodesTreeElement): NodesTreeElement[] | Promise<NodesTreeElement[]> {
    if (!element) {
      this.elements.clear();
      return this.store.all().map((node) => {
        const item: NodeElement = { kind: 'node', node };
        this.elements.set(node.id, item);
        return item;
      });
    }
    if (element.kind !== 'node') return [];
    let entry = this.facts.get(element.node.id);
    if (!entry) {
      const cancel = new AbortController();
      entry = { promise: this.fetchFacts(element.node, cancel.signal), cancel };
      this.facts.set(element.node.id, entry);
    }
    return entry.promise;
  }

  getTreeItem(element: NodesTreeElement): vscode.TreeItem {
    switch (element.kind) {
      case 'node': {
        const { node } = element;
        const isDefault = this.store.isDefault(node);
        const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `node:${node.id}`;
        item.iconPath = protocolIcon(node.protocol);
        item.description = nodeDescription(node, isDefault);
        item.tooltip = nodeTooltip(node, isDefault);
        item.contextValue = isDefault ? 'node.default' : 'node';
        return item;
      }
      case 'fact': {
        const item = new vscode.TreeItem(element.label);
        item.id = element.id;
        if ('error' in element.fact) {
          item.description = element.fact.error;
          item.tooltip = element.fact.error;
          item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsIcon.errorForeground'));
        } else {
          const raw = typeof element.fact.raw === 'string' && element.fact.raw !== element.fact.value ? ` (${element.fact.raw})` : '';
          item.description = `${element.fact.value}${raw}`;
          item.tooltip = `${element.label}: ${element.fact.value}${raw}`;
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

  private async fetchFacts(node: NodeConfig, signal: AbortSignal): Promise<NodesTreeElement[]> {
    try {
      const facts = await factsOf(this.store, node, signal);
      const names = (Object.keys(FACT_LABELS) as (keyof LiveFacts)[]).filter((name) => facts[name]);
      if (names.length === 0) {
        return [{ kind: 'note', id: `${node.id}:none`, text: 'No live facts for this protocol; use Call Method… to ask the node.' }];
      }
      return names.map((name) => ({ kind: 'fact', id: `${node.id}:${name}`, label: FACT_LABELS[name], fact: facts[name]! }));
    } catch (error) {
      // Errors become an item: the tree must never throw at the user.
      const text = redactText(error instanceof Error ? error.message : String(error));
      return [{ kind: 'note', id: `${node.id}:error`, text, error: true }];
    }
  }

  dispose(): void {
    this.subscription.dispose();
    for (const entry of this.facts.values()) entry.cancel.abort();
    this.changed.dispose();
  }
}
