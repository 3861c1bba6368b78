/**
 * Proxy detection from a node's answers: the kind, the implementation, the admin, the beacon and
 * a diamond's facets, from one batch (a beacon's implementation() in a second); clone code read
 * for its target; the sentences the editor and the CLI show.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AbiCoder, getAddress, id, keccak256, toUtf8Bytes } from 'ethers';
import type { RpcCall } from '../../../../../src/core/rpc/types';
import type { BatchItem } from '../../../../../src/core/rpc/jsonrpc';
import {
  addressList,
  cloneTarget,
  describeProxy,
  detectProxy,
  hasEip1967Slots,
  PROXIABLE_SLOT,
  ZEPPELINOS_ADMIN_SLOT,
  ZEPPELINOS_IMPLEMENTATION_SLOT,
} from '../../../../../src/core/storage/deployed/proxy';
import { EIP1967_ADMIN_SLOT, EIP1967_BEACON_SLOT, EIP1967_IMPLEMENTATION_SLOT } from '../../../../../src/core/storage/slots';
import type { StorageRpc } from '../../../../../src/core/storage/types';

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const PROXY = addr('proxy');
const IMPL = addr('impl');
const ADMIN = addr('admin');
const BEACON = addr('beacon');
const FACETS = [addr('facet a'), addr('facet b')];
const word = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;
const CODE = '0x6080604052348015600e575f80fd5b50';
const CLONE = `0x363d3d373d3d3d363d73${IMPL.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`;

/** A node that holds `slots` at PROXY, `code` there, answers the loupe with `facets` and a beacon's implementation() with IMPL; counts batches. */
function node(code: string, slots: Record<string, string>, facets?: string[]) {
  const batches: RpcCall[][] = [];
  const answer = (c: RpcCall): BatchItem => {
    const p = c.params as unknown[];
    if (c.method === 'eth_getCode') return { result: code } as BatchItem;
    if (c.method === 'eth_getStorageAt') return { result: slots[BigInt(p[1] as string).toString()] ?? `0x${'0'.repeat(64)}` } as BatchItem;
    const call = p[0] as { to: string; data: string };
    if (call.data === id('facetAddresses()').slice(0, 10))
      return (facets ? { result: AbiCoder.defaultAbiCoder().encode(['address[]'], [facets]) } : { error: { code: 3, message: 'execution reverted' } }) as BatchItem;
    if (call.data === id('implementation()').slice(0, 10) && call.to === BEACON) return { result: word(IMPL) } as BatchItem;
    return { error: { code: 3, message: 'execution reverted' } } as BatchItem;
  };
  const rpc: StorageRpc = {
    call: () => Promise.reject(new Error('no single calls')),
    batch: (calls) => {
      batches.push([...calls]);
      return Promise.resolve(calls.map(answer));
    },
  };
  return { rpc, batches };
}
const at = (slot: string) => BigInt(slot).toString();

