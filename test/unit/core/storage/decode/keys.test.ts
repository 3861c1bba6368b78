/** Candidate mapping keys per key type: from a word of a log or a trace, and from text the user types. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyFromText, keyFromWord, logWords } from '../../../../../src/core/storage/decode/keys';
import { TYPES } from '../../../../support/solcTypes';

const W = (hex: string) => BigInt(hex.startsWith('0x') ? hex : `0x${hex}`);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

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
