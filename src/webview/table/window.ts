/**
 * Which rows a virtualised table draws: with a fixed row height, the rows in view follow from
 * the scroll offset alone, so 10,000 rows cost the same as the few dozen on screen.
 */

export interface RowWindow {
  /** First row to draw (inclusive). */
  first: number;
  /** Row after the last one to draw (exclusive). */
  end: number;
  /** Where the first drawn row sits, in pixels from the top of the rows. */
  offset: number;
  /** Height of all rows together: the scrollable extent. */
  height: number;
}

/**
 * The rows visible at `scrollTop` in a viewport `viewport` pixels high, plus `overscan` rows on
 * each side so fast scrolling does not flash blank lines.
 */
export function visibleRows(rowCount: number, rowHeight: number, scrollTop: number, viewport: number, overscan = 8): RowWindow {
  const height = rowCount * rowHeight;
  if (rowCount <= 0 || rowHeight <= 0) return { first: 0, end: 0, offset: 0, height: Math.max(0, height) };
  // A stale scroll offset (rows replaced by fewer) must still show the last rows, not nothing.
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, height - viewport));
  const firstInView = Math.floor(top / rowHeight);
  const endInView = Math.ceil((top + Math.max(0, viewport)) / rowHeight);
  const first = Math.max(0, firstInView - overscan);
  const end = Math.min(rowCount, Math.max(endInView, firstInView + 1) + overscan);
  return { first, end, offset: first * rowHeight, height };
}
