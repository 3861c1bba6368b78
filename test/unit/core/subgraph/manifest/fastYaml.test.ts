/**
 * The fast parser for plain block-style manifests (fastYaml.ts), seen through parseManifest: texts
 * inside its subset are read by it (`parser: 'fast'`) into the very tree the `yaml` package builds
 * (values, quoting, ranges); texts outside it (escapes, anchors, comments glued to a value, keys
 * over 1024 characters…) get the `yaml` package's tree and syntax errors. Plain scalars resolve
 * like YAML 1.2 core.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest, type ManifestDoc } from '../../../../../src/core/subgraph/manifest/manifestDoc';
import type { YNode } from '../../../../../src/core/subgraph/ynode';

/** A text inside the subset: the fast parser reads it, into the `yaml` package's error-free tree. */
function fast(text: string): ManifestDoc {
  const doc = parseManifest(text);
  const reference = parseManifest(text, { yamlOnly: true });
  assert.equal(doc.parser, 'fast', `${JSON.stringify(text)} should be read by the fast parser`);
  assert.deepEqual(reference.problems, [], `${JSON.stringify(text)}: the yaml package finds no error`);
  assert.deepEqual(doc.root, reference.root, `${JSON.stringify(text)}: same tree as the yaml package`);
  return doc;
}

/** Whatever parser answers, the result is the `yaml` package's: same tree, same syntax problems. */
function sameAsYaml(text: string): ManifestDoc {
  const doc = parseManifest(text);
  const reference = parseManifest(text, { yamlOnly: true });
  assert.deepEqual(doc.root, reference.root, `${JSON.stringify(text)}: same tree as the yaml package`);
  assert.deepEqual(doc.problems, reference.problems, `${JSON.stringify(text)}: same problems as the yaml package`);
  return doc;
}

/** The value of the first pair of a map root. */
function firstValue(doc: ManifestDoc): YNode {
  assert.equal(doc.root?.kind, 'map');
  return doc.root.kind === 'map' ? doc.root.pairs[0].value : doc.root;
}

const scalar = (value: unknown, start: number, end: number, quoted = false) => ({ kind: 'scalar', value, quoted, start, end });

describe('plain scalars resolve like YAML 1.2 core', () => {
  const resolved = (s: string): unknown => {
    const v = firstValue(sameAsYaml(`k: ${s}\n`));
    assert.equal(v.kind, 'scalar');
    return v.kind === 'scalar' ? v.value : undefined;
  };

  test('booleans, nulls and numbers only when the whole scalar is one', () => {
    for (const s of [
      '_true',
      '1true',
      'trueish',
      'True1',
      '_false',
      '1False',
      'falsey',
      'FALSE_',
      '10o7',
      '0o78',
      '0x1g',
      '1.inf',
      '.infx',
      '-.Info',
      '1.nan',
      '.nanx',
      '1e3x',
      '_1e3',
      '1e',
      '12.5.1',
      '-1.5x',
    ]) {
      assert.equal(resolved(s), s, `${s} stays a string`);
    }
  });
  test('each number form: octal, hex, signed exponents, fractions with several digits', () => {
    const cases: [string, unknown][] = [
      ['true', true],
      ['FALSE', false],
      ['0o17', 15],
      ['0x1F', 31],
      ['-1e3', -1000],
      ['.12e3', 120],
      ['.5e3', 500],
      ['12e3', 12000],
      ['1.25e3', 1250],
      ['1.5e3', 1500],
      ['1e-3', 0.001],
      ['1e10', 1e10],
      ['-1.5', -1.5],
      ['.25', 0.25],
      ['12.5', 12.5],
      ['-.inf', -Infinity],
      ['.NaN', NaN],
      ['/abs/path', '/abs/path'],
      ['zeta', 'zeta'],
      ['Alpha', 'Alpha'],
    ];
    for (const [s, value] of cases) assert.ok(Object.is(resolved(s), value), `${s} → ${String(value)}, got ${String(resolved(s))}`);
    fast('a: 0o17\nb: 0x1F\nc: -1e3\nd: .12e3\ne: 12.5\nf: .25\ng: 1e-3\nh: 1.25e3\n');
  });
});

describe('lines: CRLF ends, comments, blank lines', () => {
  test('CRLF line ends are read by the fast parser and never reach a value', () => {
    const doc = fast('a: b\r\nc:\r\n  - d\r\n');
    assert.deepEqual(firstValue(doc), scalar('b', 3, 4));
  });
  test('a carriage return alone is no line end: the yaml package reads it (and its errors)', () => {
    const doc = sameAsYaml('k: a\r# c\n');
    assert.deepEqual(firstValue(doc), scalar('a\r', 3, 5));
    assert.deepEqual(
      doc.problems.map((p) => p.code),
      ['yaml-syntax'],
    );
  });
  test('comment lines and blank lines between entries, at any indentation', () => {
    fast('# head\na: 1\n\n   \n  # inside\nb:\n  # before\n  c: 2\n');
  });
});

