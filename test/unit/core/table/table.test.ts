import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryExportName } from '../../../../src/core/subgraph/query/exportName';
import { exportText } from '../../../../src/core/table/export';
import { fittedTable } from '../../../../src/core/table/table';

const table = {
  columns: [
    { id: 'id', title: 'id' },
    { id: 'amount', title: 'amount' },
  ],
  rows: [['0x1', '12345678901234567890']],
};

test('CSV exports the table; JSON exports what the panel says its data is, pretty, ending in a newline', () => {
  let asked = 0;
  const json = () => {
    asked++;
    return { approvals: [{ id: '0x1', amount: '12345678901234567890' }] };
  };
  assert.equal(exportText('csv', table, json), 'id,amount\r\n0x1,12345678901234567890\r\n');
  assert.equal(asked, 0, 'the JSON is not built for a CSV export');
  assert.equal(exportText('json', table, json), '{\n  "approvals": [\n    {\n      "id": "0x1",\n      "amount": "12345678901234567890"\n    }\n  ]\n}\n');
  assert.equal(
    exportText('json', table, () => null),
    'null\n',
  );
});

test('a query export is named after its field (else the operation) and page, safe as a file name', () => {
  assert.equal(queryExportName({ field: 'approvalQueries', operation: 'Approvals', pageNumber: 2 }, 'csv'), 'approvalQueries-p2.csv');
  assert.equal(queryExportName({ operation: 'query', pageNumber: 1 }, 'json'), 'query-p1.json');
  assert.equal(queryExportName({ field: 'a b/../c', operation: 'x', pageNumber: 1 }, 'csv'), 'a-b-c-p1.csv');
});

test('fitted columns: wide enough for what they hold, within 80 and 560 pixels', () => {
  const fitted = fittedTable({
    columns: [
      { id: 'id', title: 'id' },
      { id: 'hash', title: 'hash' },
      { id: 'blob', title: 'blob' },
    ],
    rows: [['1', `0x${'a'.repeat(64)}`, 'x'.repeat(1000)]],
  });
  assert.deepEqual(
    fitted.columns.map((c) => c.width),
    [80, 66 * 7.5 + 20, 560],
  );
  assert.deepEqual(fitted.rows, [['1', `0x${'a'.repeat(64)}`, 'x'.repeat(1000)]]);
  assert.deepEqual(
    fitted.columns.map((c) => [c.id, c.title]),
    [
      ['id', 'id'],
      ['hash', 'hash'],
      ['blob', 'blob'],
    ],
  );
});

test('fitted columns are measured on the first 200 rows, and a long title counts', () => {
  const rows = [...Array.from({ length: 200 }, () => ['short']), ['y'.repeat(100)]];
  assert.equal(fittedTable({ columns: [{ id: 'v', title: 'v' }], rows }).columns[0].width, 80);
  assert.equal(fittedTable({ columns: [{ id: 'v', title: 't'.repeat(20) }], rows: [] }).columns[0].width, 20 * 7.5 + 20);
});

test('the fitted rows are copies: the table shown does not share rows with the answer', () => {
  const source = { columns: [{ id: 'v', title: 'v' }], rows: [['a']] };
  const fitted = fittedTable(source);
  fitted.rows[0][0] = 'changed';
  assert.equal(source.rows[0][0], 'a');
});
