/**
 * Where the local graph-node keeps its data: chaindeck.localGraphNode.dataFolder (relative to
 * the first workspace folder), else the workspace's storage. Inside the workspace, what the node
 * writes there (gnd's placeholder subgraph.yaml, the files of every deploy under their CIDs,
 * Postgres) is not the user's: manifest discovery and the manifest language features leave it out.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInside } from '../../../core/files';
import type { Settings } from '../../kit/settings';

/** Folders whose files are not the user's subgraphs. */
export interface ExcludedFolder {
  contains(file: string): boolean;
  /** The folder moved (its setting or the workspace folders changed). */
  readonly onDidChange: vscode.Event<void>;
}

export class LocalNodeDataFolder implements ExcludedFolder, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly settings: Settings,
    private readonly extension: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>,
  ) {
    this.subscriptions = [
      settings.onDidChange(['localGraphNodeDataFolder'], () => this.changed.fire()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()),
      this.changed,
    ];
  }

  /** The folder, absolute. */
  get path(): string {
    const written = this.settings.localGraphNodeDataFolder();
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (written) return path.resolve(base ?? this.extension.globalStorageUri.fsPath, written);
    return path.join((this.extension.storageUri ?? this.extension.globalStorageUri).fsPath, 'graph-node');
  }

  contains(file: string): boolean {
    return isInside(file, this.path);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
