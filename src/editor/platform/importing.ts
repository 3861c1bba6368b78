/**
 * Platform nodes into the Nodes view. Core's nodeToConfig turns each into a node config (no
 * credential in it) and its secret; the node store writes them, the config to settings and the
 * secret to SecretStorage. The config's id derives from the platform node's id, so importing a
 * node again updates it instead of adding a copy; a name the user gave it since is kept.
 */
import type { NodeConfig } from '../../core/nodes/model';
import type { PlatformClient } from '../../core/platform/client';
import { NodeImportError, nodeToConfig } from '../../core/platform/importNode';
import type { ImportReport } from '../../core/platform/labels';
import type { Network, PlatformNode } from '../../core/platform/types';
import type { NodeStore } from '../nodes/store';

export interface ImportSource {
  node: PlatformNode;
  /** The node's network: its protocol decides the node's. */
  network?: Network;
}

/** The node with its endpoints: a list may leave `details` out, the node itself has them. */
export async function withDetails(client: PlatformClient, node: PlatformNode, signal?: AbortSignal): Promise<PlatformNode> {
  const details = node.details;
  return details?.https_endpoint || details?.wss_endpoint ? node : client.getNode(node.id, { signal });
}

export async function importNodes(store: NodeStore, sources: readonly ImportSource[]): Promise<ImportReport> {
  const report: ImportReport = { added: [], updated: [], skipped: [], guessed: [] };
  for (const { node, network } of sources) {
    let imported;
    try {
      imported = nodeToConfig(node, network);
    } catch (error) {
      if (!(error instanceof NodeImportError)) throw error;
      report.skipped.push({ name: node.name ?? node.id, why: error.message });
      continue;
    }
    // A node with a beacon endpoint brings it as a node of its own.
    for (const { config, secret } of [imported, ...(imported.beacon ? [imported.beacon] : [])]) {
      const { node: saved, added } = await store.upsert({ ...config, name: nameFor(store, config) }, secret);
      (added ? report.added : report.updated).push(saved);
      if (config === imported.config && imported.protocolSource === 'default') report.guessed.push(saved);
    }
  }
  return report;
}

/** The name it already has in the Nodes view, else its own, made unique. */
function nameFor(store: NodeStore, config: NodeConfig): string {
  const existing = store.byId(config.id);
  if (existing) return existing.name;
  let name = config.name;
  for (let n = 2; store.byName(name); n++) name = `${config.name} (${n})`;
  return name;
}
