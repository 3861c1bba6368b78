/** The query results panel's messages: its page (page.ts) and its host (the subgraph queries' results.ts) both import them. */
import type { TableContract, TableNotifications, TablePage, TableRequests, TableSnapshot } from '../protocol';

/** One page of a query's results, as the panel shows it. Values are text as the endpoint sent them. */
export interface QueryResultPage extends TablePage {
  /** The subgraph record's name. */
  subgraph: string;
  /** The query URL as it may be shown: `{key}` or *** in place of the key. */
  endpoint: string;
  /** The operation's name, or `query`. */
  operation: string;
  /** The top-level field the rows come from (e.g. approvalQueries): one of `fields`. */
  field?: string;
  /** Every top-level field of the answer, in the query's order, with its row count: one tab each. */
  fields: { name: string; rows: number }[];
  /** Whether the operation takes $first and $skip, so Next and Previous can page it. */
  paged: boolean;
  httpStatus: number;
  timeMs: number;
  /** The endpoint's `errors`, exactly as sent (pretty JSON); empty when it sent none. */
  errors: string;
}

export interface QuerySnapshot extends TableSnapshot<QueryResultPage> {
  /** Whether the record has a GraphQL UI URL to open. */
  canOpenUi: boolean;
}

export interface QueryContract extends TableContract<QueryResultPage> {
  requests: TableRequests<QueryResultPage> & {
    ready: { params: undefined; result: QuerySnapshot };
    /** Sends the same query (same page) again. */
    rerun: { params: undefined; result: undefined };
    openUi: { params: undefined; result: undefined };
    /** Shows another top-level field of the same answer. */
    showField: { params: { field: string }; result: undefined };
  };
  notifications: TableNotifications<QueryResultPage> & {
    canOpenUi: boolean;
  };
}
