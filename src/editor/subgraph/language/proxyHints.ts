/**
 * The EIP-1967 proxy hint in the editor: core's rule (rules/proxy.ts) asked of the selected (or
 * default) EVM node, its endpoint resolved with the node's secrets. Diagnostics never wait for a
 * read: a found proxy asks for a new publish. Without an EVM node, nothing is said.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../../core/nodes/model';
import type { ManifestDoc } from '../../../core/subgraph/manifest/manifestDoc';
import { proxyHints, ProxyLookups, readImplementation } from '../../../core/subgraph/rules/proxy';
import type { Finding } from '../../../core/subgraph/types';
import type { Settings } from '../../kit/settings';
import type { NodesFeature } from '../../nodes/feature';

export class ProxyHints implements vscode.Disposable {
  private readonly found = new vscode.EventEmitter<void>();
  /** Fires when a read found a proxy (or the nodes changed): diagnostics should be published again. */
  readonly onDidChange = this.found.event;
  private readonly lookups: ProxyLookups;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly nodes: Pick<NodesFeature, 'store' | 'statusBar'>,
    settings: Settings,
  ) {
    this.lookups = new ProxyLookups(
      async (node, address) => readImplementation(await nodes.store.resolve(node), address, settings.limits().hints),
      () => this.found.fire(),
    );
    this.subscription = nodes.store.onDidChange(() => {
      this.lookups.clear();
      this.found.fire();
    });
  }

  /** Hints for the manifest's addresses known to be proxies; starts reading the unknown ones. */
  findings(manifestFile: string, doc: ManifestDoc | undefined): Finding[] {
    const node = this.node();
    return node ? proxyHints(manifestFile, doc, (address) => this.lookups.implementation(node, address)) : [];
  }

  /** What the selected node said about an address, for hovers. */
  describe(address: string): { implementation: string; node: string } | undefined {
    const node = this.node();
    return node && this.lookups.describe(node, address);
  }

  private node(): NodeConfig | undefined {
    const node = this.nodes.statusBar.node();
    return node?.protocol === 'evm' ? node : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.found.dispose();
  }
}
