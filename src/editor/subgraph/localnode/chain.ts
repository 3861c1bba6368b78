/**
 * The chain the local graph-node indexes: a node of the Nodes view, chosen by core's rule (the
 * one the setting names, else the devnet or same-chain node that fits the manifests' network;
 * asked when several fit). Its URL, key and all, is handed to the supervisor only: the key's
 * pieces are registered as secrets first, so no log line or message can show them.
 */
import * as vscode from 'vscode';
import { chooseChain, networkForChain, noFittingChainMessage, type ChainCandidate } from '../../../core/subgraph/graphnode/localChain';
import { inertText } from '../../../core/inert';
import { isLoopback, urlWithUserinfo } from '../../../core/nodes/endpoint';
import type { NodeConfig } from '../../../core/nodes/model';
import { registerSecret } from '../../../core/redact';
import { COMMANDS } from '../../ids';
import { SETTINGS } from '../../kit/settingsSchema';
import type { NodesFeature } from '../../nodes/feature';
import { pickOne } from '../../nodes/pickers';
import type { Manifests } from '../manifests';

/** What choosing the chain needs of the Nodes feature: its nodes and their facts. */
export type ChainNodes = Pick<NodesFeature, 'store' | 'facts'>;

export interface LocalChain {
  node: NodeConfig;
  /** The node's URL with its secret end (and Basic credentials as userinfo): never shown. */
  rpcUrl: string;
  /** The network name gnd is given for it. */
  network: string;
  chainId?: number;
}

interface Candidate extends ChainCandidate {
  node: NodeConfig;
}

/** The networks the workspace's manifests name (data sources and templates), most used first. */
export async function manifestNetworks(manifests: Manifests): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const uri of await manifests.all()) {
    for (const ds of (await manifests.summary(uri)).dataSources) if (ds.network) counts.set(ds.network, (counts.get(ds.network) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([n]) => n);
}

/** The chain to index, or undefined (the user was told why, or cancelled). */
export async function resolveChain(nodes: ChainNodes, manifests: Manifests, configured: string | undefined): Promise<LocalChain | undefined> {
  const evm = nodes.store.all().filter((n) => n.protocol === 'evm');
  const networks = await manifestNetworks(manifests);
  const candidates: Candidate[] = await Promise.all(
    evm.map(async (node) => {
      const fact = (await nodes.facts.current(node, 60_000)).facts.chainId;
      const chainId = fact && 'value' in fact && /^\d+$/.test(fact.value) ? Number(fact.value) : undefined;
      return { name: node.name, node, chainId, loopback: isLoopback(node.url) };
    }),
  );
  const choice = chooseChain(candidates, networks, configured);
  let chosen: Candidate | undefined;
  if (choice.kind === 'chosen') chosen = choice.candidate;
  else if (choice.kind === 'ask') {
    const items = choice.candidates.map((c) => ({ label: c.name, description: `chain id ${c.chainId}${c.loopback ? ' · this machine' : ''}`, candidate: c }));
    chosen = (await pickOne(items, { title: 'Which Chain Should the Local Graph Node Index?', placeholder: `Set ${SETTINGS.localGraphNodeChain.id} to stop this question` }))?.candidate;
  } else if (choice.kind === 'unknown') {
    // Not awaited: the start ends now (a notification may stay open for ever), and the next Start tries again.
    void vscode.window
      .showErrorMessage(
        `The setting ${SETTINGS.localGraphNodeChain.id} names "${inertText(choice.name)}", which is no node of the Nodes view: give the name of a node there, or leave it empty to use your local devnet.`,
        'Open Settings',
      )
      .then((open) => open && vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.localGraphNodeChain.id));
  } else {
    void vscode.window
      .showErrorMessage(noFittingChainMessage(networks, SETTINGS.localGraphNodeChain.id), 'Add Node…')
      .then((add) => add && vscode.commands.executeCommand(COMMANDS.nodes.add));
  }
  if (!chosen) return undefined;
  return { node: chosen.node, rpcUrl: await rpcUrlOf(nodes, chosen.node), network: networkForChain(chosen.chainId, networks), chainId: chosen.chainId };
}

/** The URL gnd calls: the resolved one (secret end filled in), Basic credentials as userinfo, every piece registered as a secret. */
export async function rpcUrlOf(nodes: Pick<NodesFeature, 'store'>, node: NodeConfig): Promise<string> {
  const endpoint = await nodes.store.resolve(node);
  for (const secret of endpoint.secrets) registerSecret(secret);
  return urlWithUserinfo(endpoint);
}
