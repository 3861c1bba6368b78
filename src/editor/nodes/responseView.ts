/**
 * Responses open as read-only virtual documents: a comment line with the measurements, comment
 * lines reading the reply's hex quantities as numbers (core's quantityComments), then the reply
 * exactly as pretty-printed JSON. One document per node, reused by its next call: it opens in the
 * active editor group, or stays in the group where it already is, never in a new group beside.
 */
import * as vscode from 'vscode';
import { quantityComments } from '../../core/rpc/quantities';
import type { RawExchange } from '../../core/rpc/types';

export const RESPONSE_SCHEME = 'chaindeck-response';

export interface Response {
  nodeName: string;
  /** What was called: a method name, or a summary of a batch. */
  label: string;
  exchange: RawExchange;
  /** The method each request asked for, by id: how a result's quantities read. */
  methodOf?: (id: unknown) => string | undefined;
}

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

  async show(response: Response): Promise<vscode.TextEditor> {
    const uri = this.uriOf(response.nodeName);
    this.contents.set(uri.toString(), render(response));
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

/**
 * The document text: `// HTTP 200 OK · 12 ms · 345 B · Local anvil · eth_blockNumber`, the
 * quantities (`// result: 0x1a = 26`), then the body.
 */
export function render({ nodeName, label, exchange, methodOf }: Response): string {
  const status = `HTTP ${exchange.status}${exchange.statusText ? ` ${exchange.statusText}` : ''}`;
  const header = [status, `${Math.round(exchange.timeMs)} ms`, formatBytes(exchange.bytes), nodeName, label].join(' · ');
  if (exchange.body !== undefined) {
    const notes = quantityComments(exchange.body, { methodOf: methodOf ?? (() => label) });
    return [`// ${header}`, ...notes, `${JSON.stringify(exchange.body, null, 2)}\n`].join('\n');
  }
  const type = exchange.contentType || 'no content type';
  return `// ${header}\n// The reply is not JSON (${type}); shown as received:\n${exchange.text}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
