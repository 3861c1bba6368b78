/**
 * What a pasted endpoint's host name tells: the protocol family (or the 'evm' default, flagged as a
 * guess for the editor to confirm) and a network label for the tree, from `<network>.core.<host>`
 * or a first label that names a chain, and nothing from loopback, IP addresses, short hosts or a
 * dedicated node's id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEndpoint } from '../../../../src/core/nodes/endpoint';

const guess = (url: string) => {
  const p = parseEndpoint(url);
  return { protocol: p.protocol, fromHost: p.protocolFromHost, network: p.network };
};

test('network labels: the provider form, a chain-named first label, and the hosts that say nothing', () => {
  const cases: [string, string | undefined][] = [
    ['https://ethereum-mainnet.core.example.com/abc123', 'ethereum-mainnet'],
    ['https://anything-here.core.example.com/abc123', 'anything-here'],
    ['https://polygon-amoy.example.com/', 'polygon-amoy'],
    ['https://Base-Sepolia.Example.org/', 'base-sepolia'],
    ['https://rpc.example.com/', undefined],
    ['https://nd-123-456-789.p2pify.com/abc123', undefined],
    ['https://nd-ethereum.example.com/', 'nd-ethereum'],
    ['https://example.com/', undefined],
    ['https://ethereum.com/', undefined],
    ['http://127.0.0.1:8545', undefined],
    ['http://10.1.2.3:8545', undefined],
    ['http://localhost:8545', undefined],
  ];
  for (const [url, network] of cases) assert.equal(guess(url).network, network, url);
});

test('protocol families from host words, and the evm default marked as a guess', () => {
  const cases: [string, string, boolean][] = [
    ['https://solana-mainnet.core.example.com/k', 'solana', true],
    ['https://starknet-sepolia.core.example.com/k', 'starknet', true],
    ['https://bitcoin-mainnet.core.example.com/k', 'utxo', true],
    ['https://btc.example.com/', 'utxo', true],
    ['https://doge.node.example.com/', 'utxo', true],
    ['https://ethereum-holesky.core.example.com/k', 'evm', true],
    ['https://arb.op.example.com/', 'evm', true],
    ['https://rpc.example.com/', 'evm', false],
    ['http://127.0.0.1:8545', 'evm', false],
    ['https://mybtcnode.example.com/', 'evm', false],
  ];
  for (const [url, protocol, fromHost] of cases) assert.deepEqual([guess(url).protocol, guess(url).fromHost], [protocol, fromHost], url);
});
