/**
 * The native debug_storageRangeAt on real ganache, and the auto mode choosing it. ganache has no
 * anvil_setStorageAt (its evm_setAccountStorageAt does not survive mining here), so storage is
 * made the way contracts make it: a hand-written creation code that SSTOREs a few slots and
 * returns a one-byte runtime, sent with eth_sendTransaction from an unlocked dev account; a
 * second transaction in a later block gives a block whose tx 0 sees the contract's storage
 * (the native method shows the state before transaction txIndex).
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress, keccak256 } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { StorageRangeError } from '../../src/core/storage/errors';
import { word } from '../../src/core/storage/inputs';
import { storageRange, toSpecOutput } from '../../src/core/storage/range';
import { startProxy } from '../support/proxy';

const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;

/** Slots the contract writes, and their values: small ones for the emulation, huge ones too. */
const SLOTS = new Map<bigint, bigint>([
  [0n, 42n],
  [1n, 7n],
  [2n, 0xdeadbeefn],
  [5n, 0x1234n],
  [6n, 1n],
  [10n, 99n],
  [11n, (1n << 255n) + 3n],
  [12n, 0xabcdefn],
  [1n << 200n, 5n],
  [BigInt(keccak256(word(3n))), 77n],
]);

/** Creation code: PUSH32 value, PUSH32 slot, SSTORE for each slot; then RETURN one zero byte (a STOP). */
function creationCode(slots: Map<bigint, bigint>): string {
  let code = '0x';
  for (const [slot, v] of slots) code += `7f${v.toString(16).padStart(64, '0')}7f${slot.toString(16).padStart(64, '0')}55`;
  return `${code}600160` + '00f3';
}

interface Deployed {
  address: string;
  /** A block holding one later transaction: at tx 0 the storage is complete. */
  block: { number: number; hash: string };
}

async function deploy(client: RpcClient): Promise<Deployed> {
  const accounts = await client.call<string[]>('eth_accounts');
  const from = accounts[7]; // an account no other test sends from
  const tx = await client.call<string>('eth_sendTransaction', [{ from, data: creationCode(SLOTS), gas: '0x200000' }]);
  const receipt = await client.call<{ contractAddress: string; status: string }>('eth_getTransactionReceipt', [tx]);
  assert.equal(receipt.status, '0x1', 'the creation code ran');
  const next = await client.call<string>('eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
  const r2 = await client.call<{ blockNumber: string; blockHash: string }>('eth_getTransactionReceipt', [next]);
  return { address: getAddress(receipt.contractAddress), block: { number: Number(BigInt(r2.blockNumber)), hash: r2.blockHash } };
}

const clientFor = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}), { timeoutMs: 10_000 });

let client: RpcClient;
let deployed: Deployed;

before(async () => {
  assert.ok(GANACHE, 'the harness did not start ganache');
  client = clientFor(GANACHE);
  deployed = await deploy(client);
});

after(() => closeIdleConnections());

