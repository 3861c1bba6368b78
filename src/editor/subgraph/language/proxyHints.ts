/**
 * The optional node rule: with a selected (or default) EVM node, a data source address whose
 * EIP-1967 implementation slot is set is a proxy, and its ABI must come from the implementation.
 * Slots are read with eth_getStorageAt at latest, with a short timeout, once per node and
 * address; diagnostics never wait for them (a found proxy asks for a new publish). Without a
 * node, or when the read fails, nothing is said.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../../core/nodes/model';
import { RpcClient } from '../../../core/rpc/client';
import { EIP1967_IMPLEMENTATION_SLOT, wordAsAddress } from '../../../core/storage/slots';
import { rangeOfKeyPath, type ManifestDoc } from '../../../core/subgraph/manifest/manifestDoc';
import type { Finding } from '../../../core/subgraph/types';
import type { Settings } from '../../kit/settings';
import type { NodesFeature } from '../../nodes/feature';
import { nodeAt, stringAt } from '../../../core/subgraph/lookup/lookup';

const TIMEOUT_MS = 3_000;
/** A failed read is tried again after this long (the node may be back), not on every keystroke. */
const RETRY_AFTER_MS = 60_000;

type Lookup = { state: 'pending' } | { state: 'done'; implementation?: string; node: string } | { state: 'failed'; at: number };

export class ProxyHints implements vscode.Disposable {
  private readonly lookups = new Map<string, Lookup>();
  private readonly found = new vscode.EventEmitter<void>();
  /** Fires when a read found a proxy (or the nodes changed): diagnostics should be published again. */
  readonly onDidChange = this.found.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly nodes: NodesFeature,
    private readonly settings: Settings,
  ) {
    this.subscription = nodes.store.onDidChange(() => {
      this.lookups.clear();
      this.found.fire();
    });
  }

  /** Hints for the manifest's addresses known to be proxies; starts reading the unknown ones. */
  findings(manifestFile: string, doc: ManifestDoc | undefined): Finding[] {
    const node = this.node();
    const sources = nodeAt(doc, ['dataSources']);
    if (!node || !doc || sources?.kind !== 'seq') return [];
    const hints: Finding[] = [];
    sources.items.forEach((_, i) => {
      const keyPath = ['dataSources', i, 'source', 'address'];
      const address = stringAt(doc, keyPath);
      const implementation = address === undefined ? undefined : this.implementation(node, address);
      if (!implementation) return;
      hints.push({
        file: manifestFile,
        range: rangeOfKeyPath(doc, keyPath),
        severity: 'info',
        code: 'eip1967-proxy',
        message: `This address is an EIP-1967 proxy; the ABI must come from the implementation contract ${implementation} (the proxy's address is the one that emits events)`,
      });
    });
    return hints;
  }

  /** What the selected node said about an address, for hovers. */
  describe(address: string): { implementation: string; node: string } | undefined {
    const node = this.node();
    const lookup = node && this.lookups.get(key(node, address));
    return lookup?.state === 'done' && lookup.implementation ? { implementation: lookup.implementation, node: lookup.node } : undefined;
  }

  private node(): NodeConfig | undefined {
    const node = this.nodes.statusBar.node();
    return node?.protocol === 'evm' ? node : undefined;
  }

  /** The implementation when known; otherwise starts a read (unless one is under way or failed lately). */
  private implementation(node: NodeConfig, address: string): string | undefined {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
    const k = key(node, address);
    const lookup = this.lookups.get(k);
    if (lookup?.state === 'done') return lookup.implementation;
    if (lookup?.state === 'pending' || (lookup?.state === 'failed' && Date.now() - lookup.at < RETRY_AFTER_MS)) return undefined;
    this.lookups.set(k, { state: 'pending' });
    void this.read(node, address).then(
      (implementation) => {
        if (this.lookups.get(k)?.state !== 'pending') return; // the nodes changed meanwhile
        this.lookups.set(k, { state: 'done', implementation, node: node.name });
        if (implementation) this.found.fire();
      },
      () => this.lookups.set(k, { state: 'failed', at: Date.now() }),
    );
    return undefined;
  }

  private async read(node: NodeConfig, address: string): Promise<string | undefined> {
    const client = new RpcClient(await this.nodes.store.resolve(node), { timeoutMs: TIMEOUT_MS, retry: { retries: 0 }, hints: this.settings.limits().hints });
    // Lower case: a node may refuse a mixed-case address whose checksum is wrong (validation says so).
    const word = await client.call<string>('eth_getStorageAt', [address.toLowerCase(), EIP1967_IMPLEMENTATION_SLOT, 'latest'], { timeoutMs: TIMEOUT_MS, retries: 0 });
    // A zero slot is no proxy; anything but an address in it is not EIP-1967's.
    return typeof word === 'string' ? wordAsAddress(word) : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.found.dispose();
  }
}

const key = (node: NodeConfig, address: string) => `${node.id}\0${address.toLowerCase()}`;
