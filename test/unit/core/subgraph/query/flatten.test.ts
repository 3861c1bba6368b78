import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonLossless } from '../../../../../src/core/subgraph/query/client';
import { fieldCounts, flattenFields } from '../../../../../src/core/subgraph/query/flatten';

test('results flatten to a table: dotted columns, lists as JSON, big numbers kept whole', () => {
  const body =
    '{"data":{"transfers":[{"id":"a","amount":"115792089237316195423570985008687907853269984665640564039457584007913129639935","count":12345678901234567890123,"token":{"id":"0x01","owner":{"id":"0x02"}},"tags":["x","y"],"memo":null,"ok":true}]}}';
  const json = parseJsonLossless(body) as { data: unknown };
  const table = flattenFields(json.data)[0];
  assert.equal(table.field, 'transfers');
  assert.deepEqual(
    table.columns.map((c) => c.id),
    ['id', 'amount', 'count', 'token.id', 'token.owner.id', 'tags', 'memo', 'ok'],
  );
  assert.deepEqual(table.rows, [['a', '115792089237316195423570985008687907853269984665640564039457584007913129639935', '12345678901234567890123', '0x01', '0x02', '["x","y"]', '', 'true']]);
  // A single object is one row; columns that appear later are added in order seen.
  assert.deepEqual(flattenFields({ _meta: { block: { number: 7 }, hasIndexingErrors: false } })[0].rows, [['7', 'false']]);
  const ragged = flattenFields({ xs: [{ a: '1' }, { b: '2' }] })[0];
  assert.deepEqual(ragged.rows, [
    ['1', ''],
    ['', '2'],
  ]);
});

test('every top-level field of an answer is a table of its own, in the query’s order, with its row count', () => {
  // The demo's query: transfers, approvals and _meta, none of them dropped.
  const data = {
    transfers: [
      { from: '0x01', value: '5' },
      { from: '0x02', value: '7' },
    ],
    approvals: [{ owner: '0x03', spender: '0x04' }],
    _meta: { block: { number: 12 }, hasIndexingErrors: false },
    none: null,
  };
  const fields = flattenFields(data);
  assert.deepEqual(
    fields.map((t) => [t.field, t.columns.map((c) => c.id), t.rows]),
    [
      [
        'transfers',
        ['from', 'value'],
        [
          ['0x01', '5'],
          ['0x02', '7'],
        ],
      ],
      ['approvals', ['owner', 'spender'], [['0x03', '0x04']]],
      ['_meta', ['block.number', 'hasIndexingErrors'], [['12', 'false']]],
      ['none', [], []],
    ],
  );
  assert.equal(fieldCounts(fields), 'transfers: 2 rows, approvals: 1 row, _meta: 1 row, none: 0 rows');
  assert.deepEqual(flattenFields(null), []);
  assert.deepEqual(flattenFields([{ a: 1 }]), []);
  assert.equal(fieldCounts([]), 'no data');
});

test('flattening: empty objects, scalars at the top, a named field, nothing to show', () => {
  assert.deepEqual(flattenFields({ xs: [{ a: {}, b: { c: {} }, d: [1, { e: 2 }], f: 1.5, g: null, h: true }] })[0], {
    field: 'xs',
    columns: ['a', 'b.c', 'd', 'f', 'g', 'h'].map((id) => ({ id, title: id })),
    rows: [['{}', '{}', '[1,{"e":2}]', '1.5', '', 'true']],
  });
  assert.deepEqual(flattenFields({ n: 5 })[0], { field: 'n', columns: [{ id: 'value', title: 'value' }], rows: [['5']] });
  assert.deepEqual(flattenFields({ a: [{ x: 1 }], b: [{ y: 2 }] })[1].rows, [['2']]);
  assert.deepEqual(flattenFields({ a: null })[0], { field: 'a', columns: [], rows: [] });
  assert.deepEqual(flattenFields({}), []);
  assert.deepEqual(flattenFields(null), []);
  assert.deepEqual(flattenFields('text'), []);
  assert.deepEqual(flattenFields({ xs: [{}] })[0], { field: 'xs', columns: [], rows: [[]] });
});

test('flattening: a column seen again is not repeated', () => {
  assert.deepEqual(
    flattenFields({
      xs: [
        { a: 1, b: 2 },
        { b: 3, a: 4 },
      ],
    })[0],
    {
      field: 'xs',
      columns: [
        { id: 'a', title: 'a' },
        { id: 'b', title: 'b' },
      ],
      rows: [
        ['1', '2'],
        ['4', '3'],
      ],
    },
  );
});
