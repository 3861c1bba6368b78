/**
 * Mapping keys per key type, from log words and from the user's text: the kinds the decode tests
 * do not reach (user-defined value types, enums, function types, bytes and string keys), the
 * edges of each range, and the order and uniqueness of keysFor.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hexlify, toUtf8Bytes } from 'ethers';
import type { SolcType } from '../../../../../src/core/storage/layout';
import { KeyGroups, keyCombinations, keyFromText, keyFromWord, keysFor, logWords, MAX_GROUP_WORDS, MAX_KEY_GROUPS } from '../../../../../src/core/storage/decode/keys';
import { TYPES } from '../../../../support/solcTypes';

const T = (label: string, numberOfBytes: number): SolcType => ({ encoding: 'inplace', label, numberOfBytes: String(numberOfBytes) });
const W = (hex: string) => BigInt(hex.startsWith('0x') ? hex : `0x${hex}`);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const STRING: SolcType = { encoding: 'bytes', label: 'string', numberOfBytes: '32' };
const BYTES: SolcType = { encoding: 'bytes', label: 'bytes', numberOfBytes: '32' };
const PRICE = T('Price', 2); // a user-defined value type over uint16
const ENUM = T('enum Demo.Kind', 1);
const FUNCTION = T('function () external', 24);
const UINT8 = T('uint8', 1);
const INT8 = T('int8', 1);
const BYTES4 = T('bytes4', 4);
const BOOL = T('bool', 1);
const ADDRESS = T('address', 20);
const UINT256 = T('uint256', 32);

test('a user-defined value type’s key: its bytes as hex, while the word fits its size', () => {
  assert.deepEqual(keyFromWord(PRICE, 0xbeefn), { encoding: word(0xbeefn), text: '0xbeef', order: 0xbeefn });
  assert.deepEqual(keyFromWord(PRICE, 0x1n), { encoding: word(1n), text: '0x0001', order: 1n });
  assert.equal(keyFromWord(PRICE, 0x10000n), undefined, 'one bit over its two bytes');
  assert.deepEqual(keyFromText(PRICE, ' 0xbeef '), { encoding: word(0xbeefn), text: '0xbeef', order: 0xbeefn });
  assert.deepEqual(keyFromText(PRICE, '48879'), { encoding: word(0xbeefn), text: '0xbeef', order: 0xbeefn });
  assert.equal(keyFromText(PRICE, '-1'), undefined, 'no negative bytes');
  assert.equal(keyFromText(PRICE, '65536'), undefined);
  assert.equal(keyFromText(T('Big', 32), '-1'), undefined, 'a 32-byte one has no negative either');
});

test('an enum key: below 256, as a decimal', () => {
  assert.deepEqual(keyFromWord(ENUM, 255n), { encoding: word(255n), text: '255', order: 255n });
  assert.equal(keyFromWord(ENUM, 256n), undefined);
  assert.equal(keyFromText(ENUM, '3')?.text, '3');
  assert.equal(keyFromText(ENUM, '-3'), undefined);
  assert.equal(keyFromText(ENUM, '3.5'), undefined, 'no fractions');
  assert.equal(keyFromText(ENUM, 'three'), undefined);
});

test('a function type is never a key', () => {
  assert.equal(keyFromWord(FUNCTION, 1n), undefined);
  assert.equal(keyFromText(FUNCTION, '0x01'), undefined);
});

test('integer keys: decimal or hex; uint ranges to their width; int by sign, hex as its word', () => {
  assert.equal(keyFromWord(UINT8, 255n)?.text, '255');
  assert.equal(keyFromWord(UINT8, 256n), undefined);
  assert.equal(keyFromWord(T('uint16', 2), 300n)?.text, '300', 'an enum stops at 255, a uint16 does not');
  assert.equal(keyFromText(UINT8, '0')?.text, '0', 'zero is a key');
  assert.equal(keyFromText(UINT256, '-1'), undefined, 'no negative uint, however wide');
  assert.equal(keyFromText(UINT8, '0x1g'), undefined, 'hex digits only');
  assert.equal(keyFromText(INT8, 'abc'), undefined);
  assert.equal(keyFromText(INT8, '0x1g'), undefined);
  assert.equal(keyFromText(UINT8, '0xFF')?.text, '255', 'hex in any case');
  assert.equal(keyFromText(UINT8, '256'), undefined);
  assert.equal(keyFromText(UINT8, '0x'), undefined, 'no digits');
  assert.equal(keyFromText(UINT8, '-0x1'), undefined, 'no signed hex');
  assert.equal(keyFromText(INT8, '127')?.encoding, word(127n));
  assert.equal(keyFromText(INT8, '-128')?.encoding, word((1n << 256n) - 128n));
  assert.equal(keyFromText(INT8, '-128')?.text, '-128');
  assert.equal(keyFromText(INT8, '128'), undefined, 'above int8');
  // Hex is the word itself: 0xff is 255 for an int8 (no int8), the full word of ones is -1.
  assert.equal(keyFromText(INT8, '0xff'), undefined);
  assert.equal(keyFromText(INT8, `0x${'f'.repeat(64)}`)?.text, '-1');
  assert.equal(keyFromText(T('int256', 32), `-${(1n << 255n).toString()}`)?.encoding, word(1n << 255n), 'the least int256');
  assert.equal(keyFromText(T('int256', 32), `-${((1n << 255n) + 1n).toString()}`), undefined);
  assert.equal(keyFromText(T('int256', 32), ((1n << 255n) - 1n).toString())?.encoding, word((1n << 255n) - 1n), 'the greatest int256');
  assert.equal(keyFromText(T('int256', 32), (1n << 255n).toString()), undefined);
});

test('bool and bytesN keys from text', () => {
  assert.deepEqual(keyFromText(BOOL, 'False'), { encoding: word(0n), text: 'false', order: 0n });
  assert.deepEqual(keyFromText(BOOL, ' true '), { encoding: word(1n), text: 'true', order: 1n });
  assert.equal(keyFromText(BOOL, 'yes'), undefined);
  assert.equal(keyFromText(BOOL, 'truey'), undefined);
  assert.equal(keyFromText(BOOL, 'untrue'), undefined);
  assert.equal(keyFromText(BYTES4, 'zz0x12'), undefined, '0x first');
  assert.equal(keyFromText(BYTES4, '0xdeadbeef')?.text, '0xdeadbeef');
  assert.equal(keyFromText(BYTES4, '0x')?.text, '0x00000000', 'no bytes: all zero');
  assert.equal(keyFromText(BYTES4, '0xdeadbeef00'), undefined, 'longer than four bytes');
  assert.equal(keyFromText(BYTES4, '0xabc'), undefined, 'half a byte');
  assert.equal(keyFromText(BYTES4, '0xzz'), undefined);
  assert.equal(keyFromText(BYTES4, 'dead'), undefined, 'without 0x');
  assert.deepEqual(keyFromWord(BYTES4, 0xdeadbeefn << 224n), { encoding: word(0xdeadbeefn << 224n), text: '0xdeadbeef', order: 0xdeadbeefn << 224n });
});

test('string and bytes keys: a word’s bytes up to its trailing zeros; the text as typed, bytes as even hex', () => {
  const hello = BigInt(hexlify(toUtf8Bytes('hello')).padEnd(66, '0'));
  assert.deepEqual(keyFromWord(STRING, hello), { encoding: hexlify(toUtf8Bytes('hello')), text: 'hello', order: hello });
  assert.deepEqual(keyFromWord(BYTES, hello), { encoding: '0x68656c6c6f', text: '0x68656c6c6f', order: hello });
  assert.equal(keyFromWord(BYTES, 0n), undefined, 'no bytes');
  assert.equal(keyFromWord(STRING, 0xffn << 248n), undefined, 'no UTF-8');
  assert.equal(keyFromWord(STRING, 0x7fn << 248n), undefined, 'DEL is a control character');
  assert.deepEqual(keyFromWord(STRING, 0x20n << 248n), { encoding: '0x20', text: ' ', order: 0x20n << 248n }, 'a space is text');
  assert.deepEqual(keyFromText(STRING, ' a b '), { encoding: hexlify(toUtf8Bytes(' a b ')), text: ' a b ', order: -1n }, 'the text as typed, spaces kept');
  assert.deepEqual(keyFromText(BYTES, ' 0xABcd '), { encoding: '0xabcd', text: '0xabcd', order: -1n });
  assert.deepEqual(keyFromText(BYTES, '0x'), { encoding: '0x', text: '0x', order: -1n });
  assert.equal(keyFromText(BYTES, '0xabc'), undefined);
  assert.equal(keyFromText(BYTES, 'abcd'), undefined);
  assert.equal(keyFromText(BYTES, '0xabcg'), undefined);
  assert.equal(keyFromText(BYTES, 'x0x12'), undefined, '0x first');
});

test('an address key from text: 0x and 40 hex digits, a mixed case one only with its checksum', () => {
  const a = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  assert.equal(keyFromText(ADDRESS, a)?.text, a);
  assert.equal(keyFromText(ADDRESS, a.slice(2)), undefined, 'without 0x');
  assert.equal(keyFromText(ADDRESS, `${a}00`), undefined, 'too long');
});

test('keysFor: each key once (a log word and a text of the same key), texts in text order, values in number order', () => {
  assert.deepEqual(
    keysFor(UINT8, [5n, 300n, 2n, 5n], ['0x05', '7', 'x', '1']).map((k) => k.text),
    ['1', '2', '5', '7'],
  );
  const b = BigInt(hexlify(toUtf8Bytes('b')).padEnd(66, '0'));
  const a = BigInt(hexlify(toUtf8Bytes('a')).padEnd(66, '0'));
  assert.deepEqual(
    keysFor(STRING, [b, a], ['c', 'a', 'B']).map((k) => k.text),
    ['B', 'a', 'b', 'c'],
  );
  assert.deepEqual(
    keysFor(BYTES, [], ['0x02', '0x01', '0x02']).map((k) => k.text),
    ['0x01', '0x02'],
  );
  assert.deepEqual(
    keysFor(INT8, [(1n << 256n) - 1n, 3n], ['-5']).map((k) => k.text),
    ['-5', '-1', '3'],
    'signed keys by value',
  );
});

test('log words: topics and whole data words; a short topic is padded, anything else skipped; a partial data word left out', () => {
  const words = logWords([
    { topics: ['0x01', 'nothex', `0x${'1'.repeat(65)}`, 7, 'zz0x09', ['0x05']], data: `0x${'00'.repeat(31)}02ff` },
    { topics: 'x', data: 5 },
    null,
    'a log',
    { data: `0x${'0'.repeat(63)}3` },
    { data: `zz0x${'0'.repeat(63)}4` },
    { data: `0x${'0'.repeat(63)}6zz` },
    { data: 'g'.repeat(66) },
  ]);
  assert.deepEqual([...words], [1n, 2n, 3n]);
});

describe('candidate keys per key type', () => {
  test('log words: every topic and every whole data word, once', () => {
    const words = logWords([
      { topics: [word(1n), word(2n)], data: `0x${word(3n).slice(2)}${word(2n).slice(2)}ab` },
      { topics: [word(1n)], data: '0x' },
    ]);
    assert.deepEqual([...words], [1n, 2n, 3n]);
  });

  test('a word fits a key type or not', () => {
    assert.equal(keyFromWord(TYPES.t_address, 1n << 160n), undefined, 'upper bytes set');
    assert.equal(keyFromWord(TYPES.t_uint8, 256n), undefined);
    assert.equal(keyFromWord(TYPES.t_uint8, 255n)?.text, '255');
    assert.equal(keyFromWord(TYPES.t_int8, (1n << 256n) - 128n)?.text, '-128');
    assert.equal(keyFromWord(TYPES.t_int8, (1n << 256n) - 129n), undefined);
    assert.equal(keyFromWord(TYPES.t_int8, 128n), undefined, 'not sign-extended: no int8');
    assert.equal(keyFromWord(TYPES.t_bool, 2n), undefined);
    assert.equal(keyFromWord(TYPES.t_bytes4, 1n), undefined, 'bytesN is right-padded');
    assert.equal(keyFromWord(TYPES.t_string_memory_ptr, 0n), undefined);
    assert.equal(keyFromWord(TYPES.t_string_memory_ptr, W(`0x01${'0'.repeat(62)}`)), undefined, 'control characters are no text key');
  });

  test('a typed key fits a key type or not; addresses need a valid checksum when mixed-case', () => {
    const a = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    assert.equal(keyFromText(TYPES.t_address, a.toLowerCase())?.text, a);
    assert.equal(keyFromText(TYPES.t_address, a.replace('F', 'f').replace('aa3', 'AA3')), undefined);
    assert.equal(keyFromText(TYPES.t_int8, '-1')?.encoding, word((1n << 256n) - 1n));
    assert.equal(keyFromText(TYPES.t_int8, '-129'), undefined);
    assert.equal(keyFromText(TYPES.t_uint256, '0x10')?.text, '16');
    assert.equal(keyFromText(TYPES.t_bytes4, '0x1234')?.text, '0x12340000');
    assert.equal(keyFromText(TYPES.t_bool, 'TRUE')?.text, 'true');
    assert.equal(keyFromText(TYPES.t_string_memory_ptr, 'alice')?.encoding, '0x616c696365');
  });
});

describe('key combinations of a nested mapping', () => {
  test("log groups: each log's words in order (topics, then data), the first MAX_GROUP_WORDS, each sequence once, at most MAX_KEY_GROUPS", () => {
    const groups = new KeyGroups();
    logWords(
      [
        { topics: [word(9n), word(1n), word(2n)], data: word(3n) },
        { topics: [word(9n), word(1n), word(2n)], data: word(3n) },
        { topics: [], data: '0x' },
        { topics: [word(4n)], data: `0x${Array.from({ length: 20 }, (_, i) => word(BigInt(i)).slice(2)).join('')}` },
      ],
      new Set(),
      groups,
    );
    assert.deepEqual(groups.list.slice(0, 1), [[9n, 1n, 2n, 3n]]);
    assert.equal(groups.list.length, 2, 'the repeat and the empty log add none');
    assert.equal(groups.list[1].length, MAX_GROUP_WORDS);
    const many = new KeyGroups();
    for (let i = 0; i < MAX_KEY_GROUPS + 5; i++) many.add([BigInt(i)]);
    assert.equal(many.list.length, MAX_KEY_GROUPS);
  });

  const texts = (search: Parameters<typeof keyCombinations>[0]) => [...keyCombinations(search)].map((c) => c.map((k) => k.text).join(' '));

  test('pairs one log names come first, in order, then the other way round, then a user key with every candidate, then every pair; each once', () => {
    const A = 0xa1n;
    const B = 0xb2n;
    const C = 0xc3n;
    const U = 0xddn;
    const candidates = keysFor(UINT256, [A, B, C], []);
    const user = keysFor(UINT256, [A, B, C], [String(U)]);
    // One log: Approval(owner = B, spender = C, value = A): the words in order are B, C, A.
    const all = texts({ types: [UINT256, UINT256], candidates: [user, user], groups: [[B, C, A]], userKeys: [String(U)] });
    const t = (...ws: bigint[]) => ws.map(String).join(' ');
    assert.deepEqual(all.slice(0, 6), [t(B, C), t(B, A), t(C, A), t(C, B), t(A, B), t(A, C)], 'the log’s pairs in order, then reversed');
    assert.deepEqual(all.slice(6, 13), [t(U, A), t(U, B), t(U, C), t(U, U), t(A, U), t(B, U), t(C, U)], 'the user’s key at each level with every candidate');
    assert.deepEqual(all.slice(13), [t(A, A), t(B, B), t(C, C)], 'then the pairs not tried yet');
    assert.equal(new Set(all).size, all.length);
    assert.equal(all.length, 16, 'every pair of the four keys, once');
    assert.equal(texts({ types: [UINT256, UINT256], candidates: [candidates, candidates], groups: [], userKeys: [] }).length, 9);
  });

  test("a log's words that do not fit a level's key type make no combination there; three levels take words in order only", () => {
    const sig = (1n << 255n) | 7n; // an event signature: no address
    const owner = 0x11n;
    const spender = 0x22n;
    const combos = texts({ types: [ADDRESS, ADDRESS], candidates: [[], []], groups: [[sig, owner, spender]], userKeys: [] });
    assert.deepEqual(combos, [
      '0x0000000000000000000000000000000000000011 0x0000000000000000000000000000000000000022',
      '0x0000000000000000000000000000000000000022 0x0000000000000000000000000000000000000011',
    ]);
    const three = texts({ types: [UINT8, UINT8, UINT8], candidates: [[], [], []], groups: [[1n, 2n, 3n, 300n]], userKeys: [] });
    assert.deepEqual(three, ['1 2 3'], 'in order; 300 is no uint8');
  });

  test('one level: the user’s keys first, then the candidates', () => {
    const candidates = keysFor(UINT256, [1n, 2n], ['9']);
    assert.deepEqual(texts({ types: [UINT256], candidates: [candidates], groups: [[2n, 1n]], userKeys: ['9'] }), ['9', '1', '2']);
  });
});
