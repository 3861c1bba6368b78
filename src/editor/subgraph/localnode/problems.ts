/**
 * A local deployment's fatal indexing error in the Problems panel: on its subgraph.yaml (the
 * handler's line) and, where the handler is known, on the mapping's function. Rebuilt from every
 * statuses answer, so a healthy or redeployed subgraph's error goes away.
 */
import * as vscode from 'vscode';
import { failedHandler, fatalErrorMessage, handlerSpanInManifest, handlerSpanInMapping, mappingOfHandler, type TextSpan } from '../../../core/subgraph/graphnode/fatalError';
import { redactText } from '../../../core/redact';
import { readWorkspaceText } from '../../readFile';
import { besideManifest } from '../manifests';
import type { LocalNode } from './localNode';

export const FATAL_ERROR_SOURCE = 'local graph-node';

export class FatalErrorDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(FATAL_ERROR_SOURCE);
  private readonly subscription: vscode.Disposable;
  private shown = '';
  private updating = Promise.resolve();

  constructor(private readonly local: LocalNode) {
    // One update at a time; one that fails must not end the chain (the next change tries again).
    this.subscription = local.onDidChange(() => (this.updating = this.updating.then(() => this.update()).catch(() => undefined)));
  }

  private async update(): Promise<void> {
    // Only the current version of a name counts: an older one that failed is not the project's problem now.
    const failing = this.local.deployments().filter((d) => d.status.fatalError && d.manifest && d.names.length);
    const key = JSON.stringify(failing.map((d) => [d.id, d.manifest!.toString(), d.status.fatalError]));
    if (key === this.shown) return;
    this.shown = key;
    const byFile = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
    const add = (uri: vscode.Uri, text: string, span: TextSpan, message: string) => {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(positionAt(text, span.start), positionAt(text, span.end)), message, vscode.DiagnosticSeverity.Error);
      diagnostic.source = FATAL_ERROR_SOURCE;
      const entry = byFile.get(uri.toString()) ?? { uri, diagnostics: [] };
      entry.diagnostics.push(diagnostic);
      byFile.set(uri.toString(), entry);
    };
    for (const d of failing) {
      const error = d.status.fatalError!;
      const handler = failedHandler(error);
      const message = redactText(fatalErrorMessage(d.names[0], error));
      const manifestText = await readText(d.manifest!);
      add(d.manifest!, manifestText, handlerSpanInManifest(manifestText, handler), message);
      const mapping = mappingOfHandler(manifestText, handler);
      if (!mapping || !handler) continue;
      const mappingUri = besideManifest(d.manifest!, mapping);
      const mappingText = await readText(mappingUri);
      const span = handlerSpanInMapping(mappingText, handler);
      if (span) add(mappingUri, mappingText, span, message);
    }
    this.collection.clear();
    for (const { uri, diagnostics } of byFile.values()) this.collection.set(uri, diagnostics);
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return await readWorkspaceText(uri);
  } catch {
    return '';
  }
}

function positionAt(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
}
