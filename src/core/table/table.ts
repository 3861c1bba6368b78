/**
 * The tables the panels show: columns with their widths, and rows of text (the webview only ever
 * shows text). Core builds them from its results; the panels' protocols carry them as they are.
 */

/** Columns and rows of strings: what a table is, whatever shows or exports it. */
export interface Tabular {
  columns: readonly { id: string; title: string }[];
  rows: readonly (readonly string[])[];
}

export interface TableColumn {
  id: string;
  title: string;
  /** Width in CSS pixels; the table scrolls sideways when the columns are wider than the panel. */
  width: number;
  /** Shown on hover of the header. */
  description?: string;
  /**
   * Where a value too long for the column is cut: at the end (default), or at the start for
   * values whose tail matters most, such as zero-padded hex words.
   */
  truncate?: 'start' | 'end';
}

/** Rows are plain strings, one per column, in column order. */
export interface TableData {
  columns: TableColumn[];
  rows: string[][];
}

/** How many rows a column's width is measured on: enough to be typical, few enough to be quick. */
const MEASURED_ROWS = 200;

/**
 * A table of unknown columns (e.g. a GraphQL answer) with widths fitted to what they hold: wide
 * enough for most values, BigInts and hashes included, within bounds.
 */
export function fittedTable(table: Tabular): TableData {
  const columns = table.columns.map((c, i) => {
    let longest = c.title.length;
    for (const row of table.rows.slice(0, MEASURED_ROWS)) longest = Math.max(longest, (row[i] ?? '').length);
    return { id: c.id, title: c.title, width: Math.min(560, Math.max(80, longest * 7.5 + 20)) };
  });
  return { columns, rows: table.rows.map((r) => [...r]) };
}
