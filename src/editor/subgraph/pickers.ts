/** Quick picks and input boxes shared by the subgraph commands. */
import * as vscode from 'vscode';
import { validateGraphDeploy } from '../../core/subgraph/graphcli/commands';
import { displaySubgraphUrl, type SubgraphRecord } from '../../core/subgraph/graphnode/records';
import { COMMANDS } from '../ids';
import { pickOne } from '../nodes/pickers';
import { manifestLabel, type Manifests } from './manifests';
import type { SubgraphStore } from './records/store';

export { pickOne };

/** What a command receives: a tree element (context menu), a record, or nothing (palette). */
export function recordOf(arg: unknown): SubgraphRecord | undefined {
  const candidate = (arg as { record?: unknown } | undefined)?.record ?? arg;
  const record = candidate as SubgraphRecord | undefined;
  return record && typeof record.id === 'string' && typeof record.deployUrl === 'string' ? record : undefined;
}

/** A manifest Uri handed to a command: the Uri itself, or a tree element holding one. */
export function manifestOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const uri = (arg as { manifest?: unknown } | undefined)?.manifest;
  return uri instanceof vscode.Uri ? uri : undefined;
}

/** The record a command works on: the one given, else the user's pick. Offers to add one when there is none. */
export async function resolveRecord(store: SubgraphStore, arg: unknown, title: string, preferred?: SubgraphRecord): Promise<SubgraphRecord | undefined> {
  const given = recordOf(arg);
  if (given) return store.byId(given.id) ?? given;
  const records = store.all();
  if (!records.length) {
    const add = await vscode.window.showInformationMessage('No subgraphs are configured yet: add the one your graph-node host created.', 'Add Subgraph…');
    if (add) await vscode.commands.executeCommand(COMMANDS.subgraphs.add);
    return undefined;
  }
  const items = records.map((record) => ({
    label: `$(cloud) ${record.name}`,
    description: [record.project, record.network].filter(Boolean).join(' · '),
    detail: record.deployUrl ? displaySubgraphUrl(record.deployUrl) : 'no deploy URL',
    record,
  }));
  const chosen = await pickOne(items, { title, placeholder: 'Choose a subgraph', active: items.find((i) => i.record.id === preferred?.id) });
  return chosen?.record;
}

/** A subgraph.yaml of the workspace: the only one, or the user's pick. */
export async function resolveManifest(manifests: Manifests, title: string, preferred?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const all = await manifests.all();
  if (!all.length) {
    void vscode.window
      .showInformationMessage('There is no subgraph.yaml in this workspace. Open a subgraph folder, or create one with "Initialise Subgraph…".', 'Initialise Subgraph…')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand(COMMANDS.subgraph.init);
      });
    return undefined;
  }
  if (all.length === 1) return all[0];
  const items = all.map((uri) => ({ label: manifestLabel(uri), uri }));
  const chosen = await pickOne(items, { title, placeholder: 'Choose a subgraph.yaml', active: items.find((i) => i.uri.toString() === preferred?.toString()) });
  return chosen?.uri;
}

/** The version label of a deploy (spec Versioning 3), prefilled with the record's last one. */
export function askVersionLabel(record: SubgraphRecord): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `Deploy ${record.name}: Version Label`,
    prompt: 'A free-text label for this deployment (e.g. v0.0.2); it becomes part of the query URL.',
    value: record.versionLabel ?? 'v0.0.1',
    ignoreFocusOut: true,
    validateInput: (label) =>
      validateGraphDeploy({ name: record.name, versionLabel: label, deployUrl: record.deployUrl, ipfsUrl: record.ipfsUrl, useDeployKey: false }).find((p) => p.field === 'versionLabel')
        ?.message,
  });
}

/** Picks one of `choices` (an `id` each), or takes what was typed: the console's lists may hold more. */
export async function pickOrType(title: string, placeholder: string, choices: { id: string; label: string; detail?: string }[], current?: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    const items = choices.map((c) => ({ ...c, description: c.id !== c.label ? c.id : undefined }));
    pick.title = title;
    pick.placeholder = placeholder;
    pick.ignoreFocusOut = true;
    pick.items = items;
    const active = items.find((i) => i.id === current);
    if (active) pick.activeItems = [active];
    pick.onDidChangeValue((value) => {
      const typed = value.trim();
      const exact = items.some((i) => i.id === typed);
      pick.items = typed && !exact ? [{ id: typed, label: typed, detail: 'Use as typed' }, ...items] : items;
    });
    pick.onDidAccept(() => {
      resolve((pick.selectedItems[0] ?? pick.activeItems[0])?.id);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}
