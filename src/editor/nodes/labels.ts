/** How protocols and nodes are named and drawn: shared by the tree, the pickers and the status bar. */
import * as vscode from 'vscode';
import { displayUrl } from '../../core/nodes/endpoint';
import type { NodeConfig, Protocol } from '../../core/nodes/model';
import { describeAuth } from '../../core/rpc/failure';

export const PROTOCOL_UI: Readonly<Record<Protocol, { label: string; detail: string; icon: string }>> = {
  evm: { label: 'EVM', detail: 'Ethereum and EVM-compatible chains (eth_* methods)', icon: 'symbol-interface' },
  beacon: { label: 'Beacon', detail: 'Beacon chain (REST API under /eth/v1)', icon: 'broadcast' },
  utxo: { label: 'UTXO', detail: 'Bitcoin-style chains (getblockcount, getblockchaininfo…)', icon: 'symbol-constant' },
  solana: { label: 'Solana', detail: 'Solana-style chains (getSlot, getVersion…)', icon: 'zap' },
  starknet: { label: 'Starknet', detail: 'Starknet-style chains (starknet_* methods)', icon: 'star-empty' },
  other: { label: 'Other', detail: 'Any JSON-RPC 2.0 node: type method names yourself', icon: 'server' },
};

export const PROTOCOLS = Object.keys(PROTOCOL_UI) as Protocol[];

export function protocolIcon(protocol: Protocol): vscode.ThemeIcon {
  return new vscode.ThemeIcon(PROTOCOL_UI[protocol].icon);
}

/** One line: network, protocol and whether it is the default, e.g. "ethereum-mainnet · EVM · default". */
export function nodeDescription(node: NodeConfig, isDefault: boolean): string {
  return [node.network, PROTOCOL_UI[node.protocol].label, isDefault ? 'default' : undefined].filter(Boolean).join(' · ');
}

/** The hover of a node: redacted URLs and the form of its credentials, never the credentials. */
export function nodeTooltip(node: NodeConfig, isDefault: boolean): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`$(${PROTOCOL_UI[node.protocol].icon}) **${escape(node.name)}**${isDefault ? ' — default node' : ''}\n\n`);
  const rows: [string, string][] = [
    ['Protocol', PROTOCOL_UI[node.protocol].label],
    ['Network', node.network ?? '—'],
    ['URL', displayUrl(node)],
    ['WebSocket', shownWsUrl(node)],
    ['Credentials', describeAuth(node.auth)],
  ];
  for (const [name, value] of rows) tooltip.appendMarkdown(`${name}: \`${value.replace(/`/g, "'")}\`  \n`);
  return tooltip;
}

function shownWsUrl(node: NodeConfig): string {
  try {
    return displayUrl(node, 'ws');
  } catch {
    return '— (none derived from this URL)';
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
