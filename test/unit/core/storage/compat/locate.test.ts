/**
 * Findings placed in the Solidity file for the editor's Problems (findings → diagnostics): on the
 * variable's declaration in the contract (not a same-named local or a use in a function), on a
 * member of the ERC-7201 namespace struct its comment names, else on the `contract X` keyword.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { findingText, placeFindings } from '../../../../../src/core/storage/compat/locate';
import type { CompatFinding } from '../../../../../src/core/storage/compat/rules';

const f = (kind: CompatFinding['kind'], p: string): CompatFinding => ({ kind, path: p, before: null, after: `x ${p}`, severity: 'error' });

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
// fee; is only a comment
contract Other {
    uint256 public fee;
}

contract Box is Base {
    address public owner;
    uint256 public fee = 1;
    mapping(address => uint256) public balances;
    string note = "total;";

    /// @custom:storage-location erc7201:example.compat.main
    struct MainStorage {
        uint64 season;
        uint256 total;
    }

    function set(uint256 total) external {
        uint256 owner;
        fee = total + owner;
    }
}
`;
const lineOf = (needle: string) => SOURCE.split('\n').findIndex((l) => l.includes(needle));

describe('findings placed in the source', () => {
  test("a state variable's declaration in its own contract, the name's columns", () => {
    const [fee, balances, owner] = placeFindings(SOURCE, 'Box', [f('inserted', 'fee'), f('retyped', 'balances[].x'), f('renamed', 'owner')]);
    const feeLine = SOURCE.split('\n')[lineOf('uint256 public fee = 1')];
    assert.deepEqual([fee.line, fee.start, fee.end, fee.exact], [lineOf('uint256 public fee = 1'), feeLine.indexOf('fee'), feeLine.indexOf('fee') + 3, true]);
    assert.equal(balances.line, lineOf('public balances'));
    assert.equal(owner.line, lineOf('address public owner'), 'not the local of the same name');
  });

  test('a namespace member on its line in the struct the comment names; the namespace itself on the struct', () => {
    const [total, season, whole] = placeFindings(SOURCE, 'Box', [
      f('inserted', 'erc7201:example.compat.main.total'),
      f('moved', 'erc7201:example.compat.main.season'),
      f('inserted', 'erc7201:example.compat.main'),
    ]);
    assert.equal(total.line, lineOf('uint256 total;'));
    assert.equal(season.line, lineOf('uint64 season'));
    assert.deepEqual([whole.line, whole.exact], [lineOf('struct MainStorage'), true]);
  });

  test('a variable not declared here (a base, or one removed) and a namespace gone: the contract keyword, not exact', () => {
    const places = placeFindings(SOURCE, 'Box', [f('removed', 'total'), f('namespace-removed', 'erc7201:other.ns'), f('removed', 'note2')]);
    for (const p of places) assert.deepEqual([p.line, p.start, p.end, p.exact], [lineOf('contract Box'), 0, 'contract'.length, false]);
    assert.equal(placeFindings(SOURCE, 'Box', [f('removed', 'note')])[0].line, lineOf('string note'), 'a string holding "total;" is not a declaration');
  });

  test('the fixture: every V2 finding lands on its declaration', () => {
    const text = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'solidity', 'UpgradeCompat.sol'), 'utf8');
    const lines = text.split('\n');
    const [inserted] = placeFindings(text, 'BoxV2Inserted', [f('inserted', 'fee')]);
    assert.match(lines[inserted.line], /uint256 public fee;/);
    assert.ok(lines.slice(0, inserted.line).some((l) => l.includes('contract BoxV2Inserted')));
    assert.ok(!lines.slice(0, inserted.line).some((l) => l.includes('contract BoxV2Removed')));
    const [member] = placeFindings(text, 'NsV2Inserted', [f('inserted', 'erc7201:example.compat.main.fee')]);
    assert.match(lines[member.line], /uint256 fee;/);
    assert.ok(lines.slice(0, member.line).some((l) => l.includes('contract NsV2Inserted')));
  });

  test('the text of a finding', () => {
    assert.equal(findingText({ kind: 'removed', path: 'total', before: 'uint256 total at slot 1', after: null, severity: 'error' }), 'removed total: uint256 total at slot 1 → nothing');
  });
});
