/** The Subgraph Logs panel's messages: its page (page.ts) and its host (src/editor/subgraph/logs/logsPanel.ts) both import them. */

/** One entry as the page shows it (already inert text). */
export interface LogRow {
  time: string;
  level: string;
  handler: string;
  block: number | null;
  tx: string;
  message: string;
  /** Where the mapping's source is named ("src/mapping.ts:23"), when it is. */
  source: string;
}

/** The filters as typed: empty is no filter. */
export interface LogFilterInput {
  level: string;
  handler: string;
  fromBlock: string;
  toBlock: string;
  text: string;
}

export interface LogsView {
  /** The deployment's names, else its id. */
  title: string;
  deployment: string;
  rows: LogRow[];
  /** Entries matching the filters, and the first one shown (rows are a page of them, oldest first). */
  total: number;
  offset: number;
  pageSize: number;
  /** The handlers the entries name (the handler filter's choices). */
  handlers: string[];
  follow: boolean;
  filter: LogFilterInput;
  /** A filter that cannot be read ("from block is not a number"), or what the log cannot tell. */
  note?: string;
}

// Types, not interfaces: a contract's requests and notifications are records (Contract), which an interface is not.
export type SubgraphLogsContract = {
  requests: {
    ready: { params: undefined; result: LogsView };
    /** New filters, page or follow: answered with what to show. */
    show: { params: { filter: LogFilterInput; offset: number; follow: boolean }; result: LogsView };
    /** Opens the mapping line that logged the row at this index of the page shown. */
    open: { params: { index: number }; result: undefined };
    /** Copies the transaction of the row at this index of the page shown. */
    copyTx: { params: { index: number }; result: undefined };
  };
  notifications: {
    /** While following: the view with the newest entries. */
    view: LogsView;
  };
};
