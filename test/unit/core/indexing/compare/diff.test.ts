/**
 * Two answers compared by id: only-in-A, only-in-B and changed values by path, with values that
 * mean the same compared equal (BigInt as number or string, BigDecimal spellings, Bytes case), and
 * a side cut at the bound compared only as far as both were read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalDecimal, compareIds, diffField, differs, normalise, type FieldAnswer } from '../../../../../src/core/indexing/compare/diff';

const list = (entities: Record<string, unknown>[], truncated = false): FieldAnswer => ({ kind: 'list', entities, truncated });

test('canonical decimals: the spellings of one number are one text; other text is not a number', () => {
  const same: [string, string][] = [
    ['1.50', '1.5'],
    ['1e3', '1000'],
    ['1E+3', '1000'],
    ['0.000', '0'],
    ['-0', '0'],
    ['007', '7'],
    ['12.5e-3', '0.0125'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['-2.50E1', '-25'],
  ];
  for (const [text, canonical] of same) assert.equal(canonicalDecimal(text), canonical, text);
  for (const text of ['', '.', 'abc', '0x10', '1.2.3', '1e999999']) assert.equal(canonicalDecimal(text), undefined, text);
  assert.deepEqual(normalise({ n: 5, big: '5.0', bytes: '0xABcd', name: 'Ab', list: [1, '0xFF'], none: null }), {
    n: '5',
    big: '5',
    bytes: '0xabcd',
    name: 'Ab',
    list: ['1', '0xff'],
    none: null,
  });
});

test('entities only in A, only in B, and changed values by path (nested too); the same values in other spellings are equal', () => {
  const a = list([
    { id: '0xaa-0', n: '5', from: '0xABCDEF', version: 'v1', owner: { id: '0x01', name: 'x' } },
    { id: '0xaa-1', n: '6', from: '0x01', version: 'v1', owner: null },
    { id: '0xbb-0', n: '7', from: '0x01', version: 'v1', owner: null },
  ]);
  const b = list([
    { id: '0xaa-0', n: 5, from: '0xabcdef', version: 'v1', owner: { id: '0x01', name: 'y' } },
    { id: '0xaa-1', n: '6.0', from: '0x01', version: 'v2', owner: null },
    { id: '0xcc-0', n: '8', from: '0x01', version: 'v1', owner: null },
  ]);
  const diff = diffField('pings', a, b);
  assert.equal(differs(diff), true);
  assert.deepEqual(
    diff.onlyInA.map((e) => e.id),
    ['0xbb-0'],
  );
  assert.deepEqual(
    diff.onlyInB.map((e) => e.id),
    ['0xcc-0'],
  );
  assert.deepEqual(diff.changed, [
    { id: '0xaa-0', changes: [{ path: 'owner.name', a: 'x', b: 'y' }] },
    { id: '0xaa-1', changes: [{ path: 'version', a: 'v1', b: 'v2' }] },
  ]);
  assert.equal(diff.countA, 3);
  assert.equal(diff.countB, 3);
  assert.equal(differs(diffField('pings', a, a)), false);
});

test('a side stopped at the bound is compared only up to the lower last id read', () => {
  const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: String(from + i).padStart(3, '0') }));
  // A read 000–004 and stopped; B has 000–009 whole: 005–009 are not "only in B".
  const diff = diffField('pings', list(ids(5), true), list(ids(10)));
  assert.equal(diff.truncated, true);
  assert.equal(differs(diff), false);
  // Both stopped, B after a gap: the gap shows, what lies past A's end does not.
  const gap = diffField('pings', list([...ids(3), { id: '010' }], true), list([...ids(2), { id: '010' }, { id: '011' }], true));
  assert.deepEqual(
    gap.onlyInA.map((e) => e.id),
    ['002'],
  );
  assert.deepEqual(gap.onlyInB, []);
});

test('String ids that look like numbers: the bound cuts them in text order, as the node read them', () => {
  // A (150 ids) stopped at 100 read in text order: 0, 1, 10, 100, …, 53; B (0–99) read whole.
  const a = Array.from({ length: 150 }, (_, i) => String(i)).sort();
  const diff = diffField(
    'pings',
    list(
      a.slice(0, 100).map((id) => ({ id })),
      true,
    ),
    list(Array.from({ length: 100 }, (_, i) => ({ id: String(i) }))),
  );
  // 6–9 lie past A's end in text order: not "only in B"; 100–149 were read by both and are only in A.
  assert.deepEqual(diff.onlyInB, []);
  assert.deepEqual(
    diff.onlyInA.map((e) => e.id),
    Array.from({ length: 50 }, (_, i) => String(100 + i)),
  );
  // Int8 ids run by value: there the bound cuts by value.
  const int8 = diffField('pings', list([{ id: '9' }, { id: '10' }], true), list([{ id: '9' }, { id: '10' }, { id: '11' }]));
  assert.equal(differs(int8), false);
});

test('ids sort as graph-node sorts them: Int8 by value, the rest as text', () => {
  assert.deepEqual(['10', '9', '-1'].sort(compareIds), ['-1', '9', '10']);
  assert.deepEqual(['0xb', '0xa1', '0xa'].sort(compareIds), ['0xa', '0xa1', '0xb']);
});

test('a single entity: absent on one side, or changed; a list against a value compares whole', () => {
  const some = { kind: 'value', value: { id: 'x', n: '1' } } as const;
  const none = { kind: 'value', value: null } as const;
  assert.deepEqual(diffField('ping', some, none).onlyInA, [{ id: 'x', n: '1' }]);
  assert.deepEqual(diffField('ping', none, some).onlyInB, [{ id: 'x', n: '1' }]);
  assert.deepEqual(diffField('ping', some, { kind: 'value', value: { id: 'x', n: '2' } }).changed, [{ id: 'x', changes: [{ path: 'n', a: '1', b: '2' }] }]);
  assert.equal(differs(diffField('ping', none, none)), false);
  assert.equal(differs(diffField('count', { kind: 'value', value: 3 }, { kind: 'value', value: '3' })), false);
  assert.deepEqual(diffField('count', { kind: 'value', value: 3 }, { kind: 'value', value: 4 }).changed, [{ id: 'count', changes: [{ path: 'count', a: 3, b: 4 }] }]);
});
