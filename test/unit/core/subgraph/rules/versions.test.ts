/**
 * Versions: parsing and comparing x.y.z, the graph-ts release each mapping apiVersion needs, and
 * package.json ranges against a graph-cli release, at the edges of each rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_VERSIONS, compareVersions, LATEST_API_VERSION, LATEST_SPEC_VERSION, parseVersion, rangeAtLeast } from '../../../../../src/core/subgraph/rules/versions';

test('parseVersion: three runs of up to 9 digits, trimmed, nothing else', () => {
  assert.deepEqual(parseVersion(' 0.0.9 '), [0, 0, 9]);
  assert.deepEqual(parseVersion('123456789.0.1'), [123456789, 0, 1]);
  for (const bad of ['1234567890.0.0', '1.2.3.4', 'v1.2.3', '1.2.3-rc', '1..3', 'x1.2.3', '1.2.3x', '', undefined, 1.2]) assert.equal(parseVersion(bad), undefined, String(bad));
});

test('compareVersions: each part in turn, numerically; suffixes and junk count as 0.0.0', () => {
  assert.ok(compareVersions('1.0.0', '0.99.99') > 0);
  assert.ok(compareVersions('0.2.0', '0.10.0') < 0);
  assert.ok(compareVersions('0.0.2', '0.0.10') < 0);
  assert.equal(compareVersions('1.2.3', '1.2.3'), 0);
  assert.equal(compareVersions('1.2.3+build.5', '1.2.3'), 0);
  assert.equal(compareVersions('junk', '0.0.0'), 0);
  assert.ok(compareVersions('junk', '0.0.1') < 0);
  assert.equal(compareVersions('0.0.9', '0.0.7'), 2, 'the difference of the first part that differs');
});

test('the newest versions graph-cli 0.98 knows', () => {
  assert.equal(LATEST_SPEC_VERSION, '1.3.0');
  assert.equal(LATEST_API_VERSION, '0.0.9');
  assert.equal(API_VERSIONS[0], '0.0.5');
});

test('rangeAtLeast at each boundary: exact, caret and tilde ranges ending just below or at the version', () => {
  const cases: [string, boolean | undefined][] = [
    ['0.97.0', true],
    ['=0.96.9', false],
    ['^0.96.0', false], // up to 0.97.0, exclusive
    ['~0.96.5', false],
    ['^0.95.0', false],
    ['^0.0.5', false],
    ['^1.0.0', true],
    ['^0.97.0-alpha.1', true],
    ['  ~ 0.97.1  ', true],
    [' >= 0.90.0 ', undefined],
  ];
  for (const [range, expected] of cases) assert.equal(rangeAtLeast(range, '0.97.0'), expected, range);
  // A caret range on 0.x reaches the next minor only; on 1.x the next major.
  assert.equal(rangeAtLeast('^0.97.0', '0.98.0'), false, 'every release ^0.97.0 allows is below 0.98.0');
  assert.equal(rangeAtLeast('^0.97.0', '0.97.5'), undefined, 'some below 0.97.5, some not');
  assert.equal(rangeAtLeast('^0.96.0', '0.98.0'), false);
  assert.equal(rangeAtLeast('^1.2.0', '1.9.0'), undefined, 'from 1.2.0 up to 2.0.0: some below, some above');
  assert.equal(rangeAtLeast('^1.2.0', '2.0.0'), false);
  assert.equal(rangeAtLeast('~1.2.0', '1.3.0'), false);
  assert.equal(rangeAtLeast('~1.2.0', '1.2.5'), undefined);
});
