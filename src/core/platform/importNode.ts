/**
 * A platform node turned into a Chaindeck node: a NodeConfig for settings (no credential in it;
 * an access key is `{key}` in the URL) and a NodeSecret for SecretStorage, taken from the node's
 * `details`. The config's id is derived from the platform node's id, so importing the same node
 * again updates it instead of adding a copy.
 *
 * Credentials, in the order they are used:
 * 1. `auth_key`: appended to the endpoint's path unless it is in it already (the provider's key
 *    form is `<endpoint>/<KEY>`).
 * 2. `auth_username` / `auth_password`: HTTP Basic (or user:pass@ in the endpoint itself).
 * 3. None: an open endpoint.
 * Whatever the case, the path and query are secret (parseEndpoint's rule): `{key}` in settings.
 * When a node offers both a key and a password, the key is used: no header to send, and the same
 * form works over WebSocket.
 */
import { basicUsernameProblem, EndpointError, parseEndpoint, type ParsedEndpoint } from '../nodes/endpoint';
import { KEY_PLACEHOLDER, type NodeConfig, type NodeSecret, type Protocol } from '../nodes/model';
import type { AuthForm } from '../rpc/endpoint';
import { redactText, splitUrl } from '../redact';
import type { Network, NodeDetails, PlatformNode } from './types';

/** Ids of imported nodes start with this, so the editor can tell them from hand-added ones. */
export const PLATFORM_ID_PREFIX = 'platform-';

export class NodeImportError extends Error {
  override readonly name = 'NodeImportError';
}

/** Where the imported node's protocol came from: the platform network, the host name, or a default. */
export type ProtocolSource = 'network' | 'host' | 'default';

export interface ImportedNode {
  config: NodeConfig;
  secret: NodeSecret;
  /** 'default' means a guess ('evm'): the editor may ask the user to confirm it. */
  protocolSource: ProtocolSource;
  /** The node's beacon-chain REST endpoint as a node of its own, when it has one. */
  beacon?: { config: NodeConfig; secret: NodeSecret };
}

/** The stable settings id of an imported platform node: `platform-ND-123-456-789`. */
export function platformNodeId(platformId: string): string {
  return `${PLATFORM_ID_PREFIX}${platformId.replace(/[^A-Za-z0-9_.-]/g, '-')}`;
}

/** First word of a protocol name → Chaindeck's protocol family. Unlisted names are 'other'. */
const PROTOCOL_FAMILIES: Readonly<Record<string, Protocol>> = {
  ...Object.fromEntries(
    [
      'ethereum',
      'eth',
      'polygon',
      'matic',
      'bsc',
      'bnb',
      'binance',
      'avalanche',
      'avax',
      'arbitrum',
      'base',
      'optimism',
      'op',
      'fantom',
      'gnosis',
      'xdai',
      'zksync',
      'scroll',
      'linea',
      'ronin',
      'cronos',
      'celo',
      'moonbeam',
      'moonriver',
      'harmony',
      'kaia',
      'klaytn',
      'aurora',
      'blast',
      'mantle',
      'sonic',
      'berachain',
      'hyperliquid',
      'unichain',
      'sei',
      'zora',
      'metis',
      'taiko',
      'kava',
      'oasis',
      'fuse',
      'evmos',
      'boba',
      'astar',
      'opbnb',
      'plasma',
      'monad',
      'abstract',
      'ink',
      'soneium',
      'megaeth',
    ].map((name) => [name, 'evm' as Protocol]),
  ),
  bitcoin: 'utxo',
  btc: 'utxo',
  litecoin: 'utxo',
  dogecoin: 'utxo',
  'bitcoin-cash': 'utxo',
  bch: 'utxo',
  solana: 'solana',
  starknet: 'starknet',
  beacon: 'beacon',
};

/**
 * The protocol family of a platform protocol name ("ethereum", "polygon-pos", "bsc", "bitcoin",
 * "solana", "starknet", "ethereum-beacon"…); undefined when there is no name.
 */
export function protocolFamily(name: string | undefined): Protocol | undefined {
  const text = name?.trim().toLowerCase();
  if (!text) return undefined;
  const words = text.split(/[\s_-]+/);
  if (words.includes('beacon')) return 'beacon';
  return PROTOCOL_FAMILIES[text] ?? PROTOCOL_FAMILIES[words[0]] ?? 'other';
}

/** "ethereum-mainnet" from protocol "ethereum" and configuration.network "mainnet". */
function networkLabel(network: Network | undefined, parsed: ParsedEndpoint): string | undefined {
  const protocol = network?.protocol?.trim();
  const within = network?.configuration?.network?.trim();
  if (protocol && within) return within.toLowerCase().startsWith(protocol.toLowerCase()) ? within : `${protocol}-${within}`;
  return within || parsed.network || network?.name;
}

/** The URL with `/<key>` appended to its path (the provider's key form), or itself when the key is in it already. */
function withKey(url: string, key: string): string {
  const parts = splitUrl(url);
  if (!parts) return url;
  const encoded = encodeURIComponent(key);
  if ([key, encoded].some((k) => `${parts.path}${parts.query}`.includes(k))) return url;
  return `${parts.scheme}${parts.authority}${parts.path.replace(/\/+$/, '')}/${encoded}${parts.query}`;
}

