/**
 * The rules graph-cli and graph-node apply across data sources: one protocol per manifest,
 * handlers present, templates only for Ethereum, NEAR account names.
 */
import type { Context } from './context';
import { requireSpecVersion, SPEC_VERSION_FOR } from './versions';
import { protocolOf, type Protocol } from '../manifest/protocolShapes';
import { get, isMap, items, pairOf, str, type YNode } from '../ynode';
/** Value rules that only make sense for Ethereum data sources (EVM addresses and networks, `ethereum/events`). */
export const ETHEREUM_ONLY_RULES = /\.(source\.address|network|mapping\.kind)$/;

/** graph-cli's handlerTypes() per protocol (protocols/<kind>/subgraph.js); none asked for substreams and subgraph. */
const HANDLER_TYPES: Partial<Record<Protocol, string[]>> = {
  near: ['blockHandlers', 'receiptHandlers'],
  cosmos: ['blockHandlers', 'eventHandlers', 'transactionHandlers', 'messageHandlers'],
  arweave: ['blockHandlers', 'transactionHandlers'],
};

/** graph-cli's NearContract (protocols/near/contract.js). */
const NEAR_ACCOUNT = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

interface Item {
  list: 'dataSources' | 'templates';
  index: number;
  node: YNode;
  kind: YNode;
  protocol: Protocol;
}

/** Rules across data sources that hold for every protocol, and the non-Ethereum ones' own. */
export function checkProtocols(ctx: Context): void {
  const all: Item[] = [];
  for (const list of ['dataSources', 'templates'] as const) {
    items(get(ctx.doc.root, list)).forEach((node, index) => {
      const kind = get(node, 'kind');
      const protocol = protocolOf(str(kind));
      if (isMap(node) && kind && protocol) all.push({ list, index, node, kind, protocol });
    });
  }
  const first = all[0];
  composition(ctx, all);
  for (const item of all) {
    if (first && item.protocol !== first.protocol) {
      // graph-cli: validateDataSourceProtocolAndNetworks (validation/manifest.js); graph-node reads
      // the chain from the first data source and refuses other chains' kinds.
      ctx.flag(
        item.kind,
        'error',
        'conflicting-protocols',
        `Conflicting protocol kinds: '${str(item.kind)}' here, '${str(first.kind)}' in ${first.list}[${first.index}]; all data sources and templates must use one protocol (file data sources aside)`,
      );
      continue;
    }
    if (item.protocol === 'ethereum') continue;
    if (item.list === 'templates') {
      // Only graph-cli's Ethereum manifest takes `templates` (the others' SDL has no such key).
      ctx.flag(item.kind, 'error', 'template-kind-unsupported', `graph-cli supports templates only for Ethereum data sources, not '${str(item.kind)}' (Unexpected key in map: templates)`);
      continue;
    }
    const mapping = get(item.node, 'mapping');
    const types = HANDLER_TYPES[item.protocol];
    if (types && isMap(mapping) && types.every((t) => items(get(mapping, t)).length === 0)) {
      const pair = pairOf(item.node, 'mapping');
      const where = pair ? { start: pair.keyStart, end: pair.keyEnd } : item.kind;
      ctx.flag(where, 'error', 'no-handlers', `Mapping has no ${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}; at least one is needed (graph build fails)`);
    }
    if (item.protocol === 'substreams') substreamsPackage(ctx, item.node);
    const account = get(get(item.node, 'source'), 'account');
    const name = str(account);
    if (item.protocol === 'near' && account && name !== undefined && (name.length < 2 || name.length > 64 || !NEAR_ACCOUNT.test(name))) {
      ctx.flag(account, 'error', 'invalid-near-account', `NEAR account '${name}' is invalid: 2 to 64 characters, lower-case letters, digits, and - _ . between them (graph-cli rejects it)`);
    }
  }
}

/**
 * graph-cli types `source.package.file` as a plain string, so codegen passes; graph build then
 * reads the package to copy it (compiler/index.js) and fails on a missing one. Only its
 * existence is checked: a package is binary and may be large, so it is not read.
 */
function substreamsPackage(ctx: Context, node: YNode): void {
  const fileNode = get(get(get(node, 'source'), 'package'), 'file');
  const written = str(fileNode);
  if (fileNode && written !== undefined && ctx.mtime(ctx.resolve(written)) === undefined) {
    ctx.flag(fileNode, 'error', 'file-not-found', `File does not exist: ${written} (graph build reads the Substreams package and fails)`);
  }
}

/**
 * graph-node's validate_subgraph_datasources (graph/src/data/subgraph/mod.rs): subgraph data
 * sources need specVersion 1.3.0, at most five of them, each source subgraph once. (Mixing them
 * with on-chain data sources is the conflicting-protocols rule.)
 */
function composition(ctx: Context, all: Item[]): void {
  const composed = all.filter((i) => i.list === 'dataSources' && i.protocol === 'subgraph');
  if (!composed.length) return;
  requireSpecVersion(ctx, composed[0].kind, SPEC_VERSION_FOR.subgraphDataSources, 'A subgraph data source');
  if (composed.length > 5)
    ctx.flag(composed[5].kind, 'error', 'too-many-subgraph-sources', `At most 5 subgraph data sources are allowed; this manifest has ${composed.length} (graph-node rejects it)`);
  const seen = new Set<string>();
  for (const item of composed) {
    const address = get(get(item.node, 'source'), 'address');
    const id = str(address);
    if (id === undefined) continue;
    if (seen.has(id)) ctx.flag(address!, 'error', 'duplicate-subgraph-source', `Subgraph ${id} is already a source of another data source (graph-node rejects duplicates)`);
    seen.add(id);
  }
}
