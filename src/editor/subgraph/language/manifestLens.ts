/**
 * "Codegen · Build · Deploy" at the top of every subgraph.yaml, running the `graph` tasks. In an
 * untrusted workspace the lens says why the CLI cannot run, and leads to Workspace Trust.
 */
import * as vscode from 'vscode';
import { COMMANDS, MANIFEST_GLOB } from '../../ids';
import type { ExcludedFolder } from '../localnode/dataFolder';
import type { SubgraphStore } from '../records/store';

export const MANIFEST_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: MANIFEST_GLOB };

export class ManifestLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: SubgraphStore,
    private readonly isTrusted: () => boolean,
    /** A folder whose manifests are not the user's (the local graph-node's data): no lenses there. */
    private readonly excluded?: ExcludedFolder,
  ) {
    this.subscriptions = [store.onDidChange(() => this.changed.fire()), vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()), this.changed];
    if (excluded) this.subscriptions.push(excluded.onDidChange(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (this.excluded?.contains(document.uri.fsPath)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (!this.isTrusted()) {
      return [new vscode.CodeLens(top, { title: '$(shield) Codegen, Build and Deploy run the graph CLI: trust this workspace to use them', command: 'workbench.trust.manage' })];
    }
    const record = this.store.recordForManifest(document.uri);
    const uri = document.uri;
    return [
      new vscode.CodeLens(top, {
        title: '$(gear) Codegen',
        command: COMMANDS.subgraph.codegen,
        arguments: [uri],
        tooltip: 'graph codegen: generate AssemblyScript types from the schema and ABIs',
      }),
      new vscode.CodeLens(top, { title: '$(package) Build', command: COMMANDS.subgraph.build, arguments: [uri], tooltip: 'graph build: compile the mappings to WASM' }),
      new vscode.CodeLens(top, {
        title: record ? `$(cloud-upload) Deploy to ${record.name}…` : '$(cloud-upload) Deploy…',
        command: COMMANDS.subgraph.deploy,
        arguments: [uri],
        tooltip: 'graph deploy: upload to IPFS and deploy to the graph-node host',
      }),
      new vscode.CodeLens(top, {
        title: '$(rocket) Deploy to Local Graph Node',
        command: COMMANDS.localGraphNode.deploy,
        arguments: [uri],
        tooltip: 'codegen, build, create and deploy to the graph-node on this machine (started first when it is not running)',
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
