/**
 * Webview panels with a strict Content Security Policy: scripts and styles only from the
 * extension's dist/webview folder, with a fresh nonce per page; no inline handlers, no network.
 * The page is a shell: everything it shows arrives as messages and is rendered as text.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface PanelOptions {
  viewType: string;
  title: string;
  /** The bundle's name: dist/webview/<entry>.js, and dist/webview/<entry>.css when it has styles. */
  entry: string;
  column?: vscode.ViewColumn;
  iconPath?: vscode.IconPath;
}

export function createPanel(extensionUri: vscode.Uri, options: PanelOptions): vscode.WebviewPanel {
  const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const panel = vscode.window.createWebviewPanel(options.viewType, options.title, options.column ?? vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [root],
    // The page keeps its view state with setState and asks the host for the rest when it comes back.
    retainContextWhenHidden: false,
  });
  panel.iconPath = options.iconPath;
  panel.webview.html = pageHtml(panel.webview, root, options.entry, options.title);
  return panel;
}

export function pageHtml(webview: vscode.Webview, root: vscode.Uri, entry: string, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${webview.cspSource} 'nonce-${nonce}'`, `font-src ${webview.cspSource}`, `img-src ${webview.cspSource}`].join(
    '; ',
  );
  const script = webview.asWebviewUri(vscode.Uri.joinPath(root, `${entry}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(root, `${entry}.css`));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${style}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
