/** Core's findings, ranges and fixes as VS Code's diagnostics, ranges and workspace edits. */
import * as vscode from 'vscode';
import type { Finding, Fix, Range, Severity } from '../../core/subgraph/types';

export const SOURCE = 'chaindeck';

export function toRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostic(finding: Finding): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(finding.range), finding.message, SEVERITY[finding.severity]);
  diagnostic.source = SOURCE;
  diagnostic.code = finding.code;
  return diagnostic;
}

export function toWorkspaceEdit(fix: Fix): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  const uri = vscode.Uri.file(fix.file);
  for (const e of fix.edits) edit.replace(uri, toRange(e.range), e.text);
  return edit;
}