interface EndpointForm {
  url: string;
  wsUrl?: string;
  auth: AuthForm;
  secret: NodeSecret;
  parsed: ParsedEndpoint;
}

/** One endpoint (plus its WebSocket one) with the details' credentials placed as the header explains. */
function endpointForm(httpsEndpoint: string, wssEndpoint: string | undefined, details: NodeDetails, what: string): EndpointForm {
  const parse = (url: string) => {
    try {
      return parseEndpoint(url);
    } catch (err) {
      if (err instanceof EndpointError) throw new NodeImportError(`${what}: ${err.message}`);
      throw err;
    }
  };
  const key = details.auth_key?.trim();
  const parsed = parse(key ? withKey(httpsEndpoint, key) : httpsEndpoint);
  const ws = wssEndpoint?.trim() ? parse(key ? withKey(wssEndpoint.trim(), key) : wssEndpoint.trim()) : undefined;
  const tails: NodeSecret = {
    ...(parsed.secret.tail ? { tail: parsed.secret.tail } : {}),
    ...(ws?.secret.tail && ws.secret.tail !== parsed.secret.tail ? { wsTail: ws.secret.tail } : {}),
  };
  if (key) return { url: parsed.url, wsUrl: ws?.wsUrl, auth: 'key', secret: tails, parsed };

  const fromDetails = !!details.auth_username?.trim();
  const username = fromDetails ? details.auth_username : parsed.secret.username;
  const password = fromDetails ? details.auth_password : parsed.secret.password;
  if (!username && details.auth_password) throw new NodeImportError(`${what} has a password but no username: HTTP Basic needs both; check the node's credentials in the console.`);
  if (username) {
    const problem = basicUsernameProblem(username);
    if (problem) throw new NodeImportError(`${what}: ${problem}`);
    return { url: parsed.url, wsUrl: ws?.wsUrl, auth: 'basic', secret: { username, ...(password ? { password } : {}), ...tails }, parsed };
  }
  return { url: parsed.url, wsUrl: ws?.wsUrl, auth: tails.tail || tails.wsTail ? 'key' : 'none', secret: tails, parsed };
}

/** The credentials of a config must never be in it: a last check before anything is stored. */
function assertNoSecretIn(config: NodeConfig, secret: NodeSecret, what: string): void {
  const text = JSON.stringify(config);
  for (const value of [secret.tail, secret.wsTail, secret.password]) {
    if (value && value.length >= 4 && text.includes(value)) {
      throw new NodeImportError(redactText(`${what}: the endpoint holds its credential where Chaindeck cannot replace it with ${KEY_PLACEHOLDER}; add the node by hand.`, [value]));
    }
  }
}

/**
 * Turns a platform node into a Chaindeck node. `network` is the node's platform network (its
 * `protocol` decides the node's protocol); without it the protocol is guessed from the host.
 * Throws NodeImportError (message safe to show) when the node has no usable endpoint.
 */
export function nodeToConfig(node: PlatformNode, network?: Network): ImportedNode {
  const name = node.name?.trim() || node.id;
  const what = `Node '${name}' (${node.id})`;
  const details = node.details;
  const https = details?.https_endpoint?.trim() || undefined;
  const wss = details?.wss_endpoint?.trim() || undefined;
  if (!details || (!https && !wss)) {
    const why = node.status && node.status !== 'running' ? `its status is ${node.status}; endpoints appear once it runs` : "the API gives endpoints and credentials to the node's owner only";
    throw new NodeImportError(`${what} has no endpoint in its details: ${why}.`);
  }
  // Only a WebSocket endpoint: parseEndpoint gives its HTTP form too (same host, no /ws).
  const form = endpointForm(https ?? wss!, wss, details, what);

  const fromNetwork = protocolFamily(network?.protocol);
  const protocol: Protocol = fromNetwork ?? form.parsed.protocol;
  const protocolSource: ProtocolSource = fromNetwork ? 'network' : form.parsed.protocolFromHost ? 'host' : 'default';
  const config: NodeConfig = {
    id: platformNodeId(node.id),
    name,
    protocol,
    url: form.url,
    auth: form.auth,
    ...(networkLabel(network, form.parsed) ? { network: networkLabel(network, form.parsed) } : {}),
    ...(form.wsUrl ? { wsUrl: form.wsUrl } : {}),
  };
  assertNoSecretIn(config, form.secret, what);
  const imported: ImportedNode = { config, secret: form.secret, protocolSource };

  const beaconEndpoint = details.beacon_endpoint?.trim();
  if (beaconEndpoint && protocol !== 'beacon') {
    const beacon = endpointForm(beaconEndpoint, undefined, details, `${what}, beacon endpoint`);
    const beaconConfig: NodeConfig = {
      id: `${config.id}-beacon`,
      name: `${name} (beacon)`,
      protocol: 'beacon',
      url: beacon.url,
      auth: beacon.auth,
      ...(config.network ? { network: config.network } : {}),
    };
    assertNoSecretIn(beaconConfig, beacon.secret, `${what}, beacon endpoint`);
    imported.beacon = { config: beaconConfig, secret: beacon.secret };
  }
  return imported;
}
