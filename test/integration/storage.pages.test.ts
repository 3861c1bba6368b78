/**
 * Pages of the storage-range emulation in as few HTTP requests as the node allows, counted at the
 * loopback proxy of test/support/proxy.ts, on real anvil and real ganache: a sparse layout (about
 * one non-zero slot in twenty), pages of 10, each page equal to the one-slot-at-a-time reference
 * and to an oracle computed from the layout written. Then the block changing under a page: a real
 * reorganisation (anvil_reorg) after the lookup, and a check answer rewritten in flight.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { StorageRangeError } from '../../src/core/storage/errors';
import { word } from '../../src/core/storage/inputs';
import { MAX_ATTEMPTS, storageRange, type StorageRangeOptions } from '../../src/core/storage/range';
import { startProxy, type Proxy } from '../support/proxy';
import { prng } from '../support/prng';

const NODES = { anvil: process.env.CHAINDECK_TEST_ANVIL_URL!, ganache: process.env.CHAINDECK_TEST_GANACHE_URL! };
const SPAN = 320;
const MAX = 10;

const clientFor = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}), { timeoutMs: 10_000 });

interface Layout {
  address: string;
  values: Map<bigint, string>;
  block: { number: number; hash: string };
}

/** About one slot in twenty non-zero, from a seeded PRNG; values never zero. */
function sparseValues(seed: number): Map<bigint, string> {
  const rand = prng(seed);
  const values = new Map<bigint, string>();
  for (let s = 0n; s < BigInt(SPAN); s++) if (rand() < 1 / 20) values.set(s, word(s * 0x10001n + 5n));
  return values;
}

async function minedBlock(client: RpcClient): Promise<{ number: number; hash: string }> {
  const b = await client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
  return { number: Number(BigInt(b.number)), hash: b.hash };
}

/** anvil: anvil_setStorageAt, then two blocks (the first one's state is fixed once the next is mined). */
async function anvilLayout(client: RpcClient, seed: number, tag: string): Promise<Layout> {
  const values = sparseValues(seed);
  const address = getAddress(`0x${tag.padEnd(40, '0')}`);
  for (const item of await client.batch([...values].map(([s, v]) => ({ method: 'anvil_setStorageAt', params: [address, word(s), v] })))) if ('error' in item) throw item.error;
  await client.call('evm_mine');
  const block = await minedBlock(client);
  await client.call('evm_mine');
  return { address, values, block };
}

/** ganache: a creation code that SSTOREs every value (ganache keeps no anvil_setStorageAt writes). */
async function ganacheLayout(client: RpcClient, seed: number): Promise<Layout> {
  const values = sparseValues(seed);
  let code = '0x';
  for (const [slot, v] of values) code += `7f${v.slice(2)}7f${slot.toString(16).padStart(64, '0')}55`;
  code += '600160' + '00f3';
  const [, , , , , from] = await client.call<string[]>('eth_accounts');
  const tx = await client.call<string>('eth_sendTransaction', [{ from, data: code, gas: '0x500000' }]);
  const receipt = await client.call<{ contractAddress: string; status: string }>('eth_getTransactionReceipt', [tx]);
  assert.equal(receipt.status, '0x1');
  return { address: getAddress(receipt.contractAddress), values, block: await minedBlock(client) };
}

/** The spec's page for the layout: the oracle. */
function expected(values: Map<bigint, string>, start: bigint) {
  const storage: Record<string, { key: null; value: string }> = {};
  let slot = start;
  let found = 0;
  for (let reads = 0; reads < 10 * MAX && found < MAX; reads++, slot++) {
    const v = values.get(slot);
    if (v) {
      storage[`0x${slot.toString(16)}`] = { key: null, value: v };
      found++;
    }
  }
  return { storage, nextKey: found === MAX ? `0x${slot.toString(16)}` : null };
}

