/** The compare panel's messages: its page (page.ts) and its host (src/editor/subgraph/compare/) both import them. */
import type { TableContract, TablePage, TableRequests, TableSnapshot } from '../protocol';

/** One page of the entities that differ between two endpoints, and what was compared. */
export interface ComparePage extends TablePage {
  /** The block both answered at, and whether it was chosen or the lower of the two heads. */
  block: number;
  blockFrom: 'given' | 'heads';
  /** Each endpoint as shown (its key masked), how far it has indexed, and why it failed (one line). */
  a: { label: string; head?: number; failure?: string };
  b: { label: string; head?: number; failure?: string };
  /** Per top-level field: its entity counts and how many differ. */
  fields: { name: string; countA: number; countB: number; differing: number; truncated: boolean }[];
  /** The rows that differ in all (the pages hold them in turn), and how many pages they fill. */
  differing: number;
  pages: number;
  equal: boolean;
}

export interface CompareContract extends TableContract<ComparePage> {
  requests: TableRequests<ComparePage> & {
    ready: { params: undefined; result: TableSnapshot<ComparePage> };
    /** Compares again (both endpoints re-read at the lower head now, or the block given). */
    rerun: { params: undefined; result: undefined };
  };
}