describe('detectProxy', () => {
  test('a plain contract: kind none, one batch with the code, six slots and the loupe, all at the block asked for', async () => {
    const { rpc, batches } = node(CODE, {});
    assert.deepEqual(await detectProxy(rpc, PROXY.toLowerCase(), 12, undefined), { kind: 'none', address: PROXY, code: CODE });
    assert.equal(batches.length, 1);
    assert.deepEqual(
      batches[0].map((c) => c.method),
      ['eth_getCode', ...new Array(6).fill('eth_getStorageAt'), 'eth_call'],
    );
    for (const c of batches[0]) assert.equal((c.params as unknown[]).at(-1), '0xc');
  });

  test('ERC-1967: implementation and admin from their slots, no beacon, one batch', async () => {
    const { rpc, batches } = node(CODE, { [at(EIP1967_IMPLEMENTATION_SLOT)]: word(IMPL), [at(EIP1967_ADMIN_SLOT)]: word(ADMIN) });
    const info = await detectProxy(rpc, PROXY, 1);
    assert.deepEqual({ ...info, code: undefined }, { kind: 'erc1967', address: PROXY, code: undefined, implementation: IMPL, admin: ADMIN, beacon: undefined });
    assert.equal(batches.length, 1);
    assert.equal(describeProxy(info, ['Points']), `ERC-1967 proxy → implementation ${IMPL} (Points)`);
    assert.ok(hasEip1967Slots(info));
  });

  test('a beacon proxy: the beacon from its slot, the implementation from the beacon’s implementation() in a second round trip', async () => {
    const { rpc, batches } = node(CODE, { [at(EIP1967_BEACON_SLOT)]: word(BEACON) });
    const info = await detectProxy(rpc, PROXY, 1);
    assert.equal(info.kind, 'beacon');
    assert.equal(info.implementation, IMPL);
    assert.equal(batches.length, 2);
    assert.equal(describeProxy(info, ['Ledger']), `beacon proxy → beacon ${BEACON} → implementation ${IMPL} (Ledger)`);
    assert.ok(hasEip1967Slots(info));
  });

  test('a beacon whose implementation() reverts: still a beacon proxy (its slots are read), no implementation, the failure kept', async () => {
    const { rpc } = node(CODE, { [at(EIP1967_BEACON_SLOT)]: word(ADMIN), [at(EIP1967_ADMIN_SLOT)]: word(ADMIN) });
    const info = await detectProxy(rpc, PROXY, 1);
    assert.deepEqual([info.kind, info.beacon, info.implementation], ['beacon', ADMIN, undefined]);
    assert.equal(info.beaconFailure, `its beacon ${ADMIN} answered no implementation() at block 1 (execution reverted)`);
    assert.ok(hasEip1967Slots(info));
    assert.equal(describeProxy(info), `beacon proxy → beacon ${ADMIN} → no implementation`);
  });

  test('ERC-1822 (PROXIABLE) and zeppelinos slots; neither has the eip1967 elements', async () => {
    const uups = await detectProxy(node(CODE, { [at(PROXIABLE_SLOT)]: word(IMPL) }).rpc, PROXY, 1);
    assert.deepEqual([uups.kind, uups.implementation], ['erc1822', IMPL]);
    const zos = await detectProxy(node(CODE, { [at(ZEPPELINOS_IMPLEMENTATION_SLOT)]: word(IMPL), [at(ZEPPELINOS_ADMIN_SLOT)]: word(ADMIN) }).rpc, PROXY, 1);
    assert.deepEqual([zos.kind, zos.implementation, zos.admin], ['zeppelinos', IMPL, ADMIN]);
    assert.ok(!hasEip1967Slots(uups) && !hasEip1967Slots(zos));
    assert.equal(describeProxy(zos, ['Ledger']), `zeppelinos proxy → implementation ${IMPL} (Ledger)`);
  });

  test('an ERC-1167 clone: the implementation from the code', async () => {
    const info = await detectProxy(node(CLONE, {}).rpc, PROXY, 1);
    assert.deepEqual([info.kind, info.implementation], ['clone', IMPL]);
    assert.equal(describeProxy(info, ['Ledger']), `ERC-1167 clone → ${IMPL} (Ledger)`);
  });

  test('a clone of an ERC-1967 proxy: the proxy’s code reads the clone’s own slots, so the implementation is the one there', async () => {
    const info = await detectProxy(node(CLONE, { [at(EIP1967_IMPLEMENTATION_SLOT)]: word(ADMIN) }).rpc, PROXY, 1);
    assert.deepEqual([info.kind, info.implementation], ['erc1967', ADMIN]);
  });

  test('a diamond: the facets from the loupe', async () => {
    const info = await detectProxy(node(CODE, {}, FACETS).rpc, PROXY, 1);
    assert.deepEqual([info.kind, info.facets], ['diamond', FACETS]);
    assert.equal(describeProxy(info, ['A', 'B']), 'diamond with 2 facets (A, B)');
  });

  test('a lying node: a proxy slot it does not answer, or code that is not hex, fails in one line, never reads as a plain contract', async () => {
    const lying = (answer: (c: RpcCall, i: number) => BatchItem | undefined): StorageRpc => ({
      call: () => Promise.reject(new Error('no single calls')),
      batch: (calls) => Promise.resolve(calls.map((c, i) => answer(c, i)) as BatchItem[]),
    });
    // The element for the implementation slot (the second call) missing, then answered with an error, then with a word that is not hex.
    for (const bad of [undefined, { error: { code: -32000, message: 'missing trie node' } }, { result: 'not a word' }] as (BatchItem | undefined)[]) {
      const rpc = lying((c, i) => (i === 1 ? bad : c.method === 'eth_getCode' ? ({ result: CODE } as BatchItem) : ({ result: `0x${'0'.repeat(64)}` } as BatchItem)));
      await assert.rejects(detectProxy(rpc, PROXY, 7), (err: Error) => {
        assert.match(err.message, new RegExp(`^eth_getStorageAt of ${PROXY}'s proxy slot ${EIP1967_IMPLEMENTATION_SLOT} at block 7 failed: `));
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
    }
    for (const code of ['zz\x1b[31mred', '0x6080zz', 42]) {
      const rpc = lying((c) => (c.method === 'eth_getCode' ? ({ result: code } as BatchItem) : ({ result: `0x${'0'.repeat(64)}` } as BatchItem)));
      await assert.rejects(detectProxy(rpc, PROXY, 7), (err: Error) => err.message === `eth_getCode of ${PROXY} at block 7 failed: not code`);
    }
  });

  test('no code: kind none with the empty code', async () => {
    const info = await detectProxy(node('0x', { [at(EIP1967_IMPLEMENTATION_SLOT)]: word(IMPL) }).rpc, PROXY, 1);
    assert.deepEqual([info.kind, info.code], ['none', '0x']);
    assert.equal(describeProxy(info), undefined);
  });
});

describe('cloneTarget and addressList', () => {
  test('ERC-1167 and ERC-7511 (PUSH0) clones; anything else is none', () => {
    assert.equal(cloneTarget(CLONE), IMPL);
    assert.equal(cloneTarget(`0x365f5f375f5f365f73${IMPL.slice(2)}5af43d5f5f3e5f3d91602a57fd5bf3`), IMPL);
    assert.equal(cloneTarget(`${CLONE}00`), undefined);
    assert.equal(cloneTarget(CODE), undefined);
  });

  test('an ABI address[] of one to 256 addresses; an empty list, a revert’s data or odd hex is none', () => {
    const coder = AbiCoder.defaultAbiCoder();
    assert.deepEqual(addressList(coder.encode(['address[]'], [FACETS])), FACETS);
    assert.equal(addressList(coder.encode(['address[]'], [[]])), undefined);
    assert.equal(addressList(coder.encode(['address[]'], [new Array(257).fill(IMPL)])), undefined);
    assert.equal(addressList('0x08c379a0'), undefined);
    assert.equal(addressList(coder.encode(['uint256'], [5])), undefined);
    assert.equal(addressList(undefined), undefined);
  });

  test('a loupe answering 100,000 facets (6 MB) or a length it does not hold is none, at once, not a stack overflow', () => {
    const n = (v: bigint | number) => BigInt(v).toString(16).padStart(64, '0');
    const many = `0x${n(32)}${n(100_000)}${word(IMPL).slice(2).repeat(100_000)}`;
    const started = Date.now();
    assert.equal(addressList(many), undefined);
    assert.equal(addressList(`0x${32n.toString(16).padStart(64, '0')}${(2n ** 40n).toString(16).padStart(64, '0')}`), undefined);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });
});
