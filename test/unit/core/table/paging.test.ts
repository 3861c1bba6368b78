import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorPage, offsetPage, turnPage } from '../../../../src/core/table/paging';

test('a page reached by cursor: numbered by depth, Previous after the first, Next while there is a cursor', () => {
  assert.deepEqual(cursorPage(1, '0x0b'), { pageNumber: 1, hasPrevious: false, hasNext: true });
  assert.deepEqual(cursorPage(3, '0x20'), { pageNumber: 3, hasPrevious: true, hasNext: true });
  assert.deepEqual(cursorPage(2, null), { pageNumber: 2, hasPrevious: true, hasNext: false });
  assert.deepEqual(cursorPage(1, undefined), { pageNumber: 1, hasPrevious: false, hasNext: false });
  assert.equal(cursorPage(1, '').hasNext, false, 'an empty cursor leads nowhere');
});

test('a page by offset: a full page may have more after it, a short one is the last', () => {
  assert.deepEqual(offsetPage(0, 10, 10), { pageNumber: 1, hasPrevious: false, hasNext: true });
  assert.deepEqual(offsetPage(1, 4, 10), { pageNumber: 2, hasPrevious: true, hasNext: false });
  assert.deepEqual(offsetPage(2, 11, 10), { pageNumber: 3, hasPrevious: true, hasNext: true });
  assert.deepEqual(offsetPage(0, 0, 10), { pageNumber: 1, hasPrevious: false, hasNext: false });
});

test('a query without a page size is one page: no Previous, no Next', () => {
  assert.deepEqual(offsetPage(0, 500), { pageNumber: 1, hasPrevious: false, hasNext: false });
  assert.deepEqual(offsetPage(3, 500), { pageNumber: 4, hasPrevious: false, hasNext: false });
});

test('turning pages never goes before the first; 0 is the same page again', () => {
  assert.equal(turnPage(2, +1), 3);
  assert.equal(turnPage(2, -1), 1);
  assert.equal(turnPage(2, 0), 2);
  assert.equal(turnPage(0, -1), 0);
});
