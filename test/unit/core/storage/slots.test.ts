/**
 * Slot arithmetic and word decoding: mapping slots checked against keccak256 of the
 * concatenation built by hand here, published vectors for keccak256(slot), the well-known
 * EIP-1967 constants, and decodeWord on each kind of word the storage table shows.
 */
import { getAddress, keccak256 } from 'ethers';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  arrayElementSlot,
  computeMappingSlot,
  decodeWord,
  dynamicDataSlot,
  EIP1967_ADMIN_SLOT,
  EIP1967_BEACON_SLOT,
  EIP1967_IMPLEMENTATION_SLOT,
  eip1967Slot,
  looksLikeAddress,
  MAPPING_KEY_TYPES,
  mappingKeyBytes,
  mappingSlot,
  nestedMappingSlot,
  sliceWord,
  toSlot,
  typedKeyValue,
  wordAsAddress,
  type MappingKeyType,
} from '../../../../src/core/storage/slots';

const pad = (hexDigits: string) => hexDigits.padStart(64, '0');
const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('mapping slots', () => {
  test('address key: keccak256(left-padded key ‖ slot), computed here by hand', () => {
    const byHand = keccak256(`0x${pad(ALICE.slice(2).toLowerCase())}${pad('3')}`);
    assert.equal(mappingSlot(3, ALICE, 'address'), byHand);
    assert.equal(mappingSlot('0x3', ALICE.toLowerCase(), 'address'), byHand, 'any spelling of slot and address');
  });

  test('keccak256 of 64 zero bytes is the slot of m[0] for a mapping at slot 0 (published vector)', () => {
    assert.equal(mappingSlot(0, 0, 'uint256'), '0xad3228b676f7d3cd4284a5443f17f1962b36e491b30a40b2405849e597ba5fb5');
  });

  test('value-type keys are ABI-encoded: ints sign-extended, bytesN right-padded, bool as 0/1', () => {
    assert.equal(mappingSlot(1, -1, 'int256'), keccak256(`0x${'f'.repeat(64)}${pad('1')}`));
    assert.equal(mappingSlot(1, -2, 'int8'), keccak256(`0x${'f'.repeat(63)}e${pad('1')}`));
    assert.equal(mappingSlot(1, 255n, 'uint8'), keccak256(`0x${pad('ff')}${pad('1')}`));
    assert.equal(mappingSlot(2, '0x12345678', 'bytes4'), keccak256(`0x12345678${'0'.repeat(56)}${pad('2')}`));
    const b32 = `0x${'ab'.repeat(32)}`;
    assert.equal(mappingSlot(2, b32, 'bytes32'), keccak256(`${b32}${pad('2')}`));
    assert.equal(mappingSlot(4, true, 'bool'), keccak256(`0x${pad('1')}${pad('4')}`));
    assert.equal(mappingSlot(4, false, 'bool'), keccak256(`0x${pad('0')}${pad('4')}`));
  });

  test('string and bytes keys are hashed raw, not padded', () => {
    // "abc" = 0x616263
    assert.equal(mappingSlot(5, 'abc', 'string'), keccak256(`0x616263${pad('5')}`));
    assert.equal(mappingSlot(5, '0x616263', 'bytes'), keccak256(`0x616263${pad('5')}`));
    assert.equal(mappingSlot(5, '', 'string'), keccak256(`0x${pad('5')}`));
  });

  test('nested mappings apply the keys in order', () => {
    const inner = mappingSlot(7, ALICE, 'address');
    const expected = keccak256(`0x${pad('2a')}${inner.slice(2)}`);
    assert.equal(
      nestedMappingSlot(7, [
        { key: ALICE, type: 'address' },
        { key: 42, type: 'uint256' },
      ]),
      expected,
    );
    assert.equal(nestedMappingSlot(7, []), `0x${pad('7')}`);
  });

  test('bad keys and key types are refused', () => {
    assert.throws(() => mappingSlot(0, 1, 'uint7' as 'uint8'), /Unsupported mapping key type 'uint7'/);
    assert.throws(() => mappingSlot(0, '0x1234', 'address'), /invalid address/);
    assert.throws(() => mappingSlot(-1, 1, 'uint256'), /between 0 and 2\^256/);
    assert.throws(() => toSlot('12ab'), /Not a slot/);
  });
});

