/**
 * The file name an exported page of query results is offered under: the field its rows come
 * from (else the operation) and the page, e.g. `approvalQueries-p2.csv`.
 */
import type { ExportFormat } from '../../table/export';

export function queryExportName(page: { field?: string; operation: string; pageNumber: number }, format: ExportFormat): string {
  // Only word characters and dashes: safe as a file name everywhere.
  return `${(page.field ?? page.operation).replace(/[^\w-]+/g, '-')}-p${page.pageNumber}.${format}`;
}
