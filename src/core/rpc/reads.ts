/**
 * Which methods only read: the client retries those (on HTTP 429 and 5xx) and never anything
 * else, because repeating a write (a transaction, a filter poll that consumes its changes) can do
 * it twice. Unknown methods count as writes: being wrong that way costs a retry, not a double spend.
 */

/** Reads by name prefix, per protocol family (EVM, UTXO, Solana, Starknet). */
const READ_PREFIXES = [
  'eth_get',
  'starknet_get',
  'debug_trace',
  'trace_',
  'txpool_',
  'get', // Bitcoin-style (getblockcount) and Solana (getSlot) reads
];

/** Reads whose names do not start with a read prefix. */
const READ_METHODS = new Set([
  // EVM
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
  // UTXO
  'estimatesmartfee',
  'decoderawtransaction',
  'decodescript',
  'validateaddress',
  'uptime',
  // Solana
  'isBlockhashValid',
  'minimumLedgerSlot',
  'simulateTransaction',
  // Starknet
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
]);

/** Names a read prefix would match but that change state or consume something. */
const NOT_READS = new Set([
  'eth_getFilterChanges', // consumes the changes: a retried poll loses them
  'eth_getWork',
  'getnewaddress', // Bitcoin wallet: allocates an address
  'getrawchangeaddress',
]);

/** True when calling `method` twice has the same effect as calling it once. */
export function isIdempotentRead(method: string): boolean {
  if (NOT_READS.has(method)) return false;
  if (READ_METHODS.has(method)) return true;
  return READ_PREFIXES.some((p) => method.startsWith(p) && method.length > p.length);
}
