/**
 * The protocol tables the user meets: the "Call Method…" pick list of each protocol in its order,
 * parameter templates that a node would accept as a start, and the retry rule agreeing with them
 * (every listed method but the submits is a read, so it is retried on 429/5xx; the submits never).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_METHODS } from '../../../../src/core/nodes/protocols';
import { isIdempotentRead } from '../../../../src/core/rpc/reads';

const names = (protocol: keyof typeof PROTOCOL_METHODS) => PROTOCOL_METHODS[protocol].map((m) => m.name);

test('each pick list, whole and in its order', () => {
  assert.deepEqual(names('evm'), [
    'eth_blockNumber',
    'web3_clientVersion',
    'eth_chainId',
    'net_version',
    'eth_gasPrice',
    'eth_maxPriorityFeePerGas',
    'eth_feeHistory',
    'eth_syncing',
    'eth_getBalance',
    'eth_getTransactionCount',
    'eth_getCode',
    'eth_getStorageAt',
    'eth_call',
    'eth_estimateGas',
    'eth_getBlockByNumber',
    'eth_getBlockByHash',
    'eth_getTransactionByHash',
    'eth_getTransactionReceipt',
    'eth_getLogs',
    'debug_storageRangeAt',
    'debug_traceTransaction',
    'eth_sendRawTransaction',
  ]);
  assert.deepEqual(names('utxo'), [
    'getblockcount',
    'getblockchaininfo',
    'getbestblockhash',
    'getnetworkinfo',
    'getblockhash',
    'getblock',
    'getrawtransaction',
    'getmempoolinfo',
    'getdifficulty',
    'estimatesmartfee',
    'gettxout',
    'sendrawtransaction',
  ]);
  assert.deepEqual(names('solana'), [
    'getSlot',
    'getVersion',
    'getBlockHeight',
    'getHealth',
    'getGenesisHash',
    'getEpochInfo',
    'getLatestBlockhash',
    'getBalance',
    'getAccountInfo',
    'getSignaturesForAddress',
    'getTransaction',
    'sendTransaction',
  ]);
  assert.deepEqual(names('starknet'), [
    'starknet_blockNumber',
    'starknet_specVersion',
    'starknet_chainId',
    'starknet_blockHashAndNumber',
    'starknet_syncing',
    'starknet_getStorageAt',
    'starknet_getNonce',
    'starknet_getClassHashAt',
    'starknet_getBlockWithTxHashes',
    'starknet_getTransactionByHash',
    'starknet_getTransactionReceipt',
    'starknet_call',
  ]);
  assert.deepEqual(names('beacon'), [
    'GET /eth/v1/node/version',
    'GET /eth/v1/node/syncing',
    'GET /eth/v1/beacon/headers/head',
    'GET /eth/v1/beacon/genesis',
    'GET /eth/v1/config/deposit_contract',
    'GET /eth/v1/beacon/states/head/finality_checkpoints',
    'GET /eth/v1/node/peer_count',
  ]);
  assert.deepEqual(names('other'), []);
});

test('every listed method but the submits is a read (retried); the submits are not', () => {
  const submits = new Set(['eth_sendRawTransaction', 'sendrawtransaction', 'sendTransaction']);
  for (const protocol of ['evm', 'utxo', 'solana', 'starknet'] as const) {
    for (const name of names(protocol)) assert.equal(isIdempotentRead(name), !submits.has(name), `${protocol} ${name}`);
  }
});

/** Every string inside a template, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

test('templates: the methods that take nothing get [], the others only well-formed placeholders', () => {
  const noParams = {
    evm: ['eth_blockNumber', 'web3_clientVersion', 'eth_chainId', 'net_version', 'eth_gasPrice', 'eth_maxPriorityFeePerGas', 'eth_syncing'],
    utxo: ['getblockcount', 'getblockchaininfo', 'getbestblockhash', 'getnetworkinfo', 'getmempoolinfo', 'getdifficulty'],
    solana: ['getSlot', 'getVersion', 'getBlockHeight', 'getHealth', 'getGenesisHash', 'getEpochInfo', 'getLatestBlockhash'],
    starknet: ['starknet_blockNumber', 'starknet_specVersion', 'starknet_chainId', 'starknet_blockHashAndNumber', 'starknet_syncing'],
  } as const;
  const wellFormed: Record<keyof typeof noParams, RegExp> = {
    // A block tag, an empty or zero quantity, a 20-byte address or a 32-byte hash.
    evm: /^(latest|0x|0x0|0x0{40}|0x0{64}|callTracer)$/,
    // Hex hashes without 0x, and raw hex.
    utxo: /^(0{64}|00)$/,
    solana: /^(11111111111111111111111111111111|base64|<signature>|<base64 transaction>)$/,
    starknet: /^(latest|0x0)$/,
  };
  for (const protocol of Object.keys(noParams) as (keyof typeof noParams)[]) {
    for (const m of PROTOCOL_METHODS[protocol]) {
      assert.equal(m.kind, 'rpc');
      if (m.kind !== 'rpc') continue;
      const empty = (noParams[protocol] as readonly string[]).includes(m.name);
      assert.equal(Array.isArray(m.params) && m.params.length === 0, empty, `${m.name}: ${JSON.stringify(m.params)}`);
      for (const s of strings(m.params)) assert.match(s, wellFormed[protocol], `${protocol} ${m.name}`);
    }
  }
  const evm = (name: string) => PROTOCOL_METHODS.evm.find((m) => m.name === name);
  const params = (name: string) => {
    const m = evm(name);
    return m?.kind === 'rpc' ? m.params : undefined;
  };
  assert.deepEqual(params('eth_feeHistory'), [4, 'latest', [25, 75]]);
  assert.deepEqual(params('eth_getBlockByNumber'), ['latest', false]);
  assert.deepEqual(params('debug_storageRangeAt'), [`0x${'0'.repeat(64)}`, 0, `0x${'0'.repeat(40)}`, `0x${'0'.repeat(64)}`, 10]);
});

test('the reads a prefix would not find are each known as reads; the prefixed writes are not', () => {
  const reads = [
    'web3_clientVersion',
    'web3_sha3',
    'net_version',
    'net_listening',
    'net_peerCount',
    'eth_blockNumber',
    'eth_chainId',
    'eth_gasPrice',
    'eth_maxPriorityFeePerGas',
    'eth_blobBaseFee',
    'eth_feeHistory',
    'eth_syncing',
    'eth_protocolVersion',
    'eth_call',
    'eth_estimateGas',
    'eth_createAccessList',
    'eth_accounts',
    'eth_coinbase',
    'eth_mining',
    'eth_hashrate',
    'debug_storageRangeAt',
    'estimatesmartfee',
    'decoderawtransaction',
    'decodescript',
    'validateaddress',
    'uptime',
    'isBlockhashValid',
    'minimumLedgerSlot',
    'simulateTransaction',
    'starknet_blockNumber',
    'starknet_blockHashAndNumber',
    'starknet_chainId',
    'starknet_specVersion',
    'starknet_syncing',
    'starknet_call',
    'starknet_estimateFee',
    'starknet_estimateMessageFee',
    'starknet_simulateTransactions',
    'starknet_traceTransaction',
    'starknet_traceBlockTransactions',
  ];
  for (const m of reads) assert.equal(isIdempotentRead(m), true, m);
  // Prefixed reads: a name must go on after its prefix.
  for (const m of ['eth_getBalance', 'starknet_getNonce', 'debug_traceCall', 'trace_block', 'txpool_status', 'getblock']) assert.equal(isIdempotentRead(m), true, m);
  for (const m of ['eth_get', 'starknet_get', 'debug_trace', 'trace_', 'txpool_', 'get', 'eth_getFilterChanges', 'eth_getWork', 'getnewaddress', 'getrawchangeaddress']) {
    assert.equal(isIdempotentRead(m), false, m);
  }
});
