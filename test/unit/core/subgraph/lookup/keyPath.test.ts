/**
 * placeAt: where a cursor is in subgraph.yaml, read from indentation alone (completions and
 * hovers ask it on half-typed lines a YAML parser gives up on). `|` marks the cursor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { placeAt } from '../../../../../src/core/subgraph/lookup/keyPath';
import { shapeAt } from '../../../../../src/core/subgraph/manifest/shape';
import { TUTORIAL } from '../../../../fixtures/subgraphs/corpus';

const MANIFEST = fs.readFileSync(path.join(TUTORIAL, 'subgraph.yaml'), 'utf8');

/** The place at the last `|` of a text (that bar removed; an earlier one is YAML's). */
function at(marked: string) {
  const offset = marked.lastIndexOf('|');
  const before = marked.slice(0, offset).split('\n');
  return placeAt(marked.slice(0, offset) + marked.slice(offset + 1), before.length - 1, before[before.length - 1].length);
}
const ds = ['dataSources', 0];

test('on a key: the map it is in, the key, and the key text columns', () => {
  assert.deepEqual(at(MANIFEST.replace('startBlock', 'start|Block')), { part: 'key', path: [...ds, 'source'], key: 'startBlock', start: 6, end: 16, column: 6 });
  assert.deepEqual(at(MANIFEST.replace('specVersion', '|specVersion')), { part: 'key', path: [], key: 'specVersion', start: 0, end: 11, column: 0 });
});

test('in a value: the key path of the value, and the value text columns (quotes excluded)', () => {
  assert.deepEqual(at(MANIFEST.replace('network: mainnet', 'network: main|net')), { part: 'value', path: [...ds, 'network'], start: 13, end: 20, column: 4 });
  const address = at(MANIFEST.replace('"0xA0b8', '"0x|A0b8'));
  assert.deepEqual(address, { part: 'value', path: [...ds, 'source', 'address'], start: 16, end: 58, column: 6 });
  assert.deepEqual(at(MANIFEST.replace('handler: handleApproval', 'handler: handle|Approval')).path, [...ds, 'mapping', 'eventHandlers', 0, 'handler']);
});

test('list items: a scalar item is a value at its index; a key of a map item counts the items', () => {
  assert.deepEqual(at(MANIFEST.replace('- ApprovalQuery', '- Appro|valQuery')), { part: 'value', path: [...ds, 'mapping', 'entities', 0], start: 10, end: 23, column: 10 });
  assert.deepEqual(at(MANIFEST.replace('        - name: ERC20', '        - name: ERC20\n        - name: Other\n          file: ./abis/|Other.json')).path, [
    ...ds,
    'mapping',
    'abis',
    1,
    'file',
  ]);
  assert.deepEqual(at(MANIFEST.replace('          handler: handleApproval\n', '          handler: handleApproval\n        - ev|\n')), {
    part: 'value',
    path: [...ds, 'mapping', 'eventHandlers', 1],
    start: 10,
    end: 12,
    column: 10,
  });
});

test('at the first and last character of a value, and right after the colon of a list item key', () => {
  assert.deepEqual(at('a: |bc\n'), { part: 'value', path: ['a'], start: 3, end: 5, column: 0 });
  assert.deepEqual(at('a: bc|\n'), { part: 'value', path: ['a'], start: 3, end: 5, column: 0 });
  assert.deepEqual(at('x:\n- a:| 1\n'), { part: 'value', path: ['x', 0, 'a'], start: 5, end: 6, column: 2 });
});

test('a new `- ` item: a value at the next index, even under a key without a list yet', () => {
  assert.deepEqual(at(MANIFEST.replace('          handler: handleApproval\n', '          handler: handleApproval\n        - |\n')), {
    part: 'value',
    path: [...ds, 'mapping', 'eventHandlers', 1],
    start: 10,
    end: 10,
    column: 10,
  });
  assert.deepEqual(at('dataSources:\n  - kind: ethereum\n  - |\n'), { part: 'value', path: ['dataSources', 1], start: 4, end: 4, column: 4 });
  assert.deepEqual(at('a:\n  b: 1\n  - |\n'), { part: 'value', path: ['a', 'b', 0], start: 4, end: 4, column: 4 });
  assert.deepEqual(at('specVersion: 1.3.0\nconstructor:\n  - a\n  - |'), { part: 'value', path: ['constructor', 1], start: 4, end: 4, column: 4 });
});

