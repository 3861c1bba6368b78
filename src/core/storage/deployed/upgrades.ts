/**
 * A proxy's upgrade history from its events: ERC-1967's `Upgraded(address indexed implementation)`
 * and `BeaconUpgraded(address indexed beacon)` at the proxy, and for a beacon proxy the
 * `Upgraded` events of each beacon it pointed at (an UpgradeableBeacon logs them at its own
 * address). From the history, the implementation live at a block.
 */
import { getAddress } from 'ethers';
import { scanLogs } from '../decode/logs';
import { normaliseAddress } from '../inputs';
import type { StorageRpc } from '../types';

/** keccak256("Upgraded(address)"). */
export const UPGRADED_TOPIC = '0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b';
/** keccak256("BeaconUpgraded(address)"). */
export const BEACON_UPGRADED_TOPIC = '0x1cf3b03a6cf19fa2baba4df148e9dcabedea7f8a5c07840e207e5c089be95d3e';

/** The most beacons whose own upgrades are read for one proxy. */
export const MAX_BEACONS = 16;

/** One upgrade: from then on the proxy runs `address` (an implementation) or asks the beacon `address` for it. */
export interface Upgrade {
  block: number;
  tx: string;
  logIndex: number;
  kind: 'implementation' | 'beacon';
  /** EIP-55. */
  address: string;
  /** For an implementation set on a beacon: the beacon, whose event it is. */
  beacon?: string;
}

export interface UpgradeHistory {
  proxy: string;
  /** The last block searched. */
  toBlock: number;
  /** In chain order. */
  upgrades: Upgrade[];
  /** What the search left out, one line each. */
  warnings: string[];
  requests: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const quantity = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-f]{1,16}$/i.test(v) ? Number(BigInt(v)) : undefined);

/** A log as an upgrade, or undefined for anything else (another event, a removed log, a malformed one). */
export function upgradeOf(log: unknown, beacon?: string): Upgrade | undefined {
  if (!isObject(log) || log.removed === true || !Array.isArray(log.topics) || log.topics.length !== 2) return undefined;
  const [topic, arg] = log.topics.map((t) => (typeof t === 'string' ? t.toLowerCase() : ''));
  const kind = topic === UPGRADED_TOPIC ? 'implementation' : topic === BEACON_UPGRADED_TOPIC && beacon === undefined ? 'beacon' : undefined;
  const block = quantity(log.blockNumber);
  const logIndex = quantity(log.logIndex);
  if (!kind || block === undefined || logIndex === undefined || !/^0x0{24}[0-9a-f]{40}$/.test(arg)) return undefined;
  const tx = typeof log.transactionHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(log.transactionHash) ? log.transactionHash.toLowerCase() : '';
  return { block, tx, logIndex, kind, address: getAddress(`0x${arg.slice(26)}`), ...(beacon ? { beacon } : {}) };
}

const chainOrder = (a: Upgrade, b: Upgrade) => a.block - b.block || a.logIndex - b.logIndex;

/**
 * The upgrades of `proxy` in blocks [0, toBlock]: its own Upgraded and BeaconUpgraded events, then
 * the Upgraded events of each beacon it named (up to the last block it pointed there), with the
 * logs helper's range splitting, backoff and bounds.
 */
export async function upgradeHistory(rpc: StorageRpc, proxy: string, toBlock: number, signal?: AbortSignal): Promise<UpgradeHistory> {
  const address = normaliseAddress(proxy);
  const history: UpgradeHistory = { proxy: address, toBlock, upgrades: [], warnings: [], requests: 0 };
  const search = async (at: string, topics: string[], to: number, beacon?: string) => {
    const scan = await scanLogs(
      rpc,
      { address: at, topics: [topics] },
      0,
      to,
      (logs) => {
        for (const log of logs) {
          const upgrade = upgradeOf(log, beacon);
          if (upgrade) history.upgrades.push(upgrade);
        }
      },
      { signal },
    );
    history.requests += scan.requests;
    const whose = beacon ? `beacon ${beacon}'s upgrades` : 'upgrades';
    if (scan.capped) history.warnings.push(`${whose}: only the first logs were read`);
    if (scan.left.length) history.warnings.push(`${whose}: ${scan.left.join('; ')}`);
  };
  await search(address, [UPGRADED_TOPIC, BEACON_UPGRADED_TOPIC], toBlock);
  const own = [...history.upgrades].sort(chainOrder);
  // Each beacon's own upgrades, up to the last block the proxy pointed at it.
  const beacons = new Map<string, number>();
  own.forEach((u, i) => {
    if (u.kind !== 'beacon') return;
    const next = own.slice(i + 1).find((n) => n.block > u.block);
    beacons.set(u.address, Math.max(beacons.get(u.address) ?? 0, next ? next.block : toBlock));
  });
  const followed = [...beacons].slice(0, MAX_BEACONS);
  if (beacons.size > MAX_BEACONS) history.warnings.push(`the proxy named ${beacons.size} beacons; the upgrades of the first ${MAX_BEACONS} were read`);
  for (const [beacon, to] of followed) await search(beacon, [UPGRADED_TOPIC], to, beacon);
  history.upgrades.sort(chainOrder);
  return history;
}

/** What the proxy ran at the end of `block`, by its history: the implementation (and the beacon it came from), or undefined before any upgrade. */
export function implementationAt(history: readonly Upgrade[], block: number): { implementation?: string; beacon?: string; since: Upgrade } | undefined {
  const upTo = history.filter((u) => u.block <= block);
  const own = upTo.filter((u) => u.beacon === undefined);
  const last = own.at(-1);
  if (!last) return undefined;
  if (last.kind === 'implementation') return { implementation: last.address, since: last };
  const set = upTo.filter((u) => u.beacon === last.address).at(-1);
  // The beacon may have been upgraded after the proxy switched to it: the later event is when this implementation went live.
  return { implementation: set?.address, beacon: last.address, since: set && chainOrder(set, last) > 0 ? set : last };
}
