/**
 * A diff across an upgrade, its pure parts: leaves of two layouts merged by path (a member only the
 * later layout has shows before null, one only the earlier has after null, in the later layout's
 * order with the earlier-only ones where they stood), and the one line that says what changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DecodedNode } from '../../../../../src/core/storage/decode/decode';
import { changeLine, mergeLeaves, type ImplementationChange } from '../../../../../src/core/storage/deployed/upgradeDiff';

const value = (slot: bigint, before: string | null, after: string | null): DecodedNode => ({ kind: 'value', type: 'uint256', slot, offset: 0, values: [before, after], nonZero: true });
const variable = (label: string, node: DecodedNode) => ({ label, type: node.type, slot: node.slot, offset: 0, node });

test('leaves merged by path: both sides compared, one side only null on the other, unchanged ones left out, in the later order', () => {
  // V1: a, b, gone. V2: a, b, added, with `gone` removed and `added` appended; each read at both blocks.
  const early = { variables: [variable('a', value(0n, '1', '2')), variable('b', value(1n, '5', '5')), variable('gone', value(2n, '9', '9'))] };
  const late = { variables: [variable('a', value(0n, '1', '3')), variable('b', value(1n, '5', '5')), variable('added', value(3n, '0', '7'))] };
  const merged = mergeLeaves(early, late);
  assert.deepEqual(merged.changes, [
    { path: 'a', slot: '0x0', before: '1', after: '3' },
    { path: 'added', slot: '0x3', before: null, after: '7' },
    { path: 'gone', slot: '0x2', before: '9', after: null },
  ]);
  assert.deepEqual(merged.onlyAfter, ['added']);
  assert.deepEqual(merged.onlyBefore, ['gone']);
});

test('an earlier-only leaf keeps its place before the next leaf both layouts have', () => {
  const early = { variables: [variable('x', value(0n, '1', '1')), variable('old', value(1n, '4', '4')), variable('y', value(2n, '2', '2'))] };
  const late = { variables: [variable('x', value(0n, '1', '1')), variable('y', value(2n, '2', '8'))] };
  assert.deepEqual(
    mergeLeaves(early, late).changes.map((c) => c.path),
    ['old', 'y'],
  );
});

test('the one line: the implementations named by contract where known, the upgrade block and transaction', () => {
  const block = (n: number) => ({ number: n, hash: `0x${n.toString(16).padStart(64, '0')}` });
  const layout = (name: string) => ({ contractName: name, source: 'contracts/L.sol', storage: [], types: {}, variableRanges: [] });
  const change: ImplementationChange = {
    proxy: '0x00000000000000000000000000000000000000A1',
    before: { block: block(4), implementation: '0x00000000000000000000000000000000000000B1', picked: layout('LedgerV1') },
    after: { block: block(9), implementation: '0x00000000000000000000000000000000000000b2' },
    upgrades: [{ block: 6, tx: `0x${'ab'.repeat(32)}`, logIndex: 0, kind: 'implementation', address: '0x00000000000000000000000000000000000000b2' }],
    warnings: [],
  };
  assert.equal(
    changeLine(change),
    `the implementation of 0x00000000000000000000000000000000000000A1 changed from 0x00000000000000000000000000000000000000B1 (LedgerV1) to 0x00000000000000000000000000000000000000b2 at block 6 (transaction 0x${'ab'.repeat(32)})`,
  );
  assert.match(changeLine({ ...change, upgrades: [] }), /between blocks 4 and 9 \(no Upgraded event was found\)$/);
  assert.match(changeLine({ ...change, upgrades: [change.upgrades[0], { ...change.upgrades[0], block: 8 }] }), /in 2 upgrades between blocks 4 and 9, the last at block 8$/);
});
