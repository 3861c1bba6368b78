/**
 * The shape of subgraph.yaml: which keys each map takes, their types, which are required.
 *
 * For Ethereum data sources this is exactly the shape graph-cli 0.98 enforces (its GraphQL SDL
 * in dist/protocols/ethereum/manifest.graphql: a key it does not list fails `graph codegen`, so
 * we must not accept more). test/unit/core/subgraph/manifest/shape.test.ts reads that SDL and fails when the
 * two differ. File data source templates (`kind: file/ipfs`), which the CLI does not check, follow
 * graph-node's documentation. The docs are what hovers and completions show.
 */

import { otherProtocolShape } from './protocolShapes';
import { bigint, boolean, file, json, listOf, object, opt, req, string, type Field, type ObjectShape, type Shape } from './shapeKit';

const abiEntry = object('ContractAbi', {
  name: req(string, 'Name of the ABI, as `source.abi` and the generated code refer to it.'),
  file: req(file, 'Path of the ABI JSON file, relative to the manifest.'),
});

const blockFilterKind: Shape = { type: 'enum', name: 'BlockFilterKind', values: ['polling', 'once', 'call'] };

const blockHandler = object('BlockHandler', {
  handler: req(string, 'Exported function of the mapping file called for each matching block.'),
  filter: opt(
    {
      type: 'union',
      name: 'BlockFilterType',
      of: [
        object('BlockFilter', { kind: req(blockFilterKind, '`call`: blocks with a call to the contract; `once`: only the start block; `polling`: every N blocks.') }),
        object('PollingBlockFilter', {
          kind: req(blockFilterKind, '`polling`: run every `every` blocks.'),
          every: req(bigint, 'Number of blocks between two runs of a polling block handler.'),
        }),
      ],
    },
    'Which blocks run the handler; without a filter, every block.',
  ),
});

const callHandler = object('CallHandler', {
  function: req(string, 'Function signature from the ABI, e.g. `approve(address,uint256)`.'),
  handler: req(string, 'Exported function of the mapping file called for each call.'),
});

const eventHandler = object('ContractEventHandler', {
  event: req(string, 'Event signature from the ABI with `indexed` markers, e.g. `Approval(indexed address,indexed address,uint256)`.'),
  topic0: opt(string, 'Event topic hash to match instead of the signature’s (for events with the same signature from other contracts).'),
  topic1: opt(listOf(string, false), 'Values of the first indexed argument to match (specVersion 1.2.0).'),
  topic2: opt(listOf(string, false), 'Values of the second indexed argument to match (specVersion 1.2.0).'),
  topic3: opt(listOf(string, false), 'Values of the third indexed argument to match (specVersion 1.2.0).'),
  handler: req(string, 'Exported function of the mapping file called for each event.'),
  receipt: opt(boolean, 'Make the transaction receipt available as `event.receipt` (specVersion 0.0.5, apiVersion 0.0.7).'),
  calls: opt(json, 'Declared eth_calls run before the handler: `label: Contract[address].function(args)` (specVersion 1.2.0).'),
});

const mapping = object('ContractMapping', {
  kind: opt(string, 'Always `ethereum/events`.'),
  apiVersion: req(string, 'Version of the mapping API (graph-ts host functions), e.g. `0.0.7`.'),
  language: req(string, 'Always `wasm/assemblyscript`.'),
  file: req(file, 'Path of the AssemblyScript mapping file, relative to the manifest.'),
  entities: req(listOf(string), 'Entity types (from schema.graphql) the handlers write.'),
  abis: req(listOf(abiEntry), 'ABIs the mapping uses, by name and file; must include `source.abi`.'),
  blockHandlers: opt(listOf(blockHandler), 'Handlers run for blocks.'),
  callHandlers: opt(listOf(callHandler), 'Handlers run for calls to the contract’s functions.'),
  eventHandlers: opt(listOf(eventHandler), 'Handlers run for the contract’s events.'),
});

