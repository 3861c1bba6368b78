/**
 * Events, functions and values as a gnd test file writes them, so gnd encodes them back to the
 * same log topics, data and calldata: signatures with `indexed` and names, lowercase hex,
 * integers as decimal strings, tuples as positional arrays; a hashed indexed value is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbiCoder, EventFragment, FunctionFragment, Interface, ParamType } from 'ethers';
import { eventSignature, functionSignature, gndValue, hashedIndexed, unnamedInputs } from '../../../../../src/core/gndtest/capture/abiText';

test('an event is written with its types, indexed keywords and names', () => {
  assert.equal(
    eventSignature(EventFragment.from('event Transfer(address indexed from, address indexed to, uint256 value)')),
    'Transfer(address indexed from, address indexed to, uint256 value)',
  );
  assert.equal(eventSignature(EventFragment.from('event Moved((uint256 a, address b)[] legs, bytes32 indexed tag)')), 'Moved((uint256,address)[] legs, bytes32 indexed tag)');
});

test('a function is written name(inputs)(outputs)', () => {
  assert.equal(functionSignature(FunctionFragment.from('function balanceOf(address who) view returns (uint256)')), 'balanceOf(address)(uint256)');
  assert.equal(functionSignature(FunctionFragment.from('function getReserves() view returns (uint112, uint112, uint32)')), 'getReserves()(uint112,uint112,uint32)');
  assert.equal(functionSignature(FunctionFragment.from('function name() view returns (string)')), 'name()(string)');
});

test('values: addresses and bytes lowercase, integers decimal strings (negatives too), strings as they are, tuples positional', () => {
  const types = ['address', 'uint256', 'int64', 'bool', 'bytes', 'bytes4', 'string', 'uint8[2]', 'tuple(address who, uint256 amount)[]'];
  const values = [
    '0xabcdef0000000000000000000000000000000001',
    2n ** 200n,
    -5n,
    true,
    '0xDEADBEEF',
    '0xCAFEBABE',
    'MiXeD Case',
    [1n, 2n],
    [['0x00000000000000000000000000000000000000ff', 7n]],
  ];
  const decoded = AbiCoder.defaultAbiCoder().decode(types, AbiCoder.defaultAbiCoder().encode(types, values));
  assert.deepEqual(
    types.map((t, i) => gndValue(ParamType.from(t), decoded[i])),
    [
      '0xabcdef0000000000000000000000000000000001',
      (2n ** 200n).toString(),
      '-5',
      true,
      '0xdeadbeef',
      '0xcafebabe',
      'MiXeD Case',
      ['1', '2'],
      [['0x00000000000000000000000000000000000000ff', '7']],
    ],
  );
});

test('indexed strings, bytes, arrays and tuples are named (their logs hold only a hash); unnamed inputs are found', () => {
  const abi = new Interface(['event A(string indexed s, bytes indexed b, uint256[] indexed xs, address indexed who)', 'event B(uint256, uint256 x)', 'event C(uint256 x, uint256 x2)']);
  assert.deepEqual(hashedIndexed(abi.getEvent('A')!), ['s', 'b', 'xs']);
  assert.equal(unnamedInputs(abi.getEvent('B')!), true);
  assert.equal(unnamedInputs(abi.getEvent('C')!), false);
});
