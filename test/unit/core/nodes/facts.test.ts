/**
 * A node's live facts (client version, latest block, chain id) per protocol, fetched through the
 * real RPC client from a scripted loopback node: one batch for JSON-RPC protocols, single calls
 * when the batch is refused (as an error object, not JSON or not an array), three GETs for the
 * beacon API, each fact failing on its own; Solana's devnet and testnet named, answers of the wrong
 * type refused and long ones cut to 80 characters.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { liveFacts, type Fact } from '../../../../src/core/nodes/protocols';
import { RpcClient } from '../../../../src/core/rpc/client';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { answerFrom, useScriptedNode, type ScriptedNode, type SeenRequest } from '../../../support/rpcNode';

interface Call {
  id: number;
  method: string;
}

describe('liveFacts', () => {
  let node: ScriptedNode;
  let endpoint: ResolvedEndpoint;
  const client = () => new RpcClient(endpoint, { timeoutMs: 3000, retry: { retries: 0 } });
  const value = (fact: Fact | undefined) => (fact && 'value' in fact ? fact.value : fact);

  useScriptedNode(
    (started) => {
      node = started;
      endpoint = { httpUrl: node.url, wsUrl: node.url.replace('http', 'ws'), headers: {}, auth: 'none', secrets: [] };
    },
    () => {
      node.seen.length = 0;
    },
  );

  test('evm: the three facts in one batch, hex read as decimal', async () => {
    node.script = answerFrom({ web3_clientVersion: 'anvil/v1.0.0', eth_blockNumber: '0x1b4', eth_chainId: '0x7a69' });
    const facts = await liveFacts('evm', client());
    assert.deepEqual(facts, {
      clientVersion: { value: 'anvil/v1.0.0', raw: 'anvil/v1.0.0' },
      latestBlock: { value: '436', raw: '0x1b4' },
      chainId: { value: '31337', raw: '0x7a69' },
    });
    assert.equal(node.seen.length, 1);
    assert.deepEqual(
      (JSON.parse(node.seen[0].body) as Call[]).map((c) => c.method),
      ['web3_clientVersion', 'eth_blockNumber', 'eth_chainId'],
    );
  });

  test('a resolved endpoint works as well as a client', async () => {
    node.script = answerFrom({ web3_clientVersion: 'geth', eth_blockNumber: '0x0', eth_chainId: '0x1' });
    const facts = await liveFacts('evm', endpoint, { timeoutMs: 3000 });
    assert.deepEqual(facts.chainId, { value: '1', raw: '0x1' });
  });

  test('one fact failing or unreadable leaves the others', async () => {
    node.script = answerFrom({ eth_blockNumber: '0x10', eth_chainId: 42 });
    const facts = await liveFacts('evm', client());
    assert.deepEqual(facts.clientVersion, { error: 'JSON-RPC error -32601: no web3_clientVersion' });
    assert.deepEqual(facts.latestBlock, { value: '16', raw: '0x10' });
    // 42 is no hex string; BigInt reads it anyway as 42
    assert.deepEqual(facts.chainId, { value: '42', raw: 42 });
    node.script = answerFrom({ web3_clientVersion: '', eth_blockNumber: 'latest', eth_chainId: '0x1' });
    const odd = await liveFacts('evm', client());
    assert.deepEqual(odd.clientVersion, { error: 'unexpected answer: ""' });
    assert.deepEqual(odd.latestBlock, { error: 'unexpected answer: "latest"' });
  });

  test('a node that refuses batches is asked one call at a time', async () => {
    node.script = (r) => {
      const body = JSON.parse(r.body) as Call | Call[];
      if (Array.isArray(body)) return { status: 400, body: 'batch requests are not supported' };
      return answerFrom({ getnetworkinfo: { subversion: '/Satoshi:27.0.0/' }, getblockcount: 840000, getblockchaininfo: { chain: 'main' } })(r);
    };
    const facts = await liveFacts('utxo', client());
    assert.deepEqual(facts, {
      clientVersion: { value: '/Satoshi:27.0.0/', raw: { subversion: '/Satoshi:27.0.0/' } },
      latestBlock: { value: '840000', raw: 840000 },
      chainId: { value: 'main', raw: { chain: 'main' } },
    });
    assert.equal(node.seen.length, 4, 'the batch, then three single calls');
  });

  test('a batch that fails below JSON-RPC (the server, auth) is not retried call by call: every fact has the error', async () => {
    node.script = () => ({ status: 401 });
    const facts = await liveFacts('evm', client());
    assert.equal(node.seen.length, 1);
    for (const fact of [facts.clientVersion, facts.latestBlock, facts.chainId]) {
      assert.ok(fact && 'error' in fact && /^The node refused the credentials \(HTTP 401 Unauthorized/.test(fact.error), JSON.stringify(fact));
    }
  });

  test('solana names a known cluster by its genesis hash; starknet decodes its chain id', async () => {
    node.script = answerFrom({ getVersion: { 'solana-core': '2.0.1' }, getSlot: '123', getGenesisHash: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' });
    const sol = await liveFacts('solana', client());
    assert.deepEqual(sol.clientVersion, { value: '2.0.1', raw: { 'solana-core': '2.0.1' } });
    assert.deepEqual(sol.latestBlock, { value: '123', raw: '123' });
    assert.equal(sol.chainId && 'value' in sol.chainId && sol.chainId.value, 'mainnet-beta (5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d)');
    node.script = answerFrom({ getVersion: {}, getSlot: 1, getGenesisHash: 'localgenesis' });
    const local = await liveFacts('solana', client());
    assert.equal(local.chainId && 'value' in local.chainId && local.chainId.value, 'localgenesis');
    assert.deepEqual(local.clientVersion, { error: 'unexpected answer: {}' });
    node.script = answerFrom({ starknet_specVersion: '0.7.1', starknet_blockNumber: 900, starknet_chainId: '0x534e5f4d41494e' });
    const stark = await liveFacts('starknet', client());
    assert.deepEqual(
      [stark.clientVersion, stark.latestBlock, stark.chainId].map((f) => f && 'value' in f && f.value),
      ['Starknet JSON-RPC 0.7.1', '900', 'SN_MAIN'],
    );
  });

  test('beacon: three GETs below the endpoint, read from their data fields', async () => {
    const answers: Record<string, unknown> = {
      '/eth/v1/node/version': { data: { version: 'Lighthouse/v5.1.0' } },
      '/eth/v1/beacon/headers/head': { data: { header: { message: { slot: '9000000' } } } },
      '/eth/v1/config/deposit_contract': { data: { chain_id: '1', address: '0x00' } },
    };
    node.script = (r) => (r.path in answers ? { body: answers[r.path] } : { status: 404, body: 'no' });
    const facts = await liveFacts('beacon', client());
    assert.deepEqual(
      [facts.clientVersion, facts.latestBlock, facts.chainId].map((f) => f && 'value' in f && f.value),
      ['Lighthouse/v5.1.0', '9000000', '1'],
    );
    assert.deepEqual(node.seen.map((s) => `${s.method} ${s.path}`).sort(), ['GET /eth/v1/beacon/headers/head', 'GET /eth/v1/config/deposit_contract', 'GET /eth/v1/node/version']);
    delete answers['/eth/v1/node/version'];
    const missing = await liveFacts('beacon', client());
    assert.ok(missing.clientVersion && 'error' in missing.clientVersion && /^Unexpected HTTP 404 Not Found from /.test(missing.clientVersion.error));
    assert.ok(missing.chainId && 'value' in missing.chainId);
  });

  test('other protocols have no facts and send nothing', async () => {
    assert.deepEqual(await liveFacts('other', client()), {});
    assert.equal(node.seen.length, 0);
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