describe('typed mapping keys (the slot tools take keys as text)', () => {
  test('a bool key is read from true/1 and false/0; other types pass the text through', () => {
    assert.equal(typedKeyValue(' TRUE ', 'bool'), true);
    assert.equal(typedKeyValue('1', 'bool'), true);
    assert.equal(typedKeyValue('false', 'bool'), false);
    assert.equal(typedKeyValue('0', 'bool'), false);
    assert.throws(() => typedKeyValue('yes', 'bool'), /A bool key is true or false\./);
    assert.equal(typedKeyValue(' 42 ', 'uint256'), ' 42 ');
  });

  test('the slot of typed keys in turn is the nested mapping slot of their values', () => {
    assert.equal(
      computeMappingSlot('0x7', [
        { key: ALICE, type: 'address' },
        { key: '42', type: 'uint256' },
      ]),
      nestedMappingSlot(7, [
        { key: ALICE, type: 'address' },
        { key: 42n, type: 'uint256' },
      ]),
    );
    assert.equal(computeMappingSlot(4, [{ key: 'true', type: 'bool' }]), mappingSlot(4, true, 'bool'));
    assert.equal(computeMappingSlot(3, []), nestedMappingSlot(3, []));
  });

  test('the key types offered: address first, each once, every one computes a slot', () => {
    const types = MAPPING_KEY_TYPES.map((t) => t.type);
    assert.equal(types[0], 'address');
    assert.equal(new Set(types).size, types.length);
    for (const type of types)
      assert.doesNotThrow(
        () =>
          computeMappingSlot(0, [
            {
              key:
                type === 'bool'
                  ? 'true'
                  : type === 'address'
                    ? ALICE
                    : type.startsWith('bytes') && type !== 'bytes'
                      ? `0x${'00'.repeat(Number(type.slice(5)))}`
                      : type === 'string'
                        ? 'a'
                        : type === 'bytes'
                          ? '0x01'
                          : '1',
              type,
            },
          ]),
        type,
      );
  });
});

describe('dynamic arrays', () => {
  test('data starts at keccak256(slot): published vectors for slots 0 and 5', () => {
    assert.equal(dynamicDataSlot(0), '0x290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563');
    assert.equal(dynamicDataSlot(5), '0x036b6384b5eca791c62761152d0c79bb0604c104a5fb6f4eb0703f3154bb3db0');
  });

  test('element i at keccak256(slot) + i × slots per element, wrapping at 2^256', () => {
    const base = BigInt(dynamicDataSlot(5));
    assert.equal(arrayElementSlot(5, 0), dynamicDataSlot(5));
    assert.equal(BigInt(arrayElementSlot(5, 3)), base + 3n);
    assert.equal(BigInt(arrayElementSlot(5, 3, 2)), base + 6n);
    const huge = (1n << 256n) - base; // index that wraps exactly to 0
    assert.equal(arrayElementSlot(5, huge), `0x${pad('0')}`);
    assert.throws(() => arrayElementSlot(5, 1, 0), /elementSlots must be a positive integer/);
  });
});

describe('EIP-1967 slots', () => {
  test('computed as keccak256(label) − 1, equal to the well-known values', () => {
    assert.equal(EIP1967_IMPLEMENTATION_SLOT, '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc');
    assert.equal(EIP1967_ADMIN_SLOT, '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103');
    assert.equal(EIP1967_BEACON_SLOT, '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50');
    assert.equal(eip1967Slot('eip1967.proxy.implementation'), EIP1967_IMPLEMENTATION_SLOT);
  });
});

