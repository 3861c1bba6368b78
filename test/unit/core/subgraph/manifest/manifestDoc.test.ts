/**
 * The manifest parse beyond the tutorial: where the nesting bound (64 levels) is found past
 * comments, quotes, flow brackets and `- ` items; duplicate keys; what the `yaml` package's
 * reading gives (keys, anchors, quoted scalars, flow ranges); and the graph CLI's key paths and
 * the ranges they map to.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAtPath, parseCliPath, parseManifest, rangeOfKeyPath, type ManifestDoc } from '../../../../../src/core/subgraph/manifest/manifestDoc';

const MESSAGE = 'The manifest nests more than 64 levels deep here; a subgraph manifest needs a handful, so it is not read further';

/** Offset of the nesting-too-deep error, or -1 when the text is read. */
function deepAt(text: string): number {
  const doc = parseManifest(text);
  const deep = doc.problems.filter((p) => p.code === 'nesting-too-deep');
  assert.ok(deep.length <= 1);
  return deep.length ? deep[0].start : -1;
}

/** `n` block maps, each one space further in: `k0:\n k1:\n  k2:…`. */
const blockLines = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`);
const blockMaps = (n: number) => `${blockLines(n).join('\n')}\n`;
/** The 65 block maps with `line` inserted after the 30th. */
const withLine = (line: string) => {
  const lines = blockLines(65);
  lines.splice(30, 0, line);
  return `${lines.join('\n')}\n`;
};

describe('nesting deeper than 64 levels', () => {
  test('the error covers the one character where level 65 starts, and nothing is read', () => {
    const text = blockMaps(65);
    const doc = parseManifest(text);
    const at = text.indexOf('k64:');
    assert.deepEqual(doc.problems, [{ start: at, end: at + 1, message: MESSAGE, code: 'nesting-too-deep', severity: 'error' }]);
    assert.equal(doc.root, undefined);
    assert.equal(doc.parser, 'yaml');
    assert.equal(deepAt(blockMaps(64)), -1);
  });

  for (const [name, line] of [
    ['a blank line', ''],
    ['a blank CRLF line', '\r'],
    ['a comment line', '# note'],
    ['an indented comment', '     # note'],
    ['a comment after a tab', '\t# note'],
  ] as const) {
    test(`${name} between the levels does not close them`, () => {
      const text = withLine(line);
      assert.equal(deepAt(text), text.indexOf('k64:'));
    });
  }

  test('lines inside an open flow collection do not close block levels, whatever their indentation', () => {
    const lines = blockLines(60);
    const text = `${lines.join('\n')}\n${' '.repeat(60)}k60: [\n[[[\n`;
    // 61 block levels + 4 open brackets: the third `[` of the last line is level 65.
    assert.equal(deepAt(text), text.lastIndexOf('[[[') + 2);
  });

  test('exactly 64 levels ending in a plain key with a space or a one-letter value is read', () => {
    assert.equal(deepAt(`${blockMaps(63)}${' '.repeat(63)}a b: 1\n`), -1);
    assert.equal(deepAt(`${blockMaps(63)}${' '.repeat(63)}x\n`), -1);
    assert.equal(deepAt(`${blockMaps(63)}${' '.repeat(63)}-x: 1\n`), -1);
  });

  test('a `-` alone on its line opens an item, one level', () => {
    const text = `${blockMaps(63)}${' '.repeat(63)}-\n`;
    assert.equal(deepAt(text), text.length - 2);
  });

  test('items of items on one line count with any number of spaces after each dash', () => {
    const text = `x:\n${'-  '.repeat(65)}a\n`;
    // The line's indentation is level 1; its 64th item is level 65.
    assert.equal(deepAt(text), 3 + 3 * 63);
  });

  test('brackets in a comment do not count (after a space or a tab)', () => {
    assert.equal(deepAt(`a: 1 # ${'['.repeat(70)}\n`), -1);
    assert.equal(deepAt(`a: 1\t# ${'['.repeat(70)}\n`), -1);
  });

  test('a `#` inside a word is not a comment: the brackets after it count', () => {
    const text = `x: [a#b, ${'['.repeat(70)}\n`;
    const run = text.indexOf('[[');
    // Level 1 is the line, level 2 the first `[`: the 63rd bracket of the run is level 65.
    assert.equal(deepAt(text), run + 62);
  });

  test('brackets inside quoted scalars do not count', () => {
    assert.equal(deepAt(`a: "${'['.repeat(70)}"\n`), -1);
    assert.equal(deepAt(`a: '${'{'.repeat(70)}'\n`), -1);
    assert.equal(deepAt(`a: 1\n"${'['.repeat(70)}": 1\n`), -1);
    assert.equal(deepAt(`a: "\\"${'['.repeat(70)}"\n`), -1);
  });

  test('brackets after a closed quoted scalar count (single quotes have no backslash escape)', () => {
    for (const quoted of ['"a"', "'a\\'", '"ab"', "'ab'"]) {
      const text = `x: [${quoted}, ${'['.repeat(70)}\n`;
      assert.equal(deepAt(text), text.indexOf('[[') + 62, quoted);
    }
  });

  test('square and curly brackets each open a level', () => {
    assert.equal(deepAt(`x: ${'['.repeat(70)}\n`), 3 + 63);
    assert.equal(deepAt(`x: ${'{'.repeat(70)}\n`), 3 + 63);
    assert.equal(deepAt(`x: ${'[1, '.repeat(70)}\n`), 3 + 4 * 63);
  });

  test('closed brackets close their level, line after line', () => {
    assert.equal(deepAt(Array.from({ length: 70 }, (_, i) => `k${i}: [1]\n`).join('')), -1);
    assert.equal(deepAt(Array.from({ length: 70 }, (_, i) => `k${i}: {a: 1}\n`).join('')), -1);
  });

  test('a stray closing bracket in a plain scalar does not hide the block levels after it', () => {
    const text = `note: a]\n${blockMaps(65)}`;
    assert.equal(deepAt(text), text.indexOf('k64:'));
  });
});

describe('duplicate keys', () => {
  for (const options of [{}, { yamlOnly: true }]) {
    const parser = options.yamlOnly ? 'the yaml package' : 'the default parser';
    test(`in document order, whichever map they are in (${parser})`, () => {
      const text = 'a:\n  x: 1\n  x: 2\nb:\n  y: 1\n  y: 2\nc:\n  z: 1\n  z: 2\n';
      const problems = parseManifest(text, options).problems;
      assert.deepEqual(
        problems.map((p) => [p.code, p.start, p.end, p.message]),
        [
          ['duplicate-key', text.indexOf('x: 2'), text.indexOf('x: 2') + 1, "Duplicate key 'x': already set on line 2; keys of a map must be unique"],
          ['duplicate-key', text.indexOf('y: 2'), text.indexOf('y: 2') + 1, "Duplicate key 'y': already set on line 5; keys of a map must be unique"],
          ['duplicate-key', text.indexOf('z: 2'), text.indexOf('z: 2') + 1, "Duplicate key 'z': already set on line 8; keys of a map must be unique"],
        ],
      );
    });
  }

  test('an empty key repeated: the error still covers one character', () => {
    const doc = parseManifest(': a\n: b\n', { yamlOnly: true });
    assert.deepEqual(
      doc.problems.map((p) => [p.code, p.start, p.end]),
      [['duplicate-key', 4, 5]],
    );
  });
});

describe('the yaml package reading', () => {
  const yaml = (text: string) => parseManifest(text, { yamlOnly: true });
  const value = (doc: ManifestDoc, path: (string | number)[]) => nodeAtPath(doc.root, path);

  test('an alias without an anchor reads as null where the alias is', () => {
    const doc = yaml('a: *missing\n');
    assert.deepEqual(value(doc, ['a'])?.node, { kind: 'scalar', value: null, quoted: false, start: 3, end: 3 });
  });

  test('single- and double-quoted scalars are marked quoted', () => {
    const doc = yaml('a: \'x\'\nb: "y"\nc: z\n');
    assert.deepEqual(
      ['a', 'b', 'c'].map((k) => value(doc, [k])?.node),
      [
        { kind: 'scalar', value: 'x', quoted: true, start: 3, end: 6 },
        { kind: 'scalar', value: 'y', quoted: true, start: 10, end: 13 },
        { kind: 'scalar', value: 'z', quoted: false, start: 17, end: 18 },
      ],
    );
  });

  test('a flow collection ends after its closing bracket', () => {
    const doc = yaml('x: [a, b]\ny: {k: v}\n');
    assert.deepEqual(rangeOfKeyPath(doc, ['x']), { start: { line: 0, character: 3 }, end: { line: 0, character: 9 } });
    assert.deepEqual(rangeOfKeyPath(doc, ['y']), { start: { line: 1, character: 3 }, end: { line: 1, character: 9 } });
  });

  test('keys: quoted keys by their value, number keys and collection keys by their text', () => {
    const doc = yaml('"a b": 1\n1: 2\n[c, d]: 3\n');
    assert.equal(doc.root?.kind, 'map');
    assert.deepEqual(doc.root?.kind === 'map' && doc.root.pairs.map((p) => [p.key, p.keyStart, p.keyEnd]), [
      ['a b', 0, 5],
      ['1', 9, 10],
      ['[c, d]', 14, 20],
    ]);
    assert.equal(value(doc, [1])?.matched, 1);
  });

  test('anchors on keys and inside collection keys resolve', () => {
    const doc = yaml('&k a: 1\nb: *k\n[&x c]: 2\nd: *x\n');
    assert.deepEqual(
      ['b', 'd'].map((k) => {
        const n = value(doc, [k])?.node;
        return n?.kind === 'scalar' ? n.value : n?.kind;
      }),
      ['a', 'c'],
    );
  });

  test('repeated keys are reported once, by Chaindeck, not also by the yaml package', () => {
    assert.deepEqual(
      yaml('a: 1\na: 2\n').problems.map((p) => p.code),
      ['duplicate-key'],
    );
  });
});

describe('graph CLI key paths', () => {
  test('blank and `/` paths are the root; digits alone are list indices', () => {
    assert.deepEqual(parseCliPath(''), []);
    assert.deepEqual(parseCliPath('   '), []);
    assert.deepEqual(parseCliPath(' / '), []);
    assert.deepEqual(parseCliPath('dataSources > 10 > abi2 > 3x > 7'), ['dataSources', 10, 'abi2', '3x', 7]);
  });

  const text =
    'dataSources:\n  - kind: ethereum\n    file: top\n    mapping:\n      file: ./m.ts\n      callHandlers:\n        - handler: a\n      blockHandlers:\n        - handler: b\n  - kind: x\n  - kind: y\n    mapping: m\n  - kind: w\n    mapping:\n      entities:\n        - A\nsource:\n  kind: z\n';
  const doc = parseManifest(text);

  test('call and block handlers are found under mapping, other keys are not', () => {
    assert.equal(nodeAtPath(doc.root, parseCliPath('dataSources > 0 > callHandlers > 0 > handler'))?.matched, 5);
    assert.equal(nodeAtPath(doc.root, parseCliPath('dataSources > 0 > blockHandlers > 0 > handler'))?.matched, 5);
    assert.deepEqual(rangeOfKeyPath(doc, parseCliPath('dataSources > 0 > blockHandlers > 0 > handler')), rangeOfKeyPath(doc, ['dataSources', 0, 'mapping', 'blockHandlers', 0, 'handler']));
    // `file` under the data source is its own; nothing under mapping answers for `entities`.
    assert.deepEqual(rangeOfKeyPath(doc, ['dataSources', 0, 'file']).start, { line: 2, character: 10 });
    assert.equal(nodeAtPath(doc.root, ['dataSources', 1, 'entities'])?.matched, 2);
    assert.equal(nodeAtPath(doc.root, ['dataSources', 3, 'entities'])?.matched, 2);
  });

  test('a handler path stops at the data source when mapping is missing or not a map', () => {
    assert.equal(nodeAtPath(doc.root, ['dataSources', 1, 'eventHandlers', 0])?.matched, 2);
    assert.equal(nodeAtPath(doc.root, ['dataSources', 2, 'eventHandlers', 0])?.matched, 2);
  });

  test('a path stops at an index past the end, a key under a scalar, an index into a map or a key into a list', () => {
    assert.equal(nodeAtPath(doc.root, ['dataSources', 5, 'kind'])?.matched, 1);
    assert.equal(nodeAtPath(doc.root, ['dataSources', 0, 'kind', 'x'])?.matched, 3);
    assert.equal(nodeAtPath(doc.root, ['source', 0, 'kind'])?.matched, 1);
    assert.equal(nodeAtPath(doc.root, ['dataSources', '0', 'kind'])?.matched, 1);
    assert.equal(nodeAtPath(doc.root, ['dataSources', 'length'])?.matched, 1);
    assert.deepEqual(rangeOfKeyPath(doc, ['dataSources', 5, 'kind']), rangeOfKeyPath(doc, ['dataSources']));
  });
});
