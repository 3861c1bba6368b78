/**
 * The Subgraphs view: the hosted subgraph records, each with its health from `_meta` ("block
 * 1234 · healthy", "indexing errors", or why it could not be asked), and, separately, every
 * subgraph.yaml of the workspace with its data sources and their handlers; a handler opens the
 * mapping at its function. Health is asked once per record and kept until refreshed.
 */
import * as vscode from 'vscode';
import { displaySubgraphUrl, type SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { COMMANDS } from '../../ids';
import { errorText } from '../../kit/errors';
import { manifestLabel, type Manifests } from '../manifests';
import type { SubgraphStore } from './store';
import type { LocalNode } from '../localnode/localNode';
import { deploymentDetails, deploymentItem, localNodeItem } from '../localnode/items';
import type { SubgraphsElement } from './element';
import type { IndexingSpeed } from '../speed/speed';

/** What the tree says about a record's health. */
export interface HealthState {
  text: string;
  error: boolean;
}

export class SubgraphsTree implements vscode.TreeDataProvider<SubgraphsElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SubgraphsElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly health = new Map<string, HealthState>();
  private readonly asking = new Map<string, AbortController>();
  private readonly subscriptions: vscode.Disposable[];
  private speed?: IndexingSpeed;

  constructor(
    private readonly store: SubgraphStore,
    private readonly manifests: Manifests,
    private readonly local?: LocalNode,
  ) {
    this.subscriptions = [store.onDidChange(() => this.refresh()), manifests.onDidChange(() => this.changed.fire(undefined))];
    if (local) this.subscriptions.push(local.onDidChange(() => this.changed.fire(undefined)));
  }

  /** Shows each local deployment's indexing speed, redrawn with every sample. */
  setSpeed(speed: IndexingSpeed): void {
    this.speed = speed;
    this.subscriptions.push(speed.onDidChange(() => this.changed.fire(undefined)));
  }

  /** Forgets the health of every record, and redraws. */
  refresh(): void {
    for (const cancel of this.asking.values()) cancel.abort();
    this.asking.clear();
    this.health.clear();
    this.changed.fire(undefined);
  }

  /** The health as last asked (undefined while asking): for tests and tooltips. */
  healthOf(record: SubgraphRecord): HealthState | undefined {
    return this.health.get(record.id);
  }

  async getChildren(element?: SubgraphsElement): Promise<SubgraphsElement[]> {
    if (!element) {
      const groups: SubgraphsElement[] = [];
      const manifests = (await this.manifests.all()).length > 0;
      // The local graph-node is for the workspace's subgraphs: shown with them, or while it runs.
      if (this.local && (manifests || this.local.state.kind !== 'stopped')) groups.push({ kind: 'localNode' });
      if (this.store.hosted().length) groups.push({ kind: 'group', group: 'records' });
      if (manifests) groups.push({ kind: 'group', group: 'manifests' });
      // Nothing at all: the view's welcome content offers Add and Initialise.
      return groups;
    }
    switch (element.kind) {
      case 'localNode':
        return (this.local?.deployments() ?? []).map((deployment) => ({ kind: 'localDeployment', deployment }));
      case 'localDeployment':
        return deploymentDetails(element.deployment, this.speed?.speedOf(element.deployment.id));
      case 'group':
        return element.group === 'records'
          ? this.store.hosted().map((record) => ({ kind: 'record', record }))
          : (await this.manifests.all()).map((manifest) => ({ kind: 'manifest', manifest }));
      case 'record':
        return this.details(element.record);
      case 'manifest':
        return (await this.manifests.summary(element.manifest)).dataSources.map((dataSource, index) => ({ kind: 'dataSource', manifest: element.manifest, dataSource, index }));
      case 'dataSource':
        return element.dataSource.handlers.map((handler, index) => ({ kind: 'handler', manifest: element.manifest, dataSource: element.dataSource, handler, index }));
      default:
        return [];
    }
  }

  getTreeItem(element: SubgraphsElement): vscode.TreeItem {
    switch (element.kind) {
      case 'localNode':
        return localNodeItem(this.local!);
      case 'localDeployment':
        return deploymentItem(element.deployment, this.speed?.speedOf(element.deployment.id));
      case 'group': {
        const records = element.group === 'records';
        const item = new vscode.TreeItem(records ? 'Hosted subgraphs' : 'Workspace subgraph.yaml', vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${element.group}`;
        item.contextValue = `subgraphs.group.${element.group}`;
        return item;
      }
      case 'record':
        return this.recordItem(element.record);
      case 'detail': {
        const item = new vscode.TreeItem(element.label);
        item.id = element.id;
        item.description = element.description;
        item.tooltip = element.description ? `${element.label}: ${element.description}` : element.label;
        item.iconPath = new vscode.ThemeIcon(element.icon);
        item.command = element.command;
        return item;
      }
      case 'manifest': {
        const item = new vscode.TreeItem(manifestLabel(element.manifest), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `manifest:${element.manifest.toString()}`;
        item.resourceUri = element.manifest;
        item.iconPath = new vscode.ThemeIcon('file-code');
        const record = this.store.recordForManifest(element.manifest);
        item.description = record ? `→ ${record.name}` : undefined;
        item.tooltip = `${element.manifest.fsPath}${record ? `\nDeploys to ${record.name}` : ''}`;
        item.contextValue = 'subgraphs.manifest';
        return item;
      }
      case 'dataSource': {
        const ds = element.dataSource;
        const item = new vscode.TreeItem(ds.name ?? `data source ${element.index}`, ds.handlers.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `ds:${element.manifest.toString()}:${ds.template ? 't' : 'd'}${element.index}`;
        const where = [ds.network, ds.startBlock !== undefined ? `from block ${ds.startBlock}` : undefined, ds.template ? 'template' : undefined].filter(Boolean);
        item.description = where.join(' · ');
        item.tooltip = [ds.name, ds.kind, ds.address && `address ${ds.address}`, ...where].filter(Boolean).join('\n');
        item.iconPath = new vscode.ThemeIcon(ds.template ? 'symbol-interface' : 'symbol-class');
        item.contextValue = 'subgraphs.dataSource';
        return item;
      }
      case 'handler': {
        const { handler, dataSource } = element;
        const item = new vscode.TreeItem(handler.handler);
        item.id = `handler:${element.manifest.toString()}:${dataSource.name}:${element.index}`;
        item.description = handler.trigger ?? `${handler.kind} handler`;
        item.tooltip = `${handler.kind} handler ${handler.handler}${handler.trigger ? `\n${handler.trigger}` : ''}\nin ${dataSource.mappingFile ?? 'the mapping'}`;
        item.iconPath = new vscode.ThemeIcon('symbol-method');
        item.contextValue = 'subgraphs.handler';
        if (dataSource.mappingFile) {
          item.command = { command: COMMANDS.subgraphs.openHandler, title: 'Open Handler', arguments: [element.manifest, dataSource.mappingFile, handler.handler] };
        }
        return item;
      }
    }
  }

  private recordItem(record: SubgraphRecord): vscode.TreeItem {
    const item = new vscode.TreeItem(record.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `record:${record.id}`;
    item.contextValue = 'subgraphs.record';
    const health = this.health.get(record.id);
    if (!health && !this.asking.has(record.id)) void this.askHealth(record);
    const queryUrl = this.store.queryUrlOf(record);
    item.description = health?.text ?? (queryUrl ? 'checking…' : 'not deployed yet');
    item.iconPath = new vscode.ThemeIcon(health?.error ? 'error' : 'cloud', health?.error ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined);
    const lines = [record.name, [record.project, record.protocol, record.network, record.type].filter(Boolean).join(' · ')];
    if (queryUrl) lines.push(`Query URL: ${displaySubgraphUrl(queryUrl)}`);
    if (health) lines.push(`Health: ${health.text}`);
    item.tooltip = lines.join('\n');
    return item;
  }

  private details(record: SubgraphRecord): SubgraphsElement[] {
    const detail = (key: string, label: string, description: string | undefined, icon: string, command?: vscode.Command): SubgraphsElement[] =>
      description ? [{ kind: 'detail', id: `record:${record.id}:${key}`, label, description, icon, command }] : [];
    const deployed = record.lastDeployment;
    const manifest = this.store.manifestForRecord(record);
    const queryUrl = this.store.queryUrlOf(record);
    return [
      ...detail('project', 'Project', record.project, 'project'),
      ...detail('network', 'Network', [record.protocol, record.network].filter(Boolean).join(' · '), 'globe'),
      ...detail('type', 'Type', record.type, 'tag'),
      ...detail('deploy', 'Deploy URL', record.deployUrl && displaySubgraphUrl(record.deployUrl), 'cloud-upload'),
      ...detail('query', 'Query URL', queryUrl && displaySubgraphUrl(queryUrl), 'search'),
      ...detail('deployment', 'Last deployment', deployed && [deployed.versionLabel, deployed.at.replace('T', ' ').slice(0, 16), deployed.ipfsHash].filter(Boolean).join(' · '), 'history'),
      ...detail('manifest', 'Deploys from', manifest && manifestLabel(manifest), 'file-code', manifest && { command: 'vscode.open', title: 'Open', arguments: [manifest] }),
    ];
  }

  /** Asks the record's query URL for `_meta`; the answer (or why there is none) shows as the description. */
  private async askHealth(record: SubgraphRecord): Promise<void> {
    if (!this.store.queryUrlOf(record)) return;
    const cancel = new AbortController();
    this.asking.set(record.id, cancel);
    let state: HealthState;
    try {
      const health = await this.store.health(record, cancel.signal);
      state = { text: `block ${health.blockNumber} · ${health.hasIndexingErrors ? 'indexing errors' : 'healthy'}`, error: health.hasIndexingErrors };
    } catch (error) {
      state = { text: errorText(error), error: true };
    }
    if (cancel.signal.aborted || this.asking.get(record.id) !== cancel) return;
    this.asking.delete(record.id);
    this.health.set(record.id, state);
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.refresh();
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
