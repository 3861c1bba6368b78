/**
 * Value kinds from solc's type labels, and the byte helpers under strings and bytes: the labels
 * and edges the decode tests do not reach.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { longBytes, valueKind, wordBytes } from '../../../../../src/core/storage/decode/values';

const kind = (label: string, numberOfBytes = 32) => valueKind({ label, numberOfBytes: String(numberOfBytes) });

test('value kinds: the whole label names the type, not a part of it', () => {
  assert.deepEqual(kind('uint', 32), { kind: 'uint', bits: 256 });
  assert.deepEqual(kind('int16', 2), { kind: 'int', bits: 16 });
  assert.deepEqual(kind('Myuint', 2), { kind: 'raw', size: 2 }, 'a user-defined type whose name ends in uint');
  assert.deepEqual(kind('uint8x', 1), { kind: 'raw', size: 1 });
  assert.deepEqual(kind('Point16', 2), { kind: 'raw', size: 2 }, 'nor in int16');
  assert.deepEqual(kind('int8z', 1), { kind: 'raw', size: 1 });
  assert.deepEqual(kind('address payable', 20), { kind: 'address' });
  assert.deepEqual(kind('bytes32', 32), { kind: 'bytesN', size: 32 }, 'two digits');
  assert.deepEqual(kind('Mybytes4', 4), { kind: 'raw', size: 4 });
  assert.deepEqual(kind('bytes4x', 4), { kind: 'raw', size: 4 });
});

test('function types: external by its label or by its 24 bytes (address and selector); internal ones are 8 bytes', () => {
  assert.deepEqual(kind('function (uint256) external returns (bool)', 24), { kind: 'function', external: true });
  assert.deepEqual(kind('function (uint256) returns (bool)', 24), { kind: 'function', external: true }, '24 bytes without the word');
  assert.deepEqual(kind('function (uint256) returns (bool)', 8), { kind: 'function', external: false });
});

test('a word’s 32 bytes, big-endian, leading zeros kept', () => {
  const bytes = wordBytes(0x0102n);
  assert.equal(bytes.length, 32);
  assert.deepEqual([...bytes.subarray(29)], [0, 1, 2]);
  assert.deepEqual([...wordBytes(0n)], new Array(32).fill(0));
});

test('long bytes: `length` bytes from the words; words past the length are ignored, missing ones are zeros', () => {
  const w = (byte: number) => BigInt(`0x${byte.toString(16).padStart(2, '0').repeat(32)}`);
  assert.deepEqual([...longBytes([w(1), w(2), w(3)], 33)], [...new Array(32).fill(1), 2]);
  assert.deepEqual([...longBytes([w(1), w(2), w(3)], 32)], new Array(32).fill(1));
  assert.deepEqual([...longBytes([w(1)], 40)], [...new Array(32).fill(1), ...new Array(8).fill(0)]);
});
