/**
 * How protocols and nodes are named in the editor's tree, pickers, status bar and hovers: the
 * words and the icon names, with no editor in them (the editor turns them into its items).
 */
import { describeAuth } from '../rpc/failure';
import { displayUrl } from './endpoint';
import type { NodeConfig, Protocol } from './model';
import type { Fact, LiveFacts } from './protocols';

/** Each protocol's name, what it covers, and its codicon. */
export const PROTOCOL_LABELS: Readonly<Record<Protocol, { label: string; detail: string; icon: string }>> = {
  evm: { label: 'EVM', detail: 'Ethereum and EVM-compatible chains (eth_* methods)', icon: 'symbol-interface' },
  beacon: { label: 'Beacon', detail: 'Beacon chain (REST API under /eth/v1)', icon: 'broadcast' },
  utxo: { label: 'UTXO', detail: 'Bitcoin-style chains (getblockcount, getblockchaininfo…)', icon: 'symbol-constant' },
  solana: { label: 'Solana', detail: 'Solana-style chains (getSlot, getVersion…)', icon: 'zap' },
  starknet: { label: 'Starknet', detail: 'Starknet-style chains (starknet_* methods)', icon: 'star-empty' },
  other: { label: 'Other', detail: 'Any JSON-RPC 2.0 node: type method names yourself', icon: 'server' },
};

export const PROTOCOLS = Object.keys(PROTOCOL_LABELS) as Protocol[];

/** One line: network, protocol and whether it is the default, e.g. "ethereum-mainnet · EVM · default". */
export function nodeDescription(node: NodeConfig, isDefault: boolean): string {
  return [node.network, PROTOCOL_LABELS[node.protocol].label, isDefault ? 'default' : undefined].filter(Boolean).join(' · ');
}

/**
 * The hover of a node, as Markdown: redacted URLs and the form of its credentials, never the
 * credentials. Its `$(icon)` needs a renderer that reads theme icons.
 */
export function nodeTooltipMarkdown(node: NodeConfig, isDefault: boolean): string {
  const rows: [string, string][] = [
    ['Protocol', PROTOCOL_LABELS[node.protocol].label],
    ['Network', node.network ?? '—'],
    ['URL', displayUrl(node)],
    ['WebSocket', shownWsUrl(node)],
    ['Credentials', describeAuth(node.auth)],
  ];
  const head = `$(${PROTOCOL_LABELS[node.protocol].icon}) **${escapeMarkdown(node.name)}**${isDefault ? ' — default node' : ''}\n\n`;
  return head + rows.map(([name, value]) => `${name}: ${markdownCode(value)}  \n`).join('');
}

/** `value` as inline code; a backtick in it (which would end the code) becomes a quote. */
export function markdownCode(value: string): string {
  return `\`${value.replace(/`/g, "'")}\``;
}

function shownWsUrl(node: NodeConfig): string {
  try {
    return displayUrl(node, 'ws');
  } catch {
    return '— (none derived from this URL)';
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** The names of a node's live facts, in the order they are shown. */
export const FACT_LABELS: Readonly<Record<keyof LiveFacts, string>> = {
  clientVersion: 'Client version',
  latestBlock: 'Latest block',
  chainId: 'Chain',
};

/** A fact's value as shown: the value, then what the node said when that reads differently (e.g. `1 (0x1)`); an error's text. */
export function factText(fact: Fact): string {
  if ('error' in fact) return fact.error;
  const raw = typeof fact.raw === 'string' && fact.raw !== fact.value ? ` (${fact.raw})` : '';
  return `${fact.value}${raw}`;
}