const dataSource = object('DataSource', {
  kind: req(string, 'Protocol of the data source: `ethereum` (or the older `ethereum/contract`).'),
  name: req(string, 'Name of the data source; also the folder of its generated code.'),
  network: opt(string, 'Network name as graph-node hosts know it, e.g. `mainnet`, `sepolia`, `arbitrum-one`.'),
  context: opt(json, 'Key-value pairs the mapping reads with `dataSource.context()`.'),
  source: req(
    object('ContractSource', {
      address: opt(string, 'Contract address, quoted. For a proxy, the proxy’s address (whose events are emitted) with the implementation’s ABI.'),
      abi: req(string, 'Name of the contract’s ABI in `mapping.abis`.'),
      startBlock: opt(bigint, 'First block to index; earlier blocks are skipped.'),
      endBlock: opt(bigint, 'Last block to index (specVersion 0.0.9).'),
    }),
    'The contract to index.',
  ),
  mapping: req(mapping, 'How the contract’s events, calls and blocks become entities.'),
});

const template = object('DataSourceTemplate', {
  kind: req(string, 'Protocol of the template: `ethereum`.'),
  name: req(string, 'Name of the template, as `DataSourceTemplate.create` names it.'),
  network: opt(string, 'Network name as graph-node hosts know it.'),
  source: req(object('ContractSourceTemplate', { abi: req(string, 'Name of the contract’s ABI in `mapping.abis`.') }), 'The ABI of the contracts created from the template.'),
  mapping: req(mapping, 'How the contracts’ events, calls and blocks become entities.'),
});

/** A file data source template (`kind: file/ipfs` or `file/arweave`), from graph-node's documentation. */
export const FILE_TEMPLATE = object('FileDataSourceTemplate', {
  kind: req(string, '`file/ipfs` or `file/arweave`.'),
  name: req(string, 'Name of the template, as `DataSourceTemplate.create` names it.'),
  network: opt(string, 'Network name as graph-node hosts know it.'),
  context: opt(json, 'Key-value pairs the mapping reads with `dataSource.context()`.'),
  mapping: req(
    object('FileMapping', {
      kind: opt(string, 'Always `ethereum/events`.'),
      apiVersion: req(string, 'Version of the mapping API, e.g. `0.0.7`.'),
      language: req(string, 'Always `wasm/assemblyscript`.'),
      file: req(file, 'Path of the AssemblyScript mapping file, relative to the manifest.'),
      handler: req(string, 'Exported function called with the file’s content.'),
      entities: req(listOf(string), 'Entity types the handler writes.'),
      abis: opt(listOf(abiEntry), 'ABIs the mapping uses.'),
    }),
    'How the file becomes entities.',
  ),
});

export const MANIFEST = object('SubgraphManifest', {
  specVersion: req(string, 'Version of the manifest format, e.g. `0.0.5` or `1.3.0`.'),
  features: opt(listOf(string), 'Features the subgraph uses: `nonFatalErrors`, `fullTextSearch`, `grafting` (specVersion 0.0.4).'),
  schema: req(object('Schema', { file: req(file, 'Path of schema.graphql, relative to the manifest.') }), 'The GraphQL schema of the entities.'),
  description: opt(string, 'What the subgraph indexes; shown by graph-node hosts.'),
  repository: opt(string, 'URL of the subgraph’s source code.'),
  graft: opt(
    object('Graft', {
      base: req(string, 'Deployment id (Qm…) of the subgraph to graft onto.'),
      block: req(bigint, 'Block up to which the base’s data is copied.'),
    }),
    'Start from the data of another deployment (needs the `grafting` feature).',
  ),
  dataSources: req(listOf(dataSource), 'One item per indexed contract.'),
  templates: opt(listOf(template), 'Data sources created at run time, e.g. for contracts a factory deploys.'),
  indexerHints: opt(
    object('IndexerHints', {
      prune: opt({ type: 'union', name: 'StringOrBigInt', of: [string, bigint] }, 'History to keep: `auto`, `never`, or a number of blocks (specVersion 1.0.0).'),
    }),
    'Hints for indexers (specVersion 1.0.0).',
  ),
});

