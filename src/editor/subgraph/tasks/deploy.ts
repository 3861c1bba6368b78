/**
 * "Deploy Subgraph…": from a record (which subgraph.yaml? the remembered one, else a pick) or
 * from a manifest's lens (which record? the remembered one, else a pick), then a version label
 * prefilled with the record's last one, then the `graph deploy` task. The keys are put in by
 * core inside the CLI's process only; success is judged by what the CLI printed (core).
 */
import * as vscode from 'vscode';
import type { GraphRun } from '../../../core/subgraph/graphcli/launch';
import { displaySubgraphUrl, type SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { COMMANDS } from '../../ids';
import type { Log } from '../../log';
import type { Manifests } from '../manifests';
import { askVersionLabel, manifestOf, resolveManifest, resolveRecord } from '../pickers';
import type { SubgraphStore } from '../records/store';
import type { FinishedRun, GraphTasks } from './graphTasks';
import type { GraphToolchain } from './toolchain';

/** What "Deploy Subgraph…" works with. */
export interface DeployDeps {
  store: SubgraphStore;
  manifests: Manifests;
  tasks: GraphTasks;
  toolchain: GraphToolchain;
}

export async function deploy(f: DeployDeps, arg: unknown): Promise<FinishedRun | undefined> {
  if (!f.toolchain.requireTrust()) return undefined;
  let manifest = manifestOf(arg);
  // From a manifest: the record it deployed to before (the lens names it), else a pick.
  const record = manifest
    ? (f.store.recordForManifest(manifest) ?? (await resolveRecord(f.store, undefined, 'Deploy to Which Subgraph?')))
    : await resolveRecord(f.store, arg, 'Deploy Which Subgraph?');
  if (!record) return undefined;
  if (!record.deployUrl || !record.ipfsUrl) {
    const edit = await vscode.window.showErrorMessage(`${record.name} has no ${record.deployUrl ? 'IPFS' : 'deploy'} URL: add the URLs your graph-node host gave you.`, 'Edit Subgraph…');
    if (edit) await vscode.commands.executeCommand(COMMANDS.subgraphs.edit, record);
    return undefined;
  }
  if (!manifest) {
    const remembered = f.store.manifestForRecord(record);
    const known = (await f.manifests.all()).some((m) => m.toString() === remembered?.toString());
    manifest = known ? remembered : await resolveManifest(f.manifests, `Deploy ${record.name} from Which subgraph.yaml?`);
  }
  if (!manifest) return undefined;
  const versionLabel = (await askVersionLabel(record))?.trim();
  if (!versionLabel) return undefined;
  await f.store.pair(manifest, record);
  return f.tasks.run('deploy', manifest, { subgraph: record.name, versionLabel });
}

/** Keeps what a successful deploy printed in the record, and offers the next steps. */
export async function afterDeploy(store: SubgraphStore, log: Log, record: SubgraphRecord, versionLabel: string, run: GraphRun): Promise<void> {
  const { outcome } = run;
  const updated = await store.recordDeployment(record.id, {
    versionLabel,
    at: new Date().toISOString(),
    ipfsHash: outcome.ipfsHash,
    deployedTo: outcome.deployedTo,
    queriesUrl: outcome.queriesUrl,
  });
  const queries = outcome.queriesUrl ? displaySubgraphUrl(outcome.queriesUrl) : 'the query URL';
  log.info(`Deployed ${record.name} ${versionLabel}${outcome.ipfsHash ? ` (${outcome.ipfsHash})` : ''}: queries at ${queries}`);
  // Not awaited: the task ends now, whatever the user does with the message.
  void vscode.window.showInformationMessage(`Deployed ${record.name} ${versionLabel}. Queries: ${queries}`, 'Open GraphQL UI', 'New Query').then((choice) => {
    const target = updated ?? record;
    if (choice === 'Open GraphQL UI') void vscode.commands.executeCommand(COMMANDS.subgraphs.openGraphqlUi, target);
    if (choice === 'New Query') void vscode.commands.executeCommand(COMMANDS.subgraphs.newQuery, target);
  });
}
