import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Protocol } from '../../../../src/core/nodes/model';
import { decodeShortString, methodsFor, PROTOCOL_METHODS } from '../../../../src/core/nodes/protocols';
import { RpcClient } from '../../../../src/core/rpc/client';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { parseParams } from '../../../../src/core/rpc/params';
import { isIdempotentRead } from '../../../../src/core/rpc/reads';
import { startScriptedNode, type ScriptedNode } from '../../../support/rpcNode';

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

describe('params templates, beacon entries and Starknet chain ids', () => {
  /**
   * What the protocol tables put in the user's hands, at the points the other tests leave open: every "Call Method…" params template parses as the params box parses it
   * and holds what the chain expects (the options that change the answer: full transactions or not,
   * encodings, versioned transactions), every beacon entry is a GET of its path with a description,
   * and Starknet chain ids decode only when they are printable hex.
   */
  const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
  const ZERO_HASH = `0x${'0'.repeat(64)}`;
  const TXID = '0'.repeat(64);
  const SYSTEM_PROGRAM = '11111111111111111111111111111111';

  /** The params template of a JSON-RPC method of the protocol's pick list. */
  function template(protocol: 'evm' | 'utxo' | 'solana' | 'starknet', name: string): unknown {
    const method = methodsFor(protocol).find((m) => m.name === name);
    assert.ok(method?.kind === 'rpc', `${protocol} lists ${name}`);
    return method.params;
  }

  describe('params templates', () => {
    test('every template, as the params box shows it (JSON text), parses back to itself', () => {
      for (const protocol of ['evm', 'utxo', 'solana', 'starknet'] as const) {
        for (const m of PROTOCOL_METHODS[protocol]) {
          assert.ok(m.kind === 'rpc', `${protocol} ${m.name} is JSON-RPC`);
          assert.deepEqual(parseParams(JSON.stringify(m.params)), m.params, `${protocol} ${m.name}`);
        }
      }
    });

    test('EVM: calls and filters name their fields, blocks by hash come with transaction hashes only, traces use the call tracer', () => {
      assert.deepEqual(template('evm', 'eth_call'), [{ to: ZERO_ADDRESS, data: '0x' }, 'latest']);
      assert.deepEqual(template('evm', 'eth_estimateGas'), [{ from: ZERO_ADDRESS, to: ZERO_ADDRESS, value: '0x0' }]);
      assert.deepEqual(template('evm', 'eth_getBlockByHash'), [ZERO_HASH, false]);
      assert.deepEqual(template('evm', 'eth_getLogs'), [{ fromBlock: 'latest', toBlock: 'latest', address: ZERO_ADDRESS, topics: [] }]);
      assert.deepEqual(template('evm', 'debug_traceTransaction'), [ZERO_HASH, { tracer: 'callTracer' }]);
      for (const name of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode']) assert.deepEqual(template('evm', name), [ZERO_ADDRESS, 'latest'], name);
      assert.deepEqual(template('evm', 'eth_sendRawTransaction'), ['0x']);
    });

    test('Bitcoin-style: transaction ids without 0x, getrawtransaction verbose (decoded), getblock at verbosity 1', () => {
      assert.deepEqual(template('utxo', 'getrawtransaction'), [TXID, true]);
      assert.deepEqual(template('utxo', 'getblock'), [TXID, 1]);
      assert.deepEqual(template('utxo', 'gettxout'), [TXID, 0]);
      assert.deepEqual(template('utxo', 'getblockhash'), [0]);
      assert.deepEqual(template('utxo', 'estimatesmartfee'), [6]);
    });

    test('Solana: base64 account data and transactions, versioned transactions accepted, a limit on signatures', () => {
      assert.deepEqual(template('solana', 'getBalance'), [SYSTEM_PROGRAM]);
      assert.deepEqual(template('solana', 'getAccountInfo'), [SYSTEM_PROGRAM, { encoding: 'base64' }]);
      assert.deepEqual(template('solana', 'getSignaturesForAddress'), [SYSTEM_PROGRAM, { limit: 10 }]);
      // Without maxSupportedTransactionVersion a node refuses any versioned (v0) transaction.
      assert.deepEqual(template('solana', 'getTransaction'), ['<signature>', { maxSupportedTransactionVersion: 0 }]);
      // sendTransaction reads base58 unless told otherwise.
      assert.deepEqual(template('solana', 'sendTransaction'), ['<base64 transaction>', { encoding: 'base64' }]);
    });

    test('Starknet: a call names contract_address, entry_point_selector and calldata; the block id comes where the spec puts it', () => {
      assert.deepEqual(template('starknet', 'starknet_call'), [{ contract_address: '0x0', entry_point_selector: '0x0', calldata: [] }, 'latest']);
      assert.deepEqual(template('starknet', 'starknet_getStorageAt'), ['0x0', '0x0', 'latest']);
      assert.deepEqual(template('starknet', 'starknet_getNonce'), ['latest', '0x0']);
      assert.deepEqual(template('starknet', 'starknet_getClassHashAt'), ['latest', '0x0']);
    });
  });

  describe('beacon entries', () => {
    let node: ScriptedNode;
    before(async () => {
      node = await startScriptedNode(() => ({ body: { data: {} } }), '/key123');
    });
    after(async () => {
      closeIdleConnections();
      await node.close();
    });

    test('each is sent as a GET of its path below the endpoint (as "Call Method…" sends it), with a description for the pick list', async () => {
      const client = new RpcClient({ httpUrl: node.url, wsUrl: node.url.replace('http', 'ws'), headers: {}, auth: 'none', secrets: [] }, { timeoutMs: 3000 });
      const beacon = methodsFor('beacon');
      assert.equal(beacon.length, 7);
      for (const m of beacon) {
        assert.ok(m.kind === 'rest', m.name);
        assert.equal(m.httpMethod, 'GET', m.name);
        assert.ok(m.description.length > 5, `${m.name} has a description: "${m.description}"`);
        node.seen.length = 0;
        const reply = await client.exchange(undefined, { httpMethod: m.httpMethod, path: m.path });
        assert.equal(reply.status, 200);
        assert.deepEqual(
          node.seen.map((s) => `${s.method} ${s.path}`),
          [`GET /key123${m.path}`],
        );
      }
    });
  });

  describe('decodeShortString', () => {
    test('a chain id is decoded only when every byte is printable', () => {
      assert.equal(decodeShortString('0x534e5f5345504f4c4941'), 'SN_SEPOLIA');
      assert.equal(decodeShortString('0X534E5F4D41494E'), 'SN_MAIN', 'prefix and digits in upper case');
      assert.equal(decodeShortString('0x534e00'), '0x534e00', 'a control byte at the end');
      assert.equal(decodeShortString('0x00534e'), '0x00534e', 'a control byte at the start');
      assert.equal(decodeShortString('0x53e4'), '0x53e4', 'a byte above ASCII');
      assert.equal(decodeShortString('0x41424'), '0x41424', 'odd digits: the first byte is a control byte');
    });

    test('a chain id that is not hex is shown as the node sent it, not partly decoded', () => {
      assert.equal(decodeShortString('0x41zz'), '0x41zz');
      assert.equal(decodeShortString('410x42'), '410x42');
      assert.equal(decodeShortString('SN_MAIN'), 'SN_MAIN');
      assert.equal(decodeShortString('0x'), '0x');
    });
  });
});

describe('the protocol tables the user meets', () => {
  /**
   * The protocol tables the user meets: the "Call Method…" pick list of each protocol in its order,
   * parameter templates that a node would accept as a start, and the retry rule agreeing with them
   * (every listed method but the submits is a read, so it is retried on 429/5xx; the submits never).
   */
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
});
