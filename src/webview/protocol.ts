/**
 * Every message the extension host and the webview panels exchange: the one module both sides
 * import. Messaging is a tiny typed RPC: the webview sends requests with a sequence number and
 * the host answers each with a reply carrying `res` or `err`; the host also posts notifications.
 * A panel's first request is always `ready`, whose reply is everything it needs to draw itself;
 * notifications follow only after that, so none is lost to a page still loading.
 */

// ---- the envelope ----------------------------------------------------------------------------

export interface RequestMessage {
  kind: 'request';
  seq: number;
  method: string;
  params: unknown;
}

export interface ReplyMessage {
  kind: 'reply';
  seq: number;
  res?: unknown;
  /** A message fit for the user (already redacted); present when the request failed. */
  err?: string;
}

export interface NotifyMessage {
  kind: 'notify';
  method: string;
  params: unknown;
}

export type ToHost = RequestMessage;
export type ToWebview = ReplyMessage | NotifyMessage;

/** A panel's contract: what the webview may ask (params → result) and what the host may post. */
export interface Contract {
  requests: Record<string, { params: unknown; result: unknown }>;
  notifications: Record<string, unknown>;
}

export type RequestName<C extends Contract> = keyof C['requests'] & string;
export type ParamsOf<C extends Contract, M extends RequestName<C>> = C['requests'][M]['params'];
export type ResultOf<C extends Contract, M extends RequestName<C>> = C['requests'][M]['result'];
export type NotificationName<C extends Contract> = keyof C['notifications'] & string;

// ---- the table: core builds it, so its shapes are core's (types only: nothing of core runs here)

export type { ExportFormat } from '../core/table/export';
export type { TableColumn, TableData } from '../core/table/table';
import type { ExportFormat } from '../core/table/export';
import type { TableData } from '../core/table/table';

// ---- the storage panel ------------------------------------------------------------------------

export type StorageMode = 'auto' | 'native' | 'emulate';

/** The form as typed: the host parses and checks it (the webview holds no validation logic). */
export interface StorageForm {
  nodeId: string;
  address: string;
  /** `latest`, a block number, or a block hash. */
  block: string;
  txIndex: string;
  start: string;
  max: string;
  mode: StorageMode;
}

/** A node the form offers: its name and redacted URL only, never a credential. */
export interface NodeChoice {
  id: string;
  name: string;
  url: string;
}

export interface StoragePage {
  table: TableData;
  /** The mode that produced the page (`auto` resolves to one of these). */
  mode: 'native' | 'emulate';
  address: string;
  nodeName: string;
  block: { number: string; hash: string };
  /** 1-based: the depth in the stack of visited pages. */
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  /** Caveats of the mode, in plain words, for the banner. */
  notes: string[];
  /** What went wrong on the way without failing the page (e.g. skipped slot reads). */
  warnings: string[];
  /** The contract whose storage layout labelled the rows, when one matched. */
  layout?: string;
}

export interface StorageStatus {
  busy: boolean;
  /** What the running read has done so far, e.g. "120 reads, 8 entries". */
  progress?: string;
  error?: string;
}

/** The form as the host last set it; the version tells the page whether its own draft is newer. */
export interface VersionedForm {
  form: StorageForm;
  version: number;
}

export interface StorageSnapshot extends VersionedForm {
  nodes: NodeChoice[];
  page?: StoragePage;
  status: StorageStatus;
}

export interface StorageContract extends Contract {
  requests: {
    ready: { params: undefined; result: StorageSnapshot };
    /** Reads the first page of the form's query; progress and the page arrive as notifications. */
    load: { params: StorageForm; result: undefined };
    next: { params: undefined; result: undefined };
    previous: { params: undefined; result: undefined };
    cancel: { params: undefined; result: undefined };
    copy: { params: { text: string }; result: undefined };
    /** Saves the shown page; resolves with the path written, or nothing when the user cancelled. */
    export: { params: { format: ExportFormat }; result: { path?: string } };
  };
  notifications: {
    nodes: NodeChoice[];
    form: VersionedForm;
    page: StoragePage | null;
    status: StorageStatus;
  };
}

// ---- the subgraph query results panel -------------------------------------------------------

/** One page of a query's results, as the panel shows it. Values are text as the endpoint sent them. */
export interface QueryResultPage {
  /** The subgraph record's name. */
  subgraph: string;
  /** The query URL as it may be shown: `{key}` or *** in place of the key. */
  endpoint: string;
  /** The operation's name, or `query`. */
  operation: string;
  /** The top-level field the rows come from (e.g. approvalQueries). */
  field?: string;
  table: TableData;
  /** 1-based; paging uses the operation's $first/$skip. */
  pageNumber: number;
  /** Whether the operation takes $first and $skip, so Next and Previous can page it. */
  paged: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
  httpStatus: number;
  timeMs: number;
  /** The endpoint's `errors`, exactly as sent (pretty JSON); empty when it sent none. */
  errors: string;
}

export interface QueryStatus {
  busy: boolean;
  /** A failure to get an answer at all (transport, URL), in words that say what to check. */
  error?: string;
}

export interface QuerySnapshot {
  page?: QueryResultPage;
  status: QueryStatus;
  /** Whether the record has a GraphQL UI URL to open. */
  canOpenUi: boolean;
}

export interface QueryContract extends Contract {
  requests: {
    ready: { params: undefined; result: QuerySnapshot };
    next: { params: undefined; result: undefined };
    previous: { params: undefined; result: undefined };
    /** Sends the same query (same page) again. */
    rerun: { params: undefined; result: undefined };
    cancel: { params: undefined; result: undefined };
    copy: { params: { text: string }; result: undefined };
    /** CSV: the table; JSON: `data` as the endpoint sent it. Resolves with the path written, or nothing when cancelled. */
    export: { params: { format: ExportFormat }; result: { path?: string } };
    openUi: { params: undefined; result: undefined };
  };
  notifications: {
    page: QueryResultPage | null;
    status: QueryStatus;
    canOpenUi: boolean;
  };
}
