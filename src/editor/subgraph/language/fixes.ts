/**
 * Quick fixes for the findings that carry one: core's fix as a WorkspaceEdit (a corrected
 * signature, key, address or value; a new entity type in the schema; a handler stub in the
 * mapping), then its alternative (a misspelt handler: "Change to handleTransfer" first, the stub
 * under the name as written after), one fix-all per rule that offers it (e.g. immutable: false
 * on every entity), and "Run graph codegen" for generated code older than its sources.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Fix } from '../../../core/subgraph/types';
import { COMMANDS } from '../../ids';
import { SOURCE, toWorkspaceEdit } from '../convert';
import type { Shown, SubgraphDiagnostics } from './diagnostics';

export class SubgraphFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly diagnostics: SubgraphDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix)) return [];
    const actions: vscode.CodeAction[] = [];
    const fixAlls = new Map<Fix, vscode.Diagnostic[]>();
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== SOURCE) continue;
      const shown = this.diagnostics.shownFor(document.uri, diagnostic);
      if (shown?.finding.fix) actions.push(fixAction(shown.finding.fix, diagnostic));
      if (shown?.finding.alternative) actions.push(fixAction(shown.finding.alternative, diagnostic));
      if (shown?.finding.action === 'run-codegen') actions.push(codegenAction(shown, diagnostic));
      // Findings of one rule share one fix-all: offered once, however many are under the cursor.
      if (shown?.finding.fixAll) fixAlls.set(shown.finding.fixAll, [...(fixAlls.get(shown.finding.fixAll) ?? []), diagnostic]);
    }
    for (const [fix, diagnostics] of fixAlls) {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = toWorkspaceEdit(fix);
      action.diagnostics = diagnostics;
      actions.push(action);
    }
    return actions;
  }
}

function fixAction(fix: Fix, diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  action.edit = toWorkspaceEdit(fix);
  action.diagnostics = [diagnostic];
  // A corrected value is the obvious fix; new code in another file is a choice.
  action.isPreferred = fix.kind === 'replace';
  if (fix.kind === 'add-entity') action.command = reveal(fix.schemaFile, `type ${fix.entity} `);
  if (fix.kind === 'add-handler') action.command = reveal(fix.mappingFile, `function ${fix.handler}(`);
  return action;
}

function reveal(file: string, text: string): vscode.Command {
  return { command: COMMANDS.subgraph.revealFix, title: `Show ${path.basename(file)}`, arguments: [vscode.Uri.file(file), text] };
}

function codegenAction(shown: Shown, diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction('Run graph codegen', vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  // The feature's own codegen command: it checks workspace trust and says so when it is missing.
  action.command = { command: COMMANDS.subgraph.codegen, title: 'Run graph codegen', arguments: [vscode.Uri.file(shown.manifest)] };
  return action;
}

/** Opens a file with the cursor on the last occurrence of `text` (where a fix appended it). */
export async function revealFix(uri: vscode.Uri, text: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const at = document.getText().lastIndexOf(text);
  const position = document.positionAt(Math.max(0, at));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: true });
}
