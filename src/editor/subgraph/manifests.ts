/**
 * Every subgraph.yaml in the workspace, kept current by a FileSystemWatcher, with what the tree
 * shows of each (data sources and handlers) read from disk when asked.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FILE_CAPS } from '../../core/files';
import { isManifestCopy } from '../../core/subgraph/copies';
import { summarizeManifest, type ManifestSummary } from '../../core/subgraph/manifest/manifestSummary';
import { MANIFEST_GLOB, MANIFEST_SEARCH_EXCLUDE } from '../ids';
import { readWorkspaceText } from '../readFile';
import type { ExcludedFolder } from './localnode/dataFolder';

export class Manifests implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a manifest is added, removed or changed on disk. */
  readonly onDidChange = this.changed.event;
  private known: Promise<vscode.Uri[]> | undefined;
  private readonly watcher = vscode.workspace.createFileSystemWatcher(MANIFEST_GLOB);
  private readonly subscriptions: vscode.Disposable[];

  /** `excluded`: a folder whose manifests are not the user's (the local graph-node's data). */
  constructor(private readonly excluded?: ExcludedFolder) {
    const rescan = (uri: vscode.Uri) => {
      if (!this.counts(uri)) return;
      this.known = undefined;
      this.changed.fire();
    };
    this.subscriptions = [this.watcher, this.watcher.onDidCreate(rescan), this.watcher.onDidDelete(rescan), this.watcher.onDidChange(rescan), this.changed];
    if (excluded) this.subscriptions.push(excluded.onDidChange(() => this.refresh()));
  }

  /** Whether a subgraph.yaml is the user's: not a copy, not in the excluded folder. */
  private counts(uri: vscode.Uri): boolean {
    return !isManifestCopy(uri.path) && !this.excluded?.contains(uri.fsPath);
  }

  /** The manifests, sorted by path. */
  all(): Promise<vscode.Uri[]> {
    this.known ??= Promise.resolve(vscode.workspace.findFiles(MANIFEST_GLOB, MANIFEST_SEARCH_EXCLUDE)).then((uris) =>
      uris.filter((u) => this.counts(u)).sort((a, b) => a.fsPath.localeCompare(b.fsPath)),
    );
    return this.known;
  }

  refresh(): void {
    this.known = undefined;
    this.changed.fire();
  }

  /** The manifest's data sources and handlers; an unreadable file gives an empty summary. */
  async summary(uri: vscode.Uri): Promise<ManifestSummary> {
    try {
      return summarizeManifest(await readWorkspaceText(uri, FILE_CAPS.manifest));
    } catch {
      return { dataSources: [] };
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The manifest as shown: its path in the workspace. */
export function manifestLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1);
}

/** A file the manifest names (written relative to its folder). */
export function besideManifest(manifest: vscode.Uri, written: string): vscode.Uri {
  return vscode.Uri.file(path.resolve(path.dirname(manifest.fsPath), written));
}