/** Every named object, enum and union type of the table (the drift test compares them by name). */
export function namedShapes(): Map<string, Shape> {
  const out = new Map<string, Shape>();
  const visit = (s: Shape) => {
    if (s.type === 'list') return visit(s.of);
    if (s.type === 'object' || s.type === 'enum' || s.type === 'union') {
      if (out.has(s.name)) return;
      out.set(s.name, s);
      if (s.type === 'object') Object.values(s.fields).forEach((f) => visit(f.shape));
      if (s.type === 'union') s.of.forEach(visit);
    }
  };
  visit(MANIFEST);
  return out;
}

/** The object shape for a list item of `dataSources`/`templates`, which depends on its kind. */
export function dataSourceShape(list: 'dataSources' | 'templates', kind: unknown): ObjectShape {
  if (list === 'templates' && typeof kind === 'string' && kind.startsWith('file/')) return FILE_TEMPLATE;
  const other = list === 'dataSources' ? otherProtocolShape(kind) : undefined;
  if (other) return other;
  return list === 'templates' ? template : dataSource;
}

export interface KeySuggestion {
  key: string;
  required: boolean;
  doc: string;
  /** A short rendering of the expected value: `string`, `list of ContractAbi`, `polling | once | call`. */
  type: string;
}

export function describeShape(s: Shape): string {
  switch (s.type) {
    case 'list':
      return `list of ${describeShape(s.of)}`;
    case 'object':
    case 'union':
      return s.type === 'union' && s.of.every((o) => o.type !== 'object') ? s.of.map(describeShape).join(' or ') : s.name;
    case 'enum':
      return s.values.join(' | ');
    case 'String':
      return 'string';
    case 'BigInt':
      return 'integer';
    case 'Boolean':
      return 'true or false';
    case 'File':
      return 'file path';
    case 'JSON':
      return 'any value';
  }
}

/**
 * The keys a map at `path` takes (for completions): `[]` for the top level, `['dataSources', 0,
 * 'mapping']`, `['templates', 0, 'mapping', 'eventHandlers', 0]`… `kind` picks the data source
 * shape (file templates differ). Unknown paths give no keys.
 */
export function manifestKeysAt(path: readonly (string | number)[], kind?: string): KeySuggestion[] {
  const shape = shapeAt(path, kind);
  if (!shape) return [];
  const objects = shape.type === 'object' ? [shape] : shape.type === 'union' ? shape.of.filter((s): s is ObjectShape => s.type === 'object') : [];
  const seen = new Map<string, KeySuggestion>();
  for (const o of objects) {
    for (const [key, f] of Object.entries(o.fields)) {
      if (!seen.has(key)) seen.set(key, { key, required: f.required, doc: f.doc, type: describeShape(f.shape) });
    }
  }
  return [...seen.values()];
}

/** The documentation of the key at the end of `path` (for hovers). */
export function manifestKeyDoc(path: readonly (string | number)[], kind?: string): KeySuggestion | undefined {
  if (path.length === 0) return undefined;
  const last = path[path.length - 1];
  return typeof last === 'string' ? manifestKeysAt(path.slice(0, -1), kind).find((k) => k.key === last) : undefined;
}

/** The shape expected at a path of the manifest, if the path fits the table (its own keys only: `constructor:` is unknown). */
export function shapeAt(path: readonly (string | number)[], kind?: string): Shape | undefined {
  let shape: Shape = MANIFEST;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    if (shape.type === 'list' && typeof segment === 'number') {
      const list = path[i - 1];
      shape = i === 1 && (list === 'dataSources' || list === 'templates') ? dataSourceShape(list, kind) : shape.of;
    } else if (shape.type === 'object' && typeof segment === 'string' && Object.hasOwn(shape.fields, segment)) {
      shape = shape.fields[segment].shape;
    } else if (shape.type === 'union' && typeof segment === 'string') {
      const field: Field | undefined = shape.of.flatMap((s) => (s.type === 'object' && Object.hasOwn(s.fields, segment) ? [s.fields[segment]] : []))[0];
      if (!field) return undefined;
      shape = field.shape;
    } else {
      return undefined;
    }
  }
  return shape;
}
