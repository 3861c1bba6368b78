/**
 * The upgrade rules on real compiler output: test/fixtures/solidity/UpgradeCompat.sol compiled
 * with solc 0.8.37, a V1 and a V2 per rule. What each V2 changes is written in the fixture; the
 * expected findings are derived here from the V2's own layout (its slots as solc placed them).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { compareLayouts } from '../../../../../src/core/storage/compat/rules';
import { parseHardhatBuildInfo, type ContractLayout } from '../../../../../src/core/storage/layout';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AbiCoder, keccak256, toUtf8Bytes } from 'ethers';
import { compileFixture, compileSource } from '../../../../support/solidity';

const readFixture = (file: string) => readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'solidity', file), 'utf8');

let layouts: ContractLayout[];
const named = (name: string) => {
  const l = layouts.find((x) => x.contractName === name);
  assert.ok(l, name);
  return l;
};
const slotOf = (contract: string, label: string) => named(contract).storage.find((v) => v.label === label)!.slot;
const check = (from: string, to: string) => compareLayouts(named(from), named(to));

before(() => {
  layouts = parseHardhatBuildInfo({ output: compileFixture('UpgradeCompat.sol').output });
});

describe('storage-compat rules on compiled V1/V2 pairs', () => {
  test('appended: no finding; the new variable is the added storage, at the slot solc gave it', () => {
    const r = check('BoxV1', 'BoxV2Appended');
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.added.map((a) => [a.path, String(a.slot)]),
      [['fee', slotOf('BoxV2Appended', 'fee')]],
    );
    assert.equal(slotOf('BoxV2Appended', 'fee'), '3', 'owner and paused share slot 0');
  });

  test('inserted, removed, retyped, renamed, reordered: one error each, described at their slots', () => {
    const d = (contract: string, label: string) => `${named(contract).storage.find((v) => v.label === label)!.type} ${label} at slot ${slotOf(contract, label)}`;
    assert.deepEqual(check('BoxV1', 'BoxV2Inserted').findings, [{ kind: 'inserted', path: 'fee', before: null, after: d('BoxV2Inserted', 'fee'), severity: 'error' }]);
    assert.deepEqual(check('BoxV1', 'BoxV2Removed').findings, [{ kind: 'removed', path: 'total', before: d('BoxV1', 'total'), after: null, severity: 'error' }]);
    assert.deepEqual(check('BoxV1', 'BoxV2Retyped').findings, [{ kind: 'retyped', path: 'total', before: d('BoxV1', 'total'), after: d('BoxV2Retyped', 'total'), severity: 'error' }]);
    assert.deepEqual(check('BoxV1', 'BoxV2Renamed').findings, [{ kind: 'renamed', path: 'supply', before: d('BoxV1', 'total'), after: d('BoxV2Renamed', 'supply'), severity: 'error' }]);
    const reordered = check('BoxV1', 'BoxV2Reordered').findings;
    assert.equal(reordered.length, 1, JSON.stringify(reordered));
    assert.equal(reordered[0].kind, 'reordered');
    assert.ok(['total', 'balances'].includes(reordered[0].path));
    assert.equal(reordered[0].after, d('BoxV2Reordered', reordered[0].path));
  });

  test('a gap shrunk by the one slot added before it is fine (child keeps its slot); shrunk by two, gap-resized', () => {
    assert.equal(slotOf('GapV2Good', 'child'), slotOf('GapV1', 'child'));
    const good = check('GapV1', 'GapV2Good');
    assert.deepEqual(good.findings, []);
    assert.deepEqual(
      good.added.map((a) => a.path),
      ['b'],
    );
    assert.notEqual(slotOf('GapV2Bad', 'child'), slotOf('GapV1', 'child'));
    assert.deepEqual(
      check('GapV1', 'GapV2Bad').findings.map((f) => `${f.kind} ${f.path}`),
      ['gap-resized __gap'],
    );
  });

  test('an ERC-7201 namespace grown at its end: fine, the new member added at root + its slot; a member inserted: an error; the namespace gone: namespace-removed', () => {
    const id = 'example.compat.main';
    const root = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256'], [BigInt(keccak256(toUtf8Bytes(id))) - 1n]))) & ~0xffn;
    const ns = named('NsV1').storage.find((v) => v.label === `erc7201:${id}`);
    assert.ok(ns, 'the namespace is an entry of the layout');
    assert.equal(BigInt(ns.slot), root);
    const grown = check('NsV1', 'NsV2Appended');
    assert.deepEqual(grown.findings, []);
    assert.deepEqual(
      grown.added.map((a) => [a.path, a.slot]),
      [[`erc7201:${id}.extra`, root + 2n]],
      'season and open share the first slot, total the second',
    );
    assert.deepEqual(check('NsV1', 'NsV2Inserted').findings, [
      { kind: 'inserted', path: `erc7201:${id}.fee`, before: null, after: `uint256 fee at slot 0x${(root + 1n).toString(16)}`, severity: 'error' },
    ]);
    assert.deepEqual(
      check('NsV1', 'NsV2Removed').findings.map((f) => [f.kind, f.path, f.after]),
      [['namespace-removed', `erc7201:${id}`, null]],
    );
  });

  test("Points (OpenZeppelin 5's namespaces and its own) against itself compiled apart: nothing, though the AST ids differ", () => {
    const points = parseHardhatBuildInfo({ output: compileFixture('Points.sol').output }).find((l) => l.contractName === 'Points')!;
    assert.ok(points.storage.some((v) => v.label === 'erc7201:openzeppelin.storage.ERC20'));
    const again = parseHardhatBuildInfo({
      output: compileSource(
        'contracts/Other.sol',
        `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\ncontract Pad { uint256 x; }\n${readFixture('Points.sol').replace(/^\/\/ SPDX[^\n]*\n|^pragma[^\n]*\n/gm, '')}`,
      ).output,
    }).find((l) => l.contractName === 'Points')!;
    assert.deepEqual(compareLayouts(points, again), { findings: [], added: [] });
  });

  test("an enum's members (from the AST): appended, fine; reordered, the variable and the mapping's values retyped", () => {
    assert.deepEqual(named('EnumV1').types[named('EnumV1').storage[0].typeId].enumMembers, ['Open', 'Closed']);
    assert.deepEqual(check('EnumV1', 'EnumV2Appended'), { findings: [], added: [] });
    assert.deepEqual(
      check('EnumV1', 'EnumV2Reordered').findings.map((f) => [f.kind, f.path, f.before, f.after]),
      [
        ['retyped', 'kind', 'enum EnumV1.Kind kind at slot 0', 'enum EnumV2Reordered.Kind kind at slot 0'],
        ['retyped', 'kinds[]', 'enum EnumV1.Kind kinds at slot +0', 'enum EnumV2Reordered.Kind kinds at slot +0'],
      ],
    );
  });

  test('a layout compared with itself, and each V2 with itself: nothing', () => {
    for (const l of layouts) assert.deepEqual(compareLayouts(l, l), { findings: [], added: [] }, l.contractName);
  });
});
