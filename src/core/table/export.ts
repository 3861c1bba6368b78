/**
 * Tables as files: CSV (RFC 4180) and JSON records of columns and rows of strings. Used by the
 * table panels' exports and usable by the CLI; the webview only asks for an export.
 */
import type { Tabular } from './table';

/** The formats a table panel exports to. */
export type ExportFormat = 'csv' | 'json';

/** One CSV field: quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The table as CSV: a header line of column titles, then one line per row, CRLF-separated as
 * RFC 4180 says (spreadsheets read it either way). Missing cells are empty.
 */
export function toCsv({ columns, rows }: Tabular): string {
  const line = (cells: readonly string[]) => cells.map(csvField).join(',');
  const lines = [line(columns.map((c) => c.title)), ...rows.map((row) => line(columns.map((_, i) => row[i] ?? '')))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The rows as JSON objects keyed by column id; empty cells are left out. */
export function toRecords({ columns, rows }: Tabular): Record<string, string>[] {
  return rows.map((row) => Object.fromEntries(columns.flatMap((c, i) => (row[i] ? [[c.id, row[i]]] : []))));
}

/**
 * The text of an exported page: CSV is the table as shown; JSON is what the panel says its data
 * is (e.g. the answer as the endpoint sent it, values untouched), pretty and ending in a newline.
 */
export function exportText(format: ExportFormat, table: Tabular, json: () => unknown): string {
  return format === 'csv' ? toCsv(table) : `${JSON.stringify(json(), null, 2)}\n`;
}
