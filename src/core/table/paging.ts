/**
 * Where a page stands among its query's pages, as a table panel's pager shows it: its number and
 * whether Previous and Next lead anywhere. Two ways of paging: following a cursor (the key after
 * the page, as storage ranges do) and by offset ($first/$skip, as subgraph queries do).
 */

export interface PagePosition {
  /** 1-based. */
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** The page reached after `depth` pages followed by cursor (1: the first); more follow while there is a next cursor. */
export function cursorPage(depth: number, nextCursor: string | null | undefined): PagePosition {
  return { pageNumber: depth, hasPrevious: depth > 1, hasNext: !!nextCursor };
}

/**
 * Page `index` (0-based) of a query paged by offset, `rows` long: a full page may have more
 * after it, a short one is the last. Without a page size the query is not paged: one page.
 */
export function offsetPage(index: number, rows: number, pageSize?: number): PagePosition {
  const paged = pageSize !== undefined;
  return { pageNumber: index + 1, hasPrevious: paged && index > 0, hasNext: paged && rows >= pageSize };
}

/** The page index `step` pages away (0: the same page again); never before the first. */
export function turnPage(index: number, step: number): number {
  return Math.max(0, index + step);
}
