/**
 * "Codegen · Build · Deploy" at the top of every subgraph.yaml, running the `graph` tasks. In an
 * untrusted workspace the lens says why the CLI cannot run, and leads to Workspace Trust.
 */
import * as vscode from 'vscode';
import { MANIFEST_GLOB } from '../manifests';
import type { SubgraphStore } from '../records/store';

export const MANIFEST_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: MANIFEST_GLOB };
export const CODEGEN_COMMAND = 'chaindeck.subgraph.codegen';
export const BUILD_COMMAND = 'chaindeck.subgraph.build';

export class ManifestLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: SubgraphStore,
    private readonly isTrusted: () => boolean,
  ) {
    this.subscriptions = [store.onDidChange(() => this.changed.fire()), vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()), this.changed];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    if (!this.isTrusted()) {
      return [new vscode.CodeLens(top, { title: '$(shield) Codegen, Build and Deploy run the graph CLI: trust this workspace to use them', command: 'workbench.trust.manage' })];
    }
    const record = this.store.recordForManifest(document.uri);
    const uri = document.uri;
    return [
      new vscode.CodeLens(top, { title: '$(gear) Codegen', command: CODEGEN_COMMAND, arguments: [uri], tooltip: 'graph codegen: generate AssemblyScript types from the schema and ABIs' }),
      new vscode.CodeLens(top, { title: '$(package) Build', command: BUILD_COMMAND, arguments: [uri], tooltip: 'graph build: compile the mappings to WASM' }),
      new vscode.CodeLens(top, {
        title: record ? `$(cloud-upload) Deploy to ${record.name}…` : '$(cloud-upload) Deploy…',
        command: 'chaindeck.subgraph.deploy',
        arguments: [uri],
        tooltip: 'graph deploy: upload to IPFS and deploy to the graph-node host',
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