describe('decodeWord', () => {
  test('a small integer: hex and decimal, no address reading', () => {
    const d = decodeWord(`0x${pad('2a')}`);
    assert.equal(d.hex, `0x${pad('2a')}`);
    assert.equal(d.decimal, '42');
    assert.equal(d.address, undefined, '42 is a number, not the address 0x…002A');
    assert.equal(d.text, undefined, '0x2a is "*" but behind zeros: not text');
    // A balance of 1000 ether in wei, a timestamp, 2^96 − 1: integers all.
    for (const n of [10n ** 21n, 1_700_000_000n, (1n << 96n) - 1n]) assert.equal(decodeWord(`0x${n.toString(16)}`).address, undefined, `${n}`);
  });

  test('the address rule: from 2^96 up to 2^160 − 1, vanity addresses with zero leading bytes included', () => {
    assert.equal(decodeWord(`0x${(1n << 96n).toString(16)}`).address, '0x0000000000000001000000000000000000000000');
    assert.equal(decodeWord('0x00000000219ab540356cbb839cbe05303d7705fa').address, '0x00000000219ab540356cBB839Cbe05303d7705Fa');
    assert.equal(decodeWord(`0x${'f'.repeat(40)}`).address, getAddress(`0x${'f'.repeat(40)}`));
    assert.equal(decodeWord(`0x1${'0'.repeat(40)}`).address, undefined, '2^160 has a 21st byte');
    assert.ok(looksLikeAddress(BigInt(ALICE)) && !looksLikeAddress(1n) && !looksLikeAddress(0n));
  });

  test('a slot known to hold an address (EIP-1967) reads any non-zero 20-byte word as one', () => {
    assert.equal(wordAsAddress(`0x${pad('c0ffee')}`), getAddress('0x0000000000000000000000000000000000c0ffee'));
    assert.equal(wordAsAddress(`0x${pad(ALICE.slice(2))}`), ALICE);
    assert.equal(wordAsAddress(`0x${pad('0')}`), undefined);
    assert.equal(wordAsAddress('0x'), undefined);
    assert.equal(wordAsAddress(`0x1${'0'.repeat(40)}`), undefined, 'more than 20 bytes');
    assert.equal(wordAsAddress('0xzz'), undefined);
  });

  test('an address is checksummed', () => {
    const d = decodeWord(`0x${pad(ALICE.slice(2).toLowerCase())}`);
    assert.equal(d.address, ALICE);
    assert.equal(d.decimal, BigInt(ALICE).toString());
  });

  test('zero: decimal 0, no address, no text; short answers are padded ("0x" is zero)', () => {
    for (const z of ['0x', '0x0', `0x${pad('0')}`]) assert.deepEqual(decodeWord(z), { hex: `0x${pad('0')}`, decimal: '0' });
  });

  test('Solidity short string: data left-aligned, last byte 2 × length', () => {
    // "hello" = 68656c6c6f, length 5 → last byte 0x0a
    const d = decodeWord(`0x68656c6c6f${'0'.repeat(52)}0a`);
    assert.equal(d.text, 'hello');
    assert.equal(d.address, undefined, 'upper bytes are not zero');
  });

  test('plain ASCII bytes32 (right-padded with zeros)', () => {
    assert.equal(decodeWord(`0x${Buffer.from('Chaindeck').toString('hex').padEnd(64, '0')}`).text, 'Chaindeck');
    assert.equal(decodeWord(`0x${Buffer.from('x'.repeat(32)).toString('hex')}`).text, 'x'.repeat(32));
  });

  test('binary data has no text', () => {
    assert.equal(decodeWord(`0x${'ff'.repeat(32)}`).text, undefined);
    assert.equal(decodeWord(`0x${'ff'.repeat(32)}`).decimal, ((1n << 256n) - 1n).toString());
    assert.equal(decodeWord(`0x${'ff'.repeat(32)}`).address, undefined);
  });

  test('not a word: refused', () => {
    assert.throws(() => decodeWord('42'), /Not a storage word/);
    assert.throws(() => decodeWord(`0x${'0'.repeat(66)}`), /Not a storage word/);
  });

  test('sliceWord picks a packed field by offset from the right', () => {
    // owner (20 bytes, offset 0) and paused (1 byte, offset 20) share one slot
    const slot = `0x${'0'.repeat(22)}01${ALICE.slice(2).toLowerCase()}`;
    assert.equal(sliceWord(slot, 0, 20), ALICE.toLowerCase());
    assert.equal(sliceWord(slot, 20, 1), '0x01');
    assert.throws(() => sliceWord(slot, 30, 4), /within 32 bytes/);
  });
});

