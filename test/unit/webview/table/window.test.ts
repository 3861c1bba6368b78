import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visibleRows } from '../../../../src/webview/table/window';

const ROW = 24;

test('at the top, the rows in view plus the overscan below are drawn', () => {
  // 240 px shows rows 0..9; 8 rows of overscan below, none above.
  assert.deepEqual(visibleRows(10_000, ROW, 0, 240), { first: 0, end: 18, offset: 0, height: 240_000 });
});

test('scrolled into the middle, the window follows the offset', () => {
  const w = visibleRows(10_000, ROW, 24 * 5000 + 10, 240);
  // Row 5000 is partly hidden at the top; rows up to 5010 are (partly) in view.
  assert.equal(w.first, 5000 - 8);
  assert.equal(w.end, 5011 + 8);
  assert.equal(w.offset, w.first * ROW);
});

test('at the end, the last row is drawn and nothing past it', () => {
  const w = visibleRows(10_000, ROW, 240_000 - 240, 240);
  assert.equal(w.end, 10_000);
  assert.equal(w.first, 10_000 - 10 - 8);
});

test('an offset past the end (rows replaced by fewer) still shows the last rows', () => {
  const w = visibleRows(20, ROW, 100_000, 240);
  assert.equal(w.end, 20);
  assert.equal(w.first, 10 - 8);
});

test('the drawn rows stay few however many rows there are', () => {
  for (const top of [0, 1234, 99_999, 239_760]) {
    const w = visibleRows(10_000, ROW, top, 600);
    assert.ok(w.end - w.first <= 600 / ROW + 1 + 16, `${w.end - w.first} rows drawn at ${top}`);
  }
});

test('fewer rows than the viewport holds: all of them', () => {
  assert.deepEqual(visibleRows(3, ROW, 0, 600), { first: 0, end: 3, offset: 0, height: 72 });
});

test('no rows, a zero row height or a negative offset draw nothing odd', () => {
  assert.deepEqual(visibleRows(0, ROW, 50, 600), { first: 0, end: 0, offset: 0, height: 0 });
  assert.deepEqual(visibleRows(5, 0, 0, 600), { first: 0, end: 0, offset: 0, height: 0 });
  assert.equal(visibleRows(100, ROW, -40, 240).first, 0);
});

test('a viewport not yet laid out (zero height) still draws the first row', () => {
  assert.equal(visibleRows(100, ROW, 0, 0, 0).end, 1);
});
