/**
 * The compare panel's rows and pages, and the query a deployment is compared by (every entity's
 * list, read whole: the default queries' own paging dropped).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CompareResult } from '../../../../../src/core/indexing/compare/compare';
import { diffPage, diffRows, entitiesQuery } from '../../../../../src/core/indexing/compare/rows';
import { fieldQueries } from '../../../../../src/core/indexing/compare/rewrite';

const result: CompareResult = {
  block: 4,
  blockFrom: 'heads',
  equal: false,
  a: { shown: 'http://127.0.0.1:8000/***' },
  b: { shown: 'https://host/***' },
  fields: [
    {
      field: 'pings',
      countA: 3,
      countB: 2,
      truncated: false,
      onlyInA: [{ id: '0xa-0', n: '1' }],
      onlyInB: [],
      changed: [{ id: '0xb-0', changes: [{ path: 'n', a: '2', b: '4' }] }],
    },
  ],
};

test('one row per entity that differs: only in A, only in B, changed with each value A → B', () => {
  assert.deepEqual(diffRows(result), [
    ['pings', 'only in A', '0xa-0', '{"id":"0xa-0","n":"1"}'],
    ['pings', 'changed', '0xb-0', 'n: "2" → "4"'],
  ]);
});

test('pages of rows: the last page is the furthest one can go', () => {
  const rows = Array.from({ length: 250 }, (_, i) => ['f', 'changed', String(i), '']);
  const first = diffPage(rows, 0, 100);
  assert.deepEqual([first.pageNumber, first.hasPrevious, first.hasNext, first.table.rows.length], [1, false, true, 100]);
  const last = diffPage(rows, 7, 100);
  assert.deepEqual([last.pageNumber, last.hasPrevious, last.hasNext, last.table.rows[0][2]], [3, true, false, '200']);
  assert.deepEqual(diffPage([], 0, 100).pageNumber, 1);
});

test("a deployment's query: every entity's list in one operation, paged by the compare", () => {
  const query = entitiesQuery('type Ping @entity(immutable: true) { id: String!  n: BigInt! }\ntype Token @entity { id: Bytes!  owner: Ping! }');
  assert.doesNotMatch(query, /\$first|\$skip/);
  const fields = fieldQueries(query, { block: 1 });
  assert.deepEqual(
    fields.map((f) => f.key),
    ['pings', 'tokens'],
  );
  assert.throws(() => entitiesQuery('scalar X'), /no entity/);
});
