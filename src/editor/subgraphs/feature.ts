import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { ManifestLenses } from './manifestLens';
import type { Manifests } from './manifests';
import type { QueryFiles } from './queries';
import type { QueryResults } from './results';
import type { SubgraphStore } from './store';
import type { GraphTasks } from './tasks';
import type { SubgraphsTree } from './tree';

/** The pieces of the Subgraphs feature that its commands work with (and extension-host tests use). */
export interface SubgraphsFeature {
  extensionUri: vscode.Uri;
  log: Log;
  store: SubgraphStore;
  manifests: Manifests;
  tree: SubgraphsTree;
  tasks: GraphTasks;
  queries: QueryFiles;
  results: QueryResults;
  lenses: ManifestLenses;
  /** Running the graph CLI runs the workspace's code: only in a trusted workspace. */
  isTrusted(): boolean;
}
