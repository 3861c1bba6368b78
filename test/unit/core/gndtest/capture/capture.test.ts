/**
 * The capture's checks before anything runs, and what it writes around the blocks: a range that
 * runs forwards and is bounded; an --out that is a folder, a FIFO or an existing file (without
 * --force) refused; the default file name; the manifest copy starting at the range; gnd's start
 * pointer first; the assertion queries; a failed assertion in one line.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { assertedEntities, pageQuery } from '../../../../../src/core/gndtest/capture/assertions';
import { defaultOutFile, MAX_RANGE, outProblem, rangeProblem, startPointer } from '../../../../../src/core/gndtest/capture/capture';
import { captureManifestText, eventTopic } from '../../../../../src/core/gndtest/capture/manifest';
import { failureLine, firstDifference } from '../../../../../src/core/gndtest/capture/verify';
import { findTestFiles } from '../../../../../src/core/gndtest/testFile';

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-capture-unit-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('a range runs forwards, from 0, and is bounded', () => {
  assert.equal(rangeProblem(5, 5), undefined);
  assert.match(rangeProblem(9, 3)!, /--from 9 is after --to 3/);
  assert.match(rangeProblem(-1, 3)!, /whole numbers/);
  assert.match(rangeProblem(0, MAX_RANGE)!, /at most 100,000/);
  assert.equal(rangeProblem(0, MAX_RANGE - 1), undefined);
});

test('--out: a folder, a FIFO, or an existing file without --force is refused; a new file is fine', () => {
  const folder = path.join(tmp, 'folder');
  mkdirSync(folder);
  const fifo = path.join(tmp, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const existing = path.join(tmp, 'existing.json');
  writeFileSync(existing, '{}');
  assert.match(outProblem(folder, true)!, /is a folder/);
  assert.match(outProblem(fifo, true)!, /not a regular file/);
  assert.match(outProblem(existing, false)!, /exists: pass --force/);
  assert.equal(outProblem(existing, true), undefined);
  assert.equal(outProblem(path.join(tmp, 'new.json'), false), undefined);
});

test('the default file: tests/<first data source>-<N>-<M>.json beside the manifest, a name `subgraph test` runs', () => {
  assert.equal(defaultOutFile('/p/sub/subgraph.yaml', 'DemoToken', 3, 9), '/p/sub/tests/DemoToken-3-9.json');
  assert.equal(defaultOutFile('/p/subgraph.yaml', '../evil name', 1, 2), '/p/tests/evil_name-1-2.json');
  // gnd (and findTestFiles) skip a file in tests/ whose name does not start with a letter or digit.
  const tmp = mkdtempSync(path.join(tmpdir(), 'chaindeck-capture-out-'));
  try {
    const manifest = path.join(tmp, 'subgraph.yaml');
    for (const name of ['_Token', '.hidden', '-x', '日本']) {
      const file = defaultOutFile(manifest, name, 1, 2);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, '{}');
      assert.deepEqual(findTestFiles(manifest), [file], name);
      rmSync(file);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the copy of the manifest starts every data source at the range (a later start kept), templates untouched', () => {
  const text = [
    'specVersion: 1.3.0',
    'dataSources:',
    '  - name: A # the first',
    '    source: { address: "0x1", abi: A, startBlock: 10 }',
    '  - name: B',
    '    source: { address: "0x2", abi: B, startBlock: 500 }',
    '  - name: C',
    '    source: { address: "0x3", abi: C }',
    'templates:',
    '  - name: T',
    '    source: { abi: T }',
    '',
  ].join('\n');
  const copy = parse(captureManifestText(text, 100));
  assert.deepEqual(
    copy.dataSources.map((d: { source: { startBlock: number } }) => d.source.startBlock),
    [100, 500, 100],
  );
  assert.equal(copy.templates[0].source.startBlock, undefined);
  assert.match(captureManifestText(text, 100), /# the first/, 'comments are kept');
});

test("gnd's start pointer comes first when the lowest data-source start is above 0", () => {
  assert.deepEqual(
    startPointer([
      { template: false, startBlock: 12 },
      { template: false, startBlock: 30 },
      { template: true, startBlock: 0 },
    ]),
    [{ number: 11 }],
  );
  assert.deepEqual(startPointer([{ template: false, startBlock: 0 }]), []);
});

test("a manifest event's topic is its types' hash, without indexed", () => {
  assert.equal(eventTopic('Transfer(indexed address,indexed address,uint256)'), '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
});

test('assertions: every entity object (not interfaces), stored fields, references as { id }, derived fields left out, paged by id', () => {
  const schema = `
    interface Named { id: ID! name: String! }
    type Token @entity(immutable: false) { id: Bytes! name: String! holders: [Holder!]! @derivedFrom(field: "token") }
    type Holder @entity(immutable: true) { id: ID! token: Token! balance: BigInt! }`;
  const entities = assertedEntities(schema);
  assert.deepEqual(
    entities.map((e) => e.name),
    ['Token', 'Holder'],
  );
  assert.equal(pageQuery(entities[0]), '{ tokens(first: 1000, orderBy: id, orderDirection: asc) { id name } }');
  assert.equal(pageQuery(entities[1], 'h-9', 42), '{ holders(first: 1000, orderBy: id, orderDirection: asc, where: { id_gt: "h-9" }, block: { number: 42 }) { id token { id } balance } }');
});

test('a failed assertion in one line: the query and the first field that differs, matched by id in lists; or the handler error', () => {
  const expected = {
    bumps: [
      { id: '0x01', amount: '5' },
      { id: '0x02', amount: '7' },
    ],
  };
  const actual = {
    bumps: [
      { id: '0x02', amount: '7' },
      { id: '0x01', amount: '10' },
    ],
  };
  assert.equal(firstDifference(expected, actual), 'bumps[id=0x01].amount: expected "5", got "10"');
  assert.equal(firstDifference({ xs: [{ id: 'a' }] }, { xs: [] }), 'xs: expected an element with id a, none came');
  assert.equal(firstDifference({ xs: [] }, { xs: [{ id: 'b' }] }), 'xs: an element with id b came that was not expected');
  assert.equal(firstDifference({ a: { b: 1 } }, { a: { b: 1, c: null } }), 'a.c: expected nothing, got null');
  const result = { file: 'f', name: 't', passed: false, assertions: [{ query: '{ bumps {\n id amount } }', passed: false, expected, actual }] };
  assert.equal(failureLine(result), '{ bumps { id amount } } — bumps[id=0x01].amount: expected "5", got "10"');
  assert.equal(failureLine({ ...result, error: 'Handler error: Mapping aborted at src/mapping.ts, line 3' }), 'Handler error: Mapping aborted at src/mapping.ts, line 3');
});
