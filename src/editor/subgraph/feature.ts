import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { ManifestLenses } from './language/manifestLens';
import type { LocalDeployer } from './localnode/deploy';
import type { LocalNode } from './localnode/localNode';
import type { FatalErrorDiagnostics } from './localnode/problems';
import type { Manifests } from './manifests';
import type { Replays } from './replay/feature';
import type { QueryFiles } from './queries/queryFiles';
import type { QueryResults } from './queries/results';
import type { ComparePanel } from './compare/panel';
import type { SubgraphStore } from './records/store';
import type { SubgraphsTree } from './records/tree';
import type { GraphTasks } from './tasks/graphTasks';
import type { GraphToolchain } from './tasks/toolchain';
import type { SubgraphTests } from './tests';

/** The pieces of the Subgraphs feature that its commands work with (and extension-host tests use). */
export interface SubgraphsFeature {
  extensionUri: vscode.Uri;
  log: Log;
  store: SubgraphStore;
  manifests: Manifests;
  tree: SubgraphsTree;
  tasks: GraphTasks;
  /** Runs the graph CLI (trust, finding it, terminals, problems) for the tasks, init and the local deploy. */
  toolchain: GraphToolchain;
  queries: QueryFiles;
  results: QueryResults;
  /** The panel of "Compare with…": the entities that differ between two endpoints. */
  compare: ComparePanel;
  lenses: ManifestLenses;
  /** The graph-node on this machine, deploys to it, and its fatal errors as diagnostics. */
  localNode: LocalNode;
  localDeploy: LocalDeployer;
  localProblems: FatalErrorDiagnostics;
  /** Replay Block N of a local deployment that failed, and its panels. */
  replays: Replays;
  /** The Test Explorer's subgraph tests (gnd test) and their Postgres. */
  tests: SubgraphTests;
}
