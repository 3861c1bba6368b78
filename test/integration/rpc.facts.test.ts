/**
 * Live facts of the non-EVM protocols. No UTXO, Solana, Starknet or beacon node can be installed
 * here, so a loopback server answers in each protocol's wire shape as its public API reference
 * documents it (Bitcoin Core, Solana, Starknet, the beacon API). What is under test is ours: which
 * methods and paths are asked, in one batch, below the key path, and how the answers are read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER, type Protocol } from '../../src/core/nodes/model';
import { liveFacts } from '../../src/core/nodes/protocols';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { freePort } from '../support/devnets';

const KEY = '2b4d6f8a0c1e3a5b7d9f1a3c5e7b9d0f';

const RESULTS: Record<string, unknown> = {
  // Bitcoin Core
  getnetworkinfo: { version: 270000, subversion: '/Satoshi:27.0.0/', connections: 10 },
  getblockcount: 842_113,
  getblockchaininfo: { chain: 'main', blocks: 842_113 },
  // Solana
  getVersion: { 'solana-core': '1.18.22', 'feature-set': 3_241_752_014 },
  getSlot: 284_551_020,
  getGenesisHash: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
  // Starknet
  starknet_specVersion: '0.7.1',
  starknet_blockNumber: 683_512,
  starknet_chainId: '0x534e5f4d41494e',
};

const BEACON: Record<string, unknown> = {
  '/eth/v1/node/version': { data: { version: 'Lighthouse/v5.3.0-d6ba8c3/x86_64-linux' } },
  '/eth/v1/beacon/headers/head': { data: { root: '0xabc', canonical: true, header: { message: { slot: '9960000', proposer_index: '1' } } } },
  '/eth/v1/config/deposit_contract': { data: { chain_id: '1', address: '0x00000000219ab540356cBB839Cbe05303d7705Fa' } },
};

describe('live facts per protocol', () => {
  let server: http.Server;
  let base: string;
  const seen: { path: string; body: unknown }[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = text ? JSON.parse(text) : undefined;
        seen.push({ path: req.url ?? '', body });
        if (!req.url?.startsWith(`/${KEY}`)) return void res.writeHead(401).end();
        if (req.method === 'GET') {
          const path = req.url.slice(KEY.length + 1);
          if (path === '/eth/v1/beacon/headers/head') return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"code":503,"message":"syncing"}');
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BEACON[path]));
        }
        // Bitcoin-style replies: `error: null` beside the result.
        const answer = (r: { id: number; method: string }) => ({ result: RESULTS[r.method], error: null, id: r.id });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${KEY_PLACEHOLDER}`;
  });
  after(async () => {
    closeIdleConnections();
    await new Promise((r) => server.close(r));
  });

  const endpoint = (protocol: Protocol) => resolveEndpoint({ id: protocol, name: protocol, protocol, url: base, auth: 'key' }, { key: KEY });

  const cases: [Protocol, string[], Record<string, string>][] = [
    ['utxo', ['getnetworkinfo', 'getblockcount', 'getblockchaininfo'], { clientVersion: '/Satoshi:27.0.0/', latestBlock: '842113', chainId: 'main' }],
    ['solana', ['getVersion', 'getSlot', 'getGenesisHash'], { clientVersion: '1.18.22', latestBlock: '284551020', chainId: 'mainnet-beta (5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d)' }],
    ['starknet', ['starknet_specVersion', 'starknet_blockNumber', 'starknet_chainId'], { clientVersion: 'Starknet JSON-RPC 0.7.1', latestBlock: '683512', chainId: 'SN_MAIN' }],
  ];
  for (const [protocol, methods, expected] of cases) {
    test(`${protocol}: the three facts in one batch`, async () => {
      seen.length = 0;
      const facts = await liveFacts(protocol, endpoint(protocol));
      assert.equal(seen.length, 1);
      assert.deepEqual(
        (seen[0].body as { method: string }[]).map((r) => r.method),
        methods,
      );
      for (const [name, value] of Object.entries(expected)) {
        const fact = facts[name as keyof typeof facts];
        assert.ok(fact && 'value' in fact, `${name}: ${JSON.stringify(fact)}`);
        assert.equal(fact.value, value);
      }
    });
  }

  test('beacon: REST GETs below the key path; a failing one leaves the others', async () => {
    seen.length = 0;
    const facts = await liveFacts('beacon', endpoint('beacon'), { retries: 0 });
    assert.deepEqual(seen.map((s) => s.path).sort(), [`/${KEY}/eth/v1/beacon/headers/head`, `/${KEY}/eth/v1/config/deposit_contract`, `/${KEY}/eth/v1/node/version`]);
    assert.deepEqual(facts.clientVersion && 'value' in facts.clientVersion && facts.clientVersion.value, 'Lighthouse/v5.3.0-d6ba8c3/x86_64-linux');
    assert.deepEqual(facts.chainId && 'value' in facts.chainId && facts.chainId.value, '1');
    assert.ok(facts.latestBlock && 'error' in facts.latestBlock);
    // The REST route follows the key in the path: masked with it, as every path segment is.
    assert.match(facts.latestBlock.error, /The node's server failed \(HTTP 503 Service Unavailable from http:\/\/127\.0\.0\.1:\d+\/\*\*\*(\/\*\*\*)+\)/);
    assert.ok(!facts.latestBlock.error.includes(KEY));
  });

  test('an unreachable node: every fact carries the same reason', async () => {
    const closed = resolveEndpoint({ id: 'x', name: 'x', protocol: 'evm', url: `http://127.0.0.1:${await freePort()}/`, auth: 'none' }, {});
    const facts = await liveFacts('evm', closed);
    for (const fact of [facts.clientVersion, facts.latestBlock, facts.chainId]) {
      assert.ok(fact && 'error' in fact && /ECONNREFUSED/.test(fact.error), JSON.stringify(fact));
    }
    assert.deepEqual(await liveFacts('other', closed), {});
  });
});