test('a new `- ` line: its shape tells an entity or feature value from the first key of a handler', () => {
  // Completions offer keys where the shape at a `- ` value is an object.
  const item = (text: string) => {
    const place = at(`${text}|`);
    return { path: place.path, type: shapeAt(place.path)?.type };
  };
  assert.deepEqual(item('specVersion: 1.3.0\nfeatures:\n  - grafting\n  - '), { path: ['features', 1], type: 'String' });
  const source = 'specVersion: 1.3.0\ndataSources:\n  - kind: ethereum\n    mapping:\n';
  assert.deepEqual(item(`${source}      entities:\n        - Token\n        - `), { path: [...ds, 'mapping', 'entities', 1], type: 'String' });
  assert.deepEqual(item(`${source}      eventHandlers:\n        - event: A()\n        - `), { path: [...ds, 'mapping', 'eventHandlers', 1], type: 'object' });
});

test('keys of a list item map, a named map, and a quoted list item', () => {
  assert.deepEqual(at('dataSources:\n  - kind: ethereum\n    na|\n'), { part: 'key', path: ['dataSources', 0], start: 4, end: 6, column: 4 });
  assert.deepEqual(at('dataSources:\n  foo:\n    kind: ethereum\n    na|\n'), { part: 'key', path: ['dataSources', 'foo'], start: 4, end: 6, column: 4 });
  assert.deepEqual(at('dataSources:\n  - "abc|"\n'), { part: 'value', path: ['dataSources', 0], start: 5, end: 8, column: 5 });
});

test('half-typed and blank lines: the map the indentation puts them in', () => {
  assert.deepEqual(at(MANIFEST.replace('      startBlock: 6082465\n', '      startBlock: 6082465\n      sta|\n')), { part: 'key', path: [...ds, 'source'], start: 6, end: 9, column: 6 });
  assert.deepEqual(at(MANIFEST.replace('    mapping:\n', '    |\n    mapping:\n')), { part: 'key', path: ds, start: 4, end: 4, column: 4 });
  assert.deepEqual(at(MANIFEST.replace('    source:\n', '    source:\n      |\n')).path, [...ds, 'source']);
  assert.deepEqual(at(`${MANIFEST}templates:\n  - kind: file/ipfs\n    mapping:\n      |\n`).path, ['templates', 0, 'mapping']);
  assert.deepEqual(at('|'), { part: 'key', path: [], start: 0, end: 0, column: 0 });
  assert.deepEqual(at('network: |'), { part: 'value', path: ['network'], start: 9, end: 9, column: 0 });
  assert.deepEqual(at('a:\n  |\n'), { part: 'key', path: ['a'], start: 2, end: 2, column: 2 });
  assert.deepEqual(at('# note|\n'), { part: 'key', path: [], start: 6, end: 6, column: 6 });
});

test('comments, quoted keys, CRLF and block scalars do not move the path', () => {
  assert.deepEqual(at('a:\n  # b: x\n  c: |y'), { part: 'value', path: ['a', 'c'], start: 5, end: 6, column: 2 });
  assert.deepEqual(at('a: 1 # note\nb: tw|o # more'), { part: 'value', path: ['b'], start: 3, end: 6, column: 0 });
  assert.deepEqual(at('a:\n  b: 1\nc: 1 # x - |\n'), { part: 'value', path: ['c'], start: 3, end: 4, column: 0 }, 'the `- ` in a comment is no item');
  assert.deepEqual(at(`"a b":\n  'it''s': |x`).path, ['a b', "it's"]);
  assert.deepEqual(at('a:\r\n  b: 1\r\n  c: |2').path, ['a', 'c']);
  // The lines of `description: |` are text, however they look, while indented past the key.
  assert.deepEqual(at('description: |\n  x: 1\n  - y\nschema:\n  file: |s').path, ['schema', 'file']);
  assert.deepEqual(at('description: >\n  x:\n    y: 1\nz: |1').path, ['z']);
  assert.deepEqual(at('description: |\n  x: 1\n    |').path, ['description'], 'x: 1 is text, not a map to nest in');
});

test('a cursor past the last line reads the lines there are', () => {
  assert.deepEqual(placeAt('a:\n  b: 1', 5, 2), { part: 'key', path: ['a'], start: 2, end: 2, column: 2 });
});
