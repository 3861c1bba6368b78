/**
 * The Contract Storage view's pure parts: the tree model of a decoded reading (items, paths,
 * paging, diff marks, the changed-only filter), values shown inert and bounded, mapping keys
 * checked by key type, the slots a decode names for the raw table, and Solidity contract
 * declarations for the CodeLens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DecodedNode } from '../../../../../src/core/storage/decode/decode';
import {
  CHILD_PAGE,
  childItems,
  decodedSlotNames,
  differs,
  mappingKeyProblem,
  mappingKeyType,
  MAX_SHOWN_VALUE,
  storageItem,
  valueText,
  variableItems,
} from '../../../../../src/core/storage/decode/tree';
import type { SolcType } from '../../../../../src/core/storage/layout';
import { contractDeclarations } from '../../../../../src/core/storage/soliditySource';

const value = (type: string, slot: bigint, values: (string | boolean | null)[], offset = 0): DecodedNode => ({ kind: 'value', type, slot, offset, values, nonZero: true });

const ALICE = '0x00000000000000000000000000000000000A11cE';
const BOB = '0x0000000000000000000000000000000000000B0b';

test('values: numbers and addresses bare, strings quoted with escapes, controls and bidi overrides gone, long ones cut', () => {
  assert.equal(valueText('-5'), '-5');
  assert.equal(valueText(ALICE), ALICE);
  assert.equal(valueText(true), 'true');
  assert.equal(valueText('12', MAX_SHOWN_VALUE, true), '"12"', 'a string that looks like a number is quoted');
  assert.equal(valueText('a\nb "c"', MAX_SHOWN_VALUE, true), '"a\\nb \\"c\\""');
  const hostile = valueText('pay \u202eexe.txt \x1b]8;;https://evil.example\x07[x](command:workbench.action.quit)', MAX_SHOWN_VALUE, true);
  // eslint-disable-next-line no-control-regex -- the test looks for exactly these
  assert.doesNotMatch(hostile, /[\u202e\x1b\x07]/);
  assert.ok(hostile.includes('[x](command:workbench.action.quit)'), 'shown as text, not dropped (the view never renders markdown)');
  const long = valueText('x'.repeat(10_000), MAX_SHOWN_VALUE, true);
  assert.equal(long.length, MAX_SHOWN_VALUE);
  assert.ok(long.endsWith('…'));
  assert.equal(valueText({ a: '1', b: ['2'] }), '{"a":"1","b":["2"]}');
});

test('a value item: path, slot and offset in the tooltip; a change between two blocks shows the earlier value', () => {
  const node = value('uint64', 5n, ['7', '9'], 16);
  const item = storageItem(node, 'pos.since', 'since', { shown: 1, before: 0 });
  assert.equal(item.description, '9');
  assert.deepEqual(item.change, { kind: 'changed', before: '7' });
  assert.equal(item.slot, '0x5');
  assert.equal(item.offset, 16);
  assert.equal(item.copyValue, '9');
  assert.match(item.tooltip, /^pos\.since\ntype: uint64\nslot: 0x5, offset 16\nvalue: 9\nwas: 7$/);
  assert.equal(storageItem(node, 'pos.since', 'since', { shown: 1 }).change, undefined, 'no earlier block: no mark');
  assert.equal(storageItem(value('uint8', 0n, ['3', '3']), 'a', 'a', { shown: 1, before: 0 }).change, undefined, 'same value: no mark');
});

test('a type name from a hostile layout file (bidi override, escape, line break) is inert and one line in the description and the tooltip', () => {
  const type = 'struct A.S\u202eexe.txt\x1b]0;title\x07\nforged: line';
  const struct: DecodedNode = { kind: 'struct', type, slot: 0n, members: [{ label: 'a', node: value('uint256', 0n, ['1']) }], nonZero: true };
  for (const item of [storageItem(struct, 'erc7201:x', 'erc7201:x', { shown: 0 }), storageItem(value(type, 0n, ['1']), 'v', 'v', { shown: 0 })]) {
    // eslint-disable-next-line no-control-regex -- the test looks for exactly these
    assert.doesNotMatch(item.description + item.tooltip, /[\u202e\x1b\x07]/);
    assert.equal(item.tooltip.split('\n').length, 4, item.tooltip);
    assert.match(item.tooltip, /^type: struct A\.Sexe\.txt forged: line$/m);
  }
});

test('structs and mappings: children with paths as the diff names them; a change inside marks the parent', () => {
  const pos: DecodedNode = {
    kind: 'struct',
    type: 'struct Demo.Pos',
    slot: 10n,
    nonZero: true,
    members: [
      { label: 'amount', node: value('uint128', 10n, ['1', '2']) },
      { label: 'open', node: value('bool', 10n, [true, true], 24) },
    ],
  };
  const balances: DecodedNode = {
    kind: 'mapping',
    type: 'mapping(address => uint256)',
    slot: 3n,
    nonZero: true,
    entries: [
      { key: ALICE, node: value('uint256', 0xaan, ['5', '5']) },
      { key: BOB, node: value('uint256', 0xbbn, ['0', '8']) },
    ],
  };
  const states = { shown: 1, before: 0 };
  const [p, b] = variableItems([
    { label: 'pos', node: pos, states },
    { label: 'balances', node: balances, states },
  ]);
  assert.deepEqual(p.change, { kind: 'inside' });
  assert.equal(p.description, 'struct Demo.Pos');
  assert.equal(b.description, 'mapping(address => uint256), 2 entries found');
  // A search the bound stopped says so, with what it found, and never "0 entries found".
  assert.equal(
    storageItem({ ...balances, searchStopped: 100_000 }, 'balances', 'balances', states).description,
    'mapping(address => uint256), 2 entries found, search stopped at 100,000 combinations',
  );
  assert.equal(
    storageItem({ ...balances, entries: [], nonZero: false, searchStopped: 100_000 }, 'balances', 'balances', { shown: 0 }).description,
    'mapping(address => uint256), search stopped at 100,000 combinations',
  );
  assert.deepEqual(
    childItems(p, states).items.map((i) => [i.path, i.label, i.change?.kind]),
    [
      ['pos.amount', 'amount', 'changed'],
      ['pos.open', 'open', undefined],
    ],
  );
  const entries = childItems(b, states).items;
  assert.deepEqual(
    entries.map((i) => [i.path, i.label, i.description, i.change]),
    [
      [`balances[${ALICE}]`, `[${ALICE}]`, '5', undefined],
      [`balances[${BOB}]`, `[${BOB}]`, '8', { kind: 'changed', before: '0' }],
    ],
  );
  // Changed leaves only: the struct keeps only its changed member, the mapping only Bob.
  assert.deepEqual(
    variableItems(
      [
        { label: 'pos', node: pos, states },
        { label: 'balances', node: balances, states },
        { label: 'same', node: value('uint8', 0n, ['1', '1']), states },
      ],
      true,
    ).map((i) => i.path),
    ['pos', 'balances'],
  );
  assert.deepEqual(
    childItems(b, states, CHILD_PAGE, true).items.map((i) => i.path),
    [`balances[${BOB}]`],
  );
  assert.equal(differs(balances, 0, 1), true);
  assert.equal(b.copyValue, JSON.stringify({ [ALICE]: '5', [BOB]: '8' }));
});

test('arrays: pages of elements with the count left; elements past the length at one block are added or removed', () => {
  const elements = Array.from({ length: 120 }, (_, i) => value('uint32', 100n + BigInt(i), [String(i), String(i)]));
  const list: DecodedNode = { kind: 'array', type: 'uint32[]', slot: 4n, lengths: ['120', '120'], elements, nonZero: true };
  const first = childItems({ node: list, path: 'list' }, { shown: 1 });
  assert.equal(first.items.length, CHILD_PAGE);
  assert.equal(first.more, 120 - CHILD_PAGE);
  assert.equal(first.items[7].path, 'list[7]');
  const second = childItems({ node: list, path: 'list' }, { shown: 1 }, CHILD_PAGE * 2);
  assert.equal(second.items.length, 100);
  assert.equal(second.more, 20);

  // Grown from 1 to 2 elements, and another shrunk from 2 to 1.
  const grown: DecodedNode = {
    kind: 'array',
    type: 'uint32[]',
    slot: 4n,
    lengths: ['1', '2'],
    elements: [value('uint32', 9n, ['1', '1']), value('uint32', 9n, [null, '2'], 4)],
    nonZero: true,
  };
  const states = { shown: 1, before: 0 };
  assert.deepEqual(
    childItems({ node: grown, path: 'g' }, states).items.map((i) => [i.path, i.change?.kind, i.description]),
    [
      ['g[0]', undefined, '1'],
      ['g[1]', 'added', '2'],
    ],
  );
  assert.equal(storageItem(grown, 'g', 'g', states).description, 'uint32[], 2 elements');
  // Lengths past 2^53, read or declared, are shown exactly, not as the elements read.
  const huge: DecodedNode = { kind: 'array', type: 'uint32[]', slot: 4n, lengths: ['18446744073709551616', '1'], elements: grown.elements, nonZero: true };
  assert.equal(storageItem(huge, 'h', 'h', { shown: 0, before: 1 }).description, 'uint32[], 18446744073709551616 elements');
  const declared: DecodedNode = { kind: 'array', type: 'uint8[3125000000000000000000000000]', slot: 4n, elements: grown.elements, nonZero: true };
  assert.equal(storageItem(declared, 'd', 'd', states).description, 'uint8[3125000000000000000000000000], 3125000000000000000000000000 elements');
  const shrunk: DecodedNode = {
    kind: 'array',
    type: 'uint32[]',
    slot: 4n,
    lengths: ['2', '1'],
    elements: [value('uint32', 9n, ['1', '1']), value('uint32', 9n, ['2', null], 4)],
    nonZero: true,
  };
  assert.deepEqual(
    childItems({ node: shrunk, path: 's' }, states).items.map((i) => [i.path, i.change?.kind, i.description]),
    [
      ['s[0]', undefined, '1'],
      ['s[1]', 'removed', '2'],
    ],
    'a removed element shows its earlier value',
  );
});

const types: Record<string, SolcType> = {
  t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
  t_uint8: { encoding: 'inplace', label: 'uint8', numberOfBytes: '1' },
  t_int8: { encoding: 'inplace', label: 'int8', numberOfBytes: '1' },
  t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
  t_bytes4: { encoding: 'inplace', label: 'bytes4', numberOfBytes: '4' },
  t_string_memory_ptr: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
  t_bytes_memory_ptr: { encoding: 'bytes', label: 'bytes', numberOfBytes: '32' },
  'enum Demo.Kind': { encoding: 'inplace', label: 'enum Demo.Kind', numberOfBytes: '1' },
  'mapping(address => uint8)': { encoding: 'mapping', label: 'mapping(address => uint8)', key: 't_address', value: 't_uint8', numberOfBytes: '32' },
};

test('mapping keys are checked by their key type, with a message saying what the type takes', () => {
  const ok = (type: string, text: string) => assert.equal(mappingKeyProblem(types[type], text), undefined, `${type} ${text}`);
  const bad = (type: string, text: string, message: RegExp) => assert.match(mappingKeyProblem(types[type], text) ?? '', message, `${type} ${text}`);
  ok('t_address', ALICE);
  ok('t_address', ALICE.toLowerCase());
  bad('t_address', '0x1234', /40 hex digits/);
  bad('t_address', '0x00000000000000000000000000000000000a11cE', /checksum/);
  ok('t_uint8', '255');
  ok('t_uint8', '0xff');
  bad('t_uint8', '256', /uint8/);
  bad('t_uint8', '-1', /uint8/);
  ok('t_int8', '-128');
  bad('t_int8', '-129', /int8/);
  ok('t_bool', 'true');
  bad('t_bool', 'yes', /true or false/);
  ok('t_bytes4', '0xdeadbeef');
  bad('t_bytes4', '0xdeadbeef00', /at most 8 hex digits/);
  ok('t_string_memory_ptr', 'any text at all');
  bad('t_string_memory_ptr', '', /Enter a key/);
  ok('t_bytes_memory_ptr', '0xc0ffee');
  bad('t_bytes_memory_ptr', '0xc0ffe', /even number/);
  ok('enum Demo.Kind', '2');
  bad('enum Demo.Kind', 'B', /enum Demo.Kind/);
  assert.equal(mappingKeyType(types, { type: 'mapping(address => uint8)' }), types.t_address);
  assert.equal(mappingKeyType(types, { type: 'mapping(uint256 => uint8)' }), undefined);
});

test('the slots a decode explains: packed values share a name, mapping entries and array lengths are named', () => {
  const names = decodedSlotNames([
    { label: 'owner', node: value('address', 0n, [ALICE]) },
    { label: 'paused', node: value('bool', 0n, [true], 20) },
    { label: 'list', node: { kind: 'array', type: 'uint256[]', slot: 1n, lengths: ['1'], elements: [value('uint256', 0xabcn, ['4'])], nonZero: true } },
    { label: 'balances', node: { kind: 'mapping', type: 'mapping(address => uint256)', slot: 2n, nonZero: true, entries: [{ key: BOB, node: value('uint256', 0xdefn, ['8']) }] } },
    { label: 'notes', node: { kind: 'mapping', type: 'mapping(address => string)', slot: 3n, nonZero: true, entries: [{ key: BOB, node: value('string', 0x10n, ['y'.repeat(40)]) }] } },
  ]);
  // keccak256(pad32(0x10)), where the 40 bytes of notes[Bob] are kept, in two words.
  const data = 0x1b6847dc741a1b0cd08d278845f9d819d87b734759afb55fe2de5cb82a9ae672n;
  assert.deepEqual(Object.fromEntries(names), {
    '0x0': 'owner, paused',
    '0x1': 'list.length',
    '0xabc': 'list[0]',
    '0xdef': `balances[${BOB}]`,
    '0x10': `notes[${BOB}]`,
    [`0x${data.toString(16)}`]: `notes[${BOB}] (data 0)`,
    [`0x${(data + 1n).toString(16)}`]: `notes[${BOB}] (data 1)`,
  });
});

test('contract declarations: contracts and abstract contracts at line start, not in comments or strings, not interfaces or libraries', () => {
  const source = [
    '// contract Commented {',
    '/* contract Blocked {',
    '   contract AlsoBlocked { */',
    'interface IThing { function ping() external; }',
    'library Lib {}',
    'abstract contract Base {',
    '  string s = "contract InString {";',
    '}',
    '  contract StorageDemo is Base {',
    '}',
  ].join('\n');
  assert.deepEqual(contractDeclarations(source), [
    { name: 'Base', line: 5, character: 9 },
    { name: 'StorageDemo', line: 8, character: 2 },
  ]);
});
