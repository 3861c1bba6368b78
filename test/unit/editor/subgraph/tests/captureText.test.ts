/** What "Capture Test from Blocks…" accepts as a range, and where its lenses sit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockProblem, dataSourceLines, parseBlock } from '../../../../../src/editor/subgraph/tests/captureText';

test('a block is a whole number, decimal or 0x hex, underscores allowed', () => {
  assert.equal(parseBlock('18500000'), 18_500_000);
  assert.equal(parseBlock(' 18_500_000 '), 18_500_000);
  assert.equal(parseBlock('0x10'), 16);
  for (const bad of ['', '-1', '1.5', '1e6', 'latest', '0x', '99999999999999999999']) assert.equal(parseBlock(bad), undefined, bad);
});

test('the inline message says what is wrong, in one line; a last block before the first is refused', () => {
  assert.equal(blockProblem('12'), undefined);
  assert.equal(blockProblem(''), 'Give a block number.');
  assert.match(blockProblem('twelve')!, /^"twelve" is not a block number/);
  assert.equal(blockProblem('11', 12), 'The last block comes before the first (12): give 12 or a later block.');
  assert.equal(blockProblem('12', 12), undefined);
  assert.ok(!blockProblem('x'.repeat(10_000))!.includes('x'.repeat(41)), 'the text quoted is cut');
});

test("a data source's lens goes on its own name line, not on its ABI's of the same name", () => {
  const yaml = [
    'specVersion: 1.0.0',
    'dataSources:',
    '  - kind: ethereum',
    '    name: Token',
    '    network: mainnet',
    '    mapping:',
    '      abis:',
    '        - name: Token',
    '          file: ./abis/Token.json',
    '  - kind: ethereum',
    "    name: 'Points'",
    '',
  ].join('\n');
  const lines = dataSourceLines(yaml, ['Token', 'Points', 'Missing', undefined]);
  assert.equal(lines.get('Token'), 3);
  assert.equal(lines.get('Points'), 10);
  assert.equal(lines.has('Missing'), false);
});
