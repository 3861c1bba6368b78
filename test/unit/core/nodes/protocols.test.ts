import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeShortString, methodsFor, PROTOCOL_METHODS } from '../../../../src/core/nodes/protocols';
import { isIdempotentRead } from '../../../../src/core/rpc/reads';
import type { Protocol } from '../../../../src/core/nodes/model';

test('each protocol lists the methods the pick list promises', () => {
  const names = (p: Protocol) => methodsFor(p).map((m) => m.name);
  for (const m of [
    'eth_blockNumber',
    'web3_clientVersion',
    'eth_chainId',
    'eth_getBalance',
    'eth_getStorageAt',
    'eth_call',
    'eth_getBlockByNumber',
    'eth_getTransactionReceipt',
    'net_version',
    'eth_gasPrice',
    'eth_getLogs',
    'debug_storageRangeAt',
  ]) {
    assert.ok(names('evm').includes(m), m);
  }
  for (const m of ['getblockcount', 'getblockchaininfo', 'getbestblockhash', 'getnetworkinfo']) assert.ok(names('utxo').includes(m), m);
  for (const m of ['getSlot', 'getVersion', 'getBlockHeight', 'getBalance', 'getHealth', 'getGenesisHash']) assert.ok(names('solana').includes(m), m);
  for (const m of ['starknet_blockNumber', 'starknet_specVersion', 'starknet_chainId', 'starknet_getStorageAt']) assert.ok(names('starknet').includes(m), m);
  assert.deepEqual(methodsFor('other'), []);
});

test('beacon methods are REST GETs of paths, the others JSON-RPC with params templates', () => {
  const beacon = methodsFor('beacon');
  for (const path of ['/eth/v1/node/version', '/eth/v1/beacon/headers/head', '/eth/v1/node/syncing']) {
    assert.ok(
      beacon.some((m) => m.kind === 'rest' && m.path === path && m.name === `GET ${path}`),
      path,
    );
  }
  for (const protocol of ['evm', 'utxo', 'solana', 'starknet'] as const) {
    for (const m of PROTOCOL_METHODS[protocol]) {
      assert.equal(m.kind, 'rpc', m.name);
      if (m.kind === 'rpc') assert.ok(typeof m.params === 'object' && m.params !== null, `${m.name} params are an array or object`);
      assert.ok(m.description.length > 5, `${m.name} has a description`);
    }
  }
  const storage = methodsFor('evm').find((m) => m.name === 'eth_getStorageAt');
  assert.deepEqual(storage?.kind === 'rpc' && storage.params, ['0x0000000000000000000000000000000000000000', '0x0', 'latest']);
});

test('isIdempotentRead: reads of every protocol are idempotent', () => {
  for (const m of [
    'eth_blockNumber',
    'eth_getStorageAt',
    'eth_call',
    'eth_getLogs',
    'web3_clientVersion',
    'net_version',
    'debug_storageRangeAt',
    'debug_traceTransaction',
    'getblockcount',
    'getSlot',
    'getGenesisHash',
    'starknet_getStorageAt',
    'starknet_chainId',
  ]) {
    assert.equal(isIdempotentRead(m), true, m);
  }
});

test('isIdempotentRead: writes, state-changing calls and unknown methods are not', () => {
  for (const m of [
    'eth_sendRawTransaction',
    'eth_sendTransaction',
    'eth_sign',
    'eth_subscribe',
    'eth_newFilter',
    'eth_getFilterChanges',
    'sendrawtransaction',
    'getnewaddress',
    'sendTransaction',
    'requestAirdrop',
    'starknet_addInvokeTransaction',
    'evm_mine',
    'anvil_setStorageAt',
    'get',
    'foo_bar',
  ]) {
    assert.equal(isIdempotentRead(m), false, m);
  }
});

test('a Starknet chain id felt decodes to its short string', () => {
  assert.equal(decodeShortString('0x534e5f4d41494e'), 'SN_MAIN');
  assert.equal(decodeShortString('0x534e5f5345504f4c4941'), 'SN_SEPOLIA');
  assert.equal(decodeShortString('0x1'), '0x1', 'not printable: kept as hex');
});
