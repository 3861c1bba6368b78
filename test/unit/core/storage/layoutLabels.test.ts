/**
 * Slot labels from a storage layout, on a hand-built layout whose every slot has one right answer
 * (members listed out of order, packed and multi-slot structs, static arrays of small and large
 * elements, dynamic arrays inside a static array of structs, long strings, the edges of a dynamic
 * region), and matching deployed code against an artifact (metadata tail, immutables, libraries).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keccak256 } from 'ethers';
import { codeMatches, layoutsForAddress, matchLayouts, stripMetadata } from '../../../../src/core/storage/deployedCode';
import type { ContractLayout, LayoutVariable, SolcType } from '../../../../src/core/storage/layout';
import { labelSlots, slotLabeller } from '../../../../src/core/storage/slotLabels';

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const dataOf = (slot: bigint) => BigInt(keccak256(word(slot)));

const types: Record<string, SolcType> = {
  t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' },
  t_uint128: { encoding: 'inplace', label: 'uint128', numberOfBytes: '16' },
  t_uint8: { encoding: 'inplace', label: 'uint8', numberOfBytes: '1' },
  't_struct(S)': {
    encoding: 'inplace',
    label: 'struct S',
    numberOfBytes: '64',
    // Out of order on purpose: labels follow slot, then offset.
    members: [
      { label: 'b', slot: '1', offset: 0, type: 't_uint256' },
      { label: 'a', slot: '0', offset: 16, type: 't_uint128' },
      { label: 'z', slot: '0', offset: 0, type: 't_uint128' },
    ],
  },
  't_array(t_struct(S))2_storage': { encoding: 'inplace', label: 'struct S[2]', numberOfBytes: '128', base: 't_struct(S)' },
  't_array(t_uint8)40_storage': { encoding: 'inplace', label: 'uint8[40]', numberOfBytes: '64', base: 't_uint8' },
  't_array(t_uint256)dyn_storage': { encoding: 'dynamic_array', label: 'uint256[]', numberOfBytes: '32', base: 't_uint256' },
  't_array(t_uint8)dyn_storage': { encoding: 'dynamic_array', label: 'uint8[]', numberOfBytes: '32', base: 't_uint8' },
  t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  't_mapping(t_address,t_uint256)': { encoding: 'mapping', label: 'mapping(address => uint256)', numberOfBytes: '32', key: 't_address', value: 't_uint256' },
  't_struct(T)': { encoding: 'inplace', label: 'struct T', numberOfBytes: '32', members: [{ label: 'items', slot: '0', offset: 0, type: 't_array(t_uint256)dyn_storage' }] },
  't_array(t_struct(T))2_storage': { encoding: 'inplace', label: 'struct T[2]', numberOfBytes: '64', base: 't_struct(T)' },
};

const variable = (label: string, slot: number, typeId: string, offset = 0): LayoutVariable => ({
  label,
  slot: String(slot),
  offset,
  type: types[typeId]?.label ?? typeId,
  typeId,
  numberOfBytes: Number(types[typeId]?.numberOfBytes ?? 32),
});

const layout = {
  types,
  storage: [
    variable('x', 0, 't_uint256'),
    variable('s', 1, 't_struct(S)'),
    variable('arr', 3, 't_array(t_struct(S))2_storage'),
    variable('small', 7, 't_array(t_uint8)40_storage'),
    variable('dyn', 9, 't_array(t_uint256)dyn_storage'),
    variable('str', 10, 't_string_storage'),
    variable('m', 11, 't_mapping(t_address,t_uint256)'),
    variable('tarr', 12, 't_array(t_struct(T))2_storage'),
    variable('bytes8', 14, 't_array(t_uint8)dyn_storage'),
    variable('unknownType', 15, 't_nowhere'),
  ],
};

describe('slot labels', () => {
  const label = slotLabeller(layout);

  test('plain slots: each has exactly its variable, member or element', () => {
    const expected: [bigint, string | undefined][] = [
      [0n, 'x'],
      [1n, 's.z, s.a'],
      [2n, 's.b'],
      [3n, 'arr[0].z, arr[0].a'],
      [4n, 'arr[0].b'],
      [5n, 'arr[1].z, arr[1].a'],
      [6n, 'arr[1].b'],
      [7n, 'small[0..31]'],
      [8n, 'small[32..39]'],
      [9n, 'dyn.length'],
      [10n, 'str'],
      [11n, 'm'],
      [12n, 'tarr[0].items.length'],
      [13n, 'tarr[1].items.length'],
      [14n, 'bytes8.length'],
      [15n, 'unknownType'],
      [16n, undefined],
    ];
    for (const [slot, name] of expected) assert.equal(label(slot), name, `slot ${slot}`);
  });

  test('dynamic data: elements above keccak256(slot), small ones packed, inside a static array of structs too', () => {
    assert.equal(label(dataOf(9n)), 'dyn[0]');
    assert.equal(label(dataOf(9n) + 5n), 'dyn[5]');
    assert.equal(label(dataOf(10n) + 2n), 'str (data 2)');
    assert.equal(label(dataOf(12n) + 1n), 'tarr[0].items[1]');
    assert.equal(label(dataOf(13n)), 'tarr[1].items[0]');
    assert.equal(label(dataOf(14n) + 1n), 'bytes8[32..63]');
    // The region ends 2^48 slots above its base, and nothing lies below the base.
    assert.equal(label(dataOf(9n) + (1n << 48n) - 1n), `dyn[${(1n << 48n) - 1n}]`);
    assert.equal(label(dataOf(9n) + (1n << 48n)), undefined);
    assert.equal(label(dataOf(9n) - 1n), undefined);
    assert.equal(label(dataOf(11n)), undefined, 'a mapping has no data region at keccak256(slot)');
  });

  test('labelSlots keys labelled slots by minimal hex and leaves the rest out; slots may be given as numbers, hex or bigint', () => {
    const labels = labelSlots(layout, [0n, 2, '0x9', 16n, dataOf(9n) + 1n]);
    assert.deepEqual(
      [...labels],
      [
        ['0x0', 'x'],
        ['0x2', 's.b'],
        ['0x9', 'dyn.length'],
        [`0x${(dataOf(9n) + 1n).toString(16)}`, 'dyn[1]'],
      ],
    );
  });
});

describe('matching deployed code', () => {
  // A CBOR metadata map: a2 (map of 2) … then its length in the last two bytes.
  const cbor = (hash: string) => `a264697066735822${hash}64736f6c63430008140033`;
  const body = '6080604052348015600f57600080fd5b50';
  const meta1 = cbor('11'.repeat(34));
  const meta2 = cbor('22'.repeat(34));

  test('stripMetadata removes a CBOR tail and keeps code that has none', () => {
    assert.equal(stripMetadata(`0x${body}${meta1}`), body);
    assert.equal(stripMetadata(`0X${body.toUpperCase()}${meta1}`), body);
    assert.equal(stripMetadata(body), body, 'no tail: the last two bytes are not a length that fits');
    assert.equal(stripMetadata('0x00'), '00');
    assert.equal(stripMetadata(`${body}0000`), `${body}0000`, 'length 0 is no tail');
    const notMap = `${body}${meta1.replace(/^a2/, '80')}`;
    assert.equal(stripMetadata(notMap), notMap, 'a tail that does not start with a CBOR map is kept');
    assert.equal(stripMetadata(`${body}${meta1.replace(/^a2/, 'b7')}`), body, 'b7 is still a map');
    assert.equal(stripMetadata(`${body}${meta1.replace(/^a2/, 'a1')}`), body, 'a1 is still a map');
    assert.equal(stripMetadata(`${body}${meta1.replace(/^a2/, 'b8')}`), `${body}${meta1.replace(/^a2/, 'b8')}`, 'b8 is not');
  });

  const artifact = (deployedBytecode: string | undefined, variableRanges: ContractLayout['variableRanges'] = []) => ({ deployedBytecode, variableRanges });

  test('same code with another metadata hash, immutables and library addresses filled in: a match', () => {
    const immutable = '7f' + '00'.repeat(32);
    const filled = '7f' + 'ab'.repeat(32);
    const placeholder = `73__$${'0123456789abcdef0123456789abcdef01'}$__`;
    const linked = `73${'cd'.repeat(20)}`;
    const art = artifact(`0x${body}${immutable}${placeholder}${meta1}`, [
      { start: body.length / 2 + 1, length: 32 },
      { start: body.length / 2 + 34, length: 20 },
    ]);
    assert.equal(codeMatches(`0x${body}${filled}${linked}${meta2}`, art), true);
    assert.equal(codeMatches(`0x${body}${filled}${linked.replace(/cd$/, 'ce')}${meta2}`, art), true, 'any library address');
    assert.equal(codeMatches(`0x${body.replace(/^60/, '61')}${filled}${linked}${meta2}`, art), false, 'one byte of code differs');
    assert.equal(codeMatches(`0x${body}${filled}${meta2}`, art), false, 'a part missing');
    // Without its link range, a placeholder still matches zeros, not an address.
    const unlinked = artifact(`0x${body}${placeholder}${meta1}`);
    assert.equal(codeMatches(`0x${body}73${'00'.repeat(20)}${meta2}`, unlinked), true);
    assert.equal(codeMatches(`0x${body}${linked}${meta2}`, unlinked), false);
  });

  test('no deployed code, or empty code, never matches', () => {
    assert.equal(codeMatches(`0x${body}`, artifact(undefined)), false);
    assert.equal(codeMatches('0x', artifact('0x')), false);
    assert.equal(codeMatches('0x', artifact(`0x${meta1}`)), false, 'only a metadata tail is empty code');
  });

  test('matchLayouts keeps the matching ones; layoutsForAddress asks eth_getCode for the address and block', async () => {
    const a = { name: 'A', ...artifact(`0x${body}${meta1}`) };
    const b = { name: 'B', ...artifact(`0x${body}00${meta1}`) };
    assert.deepEqual(
      matchLayouts([a, b], `0x${body}${meta2}`).map((l) => l.name),
      ['A'],
    );
    const asked: unknown[] = [];
    const rpc = {
      call: async <T>(method: string, params?: unknown) => {
        asked.push([method, params]);
        return `0x${body}00${meta2}` as T;
      },
    };
    assert.deepEqual(
      (await layoutsForAddress(rpc, '0xabc', [a, b], '0x10')).map((l) => l.name),
      ['B'],
    );
    assert.deepEqual(asked, [['eth_getCode', ['0xabc', '0x10']]]);
    await layoutsForAddress(rpc, '0xabc', [a]);
    assert.deepEqual(asked[1], ['eth_getCode', ['0xabc', 'latest']]);
    const silent = { call: async <T>() => null as T };
    assert.deepEqual(await layoutsForAddress(silent, '0xabc', [a]), []);
  });
});