describe('edges of the slot and word rules', () => {
  const hexOf = (text: string) => Buffer.from(text, 'latin1').toString('hex');

  test('toSlot: trimmed hex or decimal strings, safe integers, bigints within 0 … 2^256 − 1', () => {
    assert.equal(toSlot(' 0x10 '), 16n);
    assert.equal(toSlot('12'), 12n);
    assert.equal(toSlot(5), 5n);
    assert.equal(toSlot((1n << 256n) - 1n), (1n << 256n) - 1n);
    assert.equal(toSlot(`0x${'f'.repeat(64)}`), (1n << 256n) - 1n);
    assert.throws(() => toSlot(2 ** 53), { name: 'RangeError', message: 'Not a slot number: 9007199254740992' });
    assert.throws(() => toSlot(1.5), { name: 'RangeError', message: 'Not a slot number: 1.5' });
    for (const bad of ['12x', 'x12', 'ab', '', '0x', '-1']) {
      assert.throws(() => toSlot(bad), { name: 'RangeError', message: `Not a slot (hex with 0x, or decimal): '${bad}'` }, bad);
    }
    assert.throws(() => toSlot(1n << 256n), { name: 'RangeError', message: `A slot is between 0 and 2^256 − 1: ${1n << 256n}` });
    assert.throws(() => toSlot(-1n), { name: 'RangeError', message: 'A slot is between 0 and 2^256 − 1: -1' });
    assert.throws(() => toSlot(`0x1${'0'.repeat(64)}`), /A slot is between 0 and 2\^256 − 1/);
  });

  test('mapping key types: the exact names Solidity has; uint and int mean 256 bits', () => {
    assert.equal(mappingSlot(0, 5, 'uint'), mappingSlot(0, 5, 'uint256'));
    assert.equal(mappingSlot(0, -1, 'int'), mappingSlot(0, -1, 'int256'));
    assert.equal(mappingSlot(0, -1, 'int'), keccak256(`0x${'f'.repeat(64)}${pad('0')}`));
    for (const bad of ['uint7', 'xaddress', 'address2', 'bytes33', 'bytes0', 'uint257', 'int264']) {
      assert.throws(
        () => mappingSlot(0, 1, bad as 'address'),
        { name: 'TypeError', message: `Unsupported mapping key type '${bad}': use address, bool, uintN, intN, bytesN, string or bytes` },
        bad,
      );
    }
    assert.throws(() => mappingSlot(0, 7, 'string'), { name: 'TypeError', message: 'A string key must be a string, not number' });
  });

  test('short strings: the length byte must be even, at most 62, with zeros between the text and it', () => {
    const word31 = `0x${hexOf('a'.repeat(31))}3e`; // 62 = 2 × 31, and 0x3e is '>'
    assert.deepEqual(decodeWord(word31), { hex: word31, decimal: BigInt(word31).toString(), text: 'a'.repeat(31) });
    const odd = `0x${hexOf('ab')}${'0'.repeat(58)}05`;
    assert.equal(decodeWord(odd).text, undefined, 'an odd last byte is no short string, and 0x05 is not printable');
    const dirty = `0x${hexOf('ab')}000000${hexOf('c')}${'0'.repeat(50)}04`;
    assert.equal(decodeWord(dirty).text, undefined, 'a byte after the text breaks the short-string rule');
    const oneChar = `0x${hexOf('a')}${'0'.repeat(60)}02`;
    assert.deepEqual(decodeWord(oneChar), { hex: oneChar, decimal: BigInt(oneChar).toString(), text: 'a' });
    const unprintable = `0x01${'0'.repeat(60)}02`;
    assert.deepEqual(decodeWord(unprintable), { hex: unprintable, decimal: BigInt(unprintable).toString() });
    const tooLong = `0x${hexOf('a'.repeat(31))}40`; // 0x40 = 2 × 32: no short string; '@' makes it plain text
    assert.equal(decodeWord(tooLong).text, `${'a'.repeat(31)}@`);
  });

  test('plain text: printable bytes up to the last non-zero one; an inner zero or control byte is no text', () => {
    assert.equal(decodeWord(`0x${hexOf('a\x00b').padEnd(64, '0')}`).text, undefined);
    assert.equal(decodeWord(`0x${hexOf('tab\there').padEnd(64, '0')}`).text, undefined);
    assert.equal(decodeWord(`0x${hexOf('~ ok').padEnd(64, '0')}`).text, '~ ok');
    assert.equal(decodeWord(`0x${hexOf('\x7f').padEnd(64, '0')}`).text, undefined);
    assert.equal(decodeWord('0x20').text, undefined, 'a space behind 31 zero bytes is a number');
  });

  test('words and addresses: anchored hex only', () => {
    for (const bad of ['zz0x12', '0x12zz', `0x${'0'.repeat(65)}`, '0X12']) {
      assert.throws(() => decodeWord(bad), { name: 'TypeError', message: `Not a storage word (0x and up to 64 hex digits): '${bad}'` }, bad);
      assert.equal(wordAsAddress(bad), undefined, bad);
    }
    assert.equal(wordAsAddress('0x1'), '0x0000000000000000000000000000000000000001');
    assert.equal(wordAsAddress(`0x${'f'.repeat(40)}`), getAddress(`0x${'f'.repeat(40)}`));
  });

  test('sliceWord: whole bytes within the word, exact messages otherwise', () => {
    const w = `0x${'11'.repeat(31)}22`;
    assert.equal(sliceWord(w, 0, 32), w);
    assert.equal(sliceWord(w, 0, 1), '0x22');
    assert.equal(sliceWord(w, 31, 1), '0x11');
    assert.equal(sliceWord('0x5', 0, 2), '0x0005');
    for (const [offset, bytes] of [
      [1.5, 1],
      [0, 1.5],
      [-1, 1],
      [0, 0],
      [31, 2],
      [32, 1],
    ]) {
      assert.throws(() => sliceWord(w, offset, bytes), { name: 'RangeError', message: `A packed field lies within 32 bytes: offset ${offset}, ${bytes} bytes` }, `${offset}/${bytes}`);
    }
  });
});

test('bytes10 to bytes29 are mapping key types; bytes1x is not', () => {
  const key = `0x${'ab'.repeat(16)}`;
  assert.equal(Buffer.from(mappingKeyBytes(key, 'bytes16')).toString('hex'), `${'ab'.repeat(16)}${'00'.repeat(16)}`);
  assert.throws(() => mappingKeyBytes(key, 'bytes1x' as MappingKeyType), {
    message: "Unsupported mapping key type 'bytes1x': use address, bool, uintN, intN, bytesN, string or bytes",
  });
});
