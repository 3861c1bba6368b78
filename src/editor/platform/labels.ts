/** Core's words for platform objects (core/platform/labels) as VS Code icons and hovers. */
import * as vscode from 'vscode';
import { markdownCode } from '../../core/nodes/labels';
import { statusIcon, type Hover } from '../../core/platform/labels';

export function statusThemeIcon(status: string | undefined): vscode.ThemeIcon {
  const { icon, color } = statusIcon(status);
  return new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
}

/** The hover as Markdown; the title is text (a name from the API is never read as Markdown). */
export function hoverMarkdown({ icon, title, rows }: Hover): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`$(${icon}) `);
  md.appendText(title);
  md.appendMarkdown('\n\n');
  for (const [name, value] of rows) md.appendMarkdown(`${name}: ${markdownCode(value)}  \n`);
  return md;
}
