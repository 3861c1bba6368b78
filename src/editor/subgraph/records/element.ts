/**
 * A row of the Subgraphs view: the local graph-node and its deployments, the hosted records, the
 * workspace's manifests with their data sources and handlers, and the detail rows below them.
 * Its own file: the tree (records/) and the local node's rows (localnode/items.ts) both build them.
 */
import type * as vscode from 'vscode';
import type { DataSourceSummary, HandlerSummary } from '../../../core/subgraph/manifest/manifestSummary';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import type { LocalDeployment } from '../localnode/localNode';

export type SubgraphsElement =
  | { kind: 'localNode' }
  | { kind: 'localDeployment'; deployment: LocalDeployment }
  | { kind: 'group'; group: 'records' | 'manifests' }
  | { kind: 'record'; record: SubgraphRecord }
  | { kind: 'detail'; id: string; label: string; description?: string; icon: string; command?: vscode.Command }
  | { kind: 'manifest'; manifest: vscode.Uri }
  | { kind: 'dataSource'; manifest: vscode.Uri; dataSource: DataSourceSummary; index: number }
  | { kind: 'handler'; manifest: vscode.Uri; dataSource: DataSourceSummary; handler: HandlerSummary; index: number };