describe('nesting: keys, items, and values on the following lines', () => {
  test("a list may sit at its key's own indentation", () => {
    const doc = fast('a:\n- x\n- y\nb: 1\n');
    assert.equal(firstValue(doc).kind, 'seq');
  });
  test('a list at the column of a key further in is an error (the yaml package reports it)', () => {
    assert.ok(sameAsYaml('a:\n  b:\n- x\n').problems.length > 0);
  });
  test('a bare dash takes the map or list on the following lines as its item', () => {
    const doc = fast('-\n  a: 1\n-\n  - b\n');
    assert.equal(doc.root?.kind, 'seq');
    assert.deepEqual(doc.root?.kind === 'seq' ? doc.root.items.map((i) => i.kind) : [], ['map', 'seq']);
  });
  test('a bare dash followed by another item at its column is a null item', () => {
    const doc = fast('-\n- b\n');
    assert.deepEqual(doc.root, { kind: 'seq', items: [scalar(null, 1, 1), scalar('b', 4, 5)], start: 0, end: 5 });
  });
  test('a dash with only a comment is a null item, and may take nested lines', () => {
    const doc = fast('- # c\n- b\n- # d\n  k: v\n');
    assert.deepEqual(doc.root?.kind === 'seq' ? doc.root.items[0] : undefined, scalar(null, 2, 2));
  });
  test('a key with only a comment takes the nested lines as its value', () => {
    fast('a: # c\n  b: 1\nc:\n  d: 2\n');
  });
  test('negative numbers and dash-led words are values, not items', () => {
    const doc = fast('k: -5\nl: -x\nm:\n  - -3\n');
    assert.deepEqual(firstValue(doc), scalar(-5, 3, 5));
  });
  test('an item holding a comment or `a:b` is a plain scalar, not a map', () => {
    fast('- a # b: c\n- a #b: c\n- a:b\n- x # y\n');
  });
  test('keys ending in ... or --- are plain keys, not document markers', () => {
    fast('a...: 1\nb---: 2\n');
  });
  test('a key is the text before its colon, spaces before the colon excluded', () => {
    const doc = sameAsYaml('a : 1\nb c: 2\n');
    assert.deepEqual(doc.root?.kind === 'map' ? doc.root.pairs.map((p) => [p.key, p.keyStart, p.keyEnd]) : [], [
      ['a', 0, 1],
      ['b c', 6, 9],
    ]);
  });
  test('a key up to 1000 characters is read by the fast parser; over 1024 the yaml package reports it', () => {
    fast(`${'k'.repeat(1000)}: 1\n`);
    const long = sameAsYaml(`${'k'.repeat(1100)}: 1\n`);
    assert.deepEqual(
      long.problems.map((p) => p.code),
      ['yaml-syntax'],
    );
  });
});

describe('values: plain, quoted, comments after them', () => {
  test('a plain value ends before ` #`, not at a # inside a word', () => {
    const doc = fast('k: a#b\nl: a #b\nm: a # b\n');
    assert.deepEqual(firstValue(doc), scalar('a#b', 3, 6));
    assert.deepEqual(doc.root?.kind === 'map' ? doc.root.pairs[1].value : undefined, scalar('a', 10, 11));
  });
  test('quoted values, with a comment after them', () => {
    const doc = fast('k: "v"\nl: \'w\' # c\nm: "x" # d\n');
    assert.deepEqual(firstValue(doc), scalar('v', 3, 6, true));
  });
  test('a comment glued to a closing quote is an error, as the yaml package says', () => {
    assert.ok(sameAsYaml('k: "v"#c\n').problems.length > 0);
  });
  test("a ' right after a closing double quote does not continue the string", () => {
    assert.ok(sameAsYaml('k: "a"\'b"\n').problems.length > 0);
  });
  test('escapes in double quotes are decoded; backslashes in single quotes are kept', () => {
    assert.deepEqual(firstValue(sameAsYaml('k: "a\\nb"\n')), scalar('a\nb', 3, 9, true));
    assert.deepEqual(firstValue(fast("k: 'a\\b'\n")), scalar('a\\b', 3, 8, true));
  });
  test("'' inside single quotes is one quote; an empty quoted string is empty", () => {
    assert.deepEqual(firstValue(fast("k: 'it''s'\n")), scalar("it's", 3, 10, true));
    assert.deepEqual(firstValue(fast("k: ''\n")), scalar('', 3, 5, true));
    fast("k: ''''\nl: 'a''''b'\n");
  });
});

describe('flow sequences on one line', () => {
  test('an empty list ends after its bracket', () => {
    assert.deepEqual(firstValue(fast('k: []\n')), { kind: 'seq', items: [], start: 3, end: 5 });
    fast('k: [ ]\n');
  });
  test('plain and quoted items, spaces trimmed, each with its range', () => {
    const doc = fast('k: [a , b]\n');
    assert.deepEqual(firstValue(doc), { kind: 'seq', items: [scalar('a', 4, 5), scalar('b', 8, 9)], start: 3, end: 10 });
    fast('k: ["a", \'b\', c]\nl: [ x ]\nm: [a b, 1] # c\n');
  });
  test("anchors, nested dashes or garbage inside brackets are the yaml package's to read", () => {
    sameAsYaml('k: [&x]\n');
    sameAsYaml('- [- a]\n');
    assert.ok(sameAsYaml('k: ["a" xy]\n').problems.length > 0);
  });
});