describe('native debug_storageRangeAt on ganache', () => {
  test('all entries: keyed by hashed slot, preimage in key, sorted by hashed key, nextKey null at the end', async () => {
    const r = await storageRange(client, { block: deployed.block.hash, address: deployed.address, maxResults: 50, mode: 'native' });
    assert.equal(r.mode, 'native');
    assert.deepEqual(r.block, deployed.block);
    const keys = Object.keys(r.storage);
    assert.equal(keys.length, SLOTS.size);
    assert.deepEqual(keys, [...keys].sort(), 'ascending hashed keys');
    for (const [hashed, entry] of Object.entries(r.storage)) {
      assert.ok(entry.key, 'ganache knows the preimage');
      assert.equal(keccak256(entry.key), hashed, 'the key is keccak256 of the preimage');
      assert.equal(BigInt(entry.value), SLOTS.get(BigInt(entry.key)));
      assert.match(entry.value, /^0x[0-9a-f]{64}$/);
    }
    assert.equal(r.nextKey, null);
    assert.deepEqual(Object.keys(toSpecOutput(r)), ['jsonrpc', 'id', 'result']);
  });

  test('paging through nextKey until null covers every slot exactly once, in hashed order', async () => {
    const seen: string[] = [];
    let start: string | undefined;
    let pages = 0;
    do {
      const r = await storageRange(client, { block: deployed.block.hash, address: deployed.address, startKey: start, maxResults: 3, mode: 'native' });
      const keys = Object.keys(r.storage);
      assert.ok(keys.length <= 3);
      assert.deepEqual(keys, [...keys].sort());
      seen.push(...keys);
      start = r.nextKey ?? undefined;
      if (start) assert.match(start, /^0x[0-9a-f]{64}$/);
      pages++;
    } while (start !== undefined && pages < 20);
    assert.equal(pages, Math.ceil(SLOTS.size / 3));
    assert.deepEqual(seen, [...seen].sort(), 'pages follow each other in order');
    assert.deepEqual(new Set(seen).size, seen.length, 'no slot twice');
    assert.deepEqual([...seen].sort(), [...SLOTS.keys()].map((s) => keccak256(word(s))).sort(), 'every slot');
  });

  test('entries the node sends out of order are put in hashed-key order', async () => {
    const proxy = await startProxy({ target: GANACHE });
    try {
      // The block lookup passes; the native answer comes back with its entries reversed.
      proxy.fail(
        { delayMs: 0 },
        {
          rewrite: (reply) => {
            const r = reply as { result: { storage: Record<string, unknown> } };
            const reversed = Object.fromEntries(Object.entries(r.result.storage).reverse());
            return { ...r, result: { ...r.result, storage: reversed } };
          },
        },
      );
      const r = await storageRange(clientFor(proxy.url), { block: deployed.block.hash, address: deployed.address, maxResults: 50, mode: 'native' });
      const keys = Object.keys(r.storage);
      assert.equal(keys.length, SLOTS.size);
      assert.deepEqual(keys, [...keys].sort());
    } finally {
      await proxy.close();
    }
  });

  test('a block given by number is looked up to its hash', async () => {
    const byNumber = await storageRange(client, { block: deployed.block.number, address: deployed.address, maxResults: 4, mode: 'native' });
    const byHash = await storageRange(client, { block: deployed.block.hash, address: deployed.address, maxResults: 4, mode: 'native' });
    assert.deepEqual(byNumber, byHash);
  });

  test('auto on ganache uses the native method', async () => {
    const r = await storageRange(clientFor(GANACHE), { block: deployed.block.hash, address: deployed.address.toLowerCase(), maxResults: 2 });
    assert.equal(r.mode, 'native');
    assert.equal(r.nativeUnavailable, undefined);
    assert.equal(Object.keys(r.storage).length, 2);
  });

  test('native errors are real errors in auto mode too: tx index out of range, account missing', async () => {
    await client.call('evm_mine');
    const empty = await client.call<{ hash: string }>('eth_getBlockByNumber', ['latest', false]);
    for (const mode of ['auto', 'native'] as const) {
      await assert.rejects(storageRange(clientFor(GANACHE), { block: empty.hash, address: deployed.address, mode }), (err: StorageRangeError) => {
        assert.equal(err.reason, 'native');
        assert.match(err.message, /^debug_storageRangeAt failed: JSON-RPC error -32700: transaction index 0 is out of range for block 0x/);
        return true;
      });
    }
    await assert.rejects(
      storageRange(client, { block: deployed.block.hash, address: `0x${'4'.repeat(40)}` }),
      (err: StorageRangeError) => err.reason === 'native' && /account 0x4444444444444444444444444444444444444444 doesn't exist/.test(err.message),
    );
  });

  test('an unknown block hash: "Failed to get block: …"', async () => {
    const unknown = `0x${'cd'.repeat(32)}`;
    await assert.rejects(storageRange(client, { block: unknown, address: deployed.address }), (err: StorageRangeError) => err.message === `Failed to get block: block ${unknown} not found`);
  });
});

describe('emulation on ganache', () => {
  test('"0x" for empty slots is zero; values are 32 bytes; same values as the native method', async () => {
    const emulated = await storageRange(client, { block: deployed.block.number, address: deployed.address, maxResults: 8, mode: 'emulate' });
    assert.deepEqual(Object.keys(emulated.storage), ['0x0', '0x1', '0x2', '0x5', '0x6', '0xa', '0xb', '0xc']);
    assert.equal(emulated.nextKey, '0xd');
    for (const [slot, entry] of Object.entries(emulated.storage)) {
      assert.equal(entry.key, null);
      assert.equal(entry.value, word(SLOTS.get(BigInt(slot))!));
    }
    const native = await storageRange(client, { block: deployed.block.hash, address: deployed.address, maxResults: 50, mode: 'native' });
    for (const entry of Object.values(native.storage)) {
      const slot = `0x${BigInt(entry.key!).toString(16)}`;
      if (emulated.storage[slot]) assert.equal(emulated.storage[slot].value, entry.value);
    }
    const rest = await storageRange(client, { block: deployed.block.number, address: deployed.address, startKey: 'd', maxResults: 8, mode: 'emulate' });
    assert.deepEqual(rest.storage, {});
    assert.equal(rest.nextKey, null);
    assert.equal(rest.emulation?.reads, 80);
  });
});
