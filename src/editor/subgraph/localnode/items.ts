/**
 * The local graph-node in the Subgraphs view: its item (state in words; Start, Stop, Restart by
 * its context value) and one item per deployment (its names; state, block and entities), with
 * the details (its id, chain head against indexed block, health) and a fatal error below it.
 */
import * as vscode from 'vscode';
import { GND_BINDS_ALL_INTERFACES } from '../../../core/localnode/gnd';
import { speedSummary, type Speed } from '../../../core/indexing/speed/speed';
import { deploymentSummary } from '../../../core/localnode/status';
import { redactText } from '../../../core/redact';
import { COMMANDS } from '../../ids';
import { failedHandler } from '../../../core/subgraph/graphnode/fatalError';
import { manifestLabel } from '../manifests';
import type { SubgraphsElement } from '../records/element';
import { stateText, type LocalDeployment, type LocalNode } from './localNode';

const STATE_ICONS: Record<string, [icon: string, color?: string]> = {
  stopped: ['circle-outline'],
  installing: ['cloud-download'],
  starting: ['loading~spin'],
  ready: ['pass-filled', 'testing.iconPassed'],
  failed: ['error', 'problemsErrorIcon.foreground'],
  stopping: ['loading~spin'],
};

export function localNodeItem(local: LocalNode): vscode.TreeItem {
  const state = local.state;
  const deployments = local.deployments();
  const item = new vscode.TreeItem('Local Graph Node', deployments.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  // The workbench keeps a row's collapsed state by id, and shows a row that had no children collapsed once it gets
  // some: a new id when the first deployment comes makes it open, as Expanded asks.
  item.id = deployments.length ? 'localGraphNode.deployed' : 'localGraphNode';
  // starting covers installing and stopping too: Stop is offered while it comes up.
  item.contextValue = `localGraphNode.${state.kind === 'installing' || state.kind === 'stopping' ? 'starting' : state.kind}`;
  const text = redactText(stateText(state));
  // One line in the tree (a failure's reason may quote several lines of gnd's output); all of it in the tooltip.
  item.description = state.kind === 'ready' && local.chainNode ? `ready · ${local.chainNode}` : text.split('\n')[0];
  const [icon, color] = STATE_ICONS[state.kind];
  item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
  const lines = [`Local graph-node: ${text}`];
  if (state.kind === 'ready') lines.push(`GraphQL: ${state.urls.graphql}`, `Admin: ${state.urls.admin}`, `IPFS: ${state.urls.ipfs}`, `Index node: ${state.urls.indexNode}`);
  lines.push(`Data: ${local.dataFolder()}`, '', GND_BINDS_ALL_INTERFACES);
  item.tooltip = lines.join('\n');
  return item;
}

/** `speed`: how fast it indexes (src/editor/subgraph/speed), shown while it is behind. */
export function deploymentItem(d: LocalDeployment, speed?: Speed): vscode.TreeItem {
  const named = d.names.length > 0;
  // A new version not current yet goes by its name too, marked pending.
  const label = [...d.names, ...d.pendingNames.map((n) => `${n} (pending)`)].join(', ');
  const item = new vscode.TreeItem(label || d.id, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `localDeployment:${d.id}`;
  // `.failed` (a block to replay) is a suffix of its own: menus match the rest by regex.
  const replayable = d.status.health === 'failed' && d.status.fatalError?.block !== undefined;
  item.contextValue = `${named ? 'localDeployment.named' : 'localDeployment'}${replayable ? '.failed' : ''}`;
  // State and block first, where a narrow side bar still shows them; the deployment id is in the tooltip and the details.
  const pace = indexingPace(d, speed);
  item.description = [deploymentSummary(d.status), pace].filter(Boolean).join(' · ');
  const failed = d.status.health !== 'healthy';
  item.iconPath = new vscode.ThemeIcon(failed ? 'error' : d.status.synced ? 'database' : 'sync', failed ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined);
  item.tooltip = [
    label || '(no name serves it now)',
    `Deployment ${d.id}`,
    deploymentSummary(d.status),
    pace && speedTooltip(pace, speed!),
    `Health: ${d.status.health}`,
    d.status.fatalError?.message,
  ]
    .filter(Boolean)
    .join('\n');
  return item;
}

export function deploymentDetails(d: LocalDeployment, speed?: Speed): SubgraphsElement[] {
  const s = d.status;
  const detail = (key: string, label: string, description: string | undefined, icon: string, command?: vscode.Command): SubgraphsElement[] =>
    description ? [{ kind: 'detail', id: `localDeployment:${d.id}:${key}`, label, description, icon, command }] : [];
  const error = s.fatalError;
  return [
    ...detail('id', 'Deployment', d.id, 'tag'),
    ...detail('blocks', 'Indexed', s.indexed === undefined ? 'no block yet' : `${s.indexed} of ${s.chainHead ?? '?'} (${s.synced ? 'synced' : 'syncing'})`, 'layers'),
    ...detail('speed', 'Speed', indexingPace(d, speed), 'dashboard'),
    ...detail('profile', 'Profile', 'handler times, eth_call share', 'graph', { command: COMMANDS.localGraphNode.showProfile, title: 'Show Indexing Profile', arguments: [d.id] }),
    ...detail('health', 'Health', s.health, s.health === 'healthy' ? 'pass' : 'error'),
    ...detail('entities', 'Entities', s.entityCount?.toString(), 'database'),
    ...detail(
      'error',
      'Fatal error',
      error && [failedHandler(error), error.block !== undefined ? `block ${error.block}` : undefined, error.message].filter(Boolean).join(' · '),
      'error',
      // The row replays the failing block (its panel says how, before anything is deployed twice).
      error?.block !== undefined && s.health === 'failed'
        ? { command: COMMANDS.localGraphNode.replayBlock, title: `Replay Block ${error.block}`, arguments: [{ deployment: d.id }] }
        : undefined,
    ),
    ...detail('manifest', 'Deployed from', d.manifest && manifestLabel(d.manifest), 'file-code', d.manifest && { command: 'vscode.open', title: 'Open', arguments: [d.manifest] }),
  ];
}

/** Blocks/s, triggers/s and the ETA while it indexes; nothing once synced or failed. */
function indexingPace(d: LocalDeployment, speed: Speed | undefined): string | undefined {
  if (!speed || speed.synced || d.status.synced || d.status.health === 'failed') return undefined;
  return speedSummary(speed);
}

function speedTooltip(pace: string, speed: Speed): string {
  return `Speed: ${pace} (over the last ${Math.round(speed.spanSeconds)} s${speed.behind !== undefined ? `, ${speed.behind.toLocaleString('en-US')} blocks to the chain head` : ''})`;
}
