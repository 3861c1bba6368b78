import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { findTestFiles, locateTest, NoTestFilesError, parseTestFile, readTestFile, TestFileError } from '../../../../src/core/gndtest/testFile';

const withFolder = (fn: (dir: string) => void) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaindeck-testfile-'));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const TEXT = `{
  "name": "Transfer \\"quoted\\" stores it",
  "blocks": [{ "number": 1, "events": [{ "address": "0x00", "event": "E()", "params": { "s": "a,]}" } }] }],
  "assertions": [
    { "query": "{ a }", "expected": { "a": [1, 2] } },
    {
      "expected": null,
      "query": "{\\n  b\\n}"
    }
  ]
}`;

test('the name and each assertion and its query are found where they are in the text', () => {
  const { test: t, locations } = parseTestFile('t.json', TEXT);
  assert.equal(t.name, 'Transfer "quoted" stores it');
  const at = (span: { offset: number; length: number } | undefined) => (span ? TEXT.slice(span.offset, span.offset + span.length) : undefined);
  assert.equal(at(locations.name), '"Transfer \\"quoted\\" stores it"');
  assert.equal(locations.assertions.length, 2);
  assert.equal(at(locations.assertions[0].span), '{ "query": "{ a }", "expected": { "a": [1, 2] } }');
  assert.equal(at(locations.assertions[0].query), '"{ a }"');
  assert.equal(at(locations.assertions[1].query), '"{\\n  b\\n}"');
  assert.match(at(locations.assertions[1].span)!, /^\{\n {6}"expected": null,\n {6}"query": "\{\\n {2}b\\n\}"\n {4}\}$/);
});

test('a file without assertions or a name is located as far as it goes', () => {
  assert.deepEqual(locateTest('{"blocks": []}'), { name: undefined, assertions: [] });
  assert.deepEqual(locateTest('[1, 2]'), { name: undefined, assertions: [] });
});

test('bad files: one line naming the file and what is wrong; the name kept when there is one', () => {
  const problem = (text: string) => {
    try {
      parseTestFile('tests/x.json', text);
    } catch (err) {
      assert.ok(err instanceof TestFileError);
      assert.doesNotMatch(err.message, /\n/);
      return [err.message, err.testName];
    }
    assert.fail('accepted');
  };
  assert.match(problem('{ "name": "broken", ')[0]!, /^tests\/x.json is not valid JSON: /);
  assert.deepEqual(problem('[]'), ['tests/x.json is not a gnd test file: it holds no object ({"name", "blocks", "assertions"})', undefined]);
  assert.deepEqual(problem('{"blocks": []}'), ['tests/x.json is not a gnd test file: "name" is missing or not a string', undefined]);
  assert.deepEqual(problem('{"name": "n", "assertions": [{"expected": 1}]}'), ['tests/x.json is not a gnd test file: assertion 1 has no "query" string', 'n']);
  assert.deepEqual(problem('{"name": "n", "assertions": [{"query": "{ a }"}]}'), ['tests/x.json is not a gnd test file: assertion 1 has no "expected"', 'n']);
  assert.match(problem(`{"name": "deep", "x": ${'['.repeat(600)}${']'.repeat(600)}}`)[0]!, /nests deeper than 512 levels/);
});

test('a FIFO or a folder given as a test file is refused without blocking', () => {
  withFolder((dir) => {
    assert.throws(
      () => readTestFile(dir),
      (err: unknown) => err instanceof TestFileError && /folder|directory/i.test(err.message),
    );
    assert.throws(
      () => readTestFile('/dev/zero'),
      (err: unknown) => err instanceof TestFileError && err.message.includes('/dev/zero'),
    );
  });
});

test('findTestFiles: tests/ beside the manifest by default, *.json in subfolders too, names starting with a letter or digit, sorted', () => {
  withFolder((dir) => {
    const tests = path.join(dir, 'tests');
    mkdirSync(path.join(tests, 'more'), { recursive: true });
    for (const f of ['b.json', 'a.test.json', 'notes.md', '.hidden.json', '_draft.json', 'more/c.json']) writeFileSync(path.join(tests, f), '{}');
    symlinkSync(path.join(tests, 'gone.json'), path.join(tests, 'dangling.json'));
    const manifest = path.join(dir, 'subgraph.yaml');
    assert.deepEqual(
      findTestFiles(manifest).map((f) => path.relative(dir, f)),
      ['tests/a.test.json', 'tests/b.json', 'tests/more/c.json'],
    );
    // Given paths: from cwd, a file as it is (whatever its name), a folder searched, each once.
    assert.deepEqual(
      findTestFiles(manifest, ['tests/b.json', 'tests/more', 'tests/notes.md', 'tests/b.json'], dir).map((f) => path.relative(dir, f)),
      ['tests/b.json', 'tests/more/c.json', 'tests/notes.md'],
    );
  });
});

test('findTestFiles: a missing tests folder, a missing file, an empty folder each say so', () => {
  withFolder((dir) => {
    const manifest = path.join(dir, 'subgraph.yaml');
    assert.throws(
      () => findTestFiles(manifest),
      (err: unknown) => err instanceof NoTestFilesError && err.message.startsWith(`no tests: ${path.join(dir, 'tests')} does not exist`),
    );
    assert.throws(() => findTestFiles(manifest, ['nope.json'], dir), { message: `${path.join(dir, 'nope.json')} does not exist` });
    mkdirSync(path.join(dir, 'tests'));
    assert.throws(() => findTestFiles(manifest), { message: `no test files (*.json) in ${path.join(dir, 'tests')}` });
  });
});