const proxies: Proxy[] = [];
after(async () => {
  for (const p of proxies) await p.close();
  closeIdleConnections();
});

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`pages on ${kind}, counted at the proxy`, () => {
    let proxy: Proxy;
    let layout: Layout;
    before(async () => {
      assert.ok(NODES[kind], 'the harness did not start the node');
      proxy = await startProxy({ target: NODES[kind] });
      proxies.push(proxy);
      const direct = clientFor(NODES[kind]);
      layout = kind === 'anvil' ? await anvilLayout(direct, 16, 'ba9e') : await ganacheLayout(direct, 16);
    });

    const page = async (client: RpcClient, options: Partial<StorageRangeOptions>) => {
      proxy.clear();
      const r = await storageRange(client, { block: layout.block.number, address: layout.address, mode: 'emulate', maxResults: MAX, ...options });
      return { r, requests: proxy.requests.map((q) => q.methods) };
    };

    test('by number: one request a page (lookup, reads, check), the same pages as one slot at a time and the oracle', async () => {
      const client = clientFor(proxy.url);
      let pages = 0;
      for (let start = 0n; start < BigInt(SPAN); pages++) {
        const fast = await page(client, { startKey: start.toString(16) });
        const reference = await page(client, { startKey: start.toString(16), emulation: 'one-by-one' });
        const want = expected(layout.values, start);
        assert.deepEqual({ storage: fast.r.storage, nextKey: fast.r.nextKey }, want, `page at ${start}`);
        assert.deepEqual({ storage: reference.r.storage, nextKey: reference.r.nextKey }, want, `reference page at ${start}`);
        assert.equal(fast.requests.length, 1, `page at ${start}: ${JSON.stringify(fast.requests.map((m) => m.length))}`);
        const [lookup, ...rest] = fast.requests[0];
        assert.equal(lookup, 'eth_getBlockByNumber');
        assert.equal(rest.pop(), 'eth_getBlockByNumber', 'the check after the reads');
        assert.ok(rest.length === 10 * MAX && rest.every((m) => m === 'eth_getStorageAt'));
        assert.ok(reference.requests.length > 10, 'the reference reads one slot per request');
        start = fast.r.nextKey === null ? start + BigInt(10 * MAX) : BigInt(fast.r.nextKey);
      }
      assert.ok(pages >= 3);
    });

    test(`by hash: ${kind === 'anvil' ? 'one request (reads pinned by an EIP-1898 block hash)' : 'two requests (ganache refuses block objects: reads at the number, checked)'}; a tag: two`, async () => {
      const client = clientFor(proxy.url);
      const want = expected(layout.values, 0n);
      for (const attempt of ['first', 'next']) {
        const byHash = await page(client, { block: layout.block.hash });
        assert.deepEqual({ storage: byHash.r.storage, nextKey: byHash.r.nextKey }, want);
        assert.deepEqual(byHash.r.warnings, []);
        if (kind === 'anvil')
          assert.deepEqual(
            byHash.requests.map((m) => [m[0], m.length]),
            [['eth_getBlockByHash', 1 + 10 * MAX]],
            attempt,
          );
        else if (attempt === 'first')
          assert.deepEqual(
            byHash.requests.map((m) => [m[0], m.length]),
            [
              ['eth_getBlockByHash', 1 + 10 * MAX],
              ['eth_getStorageAt', 10 * MAX + 1],
            ],
          );
        // The client remembers that ganache refuses block objects: the lookup, then the reads.
        else
          assert.deepEqual(
            byHash.requests.map((m) => [m[0], m.length]),
            [
              ['eth_getBlockByHash', 1],
              ['eth_getStorageAt', 10 * MAX + 1],
            ],
          );
      }
      const latest = await page(clientFor(proxy.url), { block: 'latest' });
      assert.deepEqual(latest.r.storage, want.storage);
      assert.deepEqual(
        latest.requests.map((m) => m.length),
        [1, 10 * MAX + 1],
      );
    });
  });
}

