/**
 * The one rule that needs a live node: a data source whose address is an EIP-1967 proxy (its
 * implementation slot holds an address) must take its ABI from the implementation contract,
 * while the proxy's address stays the one that emits the events. Not part of validate(), which
 * reads only files: the slots are read with eth_getStorageAt at latest, with a short timeout,
 * once per node and address (ProxyLookups), and a hint is said only for an address known to be a
 * proxy. A read that fails says nothing and is tried again a minute later, not on every keystroke.
 */
import type { KnobHints } from '../../knobs';
import type { NodeConfig } from '../../nodes/model';
import { RpcClient } from '../../rpc/client';
import type { ResolvedEndpoint } from '../../rpc/endpoint';
import { EIP1967_IMPLEMENTATION_SLOT, wordAsAddress } from '../../storage/slots';
import { rangeOfKeyPath, type ManifestDoc } from '../manifest/manifestDoc';
import type { Finding } from '../types';
import { get, items, str } from '../ynode';

export const PROXY_HINT_CODE = 'eip1967-proxy';
/** How long a slot read may take: the hint is a bonus, never a wait. */
export const PROXY_READ_TIMEOUT_MS = 3_000;
/** A failed read is tried again after this long (the node may be back). */
export const PROXY_RETRY_AFTER_MS = 60_000;

/** The hints for a manifest's data source addresses that `implementationOf` knows to be proxies. */
export function proxyHints(manifestFile: string, doc: ManifestDoc | undefined, implementationOf: (address: string) => string | undefined): Finding[] {
  const hints: Finding[] = [];
  items(get(doc?.root, 'dataSources')).forEach((source, i) => {
    const address = str(get(get(source, 'source'), 'address'));
    const implementation = address === undefined ? undefined : implementationOf(address);
    if (!doc || !implementation) return;
    hints.push({
      file: manifestFile,
      range: rangeOfKeyPath(doc, ['dataSources', i, 'source', 'address']),
      severity: 'info',
      code: PROXY_HINT_CODE,
      message: `This address is an EIP-1967 proxy; the ABI must come from the implementation contract ${implementation} (the proxy's address is the one that emits events)`,
    });
  });
  return hints;
}

/** The implementation an EIP-1967 proxy at `address` points to; undefined when the slot is empty or holds no address. */
export async function readImplementation(endpoint: ResolvedEndpoint, address: string, hints?: KnobHints): Promise<string | undefined> {
  const client = new RpcClient(endpoint, { timeoutMs: PROXY_READ_TIMEOUT_MS, retry: { retries: 0 }, hints });
  // Lower case: a node may refuse a mixed-case address whose checksum is wrong (validation says so).
  const word = await client.call<string>('eth_getStorageAt', [address.toLowerCase(), EIP1967_IMPLEMENTATION_SLOT, 'latest'], { timeoutMs: PROXY_READ_TIMEOUT_MS, retries: 0 });
  // A zero slot is no proxy; anything but an address in it is not EIP-1967's.
  return typeof word === 'string' ? wordAsAddress(word) : undefined;
}

type Lookup = { state: 'pending' } | { state: 'done'; implementation?: string; node: string } | { state: 'failed'; at: number };

/** What each node said about each address: asked once, never waited for. */
export class ProxyLookups {
  private readonly lookups = new Map<string, Lookup>();

  constructor(
    /** Reads an address's implementation on a node (readImplementation on its endpoint). */
    private readonly read: (node: NodeConfig, address: string) => Promise<string | undefined>,
    /** A read found a proxy: the hints should be said again. */
    private readonly onFound: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The implementation when known; otherwise starts a read (unless one is under way or failed lately). */
  implementation(node: NodeConfig, address: string): string | undefined {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
    const k = key(node, address);
    const lookup = this.lookups.get(k);
    if (lookup?.state === 'done') return lookup.implementation;
    if (lookup?.state === 'pending' || (lookup?.state === 'failed' && this.now() - lookup.at < PROXY_RETRY_AFTER_MS)) return undefined;
    this.lookups.set(k, { state: 'pending' });
    void this.read(node, address).then(
      (implementation) => {
        if (this.lookups.get(k)?.state !== 'pending') return; // forgotten meanwhile (the nodes changed)
        this.lookups.set(k, { state: 'done', implementation, node: node.name });
        if (implementation) this.onFound();
      },
      () => this.lookups.set(k, { state: 'failed', at: this.now() }),
    );
    return undefined;
  }

  /** What a node said about an address, for hovers: the implementation and the node's name. */
  describe(node: NodeConfig, address: string): { implementation: string; node: string } | undefined {
    const lookup = this.lookups.get(key(node, address));
    return lookup?.state === 'done' && lookup.implementation ? { implementation: lookup.implementation, node: lookup.node } : undefined;
  }

  /** Forgets every answer (the nodes changed); reads under way are dropped when they end. */
  clear(): void {
    this.lookups.clear();
  }
}

const key = (node: NodeConfig, address: string) => `${node.id}\0${address.toLowerCase()}`;
