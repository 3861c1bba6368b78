/**
 * What each protocol offers the user: the common methods for the "Call Method…" pick list (with
 * a params template to start from), and the node's live facts (client version, latest block,
 * chain) fetched in one go, each fact failing on its own.
 */
import { RpcClient, type Params } from '../rpc/client';
import type { RpcFailure } from '../rpc/failure';
import type { CallOptions, RpcCall } from '../rpc/types';
import type { ResolvedEndpoint } from '../rpc/endpoint';
import type { Protocol } from './model';

/** A JSON-RPC method: POSTed as {jsonrpc, id, method, params}. */
export interface RpcMethodInfo {
  kind: 'rpc';
  name: string;
  /** A template to edit: placeholder addresses and hashes, 'latest' for the block. */
  params: Params;
  description: string;
}

/** A REST method (the beacon API): a GET of a path below the endpoint's URL. */
export interface RestMethodInfo {
  kind: 'rest';
  /** Shown name, e.g. "GET /eth/v1/node/version". */
  name: string;
  httpMethod: 'GET';
  path: string;
  description: string;
}

export type MethodInfo = RpcMethodInfo | RestMethodInfo;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_HASH = `0x${'0'.repeat(64)}`;

const rpc = (name: string, params: Params, description: string): RpcMethodInfo => ({ kind: 'rpc', name, params, description });
const get = (path: string, description: string): RestMethodInfo => ({ kind: 'rest', name: `GET ${path}`, httpMethod: 'GET', path, description });

const EVM: MethodInfo[] = [
  rpc('eth_blockNumber', [], 'Number of the most recent block'),
  rpc('web3_clientVersion', [], 'Client software and version'),
  rpc('eth_chainId', [], 'Chain id (EIP-155), hex'),
  rpc('net_version', [], 'Network id, decimal'),
  rpc('eth_gasPrice', [], 'Current gas price, in wei'),
  rpc('eth_maxPriorityFeePerGas', [], 'Suggested priority fee (tip), in wei'),
  rpc('eth_feeHistory', [4, 'latest', [25, 75]], 'Base fees and tip percentiles of recent blocks'),
  rpc('eth_syncing', [], 'Sync progress, or false when in sync'),
  rpc('eth_getBalance', [ZERO_ADDRESS, 'latest'], 'Balance of an address, in wei'),
  rpc('eth_getTransactionCount', [ZERO_ADDRESS, 'latest'], 'Nonce of an address'),
  rpc('eth_getCode', [ZERO_ADDRESS, 'latest'], 'Bytecode at an address'),
  rpc('eth_getStorageAt', [ZERO_ADDRESS, '0x0', 'latest'], 'One 32-byte storage slot of a contract'),
  rpc('eth_call', [{ to: ZERO_ADDRESS, data: '0x' }, 'latest'], 'Runs a call without a transaction (read-only)'),
  rpc('eth_estimateGas', [{ from: ZERO_ADDRESS, to: ZERO_ADDRESS, value: '0x0' }], 'Gas a transaction would use'),
  rpc('eth_getBlockByNumber', ['latest', false], 'A block by number or tag; true for full transactions'),
  rpc('eth_getBlockByHash', [ZERO_HASH, false], 'A block by hash'),
  rpc('eth_getTransactionByHash', [ZERO_HASH], 'A transaction by hash'),
  rpc('eth_getTransactionReceipt', [ZERO_HASH], 'Receipt (status, logs, gas used) of a mined transaction'),
  rpc('eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest', address: ZERO_ADDRESS, topics: [] }], 'Event logs matching a filter'),
  rpc('debug_storageRangeAt', [ZERO_HASH, 0, ZERO_ADDRESS, ZERO_HASH, 10], 'Storage entries of a contract at a block (not on every client)'),
  rpc('debug_traceTransaction', [ZERO_HASH, { tracer: 'callTracer' }], 'Call trace of a transaction (debug namespace)'),
  rpc('eth_sendRawTransaction', ['0x'], 'Submits a signed transaction (a write: never retried)'),
];

const UTXO: MethodInfo[] = [
  rpc('getblockcount', [], 'Height of the most recent block'),
  rpc('getblockchaininfo', [], 'Chain name, height, difficulty, sync progress'),
  rpc('getbestblockhash', [], 'Hash of the most recent block'),
  rpc('getnetworkinfo', [], 'Client version (subversion), connections, relay fee'),
  rpc('getblockhash', [0], 'Hash of the block at a height'),
  rpc('getblock', [ZERO_HASH.slice(2), 1], 'A block by hash; verbosity 0, 1 or 2'),
  rpc('getrawtransaction', [ZERO_HASH.slice(2), true], 'A transaction by id, decoded'),
  rpc('getmempoolinfo', [], 'Size and usage of the memory pool'),
  rpc('getdifficulty', [], 'Current proof-of-work difficulty'),
  rpc('estimatesmartfee', [6], 'Fee rate to confirm within N blocks'),
  rpc('gettxout', [ZERO_HASH.slice(2), 0], 'An unspent transaction output'),
  rpc('sendrawtransaction', ['00'], 'Submits a signed transaction (a write: never retried)'),
];

