/**
 * The upgrade rules on hand-built layouts (solc's shape), one rule per test: what is fine
 * (appending, a gap shrunk by exactly what was added before it, a namespace grown at its end) and
 * each finding's kind, path and before/after. Compiled pairs are in compiled.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareLayouts, MAX_ENTRIES, type CompatFinding } from '../../../../../src/core/storage/compat/rules';
import { typeShape } from '../../../../../src/core/storage/compat/shape';
import type { ContractLayout, SolcType } from '../../../../../src/core/storage/layout';

type Var = [label: string, slot: number | bigint, offset: number, typeId: string];

const BASE_TYPES: Record<string, SolcType> = {
  t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' },
  t_int256: { encoding: 'inplace', label: 'int256', numberOfBytes: '32' },
  t_uint64: { encoding: 'inplace', label: 'uint64', numberOfBytes: '8' },
  t_uint128: { encoding: 'inplace', label: 'uint128', numberOfBytes: '16' },
  t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
  't_contract(IToken)12': { encoding: 'inplace', label: 'contract IToken', numberOfBytes: '20' },
  t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
  't_array(t_uint256)50_storage': { encoding: 'inplace', base: 't_uint256', label: 'uint256[50]', numberOfBytes: '1600' },
  't_array(t_uint256)49_storage': { encoding: 'inplace', base: 't_uint256', label: 'uint256[49]', numberOfBytes: '1568' },
  't_array(t_uint256)48_storage': { encoding: 'inplace', base: 't_uint256', label: 'uint256[48]', numberOfBytes: '1536' },
  't_mapping(t_address,t_uint256)': { encoding: 'mapping', key: 't_address', value: 't_uint256', label: 'mapping(address => uint256)', numberOfBytes: '32' },
};

function layout(vars: Var[], types: Record<string, SolcType> = {}): Pick<ContractLayout, 'storage' | 'types'> {
  const all = { ...BASE_TYPES, ...types };
  return {
    types: all,
    storage: vars.map(([label, slot, offset, typeId]) => ({
      label,
      slot: String(slot),
      offset,
      typeId,
      type: all[typeId]?.label ?? typeId,
      numberOfBytes: Number(all[typeId]?.numberOfBytes ?? 32),
    })),
  };
}

const kinds = (fs: CompatFinding[]) => fs.map((f) => `${f.kind} ${f.path}`);

const V1 = layout([
  ['owner', 0, 0, 't_address'],
  ['paused', 0, 20, 't_bool'],
  ['total', 1, 0, 't_uint256'],
  ['balances', 2, 0, 't_mapping(t_address,t_uint256)'],
]);

describe('upgrade rules, plain variables', () => {
  test('the same layout, and one with a variable appended, are fine; the appended one is storage to check', () => {
    assert.deepEqual(compareLayouts(V1, V1), { findings: [], added: [] });
    const r = compareLayouts(V1, layout([...v1Vars(), ['extra', 3, 0, 't_uint256']]));
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.added, [{ path: 'extra', description: 'uint256 extra at slot 3', slot: 3n, offset: 0, numberOfBytes: 32, slots: 1n }]);
  });

  test('a variable packed into the last slot is appended too, checked by its bytes', () => {
    const r = compareLayouts(
      layout([['owner', 0, 0, 't_address']]),
      layout([
        ['owner', 0, 0, 't_address'],
        ['paused', 0, 20, 't_bool'],
      ]),
    );
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.added, [{ path: 'paused', description: 'bool paused at slot 0 offset 20', slot: 0n, offset: 20, numberOfBytes: 1, slots: 1n }]);
  });

  test('inserted before existing variables: an error with the new one described', () => {
    const r = compareLayouts(
      V1,
      layout([
        ['owner', 0, 0, 't_address'],
        ['paused', 0, 20, 't_bool'],
        ['fee', 1, 0, 't_uint256'],
        ['total', 2, 0, 't_uint256'],
        ['balances', 3, 0, 't_mapping(t_address,t_uint256)'],
      ]),
    );
    assert.deepEqual(r.findings, [{ kind: 'inserted', path: 'fee', before: null, after: 'uint256 fee at slot 1', severity: 'error' }]);
  });

  test('removed: an error with the old one described', () => {
    const r = compareLayouts(
      V1,
      layout([
        ['owner', 0, 0, 't_address'],
        ['paused', 0, 20, 't_bool'],
        ['balances', 1, 0, 't_mapping(t_address,t_uint256)'],
      ]),
    );
    assert.deepEqual(r.findings, [{ kind: 'removed', path: 'total', before: 'uint256 total at slot 1', after: null, severity: 'error' }]);
  });

  test('retyped: same name, another meaning (uint256 → int256); an address and a contract type mean the same', () => {
    const retyped = compareLayouts(V1, layout(v1Vars().map((v) => (v[0] === 'total' ? ['total', 1, 0, 't_int256'] : v))));
    assert.deepEqual(retyped.findings, [{ kind: 'retyped', path: 'total', before: 'uint256 total at slot 1', after: 'int256 total at slot 1', severity: 'error' }]);
    const contract = compareLayouts(V1, layout(v1Vars().map((v) => (v[0] === 'owner' ? ['owner', 0, 0, 't_contract(IToken)12'] : v))));
    assert.deepEqual(contract.findings, []);
  });

  test('renamed: same type and place, another name', () => {
    const r = compareLayouts(V1, layout(v1Vars().map((v) => (v[0] === 'total' ? ['supply', 1, 0, 't_uint256'] : v))));
    assert.deepEqual(r.findings, [{ kind: 'renamed', path: 'supply', before: 'uint256 total at slot 1', after: 'uint256 supply at slot 1', severity: 'error' }]);
  });

  test('reordered: two variables swapped are one reorder, the other one not reported again', () => {
    const old = layout([
      ['a', 0, 0, 't_uint256'],
      ['b', 1, 0, 't_uint256'],
      ['c', 2, 0, 't_uint256'],
    ]);
    const r = compareLayouts(
      old,
      layout([
        ['b', 0, 0, 't_uint256'],
        ['a', 1, 0, 't_uint256'],
        ['c', 2, 0, 't_uint256'],
      ]),
    );
    assert.deepEqual(kinds(r.findings), ['reordered b']);
    assert.equal(r.findings[0].before, 'uint256 b at slot 1');
    assert.equal(r.findings[0].after, 'uint256 b at slot 0');
  });

  test('moved: same name and type at another slot with nothing above to explain it (a base grew)', () => {
    const old = layout([
      ['a', 0, 0, 't_uint256'],
      ['b', 1, 0, 't_uint256'],
    ]);
    const r = compareLayouts(
      old,
      layout([
        ['a', 0, 0, 't_uint256'],
        ['b', 2, 0, 't_uint256'],
      ]),
    );
    assert.deepEqual(r.findings, [{ kind: 'moved', path: 'b', before: 'uint256 b at slot 1', after: 'uint256 b at slot 2', severity: 'error' }]);
  });
});

function v1Vars(): Var[] {
  return [
    ['owner', 0, 0, 't_address'],
    ['paused', 0, 20, 't_bool'],
    ['total', 1, 0, 't_uint256'],
    ['balances', 2, 0, 't_mapping(t_address,t_uint256)'],
  ];
}

describe('upgrade rules, gaps', () => {
  const GAPPED: Var[] = [
    ['a', 0, 0, 't_uint256'],
    ['__gap', 1, 0, 't_array(t_uint256)50_storage'],
    ['child', 51, 0, 't_uint256'],
  ];

  test('a gap shrunk by exactly the slot the new variable takes is fine, and the new slot is checked', () => {
    const r = compareLayouts(
      layout(GAPPED),
      layout([
        ['a', 0, 0, 't_uint256'],
        ['b', 1, 0, 't_uint256'],
        ['__gap', 2, 0, 't_array(t_uint256)49_storage'],
        ['child', 51, 0, 't_uint256'],
      ]),
    );
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.added.map((a) => a.path),
      ['b'],
    );
  });

  test('a gap shrunk by two for one slot: what follows moves, one gap-resized finding', () => {
    const r = compareLayouts(
      layout(GAPPED),
      layout([
        ['a', 0, 0, 't_uint256'],
        ['b', 1, 0, 't_uint256'],
        ['__gap', 2, 0, 't_array(t_uint256)48_storage'],
        ['child', 50, 0, 't_uint256'],
      ]),
    );
    assert.deepEqual(r.findings, [{ kind: 'gap-resized', path: '__gap', before: 'uint256[50] __gap at slot 1', after: 'uint256[48] __gap at slot 2', severity: 'error' }]);
  });

  test('a gap not shrunk at all for a new variable: the variable is inserted (the gap and what follows move)', () => {
    const bigger = { 't_array(t_uint256)50_storage': BASE_TYPES['t_array(t_uint256)50_storage'] };
    const r = compareLayouts(
      layout(GAPPED),
      layout(
        [
          ['a', 0, 0, 't_uint256'],
          ['b', 1, 0, 't_uint256'],
          ['__gap', 2, 0, 't_array(t_uint256)50_storage'],
          ['child', 52, 0, 't_uint256'],
        ],
        bigger,
      ),
    );
    assert.deepEqual(kinds(r.findings), ['inserted b']);
  });
});

describe('upgrade rules, namespaces and structs', () => {
  const ROOT = 0x52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00n;
  const member = (label: string, slot: number, offset: number, type: string) => ({ label, slot: String(slot), offset, type });
  const ns = (id: string, members: ReturnType<typeof member>[], bytes: number): SolcType => ({ encoding: 'inplace', label: `struct ${id}`, numberOfBytes: String(bytes), members });
  const MAIN_V1 = ns('Points.MainStorage', [member('season', 0, 0, 't_uint64'), member('open', 0, 8, 't_bool'), member('total', 1, 0, 't_uint256')], 64);
  const nsLayout = (main: SolcType | undefined, extra: Var[] = []) =>
    layout(
      [['plain', 0, 0, 't_uint256'], ...(main ? [['erc7201:example.main', ROOT, 0, 't_struct(MainStorage)40_storage'] as Var] : []), ...extra],
      main ? { 't_struct(MainStorage)40_storage': main } : {},
    );

  test('a namespace grown at its end is fine; the new member is storage to check at root + its slot', () => {
    const v2 = ns('Points.MainStorage', [...MAIN_V1.members!, member('extra', 2, 0, 't_uint256')], 96);
    const r = compareLayouts(nsLayout(MAIN_V1), nsLayout(v2));
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.added, [
      { path: 'erc7201:example.main.extra', description: `uint256 extra at slot 0x${(ROOT + 2n).toString(16)}`, slot: ROOT + 2n, offset: 0, numberOfBytes: 32, slots: 1n },
    ]);
  });

  test('the same struct under another AST id is the same namespace', () => {
    const other = layout(
      [
        ['plain', 0, 0, 't_uint256'],
        ['erc7201:example.main', ROOT, 0, 't_struct(MainStorage)977_storage'],
      ],
      { 't_struct(MainStorage)977_storage': MAIN_V1 },
    );
    assert.deepEqual(compareLayouts(nsLayout(MAIN_V1), other), { findings: [], added: [] });
  });

  test('a member inserted into a namespace is an error at its path, described at its absolute slot', () => {
    const v2 = ns('Points.MainStorage', [member('season', 0, 0, 't_uint64'), member('open', 0, 8, 't_bool'), member('fee', 1, 0, 't_uint256'), member('total', 2, 0, 't_uint256')], 96);
    const r = compareLayouts(nsLayout(MAIN_V1), nsLayout(v2));
    assert.deepEqual(r.findings, [{ kind: 'inserted', path: 'erc7201:example.main.fee', before: null, after: `uint256 fee at slot 0x${(ROOT + 1n).toString(16)}`, severity: 'error' }]);
  });

  test('members removed, retyped, renamed and reordered inside a namespace follow the same rules', () => {
    const v = (members: ReturnType<typeof member>[]) => kinds(compareLayouts(nsLayout(MAIN_V1), nsLayout(ns('Points.MainStorage', members, 64))).findings);
    assert.deepEqual(v([member('season', 0, 0, 't_uint64'), member('total', 1, 0, 't_uint256')]), ['removed erc7201:example.main.open']);
    assert.deepEqual(v([member('season', 0, 0, 't_uint64'), member('open', 0, 8, 't_bool'), member('total', 1, 0, 't_int256')]), ['retyped erc7201:example.main.total']);
    assert.deepEqual(v([member('season', 0, 0, 't_uint64'), member('live', 0, 8, 't_bool'), member('total', 1, 0, 't_uint256')]), ['renamed erc7201:example.main.live']);
    assert.deepEqual(v([member('open', 0, 0, 't_bool'), member('season', 0, 1, 't_uint64'), member('total', 1, 0, 't_uint256')]), ['reordered erc7201:example.main.open']);
  });

  test('a namespace removed is an error; a new one is storage to check', () => {
    assert.deepEqual(compareLayouts(nsLayout(MAIN_V1), nsLayout(undefined)).findings, [
      { kind: 'namespace-removed', path: 'erc7201:example.main', before: `struct Points.MainStorage erc7201:example.main at slot 0x${ROOT.toString(16)}`, after: null, severity: 'error' },
    ]);
    const added = compareLayouts(nsLayout(undefined), nsLayout(MAIN_V1));
    assert.deepEqual(added.findings, []);
    assert.deepEqual(
      added.added.map((a) => [a.path, a.slot, a.slots]),
      [['erc7201:example.main', ROOT, 2n]],
    );
  });

  const POS_V1 = ns('V.Pos', [member('amount', 0, 0, 't_uint128'), member('since', 0, 16, 't_uint64')], 32);
  const POS_GROWN = ns('V.Pos', [member('amount', 0, 0, 't_uint128'), member('since', 0, 16, 't_uint64'), member('who', 1, 0, 't_address')], 64);
  const POS_PADDED = ns('V.Pos', [member('amount', 0, 0, 't_uint128'), member('since', 0, 16, 't_uint64'), member('open', 0, 24, 't_bool')], 32);
  const S = 't_struct(Pos)7_storage';
  const MAP = 't_mapping(t_address,t_struct(Pos)7_storage)';
  const mapType: SolcType = { encoding: 'mapping', key: 't_address', value: S, label: 'mapping(address => struct V.Pos)', numberOfBytes: '32' };

  test('a struct grown in the middle of the layout moves what follows: retyped; grown within its last slot, fine', () => {
    const two = (pos: SolcType, next: number) =>
      layout(
        [
          ['pos', 0, 0, S],
          ['after', next, 0, 't_uint256'],
        ],
        { [S]: pos },
      );
    assert.deepEqual(kinds(compareLayouts(two(POS_V1, 1), two(POS_GROWN, 2)).findings), ['retyped pos']);
    const padded = compareLayouts(two(POS_V1, 1), two(POS_PADDED, 1));
    assert.deepEqual(padded.findings, []);
    assert.deepEqual(
      padded.added.map((a) => [a.path, a.slot, a.offset, a.numberOfBytes]),
      [['pos.open', 0n, 24, 1]],
      'the padding it takes was unused: its byte is checked',
    );
  });

  test('the last variable, a struct, may grow; its new member is storage to check', () => {
    const one = (pos: SolcType) =>
      layout(
        [
          ['n', 0, 0, 't_uint256'],
          ['pos', 1, 0, S],
        ],
        { [S]: pos },
      );
    const r = compareLayouts(one(POS_V1), one(POS_GROWN));
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.added, [{ path: 'pos.who', description: 'address who at slot 2', slot: 2n, offset: 0, numberOfBytes: 20, slots: 1n }]);
  });

  test("a mapping's struct value may grow (each value lies apart); a member inserted there is an error at m[].member", () => {
    const m = (pos: SolcType) =>
      layout(
        [
          ['m', 0, 0, MAP],
          ['after', 1, 0, 't_uint256'],
        ],
        { [S]: pos, [MAP]: mapType },
      );
    const grown = compareLayouts(m(POS_V1), m(POS_GROWN));
    assert.deepEqual(grown, { findings: [], added: [] });
    const inserted = ns('V.Pos', [member('amount', 0, 0, 't_uint128'), member('who', 1, 0, 't_address'), member('since', 2, 0, 't_uint64')], 96);
    assert.deepEqual(compareLayouts(m(POS_V1), m(inserted)).findings, [{ kind: 'inserted', path: 'm[].who', before: null, after: 'address who at slot +1', severity: 'error' }]);
  });

  test('type meaning: ids with other AST numbers, contract vs address, nested mappings', () => {
    const types = { ...BASE_TYPES, [S]: POS_V1, 't_struct(Pos)99_storage': POS_V1 };
    assert.equal(typeShape({ types, id: S }), typeShape({ types, id: 't_struct(Pos)99_storage' }));
    assert.equal(typeShape({ types, id: 't_contract(IToken)12' }), 'address');
    assert.notEqual(typeShape({ types, id: 't_uint256' }), typeShape({ types, id: 't_int256' }));
    assert.equal(typeShape({ types, id: 't_array(t_uint256)50_storage' }), 'uint256[50]');
  });
});

describe('upgrade rules, enums', () => {
  const E = 't_enum(Kind)5';
  const en = (members: string[] | undefined, bytes = 1): Record<string, SolcType> => ({
    [E]: { encoding: 'inplace', label: 'enum V.Kind', numberOfBytes: String(bytes), ...(members ? { enumMembers: members } : {}) },
  });
  const one = (members: string[] | undefined, bytes = 1) => layout([['kind', 0, 0, E]], en(members, bytes));

  test('members appended: fine; one inserted, removed or reordered: retyped', () => {
    assert.deepEqual(compareLayouts(one(['A', 'B']), one(['A', 'B', 'C'])).findings, []);
    for (const members of [['A', 'X', 'B'], ['A'], ['B', 'A']]) assert.deepEqual(kinds(compareLayouts(one(['A', 'B']), one(members)).findings), ['retyped kind'], members.join());
  });

  test('members unknown on a side (a file without an AST): not judged, unless the size changed', () => {
    assert.deepEqual(compareLayouts(one(undefined), one(['B', 'A'])).findings, []);
    assert.deepEqual(kinds(compareLayouts(one(undefined), one(undefined, 2)).findings), ['retyped kind']);
  });
});

describe('upgrade rules, bounds', () => {
  test('a list past the bound is refused in one line; a type nested without end is compared without overflowing', () => {
    const many = layout(Array.from({ length: MAX_ENTRIES + 1 }, (_, i): Var => [`v${i}`, i, 0, 't_uint256']));
    assert.throws(() => compareLayouts(many, V1), { message: `too many variables to compare (${MAX_ENTRIES + 1} and 4; at most ${MAX_ENTRIES} in one list)` });
    const deep: Record<string, SolcType> = {};
    for (let i = 0; i < 20_000; i++) deep[`t_d${i}`] = { encoding: 'dynamic_array', base: `t_d${i + 1}`, label: 'x[]', numberOfBytes: '32' };
    assert.match(typeShape({ types: deep, id: 't_d0' }), /^deep t_d\d+(\[\])+$/);
  });
});
