/** gnd test's printed report read back: each shape below was printed by the real gnd 0.45.0 (test/fixtures/gndtest/*.out.txt). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gndFailureLine, parseGndOutput, type KnownTest } from '../../../../src/core/gndtest/output';
import type { GndTestFile } from '../../../../src/core/gndtest/testFile';

const fixtures = path.join(__dirname, '..', '..', '..', 'fixtures', 'gndtest');
const output = (name: string) => readFileSync(path.join(fixtures, `${name}.out.txt`), 'utf8');
/** A fixture test file as the parser knows it, under the path gnd was given. */
const known = (fixture: string, file = `tests/${fixture}.json`): KnownTest => {
  const test = JSON.parse(readFileSync(path.join(fixtures, `${fixture}.json`), 'utf8')) as GndTestFile;
  return { file, name: test.name, assertions: test.assertions ?? [] };
};

test('a failed assertion: named, its expected from the file, its actual put back together from the diff', () => {
  const results = parseGndOutput(output('failures'), [known('fail'), known('multi'), known('pass')]);
  const fail = results.get('tests/fail.json')!;
  assert.equal(fail.passed, false);
  assert.equal(fail.error, undefined);
  assert.deepEqual(fail.assertions, [
    {
      query: '{ pings { id n from version } }',
      passed: false,
      expected: { pings: [{ id: `0x${'a'.repeat(64)}-0`, n: '8', from: '0x1111111111111111111111111111111111111111', version: 'v1' }] },
      actual: { pings: [{ from: '0x1111111111111111111111111111111111111111', id: `0x${'a'.repeat(64)}-0`, n: '7', version: 'v1' }] },
    },
  ]);
});

test('a multi-line query, passed and failed assertions in one test, each failure given its own diff', () => {
  const multi = parseGndOutput(output('failures'), [known('fail'), known('multi'), known('pass')]).get('tests/multi.json')!;
  assert.equal(multi.passed, false);
  assert.deepEqual(
    multi.assertions.map((a) => [a.query, a.passed]),
    [
      ['{ pings { n } }', true],
      ['{ pings { id n from version } }', true],
      ['{\n  pings {\n    from\n  }\n}', false],
      ['{ pings(first: 1) { id } }', false],
    ],
  );
  assert.deepEqual(multi.assertions[2].actual, { pings: [{ from: '0x1111111111111111111111111111111111111111' }] });
  assert.deepEqual(multi.assertions[2].expected, { pings: [{ from: '0x3333333333333333333333333333333333333333' }, { from: '0x4444444444444444444444444444444444444444' }] });
  assert.deepEqual(multi.assertions[3].actual, { pings: [{ id: `0x${'a'.repeat(64)}-0` }] });
  assert.deepEqual(multi.assertions[3].expected, { pings: [] });
  assert.equal(multi.assertions[0].expected, undefined, 'a passed assertion carries no values');
});

test('a passing test after failing ones', () => {
  const pass = parseGndOutput(output('failures'), [known('fail'), known('multi'), known('pass')]).get('tests/pass.json')!;
  assert.deepEqual(pass, { passed: true, assertions: [{ query: '{ pings { id n from version } }', passed: true }] });
});

test('a handler error, a file gnd could not parse, and a test without blocks, in one report', () => {
  const broken: KnownTest = { file: 'tests/bad.json', name: 'bad', assertions: [] };
  const noBlocks: KnownTest = { file: 'tests/noblocks.json', name: 'no blocks', assertions: [] };
  const results = parseGndOutput(output('mixed'), [known('boom'), broken, noBlocks, known('pass')]);
  const boom = results.get('tests/boom.json')!;
  assert.equal(boom.passed, false);
  assert.match(boom.error!, /^Handler error: at block #1: .*boom after 3 pings in handler `handleBoom`/);
  assert.deepEqual(boom.assertions, [], 'gnd reports no assertion after a handler error');
  assert.match(results.get('tests/bad.json')!.error!, /^gnd could not read the file: Failed to parse test file tests\/bad.json: EOF while parsing/);
  assert.deepEqual(results.get('tests/noblocks.json'), { passed: true, assertions: [] });
  assert.match(results.get('tests/pass.json')!.error!, /^Handler error: Sync timeout after 60s$/);
});

test("gnd's own error for a test it could not feed (a param it cannot encode)", () => {
  const badParam: KnownTest = { file: '../badparam.json', name: 'bad param', assertions: [{ query: '{ pings { id } }', expected: {} }] };
  assert.deepEqual(parseGndOutput(output('badparam'), [badParam]).get('../badparam.json'), { passed: false, assertions: [], error: 'Invalid address' });
});

test('colours are read through, and a file gnd did not report is absent', () => {
  const coloured = output('failures')
    .replace(/✔/g, '\x1b[32m✔\x1b[0m')
    .replace(/✘/g, '\x1b[31m✘\x1b[0m')
    .replace(/^Failures:/m, '\x1b[31;1mFailures:\x1b[0m');
  const results = parseGndOutput(coloured, [known('fail'), known('multi'), known('pass', 'tests/other.json')]);
  assert.equal(results.get('tests/fail.json')!.assertions[0].actual !== undefined, true);
  assert.equal(results.has('tests/other.json'), false);
});

test("the line that says why gnd ended: its Error line, else a panic's message, else its last line", () => {
  assert.equal(
    gndFailureLine("→ Loading manifest\nError: Failed to resolve built manifest path — did you run 'gnd build'?\n"),
    "Failed to resolve built manifest path — did you run 'gnd build'?",
  );
  assert.equal(gndFailureLine("thread 'main' panicked at store/postgres/src/connection_pool.rs:1:\ncould not find password\nnote: …"), 'gnd panicked: could not find password');
  assert.equal(gndFailureLine('\n\n'), undefined);
});

test('a name with escapes or a line break (printed by gnd as the file holds it) still gets its failed assertion and its diff', () => {
  for (const name of ['Ping \x1b[2J\x1b]0;pwned\x07wrong n', 'Ping\nwrong n', 'Ping\r\nwrong\tn\x1b[31m']) {
    const text = output('failures').replaceAll('Ping wrong n', name);
    const fail = parseGndOutput(text, [{ ...known('fail'), name }, known('multi'), known('pass')]).get('tests/fail.json')!;
    assert.equal(fail.passed, false, JSON.stringify(name));
    assert.deepEqual(fail.assertions[0].actual, {
      pings: [{ from: '0x1111111111111111111111111111111111111111', id: `0x${'a'.repeat(64)}-0`, n: '7', version: 'v1' }],
    });
    assert.deepEqual(parseGndOutput(text, [{ ...known('fail'), name }, known('multi'), known('pass')]).get('tests/multi.json')!.assertions[3].expected, { pings: [] });
  }
});
