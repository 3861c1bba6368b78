/** Which assertion of a test file each of gnd's results belongs to, and the diff's sides. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffSide, resultOfFile, resultsByAssertion, runSummary, sameQuery } from '../../../../../src/editor/subgraph/tests/results';

const r = (query: string, passed = true) => ({ query, passed });

test('a query compares equal with its line breaks and indentation folded, as gnd prints it', () => {
  assert.ok(sameQuery('{\n  accounts(orderBy: id) {\n    id\n  }\n}', '{ accounts(orderBy: id) { id } }'));
  assert.ok(!sameQuery('{ accounts { id } }', '{ transfers { id } }'));
});

test('results go to the assertion with the same query, whatever order gnd printed them in', () => {
  const placed = resultsByAssertion(['{ a }', '{ b }', '{ c }'], [r('{ c }', false), r('{ a }'), r('{ b }')]);
  assert.deepEqual(
    placed.map((p) => p?.query),
    ['{ a }', '{ b }', '{ c }'],
  );
  assert.equal(placed[2]?.passed, false);
});

test('two assertions with one query take one result each, in order', () => {
  const placed = resultsByAssertion(['{ a }', '{ a }'], [r('{ a }', true), r('{ a }', false)]);
  assert.deepEqual(
    placed.map((p) => p?.passed),
    [true, false],
  );
});

test('a query gnd printed otherwise falls back to its position; one gnd never reached has no result', () => {
  const placed = resultsByAssertion(['{ a }', '{ b }', '{ c }'], [r('{ a }'), r('{ b… }', false)]);
  assert.equal(placed[1]?.query, '{ b… }');
  assert.equal(placed[2], undefined);
});

test('the diff shows pretty JSON; a side gnd did not give is empty', () => {
  assert.equal(diffSide({ accounts: [{ id: '0x1' }] }), '{\n  "accounts": [\n    {\n      "id": "0x1"\n    }\n  ]\n}');
  assert.equal(diffSide(undefined), '');
  assert.equal(diffSide(null), 'null');
});

test("the diff's sides have their keys in one order, as the CLI's diff: key order alone is no difference", () => {
  const expected = { pings: [{ n: '8', id: 'a', from: { z: 1, a: 2 } }] };
  const actual = { pings: [{ from: { a: 2, z: 1 }, id: 'a', n: '8' }] };
  assert.equal(diffSide(expected), diffSide(actual));
  assert.match(diffSide(expected), /"from": \{\n\s+"a": 2,\n\s+"z": 1\n\s+\},\n\s+"id": "a",\n\s+"n": "8"/);
});

test('a file result is found by its path; the summary counts passed and failed', () => {
  const results = [
    { file: '/p/tests/a.json', name: 'a', passed: true, assertions: [] },
    { file: '/p/tests/b.json', name: 'b', passed: false, assertions: [] },
  ];
  assert.equal(resultOfFile(results, '/p/tests/b.json')?.name, 'b');
  assert.equal(resultOfFile(results, '/p/tests/c.json'), undefined);
  assert.equal(runSummary(results, 6400), 'Tests: 1 passed, 1 failed (6.4 s)');
});
