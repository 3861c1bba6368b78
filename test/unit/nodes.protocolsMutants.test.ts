/**
 * What the protocol tables put in the user's hands and what the live facts show, at the points the
 * other tests leave open: every "Call Method…" params template parses as the params box parses it
 * and holds what the chain expects (the options that change the answer: full transactions or not,
 * encodings, versioned transactions), every beacon entry is a GET of its path with a description,
 * Solana's devnet and testnet are named, Starknet chain ids decode only when they are printable
 * hex, answers of the wrong type are refused (and long ones cut to 80 characters), and a node
 * that refuses a batch in any of the ways nodes do (an error object, not JSON, not an array) is
 * asked one call at a time, each call failing on its own.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { ResolvedEndpoint } from '../../src/core/nodes/model';
import { decodeShortString, liveFacts, methodsFor, PROTOCOL_METHODS, type Fact } from '../../src/core/nodes/protocols';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { parseParams } from '../../src/core/rpc/params';
import { answerFrom, startScriptedNode, type ScriptedNode, type SeenRequest } from '../support/rpcNode';

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

describe('liveFacts', () => {
  let node: ScriptedNode;
  let endpoint: ResolvedEndpoint;
  const client = () => new RpcClient(endpoint, { timeoutMs: 3000, retry: { retries: 0 } });
  const value = (fact: Fact | undefined) => (fact && 'value' in fact ? fact.value : fact);

  before(async () => {
    node = await startScriptedNode();
    endpoint = { httpUrl: node.url, wsUrl: node.url.replace('http', 'ws'), headers: {}, auth: 'none', secrets: [] };
  });
  afterEach(() => {
    node.seen.length = 0;
    closeIdleConnections();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  test('Solana devnet and testnet are named by their genesis hashes', async () => {
    const devnet = 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG';
    const testnet = '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY';
    node.script = answerFrom({ getVersion: { 'solana-core': '2.1.0' }, getSlot: 5, getGenesisHash: devnet });
    assert.equal(value((await liveFacts('solana', client())).chainId), `devnet (${devnet})`);
    node.script = answerFrom({ getVersion: { 'solana-core': '2.1.0' }, getSlot: 5, getGenesisHash: testnet });
    assert.equal(value((await liveFacts('solana', client())).chainId), `testnet (${testnet})`);
  });

  test('a client version that is not a string and a block number that is neither number nor string are unexpected answers', async () => {
    node.script = answerFrom({ web3_clientVersion: 42, eth_blockNumber: '0x1', eth_chainId: '0x1' });
    assert.deepEqual((await liveFacts('evm', client())).clientVersion, { error: 'unexpected answer: 42' });
    node.script = answerFrom({ getnetworkinfo: { subversion: ['/Satoshi:27.0.0/'] }, getblockcount: true, getblockchaininfo: { chain: 'main' } });
    const facts = await liveFacts('utxo', client());
    assert.deepEqual(facts.clientVersion, { error: 'unexpected answer: {"subversion":["/Satoshi:27.0.0/"]}' });
    assert.deepEqual(facts.latestBlock, { error: 'unexpected answer: true' });
    assert.equal(value(facts.chainId), 'main');
  });

  test('an unexpected answer is quoted to its first 80 characters of JSON', async () => {
    const long = 'x'.repeat(200);
    node.script = answerFrom({ web3_clientVersion: 'geth', eth_blockNumber: long, eth_chainId: '0x1' });
    const facts = await liveFacts('evm', client());
    assert.deepEqual(facts.latestBlock, { error: `unexpected answer: "${'x'.repeat(79)}` });
  });

  const refusals: [string, (r: SeenRequest) => { status?: number; headers?: Record<string, string>; body: unknown }][] = [
    ['one JSON-RPC error object for the whole batch', () => ({ body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are disabled' } } })],
    ['an answer that is not JSON', () => ({ headers: { 'Content-Type': 'text/html' }, body: '<html>batches: no</html>' })],
    ['JSON that is not an array', () => ({ body: { ok: false } })],
  ];
  for (const [how, refuse] of refusals) {
    test(`a batch refused with ${how} is asked one call at a time, each fact failing on its own`, async () => {
      node.script = (r) => (Array.isArray(JSON.parse(r.body)) ? refuse(r) : answerFrom({ web3_clientVersion: 'erigon/3.0.0', eth_chainId: '0xa' })(r));
      const facts = await liveFacts('evm', client());
      assert.deepEqual(facts, {
        clientVersion: { value: 'erigon/3.0.0', raw: 'erigon/3.0.0' },
        latestBlock: { error: 'JSON-RPC error -32601: no eth_blockNumber' },
        chainId: { value: '10', raw: '0xa' },
      });
      assert.equal(node.seen.length, 4, 'the batch, then three single calls');
    });
  }
});
