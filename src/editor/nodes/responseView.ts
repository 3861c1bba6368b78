/**
 * Responses open as read-only virtual documents beside the editor: a comment line with the
 * measurements, then the pretty-printed reply. Sending the same call to the same node again
 * updates its document in place instead of opening another tab.
 */
import * as vscode from 'vscode';
import type { RawExchange } from '../../core/rpc/types';

export const RESPONSE_SCHEME = 'chaindeck-response';

export interface Response {
  nodeName: string;
  /** What was called: a method name, or a summary of a batch. */
  label: string;
  exchange: RawExchange;
}

export class ResponseView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '// This response is gone; send the request again.\n';
  }

  async show(response: Response): Promise<vscode.TextEditor> {
    const name = `${response.nodeName} · ${response.label}`.replace(/[/\\:*?"<>|]/g, '_');
    const uri = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/${name}.jsonc` });
    this.contents.set(uri.toString(), render(response));
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'jsonc') await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
    return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

/** The document text: `// HTTP 200 OK · 12 ms · 345 B · Local anvil · eth_blockNumber`, then the body. */
export function render({ nodeName, label, exchange }: Response): string {
  const status = `HTTP ${exchange.status}${exchange.statusText ? ` ${exchange.statusText}` : ''}`;
  const header = [status, `${Math.round(exchange.timeMs)} ms`, formatBytes(exchange.bytes), nodeName, label].join(' · ');
  if (exchange.body !== undefined) return `// ${header}\n${JSON.stringify(exchange.body, null, 2)}\n`;
  const type = exchange.contentType || 'no content type';
  return `// ${header}\n// The reply is not JSON (${type}); shown as received:\n${exchange.text}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
