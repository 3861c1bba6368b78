/**
 * Which protocol family an imported platform node gets from its network's protocol name: the
 * family decides the pick list, the live facts and the retry rule, so a wrong one breaks the
 * node in the tree. Every name the table knows, its first-word and separator forms, and the rest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { protocolFamily } from '../../../../src/core/platform/importNode';

const EVM = [
  'ethereum',
  'eth',
  'polygon',
  'matic',
  'bsc',
  'bnb',
  'binance',
  'avalanche',
  'avax',
  'arbitrum',
  'base',
  'optimism',
  'op',
  'fantom',
  'gnosis',
  'xdai',
  'zksync',
  'scroll',
  'linea',
  'ronin',
  'cronos',
  'celo',
  'moonbeam',
  'moonriver',
  'harmony',
  'kaia',
  'klaytn',
  'aurora',
  'blast',
  'mantle',
  'sonic',
  'berachain',
  'hyperliquid',
  'unichain',
  'sei',
  'zora',
  'metis',
  'taiko',
  'kava',
  'oasis',
  'fuse',
  'evmos',
  'boba',
  'astar',
  'opbnb',
  'plasma',
  'monad',
  'abstract',
  'ink',
  'soneium',
  'megaeth',
];

test('every EVM chain name the table knows is evm, alone and as the first word of a longer name', () => {
  for (const name of EVM) {
    assert.equal(protocolFamily(name), 'evm', name);
    assert.equal(protocolFamily(`${name}-mainnet`), 'evm', `${name}-mainnet`);
    assert.equal(protocolFamily(` ${name.toUpperCase()}_Sepolia `), 'evm', `${name} upper case, underscore, spaces`);
  }
});

test('UTXO, Solana, Starknet and beacon names, whole or by first word', () => {
  for (const name of ['bitcoin', 'btc', 'litecoin', 'dogecoin', 'bitcoin-cash', 'bch', 'bitcoin testnet']) assert.equal(protocolFamily(name), 'utxo', name);
  assert.equal(protocolFamily('solana'), 'solana');
  assert.equal(protocolFamily('solana-devnet'), 'solana');
  assert.equal(protocolFamily('starknet'), 'starknet');
  assert.equal(protocolFamily('starknet sepolia'), 'starknet');
  for (const name of ['beacon', 'ethereum-beacon', 'Ethereum Beacon Chain', 'gnosis_beacon']) assert.equal(protocolFamily(name), 'beacon', name);
});

test('unknown names are other; no name is undefined', () => {
  for (const name of ['tron', 'near', 'aptos', 'ethereumclassic', 'x-ethereum']) assert.equal(protocolFamily(name), 'other', name);
  for (const name of [undefined, '', '   ']) assert.equal(protocolFamily(name), undefined, JSON.stringify(name));
});
