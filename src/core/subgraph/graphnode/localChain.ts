/**
 * Which node of the user's the local graph-node indexes: a node fits a manifest's network when
 * its chain id is that network's (mainnet 1, sepolia 11155111, from the networks registry), and a
 * devnet on this machine (anvil, hardhat, ganache: chain id 31337 or 1337) fits any network name,
 * since a subgraph meant for mainnet is tried on a local copy of it. Also the subgraph name a
 * local deploy suggests.
 */
import { EVM_NETWORK_ALIASES } from '../manifest/networks';

/** Chain ids local devnets answer eth_chainId with (anvil and hardhat 31337; ganache and geth --dev 1337). */
export const DEVNET_CHAIN_IDS: readonly number[] = [31337, 1337];

/** The chain ids the networks registry gives a network name (usually one). */
export function chainIdsOfNetwork(network: string): number[] {
  const ids: number[] = [];
  for (const [alias, name] of Object.entries(EVM_NETWORK_ALIASES)) {
    const m = /^evm-(\d+)$/.exec(alias);
    if (m && name === network) ids.push(Number(m[1]));
  }
  return ids;
}

/** The network name of a chain id, when the registry knows one. */
export function networkOfChainId(chainId: number): string | undefined {
  return EVM_NETWORK_ALIASES[`evm-${chainId}`];
}

export interface ChainCandidate {
  name: string;
  /** From eth_chainId; undefined when the node did not answer. */
  chainId?: number;
  /** Whether the node's URL points at this machine. */
  loopback: boolean;
}

/** Whether the node can serve as the chain of every one of the manifests' networks. */
export function chainFits(candidate: ChainCandidate, networks: readonly string[]): boolean {
  const id = candidate.chainId;
  if (id === undefined) return false;
  if (candidate.loopback && DEVNET_CHAIN_IDS.includes(id)) return true;
  return networks.length > 0 && networks.every((n) => chainIdsOfNetwork(n).includes(id));
}

export type ChainChoice<C extends ChainCandidate> =
  | { kind: 'chosen'; candidate: C }
  /** Several fit: the user picks. */
  | { kind: 'ask'; candidates: C[] }
  /** The name configured is no node's. */
  | { kind: 'unknown'; name: string }
  | { kind: 'none' };

/** The node to index: the one named (any chain), else the only one that fits the networks. */
export function chooseChain<C extends ChainCandidate>(candidates: readonly C[], networks: readonly string[], configured?: string): ChainChoice<C> {
  if (configured?.trim()) {
    const wanted = configured.trim().toLowerCase();
    const named = candidates.find((c) => c.name.toLowerCase() === wanted);
    return named ? { kind: 'chosen', candidate: named } : { kind: 'unknown', name: configured.trim() };
  }
  const fitting = candidates.filter((c) => chainFits(c, networks));
  if (fitting.length === 1) return { kind: 'chosen', candidate: fitting[0] };
  return fitting.length ? { kind: 'ask', candidates: fitting } : { kind: 'none' };
}

/** What the user is told when no node fits: what would fit, and the two ways out. */
export function noFittingChainMessage(networks: readonly string[], settingId: string): string {
  const wanted = networks.length ? `the network ${networks.join(', ')} of your subgraph.yaml` : 'your subgraphs';
  return `No node of the Nodes view can be the chain of the local graph-node: none is a devnet on this machine (chain id ${DEVNET_CHAIN_IDS.join(' or ')}, e.g. anvil or hardhat) or answers with the chain id of ${wanted}. Add your devnet (e.g. http://127.0.0.1:8545), or name a node in ${settingId}.`;
}

/**
 * The network name gnd is given for the chain: the manifests' network that is the node's chain,
 * else the manifests' first (a devnet standing in for it), else the node's own, else mainnet.
 */
export function networkForChain(chainId: number | undefined, networks: readonly string[]): string {
  const own = chainId === undefined ? undefined : networkOfChainId(chainId);
  if (own && networks.includes(own)) return own;
  return networks[0] ?? own ?? 'mainnet';
}

const NAME_PART = /[^A-Za-z0-9_-]+/g;

/** A subgraph name graph-node accepts, from the project's package.json name (scope kept as a part) or else its folder. */
export function suggestSubgraphName(packageName: string | undefined, folderName: string): string {
  const source = packageName?.trim() || folderName;
  const parts = source
    .replace(/^@/, '')
    .split('/')
    .map((p) => p.replace(NAME_PART, '-').replace(/^-+|-+$/g, ''))
    .filter(Boolean);
  return parts.join('/') || 'subgraph';
}
