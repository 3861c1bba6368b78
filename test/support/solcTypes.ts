/** A hand-built compiler storage layout's types, for the decoding tests: every value type, strings, bytes, arrays, structs and mappings. */
import type { SolcStorageItem, SolcType } from '../../src/core/storage/layout';

export const T = (label: string, numberOfBytes: number | string, extra: Partial<SolcType> = {}): SolcType => ({ encoding: 'inplace', label, numberOfBytes: String(numberOfBytes), ...extra });
export const item = (label: string, slot: number | string, offset: number, type: string): SolcStorageItem => ({ label, slot: String(slot), offset, type });

export const TYPES: Record<string, SolcType> = {
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
