import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { ManifestLenses } from './language/manifestLens';
import type { Manifests } from './manifests';
import type { QueryFiles } from './queries/queryFiles';
import type { QueryResults } from './queries/results';
import type { SubgraphStore } from './records/store';
import type { SubgraphsTree } from './records/tree';
import type { GraphTasks } from './tasks/graphTasks';

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
