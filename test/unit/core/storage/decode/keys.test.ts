/** Candidate mapping keys per key type: from a word of a log or a trace, and from text the user types. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyFromText, keyFromWord, logWords } from '../../../../../src/core/storage/decode/keys';
import type { SolcStorageItem, SolcType } from '../../../../../src/core/storage/layout';

const T = (label: string, numberOfBytes: number | string, extra: Partial<SolcType> = {}): SolcType => ({ encoding: 'inplace', label, numberOfBytes: String(numberOfBytes), ...extra });
const item = (label: string, slot: number | string, offset: number, type: string): SolcStorageItem => ({ label, slot: String(slot), offset, type });
const W = (hex: string) => BigInt(hex.startsWith('0x') ? hex : `0x${hex}`);
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

const TYPES: Record<string, SolcType> = {
  t_uint8: T('uint8', 1),
  t_uint16: T('uint16', 2),
  t_uint32: T('uint32', 4),
  t_uint64: T('uint64', 8),
  t_uint128: T('uint128', 16),
  t_uint256: T('uint256', 32),
  t_int8: T('int8', 1),
  t_int64: T('int64', 8),
  t_int256: T('int256', 32),
  t_bool: T('bool', 1),
  t_address: T('address', 20),
  't_contract(IFoo)7': T('contract IFoo', 20),
  't_enum(Kind)12': T('enum Demo.Kind', 1),
  t_bytes3: T('bytes3', 3),
  t_bytes4: T('bytes4', 4),
  t_uint24: T('uint24', 3),
  't_array(t_address)dyn_storage': { encoding: 'dynamic_array', label: 'address[]', numberOfBytes: '32', base: 't_address' },
  't_array(t_uint24)12_storage': T('uint24[12]', 64, { base: 't_uint24' }),
  't_array(t_bytes3)dyn_storage': { encoding: 'dynamic_array', label: 'bytes3[]', numberOfBytes: '32', base: 't_bytes3' },
  t_bytes32: T('bytes32', 32),
  't_userDefinedValueType(Price)3': T('Price', 12),
  t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  t_bytes_storage: { encoding: 'bytes', label: 'bytes', numberOfBytes: '32' },
  t_string_memory_ptr: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  't_array(t_uint8)5_storage': T('uint8[5]', 32, { base: 't_uint8' }),
  't_array(t_uint32)dyn_storage': { encoding: 'dynamic_array', label: 'uint32[]', numberOfBytes: '32', base: 't_uint32' },
  't_array(t_uint128)dyn_storage': { encoding: 'dynamic_array', label: 'uint128[]', numberOfBytes: '32', base: 't_uint128' },
  't_array(t_struct(Pos)21_storage)dyn_storage': { encoding: 'dynamic_array', label: 'struct Demo.Pos[]', numberOfBytes: '32', base: 't_struct(Pos)21_storage' },
  't_struct(Pos)21_storage': T('struct Demo.Pos', 64, {
    members: [item('amount', 0, 0, 't_uint128'), item('since', 0, 16, 't_uint64'), item('open', 0, 24, 't_bool'), item('who', 1, 0, 't_address')],
  }),
  't_mapping(t_address,t_uint256)': { encoding: 'mapping', label: 'mapping(address => uint256)', numberOfBytes: '32', key: 't_address', value: 't_uint256' },
  't_mapping(t_address,t_mapping(t_address,t_uint256))': {
    encoding: 'mapping',
    label: 'mapping(address => mapping(address => uint256))',
    numberOfBytes: '32',
    key: 't_address',
    value: 't_mapping(t_address,t_uint256)',
  },
  't_mapping(t_int8,t_bool)': { encoding: 'mapping', label: 'mapping(int8 => bool)', numberOfBytes: '32', key: 't_int8', value: 't_bool' },
  't_mapping(t_bytes4,t_uint256)': { encoding: 'mapping', label: 'mapping(bytes4 => uint256)', numberOfBytes: '32', key: 't_bytes4', value: 't_uint256' },
  't_mapping(t_string_memory_ptr,t_uint256)': { encoding: 'mapping', label: 'mapping(string => uint256)', numberOfBytes: '32', key: 't_string_memory_ptr', value: 't_uint256' },
};

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
