/**
 * The shared base of the panels' messages: the envelope of the tiny typed RPC both ends speak,
 * and what every table panel's page and host exchange. Each panel's own messages are in its
 * protocol.ts (storage/, query/), which both its page and its host import; the host imports
 * these modules' types only, never page code.
 *
 * The webview sends requests with a sequence number and the host answers each with a reply
 * carrying `res` or `err`; the host also posts notifications. A panel's first request is always
 * `ready`, whose reply is everything it needs to draw itself; notifications follow only after
 * that, so none is lost to a page still loading.
 */
// The tables themselves are core's (core builds them); the pages import nothing but types from it.
import type { ExportFormat } from '../core/table/export';
import type { PagePosition } from '../core/table/paging';
import type { TableColumn, TableData } from '../core/table/table';

export type { ExportFormat, PagePosition, TableColumn, TableData };

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

// ---- what every table panel has ---------------------------------------------------------------

/** A page of rows, and where it stands among its query's pages. */
export interface TablePage extends PagePosition {
  table: TableData;
}

export interface TableStatus {
  busy: boolean;
  /** What the running read has done so far, e.g. "120 reads, 8 entries". */
  progress?: string;
  /** A failure to get a page at all, in words that say what to check. */
  error?: string;
}

/** What a table page needs to draw its shared parts when it (re)loads. */
export interface TableSnapshot<P extends TablePage> {
  page?: P;
  status: TableStatus;
}

/** The requests every table panel answers (the host's shared part answers copy, export and cancel). */
// Types, not interfaces: a contract's requests and notifications are records (Contract), which an interface is not.
export type TableRequests<P extends TablePage> = {
  ready: { params: undefined; result: TableSnapshot<P> };
  next: { params: undefined; result: undefined };
  previous: { params: undefined; result: undefined };
  /** Stops the read running; its progress notification's Cancel does the same. */
  cancel: { params: undefined; result: undefined };
  copy: { params: { text: string }; result: undefined };
  /** Saves the page shown; resolves with the path written, or nothing when the user cancelled. */
  export: { params: { format: ExportFormat }; result: { path?: string } };
};

export type TableNotifications<P extends TablePage> = {
  page: P | null;
  status: TableStatus;
};

/** A table panel's contract: the table's requests and notifications, plus the panel's own. */
export interface TableContract<P extends TablePage = TablePage> extends Contract {
  requests: TableRequests<P>;
  notifications: TableNotifications<P>;
}
