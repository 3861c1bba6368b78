/**
 * The on-chain half of the check against a scripted loopback node (the real nodes are in
 * test/integration/storage.compat.test.ts): a variable packed into a used slot is judged by its
 * own bytes only, a multi-slot one by every slot, added storage past the read bound is a warning
 * and is not read, and an address without code is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RpcClient } from '../../../../../src/core/rpc/client';
import { closeIdleConnections } from '../../../../../src/core/rpc/http';
import { resolveEndpoint } from '../../../../../src/core/nodes/endpoint';
import { checkAddedStorage, MAX_CHECKED_SLOTS } from '../../../../../src/core/storage/compat/onchain';
import type { AddedStorage } from '../../../../../src/core/storage/compat/rules';
import { startRpcServer, type RpcServer } from '../../../../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;
let node: RpcServer;
let storage: Map<bigint, bigint>;
let code: string;

before(async () => {
  node = await startRpcServer({
    eth_getBlockByNumber: { result: { number: '0x7', hash: HASH } },
    eth_getCode: () => ({ result: code }),
    eth_getStorageAt: (params) => ({ result: `0x${(storage.get(BigInt((params as string[])[1])) ?? 0n).toString(16).padStart(64, '0')}` }),
  });
});
after(async () => {
  closeIdleConnections();
  await node.close();
});

const client = () => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: node.url, auth: 'none' }, {}));
const added = (path: string, slot: bigint, offset: number, numberOfBytes: number, slots = 1n): AddedStorage => ({
  path,
  description: `${path} at slot ${slot}`,
  slot,
  offset,
  numberOfBytes,
  slots,
});

describe('added storage checked on chain', () => {
  test('a packed variable: only its bytes count; the owner beside it in the slot does not', async () => {
    code = '0x6080';
    const owner = 0x1234567890abcdef1234567890abcdef12345678n;
    storage = new Map([[0n, owner]]);
    assert.deepEqual(await checkAddedStorage(client(), ADDRESS, [added('paused', 0n, 20, 1)]), []);
    storage.set(0n, owner | (1n << 160n));
    assert.deepEqual(await checkAddedStorage(client(), ADDRESS, [added('paused', 0n, 20, 1)]), [
      { kind: 'nonzero-slot', path: 'paused', before: 'slot 0 holds 0x1 at block 7', after: 'paused at slot 0', severity: 'error' },
    ]);
  });

  test('a variable over several slots: every one read, the first non-zero said and the others counted', async () => {
    storage = new Map([
      [5n, 3n],
      [7n, 4n],
    ]);
    assert.deepEqual(await checkAddedStorage(client(), ADDRESS, [added('arr', 4n, 0, 128, 4n)]), [
      { kind: 'nonzero-slot', path: 'arr', before: 'slot 5 holds 0x3 (and 1 more) at block 7', after: 'arr at slot 4', severity: 'error' },
    ]);
  });

  test('added storage past the bound: a warning, nothing of it read', async () => {
    storage = new Map();
    node.clear();
    const findings = await checkAddedStorage(client(), ADDRESS, [added('small', 1n, 0, 32), added('huge', 10n, 0, 32 * (MAX_CHECKED_SLOTS + 1), BigInt(MAX_CHECKED_SLOTS + 1))]);
    assert.deepEqual(findings, [{ kind: 'unchecked-slots', path: 'huge', before: null, after: 'huge at slot 10', severity: 'warning' }]);
    assert.deepEqual(
      node.calls.filter((c) => c.method === 'eth_getStorageAt').map((c) => (c.params as string[])[1]),
      [`0x${'1'.padStart(64, '0')}`],
    );
  });

  test('no code at the address: refused in one line', async () => {
    code = '0x';
    storage = new Map();
    await assert.rejects(checkAddedStorage(client(), ADDRESS, [added('x', 1n, 0, 32)]), { message: `no contract at ${ADDRESS} at block 7: its storage cannot be checked` });
  });
});