describe('the block changing under a page', () => {
  let proxy: Proxy;
  let direct: RpcClient;
  before(async () => {
    proxy = await startProxy({ target: NODES.anvil });
    proxies.push(proxy);
    direct = clientFor(NODES.anvil);
  });

  const rewriteCheck = (reply: unknown) => {
    // The last answer of the batch is the check of the block at that number: another hash.
    const list = reply as { id: number; result: { hash: string } }[];
    const last = [...list].sort((a, b) => a.id - b.id).at(-1)!;
    last.result = { ...last.result, hash: `0x${'ee'.repeat(32)}` };
    return list;
  };

  test('a check answering another block: the page is read again; every time: a reorganisation error naming the block', async () => {
    const layout = await anvilLayout(direct, 17, 'ba9f');
    const client = clientFor(proxy.url);
    proxy.clear();
    proxy.fail({ rewrite: rewriteCheck });
    const r = await storageRange(client, { block: layout.block.number, address: layout.address, mode: 'emulate', maxResults: MAX });
    assert.deepEqual({ storage: r.storage, nextKey: r.nextKey }, expected(layout.values, 0n));
    assert.equal(proxy.requests.length, 2, 'read again once');

    proxy.clear();
    proxy.fail(...Array.from({ length: MAX_ATTEMPTS }, () => ({ rewrite: rewriteCheck })));
    const warned: string[] = [];
    await assert.rejects(
      storageRange(client, { block: layout.block.number, address: layout.address, mode: 'emulate', maxResults: MAX, onWarning: (l) => warned.push(l) }),
      (err: StorageRangeError) => {
        assert.equal(err.reason, 'reorg');
        assert.equal(err.code, -32000);
        assert.equal(
          err.message,
          `Block ${layout.block.number} changed while its storage was read (it is now 0x${'ee'.repeat(32)}; looked up as ${layout.block.hash}), a chain reorganisation: read the page again`,
        );
        return true;
      },
    );
    assert.equal(proxy.requests.length, MAX_ATTEMPTS);
    assert.deepEqual(warned, []);
  });

  test('a check the node did not answer (a rate limit): the page is read again, checked, and succeeds', async () => {
    const layout = await anvilLayout(direct, 19, 'baa1');
    proxy.clear();
    let blockCalls = 0;
    // The second eth_getBlockByNumber of the page is the check after the reads.
    proxy.failCalls((call) => (call.method === 'eth_getBlockByNumber' && ++blockCalls === 2 ? { code: -32005, message: 'rate limit reached' } : undefined));
    const r = await storageRange(clientFor(proxy.url), { block: layout.block.number, address: layout.address, mode: 'emulate', maxResults: MAX });
    assert.deepEqual({ storage: r.storage, nextKey: r.nextKey }, expected(layout.values, 0n));
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(
      proxy.requests.map((q) => [q.methods[0], q.methods.length]),
      [
        ['eth_getBlockByNumber', 10 * MAX + 2],
        ['eth_getStorageAt', 10 * MAX + 1],
      ],
    );
    proxy.clear();
  });

  test('a real reorganisation (anvil_reorg) between the lookup of latest and the reads: refused, not mixed in', async () => {
    const layout = await anvilLayout(direct, 18, 'baa0');
    proxy.clear();
    // The lookup passes; the reads wait 600 ms at the proxy, while the head block is replaced.
    proxy.fail({ delayMs: 0 }, { delayMs: 600 });
    const outcome = storageRange(clientFor(proxy.url), { block: 'latest', address: layout.address, mode: 'emulate', maxResults: MAX }).catch((err: unknown) => err);
    const deadline = Date.now() + 5_000;
    while (proxy.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const looked = await minedBlock(direct);
    // The replacement block carries a transfer: an empty one mined within the same second is the same block, hash and all.
    const [from, to] = await direct.call<string[]>('eth_accounts');
    await direct.call('anvil_reorg', [1, [[{ from, to, value: '0x1' }, 0]]]);
    const now = await minedBlock(direct);
    assert.equal(now.number, looked.number);
    assert.notEqual(now.hash, looked.hash, 'anvil_reorg replaced the head block');
    const err = await outcome;
    assert.ok(err instanceof StorageRangeError, `the page fails: ${String(err)}`);
    assert.equal(err.reason, 'reorg');
    assert.equal(err.message, `Block ${looked.number} changed while its storage was read (it is now ${now.hash}; looked up as ${looked.hash}), a chain reorganisation: read the page again`);
  });
});
