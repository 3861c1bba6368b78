/**
 * The graph CLI's problems (core's GraphProblem) as diagnostics on the file and line they are
 * about (core's problemRange places them).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { capFor } from '../../../core/files';
import { problemRange } from '../../../core/subgraph/graphcli/problemRange';
import type { GraphProblem } from '../../../core/subgraph/graphcli/output';
import { readWorkspaceText } from '../../readFile';
import { toRange } from '../convert';

/** The problems of one run as diagnostics, grouped by file. `folder` is the CLI's working directory. */
export async function problemsToDiagnostics(problems: readonly GraphProblem[], folder: string): Promise<Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>> {
  const byFile = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
  const texts = new Map<string, string>();
  for (const problem of problems) {
    const uri = vscode.Uri.file(path.resolve(folder, problem.file));
    const key = uri.toString();
    if (!texts.has(key)) texts.set(key, await readText(uri));
    const diagnostic = new vscode.Diagnostic(
      toRange(problemRange(problem, texts.get(key)!)),
      problem.message,
      problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    diagnostic.source = 'graph';
    if (problem.code) diagnostic.code = problem.code;
    const entry = byFile.get(key) ?? { uri, diagnostics: [] };
    entry.diagnostics.push(diagnostic);
    byFile.set(key, entry);
  }
  return byFile;
}

/** The file as the CLI read it (from disk); '' when unreadable. */
async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return await readWorkspaceText(uri, capFor(uri.fsPath));
  } catch {
    return '';
  }
}