const SOLANA_SYSTEM_PROGRAM = '11111111111111111111111111111111';
const SOLANA: MethodInfo[] = [
  rpc('getSlot', [], 'Current slot'),
  rpc('getVersion', [], 'Client software and feature set'),
  rpc('getBlockHeight', [], 'Current block height'),
  rpc('getHealth', [], '"ok" when the node is in sync'),
  rpc('getGenesisHash', [], 'Genesis hash: tells the cluster apart'),
  rpc('getEpochInfo', [], 'Epoch, slot index and slots per epoch'),
  rpc('getLatestBlockhash', [], 'Recent blockhash for a transaction'),
  rpc('getBalance', [SOLANA_SYSTEM_PROGRAM], 'Balance of an account, in lamports'),
  rpc('getAccountInfo', [SOLANA_SYSTEM_PROGRAM, { encoding: 'base64' }], 'Data, owner and lamports of an account'),
  rpc('getSignaturesForAddress', [SOLANA_SYSTEM_PROGRAM, { limit: 10 }], 'Recent transaction signatures of an address'),
  rpc('getTransaction', ['<signature>', { maxSupportedTransactionVersion: 0 }], 'A confirmed transaction by signature'),
  rpc('sendTransaction', ['<base64 transaction>', { encoding: 'base64' }], 'Submits a signed transaction (a write: never retried)'),
];

const STARKNET: MethodInfo[] = [
  rpc('starknet_blockNumber', [], 'Number of the most recent block'),
  rpc('starknet_specVersion', [], 'Version of the Starknet JSON-RPC spec the node serves'),
  rpc('starknet_chainId', [], 'Chain id, a short string as hex (SN_MAIN, SN_SEPOLIA)'),
  rpc('starknet_blockHashAndNumber', [], 'Hash and number of the most recent block'),
  rpc('starknet_syncing', [], 'Sync progress, or false when in sync'),
  rpc('starknet_getStorageAt', ['0x0', '0x0', 'latest'], 'One storage value: contract address, key, block'),
  rpc('starknet_getNonce', ['latest', '0x0'], 'Nonce of a contract: block, address'),
  rpc('starknet_getClassHashAt', ['latest', '0x0'], 'Class hash of a contract: block, address'),
  rpc('starknet_getBlockWithTxHashes', ['latest'], 'A block with its transaction hashes'),
  rpc('starknet_getTransactionByHash', ['0x0'], 'A transaction by hash'),
  rpc('starknet_getTransactionReceipt', ['0x0'], 'Receipt of a transaction'),
  rpc('starknet_call', [{ contract_address: '0x0', entry_point_selector: '0x0', calldata: [] }, 'latest'], 'Calls a view function'),
];

const BEACON: MethodInfo[] = [
  get('/eth/v1/node/version', 'Client software and version'),
  get('/eth/v1/node/syncing', 'Head slot and sync distance'),
  get('/eth/v1/beacon/headers/head', 'Header of the head block (slot, proposer, roots)'),
  get('/eth/v1/beacon/genesis', 'Genesis time and fork version'),
  get('/eth/v1/config/deposit_contract', 'Chain id and deposit contract address'),
  get('/eth/v1/beacon/states/head/finality_checkpoints', 'Justified and finalized checkpoints'),
  get('/eth/v1/node/peer_count', 'Connected and connecting peers'),
];

export const PROTOCOL_METHODS: Readonly<Record<Protocol, readonly MethodInfo[]>> = {
  evm: EVM,
  utxo: UTXO,
  solana: SOLANA,
  starknet: STARKNET,
  beacon: BEACON,
  other: [],
};

/** The pick list of common methods for a protocol (empty for 'other': the user types a name). */
export function methodsFor(protocol: Protocol): readonly MethodInfo[] {
  return PROTOCOL_METHODS[protocol];
}

/** One fact about a node: a value to show, or why it could not be had. */
export type Fact = { value: string; raw: unknown } | { error: string };

export interface LiveFacts {
  clientVersion?: Fact;
  latestBlock?: Fact;
  chainId?: Fact;
}

type FactName = keyof LiveFacts;
/** How to fetch one fact: a JSON-RPC call or a REST GET, and how to show its answer. */
type Probe = (RpcCall | { path: string }) & { show(answer: unknown): string };

const hexToDecimal = (v: unknown) => BigInt(v as string).toString();
const decimal = (v: unknown) => {
  if (typeof v !== 'number' && typeof v !== 'string') throw new Error('not a number');
  return BigInt(v).toString();
};
const text = (v: unknown) => {
  if (typeof v !== 'string' || !v) throw new Error('not a string');
  return v;
};

