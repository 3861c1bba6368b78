/**
 * Responses open as read-only virtual documents, their text core's responseText (measurements,
 * quantities read as numbers, the reply). One document per node, reused by its next call: it
 * opens in the active editor group, or stays in the group where it already is, never in a new
 * group beside.
 */
import * as vscode from 'vscode';
import { responseText, type ShownResponse } from '../../core/nodes/responseText';

export const RESPONSE_SCHEME = 'chaindeck-response';

export class ResponseView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '// This response is gone; send the request again.\n';
  }

  /** The document of a node's responses: `Local anvil · response.jsonc`. */
  uriOf(nodeName: string): vscode.Uri {
    const name = `${nodeName} · response`.replace(/[/\\:*?"<>|]/g, '_');
    return vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/${name}.jsonc` });
  }

  async show(response: ShownResponse): Promise<vscode.TextEditor> {
    const uri = this.uriOf(response.nodeName);
    this.contents.set(uri.toString(), responseText(response));
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'jsonc') await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
    // Where it already is, it stays (updated in place); else the active group, as any opened file.
    const open = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()));
    const viewColumn = open?.viewColumn ?? vscode.ViewColumn.Active;
    return vscode.window.showTextDocument(document, { viewColumn, preserveFocus: !!open && !open.isActive, preview: false });
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
