/**
 * Data sources of the other protocols graph-cli 0.98 knows (near, cosmos, arweave, substreams,
 * subgraph composition): their shapes, exactly as its dist/protocols/<kind>/manifest.graphql
 * (test/unit/core/subgraph/rules/protocols.test.ts compares them).
 */
import { bigint, file, json, listOf, object, opt, req, string, type ObjectShape } from './shapeKit';

export type Protocol = 'ethereum' | 'near' | 'cosmos' | 'arweave' | 'substreams' | 'subgraph';

/** graph-cli's Protocol.normalizeName (protocols/index.js); file data sources have none. */
export function protocolOf(kind: unknown): Protocol | undefined {
  if (kind === 'ethereum' || kind === 'ethereum/contract') return 'ethereum';
  return kind === 'near' || kind === 'cosmos' || kind === 'arweave' || kind === 'substreams' || kind === 'subgraph' ? kind : undefined;
}

const handler = (name: string, doc: string) => object(name, { handler: req(string, doc) });

const mappingBasics = {
  apiVersion: req(string, 'Version of the mapping API, e.g. `0.0.7`.'),
  language: req(string, 'Always `wasm/assemblyscript`.'),
  file: req(file, 'Path of the AssemblyScript mapping file, relative to the manifest.'),
  entities: req(listOf(string), 'Entity types the handlers write.'),
};

const dataSource = (source: ObjectShape, mapping: ObjectShape, withContext = true): ObjectShape =>
  object('DataSource', {
    kind: req(string, 'Protocol of the data source.'),
    name: req(string, 'Name of the data source.'),
    network: opt(string, 'Network name as graph-node hosts know it.'),
    ...(withContext ? { context: opt(json, 'Key-value pairs the mapping reads with `dataSource.context()`.') } : {}),
    source: req(source, 'What to index.'),
    mapping: req(mapping, 'How the data becomes entities.'),
  });

const blocks = { startBlock: opt(bigint, 'First block to index.'), endBlock: opt(bigint, 'Last block to index.') };

const NEAR = dataSource(
  object('ContractSource', {
    account: opt(string, 'NEAR account whose receipts are indexed.'),
    ...blocks,
    accounts: opt(
      object('PartialAccount', { prefixes: opt(listOf(string), 'Account name prefixes.'), suffixes: opt(listOf(string), 'Account name suffixes.') }),
      'Accounts matched by prefix and suffix.',
    ),
  }),
  object('ContractMapping', {
    ...mappingBasics,
    blockHandlers: opt(listOf(handler('BlockHandler', 'Exported function called for each block.')), 'Handlers run for blocks.'),
    receiptHandlers: opt(listOf(handler('ReceiptHandler', 'Exported function called for each receipt.')), 'Handlers run for receipts.'),
  }),
);

const COSMOS = dataSource(
  object('ContractSource', blocks),
  object('ContractMapping', {
    ...mappingBasics,
    blockHandlers: opt(listOf(handler('BlockHandler', 'Exported function called for each block.')), 'Handlers run for blocks.'),
    eventHandlers: opt(
      listOf(
        object('EventHandler', {
          event: req(string, 'Event type to match.'),
          origin: opt({ type: 'enum', name: 'EventOrigin', values: ['BeginBlock', 'DeliverTx', 'EndBlock'] }, 'Where in the block the event comes from.'),
          handler: req(string, 'Exported function called for each event.'),
        }),
      ),
      'Handlers run for events.',
    ),
    transactionHandlers: opt(listOf(handler('TransactionHandler', 'Exported function called for each transaction.')), 'Handlers run for transactions.'),
    messageHandlers: opt(
      listOf(object('MessageHandler', { message: req(string, 'Message type to match.'), handler: req(string, 'Exported function called for each message.') })),
      'Handlers run for messages.',
    ),
  }),
);

const ARWEAVE = dataSource(
  object('ContractSource', { owner: opt(string, 'Public key of the wallet whose transactions are indexed.'), ...blocks }),
  object('ContractMapping', {
    ...mappingBasics,
    blockHandlers: opt(listOf(handler('BlockHandler', 'Exported function called for each block.')), 'Handlers run for blocks.'),
    transactionHandlers: opt(listOf(handler('TransactionHandler', 'Exported function called for each transaction.')), 'Handlers run for transactions.'),
  }),
);

const SUBSTREAMS = dataSource(
  object('SubstreamsSource', {
    package: req(
      object('SubstreamsPackage', {
        moduleName: req(string, 'Substreams module whose output the subgraph reads.'),
        file: req(string, 'Path of the .spkg package.'),
        params: opt(string, 'Parameters of the module.'),
      }),
      'The Substreams package.',
    ),
    startBlock: opt(bigint, 'First block to index.'),
  }),
  object('SubstreamMapping', {
    apiVersion: req(string, 'Version of the mapping API.'),
    kind: req(string, '`substreams/graph-entities`, or `substreams/triggers` with a mapping file and handler.'),
    file: opt(file, 'Mapping file (triggers only).'),
    handler: opt(string, 'Exported function called with the module output (triggers only).'),
  }),
  false,
);

const SUBGRAPH = dataSource(
  object('ContractSource', { address: req(string, 'Deployment id (Qm…) of the source subgraph.'), startBlock: opt(bigint, 'First block to index.') }),
  object('ContractMapping', {
    kind: opt(string, 'Mapping kind.'),
    ...mappingBasics,
    abis: opt(listOf(object('ContractABI', { name: req(string, 'Name of the ABI.'), file: req(file, 'Path of the ABI JSON file.') })), 'ABIs the mapping uses.'),
    handlers: opt(
      listOf(
        object('EntityHandler', {
          handler: req(string, 'Exported function called for each entity change.'),
          entity: req(string, 'Entity type of the source subgraph.'),
          calls: opt(json, 'Declared calls.'),
        }),
      ),
      'Handlers run for entity changes of the source subgraph.',
    ),
  }),
);

const SHAPES: Record<Exclude<Protocol, 'ethereum'>, ObjectShape> = { near: NEAR, cosmos: COSMOS, arweave: ARWEAVE, substreams: SUBSTREAMS, subgraph: SUBGRAPH };

/** The data source shape of a non-Ethereum protocol kind, or undefined. */
export function otherProtocolShape(kind: unknown): ObjectShape | undefined {
  const p = protocolOf(kind);
  return p && p !== 'ethereum' ? SHAPES[p] : undefined;
}
