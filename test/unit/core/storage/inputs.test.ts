/**
 * The arguments of a storage range (checksum address, start key with or without 0x, block by
 * hash, number or tag), the spec's output form, and which native failures mean "no such method".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcFailure } from '../../../../src/core/rpc/failure';
import { CONNECT_FAILED, StorageRangeError } from '../../../../src/core/storage/errors';
import { checkMaxResults, checkTxIndex, MAX_SLOT, minimalHex, normaliseAddress, parseBlockRef, parseStartKey, word } from '../../../../src/core/storage/inputs';
import { isMethodUnavailable } from '../../../../src/core/storage/native';
import { storageRange, toSpecOutput, type StorageRangeResult } from '../../../../src/core/storage/range';

const inputError = (pattern: RegExp) => (err: unknown) => err instanceof StorageRangeError && err.reason === 'input' && err.code === -32000 && pattern.test(err.message);

describe('arguments', () => {
  test('address: any case in, checksum out; bad ones refused with the reason', () => {
    const sum = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    assert.equal(normaliseAddress(sum.toLowerCase()), sum);
    assert.equal(normaliseAddress(sum.toUpperCase().replace('0X', '0x')), sum);
    assert.equal(normaliseAddress(sum.slice(2).toLowerCase()), sum, 'without 0x');
    assert.throws(() => normaliseAddress('0x1234'), inputError(/^Invalid address '0x1234': an address is 0x followed by 40 hex digits$/));
    assert.throws(() => normaliseAddress(sum.replace('F', 'f')), inputError(/not a valid EIP-55 checksum/));
  });

  test('start key: hex read as an integer, 0x added when missing, at most 32 bytes', () => {
    assert.equal(parseStartKey(undefined), 0n);
    assert.equal(parseStartKey('0x0'), 0n);
    assert.equal(parseStartKey('b'), 11n);
    assert.equal(parseStartKey('0B'), 11n);
    assert.equal(parseStartKey(word(0x1fn)), 0x1fn);
    assert.equal(parseStartKey(`0x${'f'.repeat(64)}`), MAX_SLOT);
    assert.equal(parseStartKey(`00${'f'.repeat(64)}`), MAX_SLOT, 'leading zeros beyond 32 bytes are harmless');
    assert.throws(() => parseStartKey('0xzz'), inputError(/^Invalid start key '0xzz': expected hex digits/));
    assert.throws(() => parseStartKey('0x'), inputError(/Invalid start key '0x'/));
    assert.throws(() => parseStartKey(`0x1${'0'.repeat(64)}`), inputError(/at most 32 bytes/));
  });

  test('block: hash, number (decimal or hex), or tag', () => {
    const hash = `0x${'Ab'.repeat(32)}`;
    assert.deepEqual(parseBlockRef(hash), { kind: 'hash', hash: hash.toLowerCase() });
    assert.deepEqual(parseBlockRef('123'), { kind: 'number', number: 123n });
    assert.deepEqual(parseBlockRef('0x7b'), { kind: 'number', number: 123n });
    assert.deepEqual(parseBlockRef(5), { kind: 'number', number: 5n });
    assert.deepEqual(parseBlockRef('Latest'), { kind: 'tag', tag: 'latest' });
    assert.throws(() => parseBlockRef('pending'), inputError(/Invalid block 'pending'/));
    assert.throws(() => parseBlockRef('-1'), inputError(/Invalid block/));
    assert.throws(() => parseBlockRef(-1), inputError(/Invalid block/));
  });

  test('max results and tx index', () => {
    assert.equal(checkMaxResults(undefined), 10);
    assert.equal(checkTxIndex(undefined), 0);
    assert.throws(() => checkMaxResults(0), inputError(/Invalid max results '0'/));
    assert.throws(() => checkMaxResults(1.5), inputError(/an integer from 1 to 100000/));
    assert.equal(checkMaxResults(100_000), 100_000);
    assert.throws(() => checkMaxResults(100_001), inputError(/Invalid max results '100001': expected an integer from 1 to 100000/));
    assert.throws(() => checkTxIndex(-1), inputError(/Invalid transaction index/));
  });

  test('slots in minimal hex and as 32 bytes', () => {
    assert.equal(minimalHex(0n), '0x0');
    assert.equal(minimalHex(11n), '0xb');
    assert.equal(word(11n), `0x${'0'.repeat(63)}b`);
  });

  test('edges: spaces trimmed, the 0x prefix in any case, anchored patterns, exact messages', () => {
    const sum = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    assert.equal(normaliseAddress(`  ${sum}\n`), sum);
    assert.equal(normaliseAddress(`0X${sum.slice(2)}`), sum);
    assert.throws(() => normaliseAddress(`x0x${sum.slice(2)}`), inputError(/^Invalid address 'x0x5FbDB/));
    assert.equal(parseStartKey(' 0X1f '), 0x1fn);
    assert.throws(() => parseStartKey('1fz'), inputError(/^Invalid start key '1fz': expected hex digits \(0-9, a-f\), with or without 0x, e\.g\. 0x0 or 0x0{64}$/));
    assert.throws(() => parseStartKey('z1f'), inputError(/^Invalid start key 'z1f'/));
    const blockMessage = (text: string) =>
      `Invalid block '${text}': expected a block hash (0x followed by 64 hex digits), a block number (decimal or 0x-hex) or one of latest, earliest, safe, finalized`;
    for (const bad of [`0x${'a'.repeat(65)}`, `x0x${'a'.repeat(64)}`, '0x12g', 'x0x12', '12x', 'x12', '0x']) {
      assert.throws(
        () => parseBlockRef(bad),
        (err: unknown) => err instanceof StorageRangeError && err.reason === 'input' && err.message === blockMessage(bad),
        bad,
      );
    }
    assert.throws(
      () => parseBlockRef(1.5),
      (err: unknown) => err instanceof StorageRangeError && err.message === blockMessage('1.5'),
    );
    assert.throws(
      () => parseBlockRef(-1n),
      (err: unknown) => err instanceof StorageRangeError && err.message === blockMessage('-1'),
    );
    assert.deepEqual(parseBlockRef(0), { kind: 'number', number: 0n });
    assert.deepEqual(parseBlockRef(0n), { kind: 'number', number: 0n });
    assert.deepEqual(parseBlockRef(` 0x${'a'.repeat(63)} `), { kind: 'number', number: BigInt(`0x${'a'.repeat(63)}`) });
    assert.deepEqual(parseBlockRef('007'), { kind: 'number', number: 7n });
  });

  test('storageRange refuses bad arguments before sending anything', async () => {
    // A client that fails the test if it is ever used.
    const untouchable = {
      call: () => assert.fail('nothing may be sent'),
      batch: () => assert.fail('nothing may be sent'),
    };
    await assert.rejects(storageRange(untouchable, { block: 'latest', address: '0x12' }), inputError(/Invalid address/));
    await assert.rejects(storageRange(untouchable, { block: 'soon', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }), inputError(/Invalid block 'soon'/));
    await assert.rejects(storageRange(untouchable, { block: 1, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', startKey: 'xyz' }), inputError(/Invalid start key/));
    await assert.rejects(storageRange(untouchable, { block: 1, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', mode: 'fast' as 'auto' }), inputError(/Invalid mode 'fast'/));
  });
});

describe('spec output form', () => {
  test('a result: jsonrpc 2.0, id 1, result {storage, nextKey} and nothing else', () => {
    const result: StorageRangeResult = {
      mode: 'emulate',
      block: { number: 3, hash: `0x${'1'.repeat(64)}` },
      storage: { '0x0': { key: null, value: word(42n) } },
      nextKey: '0x1',
      warnings: ['Warning: …'],
      emulation: { reads: 1, strategy: 'batch' },
    };
    assert.deepEqual(toSpecOutput(result), { jsonrpc: '2.0', id: 1, result: { storage: { '0x0': { key: null, value: word(42n) } }, nextKey: '0x1' } });
    assert.equal(JSON.stringify(toSpecOutput({ ...result, storage: {}, nextKey: null })), '{"jsonrpc":"2.0","id":1,"result":{"storage":{},"nextKey":null}}');
  });

  test('any failure: error {code -32000, message}', () => {
    assert.equal(
      JSON.stringify(toSpecOutput(new StorageRangeError(CONNECT_FAILED, 'connect', 'ECONNREFUSED'))),
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"Failed to connect to Ethereum node"}}',
    );
    assert.deepEqual(toSpecOutput(new Error('boom')), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'boom' } });
    assert.deepEqual(toSpecOutput('odd'), { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'odd' } });
  });
});

describe('native method unavailable or failing', () => {
  const rpc = (code: number, message: string) => new RpcFailure('rpc', `JSON-RPC error ${code}: ${message}`, { code });

  test("each client's 'no such method' answer counts as unavailable", () => {
    assert.ok(isMethodUnavailable(rpc(-32601, 'Method not found')), 'anvil, geth, Reth');
    assert.ok(isMethodUnavailable(rpc(-32700, 'The method debug_storageRangeAt does not exist/is not available')), 'ganache');
    assert.ok(isMethodUnavailable(rpc(-32004, 'Method debug_storageRangeAt is not supported')), 'hardhat');
    assert.ok(isMethodUnavailable(rpc(-32602, 'data did not match any variant of untagged enum EthRpcCall')), 'anvil over WebSocket');
  });

  test('real errors are not', () => {
    assert.equal(isMethodUnavailable(rpc(-32700, 'transaction index 0 is out of range for block 0xab')), false);
    assert.equal(isMethodUnavailable(rpc(-32000, 'historical state not available')), false, 'a pruned node: the method exists');
    assert.equal(isMethodUnavailable(rpc(-32602, 'invalid argument 0: hex string has length 2, want 64 for common.Hash')), false, 'bad params');
    assert.equal(isMethodUnavailable(new RpcFailure('server', 'HTTP 503: method not available right now')), false, 'no JSON-RPC answer at all');
  });
});

test('a block number beyond 2^53 given as a number is refused (it cannot be exact)', () => {
  assert.throws(() => parseBlockRef(2 ** 53), {
    message: "Invalid block '9007199254740992': expected a block hash (0x followed by 64 hex digits), a block number (decimal or 0x-hex) or one of latest, earliest, safe, finalized",
  });
  assert.deepEqual(parseBlockRef(2 ** 53 - 1), { kind: 'number', number: 2n ** 53n - 1n });
  assert.deepEqual(parseBlockRef(12n), { kind: 'number', number: 12n });
});
