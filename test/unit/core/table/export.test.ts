import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, toCsv, toRecords } from '../../../../src/core/table/export';

const columns = [
  { id: 'slot', title: 'Slot' },
  { id: 'value', title: 'Value' },
];

test('plain fields are written as they are', () => {
  assert.equal(csvField('0x0'), '0x0');
  assert.equal(csvField(''), '');
  assert.equal(csvField('hello world'), 'hello world');
});

test('commas, quotes and line breaks are quoted, quotes doubled', () => {
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\rhere'), '"cr\rhere"');
  assert.equal(csvField('"'), '""""');
});

test('a table becomes a header line and one CRLF line per row', () => {
  const csv = toCsv({
    columns,
    rows: [
      ['0x0', '0x2a'],
      ['0x1', 'x, "y"'],
    ],
  });
  assert.equal(csv, 'Slot,Value\r\n0x0,0x2a\r\n0x1,"x, ""y"""\r\n');
});

test('short rows get empty cells; extra cells are dropped', () => {
  assert.equal(toCsv({ columns, rows: [['0x0'], ['0x1', 'v', 'extra']] }), 'Slot,Value\r\n0x0,\r\n0x1,v\r\n');
});

test('titles are escaped like values', () => {
  assert.equal(toCsv({ columns: [{ id: 'a', title: 'Value, hex' }], rows: [] }), '"Value, hex"\r\n');
});

test('JSON records are keyed by column id, empty cells left out', () => {
  assert.deepEqual(
    toRecords({
      columns,
      rows: [
        ['0x0', '0x2a'],
        ['0x1', ''],
      ],
    }),
    [{ slot: '0x0', value: '0x2a' }, { slot: '0x1' }],
  );
});
