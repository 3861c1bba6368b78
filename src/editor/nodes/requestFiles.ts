/**
 * Request files (`*.jsonrpc`, parsed by core/rpc/requestFile): a "Send" and "Copy as curl" lens
 * above each request, a "Node: …" lens at the top that writes the `# @node` line, and
 * diagnostics for JSON errors and unknown node names.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { toCurl } from '../../core/rpc/curl';
import { nodeDirective, parseRequestFile, requestAt, type FileRequest, type RequestFile, type TextPosition } from '../../core/rpc/requestFile';
import { COMMANDS } from '../ids';
import { registerCommand } from '../kit/commands';
import { DocumentLanguage, targetLens } from '../kit/documents';
import { sendAndShow } from './calls';
import type { NodesFeature } from './feature';
import { pickOne, resolveNode } from './pickers';

const LANGUAGE_ID = 'jsonrpc';

const toPosition = (p: TextPosition) => new vscode.Position(p.line, p.character);

export function registerRequestFiles(f: NodesFeature): vscode.Disposable[] {
  const files = new RequestFiles(f);
  // A lens passes the document and the request's index; the palette passes nothing.
  const command = (id: string, run: (uri?: vscode.Uri, index?: number) => Promise<unknown>) =>
    registerCommand(f.log, id, (uri?: unknown, index?: unknown) => run(uri instanceof vscode.Uri ? uri : undefined, typeof index === 'number' ? index : undefined));
  return [
    files,
    vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, files),
    command(COMMANDS.requests.send, (uri, index) => files.send(uri, index)),
    command(COMMANDS.requests.copyAsCurl, (uri, index) => files.copyAsCurl(uri, index)),
    command(COMMANDS.requests.chooseNode, (uri) => files.chooseNode(uri)),
  ];
}

class RequestFiles implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly language = new DocumentLanguage(LANGUAGE_ID, 'chaindeck', parseRequestFile, {
    lineOf: (file) => file.node?.line,
    pick: (file) => resolveNode(this.f.store, undefined, "Send This File's Requests to Which Node?", this.nodeOf(file)),
    text: (node) => nodeDirective(node.name),
  });
  readonly onDidChangeCodeLenses = this.language.onDidChangeLenses;

  /** Picks a node for the file and writes it as the file's `# @node` line. */
  readonly chooseNode = (uri?: vscode.Uri) => this.language.choose(uri);

  constructor(private readonly f: NodesFeature) {
    // Node names and the default node show in the lenses and decide the diagnostics.
    this.language.watch((d) => this.check(d), f.store.onDidChange);
  }

  /** The node a file's requests go to: its `# @node`, else the default node. */
  private nodeOf(file: RequestFile): NodeConfig | undefined {
    return file.node ? this.f.store.byName(file.node.name) : this.f.store.defaultNode();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const file = this.language.parsed(document);
    const node = this.nodeOf(file);
    const lenses = [
      targetLens(document, { noun: 'node', icon: 'server', found: node?.name, named: file.node?.name, command: COMMANDS.requests.chooseNode, tooltip: 'Choose the node this file sends to' }),
    ];
    file.requests.forEach((request, index) => {
      if (!request.payload) return;
      const at = new vscode.Range(toPosition(request.range.start), toPosition(request.range.start));
      const what = Array.isArray(request.payload) ? `batch of ${request.payload.length}` : request.payload.method;
      lenses.push(
        new vscode.CodeLens(at, { title: '$(play) Send', command: COMMANDS.requests.send, arguments: [document.uri, index], tooltip: `Send ${what}${node ? ` to ${node.name}` : ''}` }),
        new vscode.CodeLens(at, { title: 'Copy as curl', command: COMMANDS.requests.copyAsCurl, arguments: [document.uri, index] }),
      );
    });
    return lenses;
  }

  private check(document: vscode.TextDocument): void {
    const file = this.language.parsed(document);
    const problems = file.requests.flatMap((request) => {
      if (!request.parseError) return [];
      const at = toPosition(request.parseError.position);
      const range = document.getWordRangeAtPosition(at) ?? new vscode.Range(at, at.translate(0, 1));
      return [diagnostic(range, request.parseError.message, vscode.DiagnosticSeverity.Error)];
    });
    if (file.node && !this.f.store.byName(file.node.name)) {
      const line = document.lineAt(file.node.line).range;
      problems.push(diagnostic(line, `No node named "${file.node.name}" in chaindeck.nodes. Choose one with the "Node:" lens at the top.`, vscode.DiagnosticSeverity.Warning));
    }
    this.language.diagnostics.set(document.uri, problems);
  }

  /** The document, request and node a send or copy is about: from the lens, or the cursor. */
  private async target(uri: vscode.Uri | undefined, index: number | undefined): Promise<{ request: FileRequest; node: NodeConfig } | undefined> {
    const editor = vscode.window.activeTextEditor;
    const opened = await this.language.opened(uri, 'Open a .jsonrpc request file and put the cursor in a request.');
    if (!opened) return undefined;
    const { document, parsed: file } = opened;
    const cursorLine = editor?.document === document ? editor.selection.active.line : 0;
    const request = index !== undefined ? file.requests[index] : requestAt(file, cursorLine);
    if (!request) {
      void vscode.window.showInformationMessage('This file has no request yet; write one, like {"method": "eth_blockNumber"}.');
      return undefined;
    }
    if (request.parseError) {
      const { line, character } = request.parseError.position;
      throw new Error(`The request at line ${line + 1}, column ${character + 1} cannot be sent: ${request.parseError.message}`);
    }
    const node = this.nodeOf(file) ?? (await this.chooseNode(document.uri));
    return node && { request, node };
  }

  async send(uri?: vscode.Uri, index?: number): Promise<void> {
    const target = await this.target(uri, index);
    if (!target) return;
    const { payload, title } = target.request;
    const label = Array.isArray(payload) ? `batch of ${payload!.length}` : (payload?.method ?? title ?? 'request');
    await sendAndShow(this.f, target.node, label, payload);
  }

  async copyAsCurl(uri?: vscode.Uri, index?: number): Promise<void> {
    const target = await this.target(uri, index);
    if (!target) return;
    const items = [
      { label: 'Copy as curl', detail: 'The key and password appear as ***: safe to share', reveal: false },
      { label: 'Copy as curl with key', detail: 'The command holds your credentials: anyone who sees it can use your node', reveal: true },
    ];
    const chosen = target.node.auth === 'none' ? items[0] : await pickOne(items, { title: `Copy as curl: ${target.node.name}`, active: items[0] });
    if (!chosen) return;
    const endpoint = await this.f.store.resolve(target.node);
    await vscode.env.clipboard.writeText(toCurl(endpoint, target.request.payload!, { revealSecrets: chosen.reveal }));
    void vscode.window.showInformationMessage(chosen.reveal ? 'Copied the curl command with your credentials.' : 'Copied the curl command (credentials hidden).');
  }

  dispose(): void {
    this.language.dispose();
  }
}

function diagnostic(range: vscode.Range, message: string, severity: vscode.DiagnosticSeverity): vscode.Diagnostic {
  const d = new vscode.Diagnostic(range, message, severity);
  d.source = 'chaindeck';
  return d;
}
