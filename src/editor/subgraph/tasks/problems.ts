/**
 * The graph CLI's problems (core's GraphProblem) as diagnostics on the file and line they are
 * about: compiler and YAML errors where the CLI printed them, manifest errors through core's
 * key-path resolver (the CLI prints `Path: dataSources > 0 > …`, never a line), and problems
 * that name only a value (a handler missing from the WASM) where that value is written.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { capFor } from '../../../core/files';
import { parseManifest, rangeOfKeyPath, type Range } from '../../../core/subgraph';
import type { GraphProblem } from '../../../core/subgraph/graphcli';
import { readWorkspaceText } from '../../readFile';

const toRange = (r: Range) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

/** Where in `text` the problem is. */
function locate(problem: GraphProblem, text: string): vscode.Range {
  const lines = text.split('\n');
  if (problem.line !== undefined) {
    const line = Math.min(Math.max(problem.line - 1, 0), Math.max(lines.length - 1, 0));
    const column = Math.max((problem.column ?? 1) - 1, 0);
    // Cover the word the compiler points at, so the squiggle is visible.
    const word = /^[\w$]+/.exec((lines[line] ?? '').slice(column))?.[0].length ?? 1;
    return new vscode.Range(line, column, line, column + Math.max(word, 1));
  }
  if (problem.keyPath) return toRange(rangeOfKeyPath(parseManifest(text), problem.keyPath));
  if (problem.value) {
    const escaped = problem.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A handler's name is written after `handler:`; anything else at its first whole-word use.
    const match = new RegExp(`handler:\\s*["']?(${escaped})\\b`).exec(text) ?? new RegExp(`\\b(${escaped})\\b`).exec(text);
    if (match) {
      const offset = match.index + match[0].indexOf(match[1]);
      const before = text.slice(0, offset).split('\n');
      const line = before.length - 1;
      const character = before[line].length;
      return new vscode.Range(line, character, line, character + problem.value.length);
    }
  }
  return new vscode.Range(0, 0, 0, 0);
}

/** The problems of one run as diagnostics, grouped by file. `folder` is the CLI's working directory. */
export async function problemsToDiagnostics(problems: readonly GraphProblem[], folder: string): Promise<Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>> {
  const byFile = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
  const texts = new Map<string, string>();
  for (const problem of problems) {
    const uri = vscode.Uri.file(path.resolve(folder, problem.file));
    const key = uri.toString();
    if (!texts.has(key)) texts.set(key, await readText(uri));
    const diagnostic = new vscode.Diagnostic(
      locate(problem, texts.get(key)!),
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