/** Solana clusters by genesis hash. */
const SOLANA_CLUSTERS: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d': 'mainnet-beta',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG: 'devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY': 'testnet',
};

/** A Starknet chain id is a short string encoded as a felt: 0x534e5f4d41494e is SN_MAIN. Anything but hex of printable bytes is shown as it came. */
export function decodeShortString(hex: string): string {
  const digits = hex.replace(/^0x/i, '');
  const bytes = Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
  const decoded = bytes.toString('latin1');
  return /^[\x20-\x7e]+$/.test(decoded) && /^[\da-f]+$/i.test(digits) ? decoded : hex;
}

const path = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);

const FACT_PROBES: Partial<Record<Protocol, Record<FactName, Probe>>> = {
  evm: {
    clientVersion: { method: 'web3_clientVersion', show: text },
    latestBlock: { method: 'eth_blockNumber', show: hexToDecimal },
    chainId: { method: 'eth_chainId', show: hexToDecimal },
  },
  utxo: {
    clientVersion: { method: 'getnetworkinfo', show: (r) => text(path(r, 'subversion')) },
    latestBlock: { method: 'getblockcount', show: decimal },
    chainId: { method: 'getblockchaininfo', show: (r) => text(path(r, 'chain')) },
  },
  solana: {
    clientVersion: { method: 'getVersion', show: (r) => text(path(r, 'solana-core')) },
    latestBlock: { method: 'getSlot', show: decimal },
    chainId: { method: 'getGenesisHash', show: (r) => (SOLANA_CLUSTERS[text(r)] ? `${SOLANA_CLUSTERS[text(r)]} (${text(r)})` : text(r)) },
  },
  starknet: {
    clientVersion: { method: 'starknet_specVersion', show: (r) => `Starknet JSON-RPC ${text(r)}` },
    latestBlock: { method: 'starknet_blockNumber', show: decimal },
    chainId: { method: 'starknet_chainId', show: (r) => decodeShortString(text(r)) },
  },
  beacon: {
    clientVersion: { path: '/eth/v1/node/version', show: (r) => text(path(r, 'data', 'version')) },
    latestBlock: { path: '/eth/v1/beacon/headers/head', show: (r) => decimal(path(r, 'data', 'header', 'message', 'slot')) },
    chainId: { path: '/eth/v1/config/deposit_contract', show: (r) => decimal(path(r, 'data', 'chain_id')) },
  },
};

function shown(probe: Probe, answer: unknown): Fact {
  try {
    return { value: probe.show(answer), raw: answer };
  } catch {
    return { error: `unexpected answer: ${JSON.stringify(answer)?.slice(0, 80)}` };
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The node's facts. JSON-RPC protocols ask for all three in ONE batch (falling back to separate
 * calls when the node refuses batches); the beacon API takes three GETs. A fact that fails
 * carries its error message; the others are still there. Unknown protocols have no facts.
 * Given an endpoint, it builds a bare client (the call options' timeout, no hints): a caller whose
 * timeout messages should name its own knobs passes its client, as the editor does.
 */
export async function liveFacts(protocol: Protocol, endpoint: ResolvedEndpoint | RpcClient, options: CallOptions = {}): Promise<LiveFacts> {
  const probes = FACT_PROBES[protocol];
  if (!probes) return {};
  const client = endpoint instanceof RpcClient ? endpoint : new RpcClient(endpoint, { timeoutMs: options.timeoutMs });
  const names = Object.keys(probes) as FactName[];
  const facts: LiveFacts = {};

  const rpcNames = names.filter((n) => 'method' in probes[n]);
  const restNames = names.filter((n) => 'path' in probes[n]);
  await Promise.all([
    ...restNames.map(async (n) => {
      const probe = probes[n] as { path: string } & Probe;
      facts[n] = await client.getJson(probe.path, options).then(
        (a) => shown(probe, a),
        (err) => ({ error: messageOf(err) }),
      );
    }),
    (async () => {
      if (!rpcNames.length) return;
      const calls = rpcNames.map((n) => probes[n] as RpcCall);
      try {
        const items = await client.batch(calls, options);
        items.forEach((item, i) => {
          facts[rpcNames[i]] = 'error' in item ? { error: item.error.message } : shown(probes[rpcNames[i]], item.result);
        });
      } catch (err) {
        const kind = (err as RpcFailure).kind;
        if (!['rpc', 'http', 'mismatch', 'not-json'].includes(kind)) {
          for (const n of rpcNames) facts[n] = { error: messageOf(err) };
          return;
        }
        // The node (or a gateway) refused the batch itself: ask one call at a time.
        await Promise.all(
          rpcNames.map(async (n, i) => {
            facts[n] = await client.call(calls[i].method, calls[i].params, options).then(
              (r) => shown(probes[n], r),
              (e) => ({ error: messageOf(e) }),
            );
          }),
        );
      }
    })(),
  ]);
  return facts;
}
