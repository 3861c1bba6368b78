/** How protocols and nodes are drawn: core's words (core/nodes/labels) as VS Code icons and hovers. */
import * as vscode from 'vscode';
import { nodeTooltipMarkdown, PROTOCOL_LABELS } from '../../core/nodes/labels';
import type { NodeConfig, Protocol } from '../../core/nodes/model';

export function protocolIcon(protocol: Protocol): vscode.ThemeIcon {
  return new vscode.ThemeIcon(PROTOCOL_LABELS[protocol].icon);
}

/** The hover of a node: redacted URLs and the form of its credentials, never the credentials. */
export function nodeTooltip(node: NodeConfig, isDefault: boolean): vscode.MarkdownString {
  return new vscode.MarkdownString(nodeTooltipMarkdown(node, isDefault), true);
}
