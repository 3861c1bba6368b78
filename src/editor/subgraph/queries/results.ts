/**
 * The query results panel: one query (an operation of a query file, tied to a record) sent to
 * the record's query URL by core, its answer as a table per top-level field, one shown at a time
 * under a tab each (core flattens: nested objects spread into columns, BigInt and Bytes kept
 * whole as sent), paging through $first/$skip, CSV/JSON export, and the endpoint's errors shown
 * exactly as sent. One panel, reused by every run.
 */
import type { GraphQLSchema } from 'graphql';
import * as vscode from 'vscode';
import { pageVariables } from '../../../core/subgraph/query/build';
import type { GraphqlResponse, QueryOutcome } from '../../../core/subgraph/query/client';
import { queryExportName } from '../../../core/subgraph/query/exportName';
import { queryRunText } from '../../../core/subgraph/query/file';
import { fieldCounts, type FieldTable } from '../../../core/subgraph/query/flatten';
import { displaySubgraphUrl, type SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { offsetPage, turnPage } from '../../../core/table/paging';
import { fittedTable } from '../../../core/table/table';
import type { QueryContract, QueryResultPage, QuerySnapshot } from '../../../webview/query/protocol';
import { COMMANDS, PANEL_TYPES } from '../../ids';
import type { Log } from '../../log';
import { TablePanel } from '../../webview/tablePanel';
import type { SubgraphStore } from '../records/store';

/** One operation to send, ready: the text has the file's other operations blanked out. */
export interface QueryRequest {
  record: SubgraphRecord;
  text: string;
  /** The operation's name; absent when it has none. */
  operation?: string;
  /** Set when the operation takes $first/$skip. */
  paging?: { pageSize: number };
  /** The subgraph's query schema, to check the query against before sending it. */
  schema?: GraphQLSchema;
}

interface Shown {
  request: QueryRequest;
  pageIndex: number;
  page: QueryResultPage;
  response: GraphqlResponse;
  /** Every top-level field of the answer; the page shows one of them. */
  fields: FieldTable[];
}

export class QueryResults implements vscode.Disposable {
  private readonly host: TablePanel<QueryContract>;
  private shown: Shown | undefined;
  /** The query being sent (or last sent): what Next, Previous and Re-run work on. */
  private request: { request: QueryRequest; pageIndex: number } | undefined;
  /** The field the user chose to see: kept when the next page or a re-run comes. */
  private field: string | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SubgraphStore,
    private readonly log: Log,
  ) {
    this.host = new TablePanel<QueryContract>(extensionUri, {
      panel: { viewType: PANEL_TYPES.queryResults, entry: 'query', column: vscode.ViewColumn.Beside, iconPath: new vscode.ThemeIcon('table') },
      log,
      name: 'Query panel',
      requests: {
        ready: () => this.snapshot(),
        next: () => this.turn(+1),
        previous: () => this.turn(-1),
        rerun: () => this.turn(0),
        showField: ({ field }) => this.showField(field),
        openUi: async () => {
          if (this.shown) await vscode.commands.executeCommand(COMMANDS.subgraphs.openGraphqlUi, this.shown.request.record);
          return undefined;
        },
      },
      export: {
        what: 'Query Results',
        rows: 'query result rows',
        nothing: 'There are no results to export yet.',
        // CSV is the table as shown; JSON is `data` as the endpoint sent it (values untouched).
        source: (format) => {
          const shown = this.shown;
          return shown && { name: queryExportName(shown.page, format), table: shown.page.table, json: () => shown.response.data ?? null };
        },
      },
    });
  }

  /** The page the panel shows (for tests). */
  get page(): QueryResultPage | undefined {
    return this.shown?.page;
  }

  /**
   * Checks and sends a query, showing the answer in the panel. Resolves with core's outcome:
   * `invalid` (nothing sent, for the caller to mark), `answered`, or undefined when it failed
   * (shown in the panel and logged) or was cancelled.
   */
  run(request: QueryRequest, pageIndex = 0): Promise<QueryOutcome | undefined> {
    if (this.request?.request.text !== request.text) this.field = undefined;
    this.request = { request, pageIndex };
    const { record } = request;
    const { title, progress } = queryRunText(request.operation, record.name);
    return this.host.read(title, async (read) => {
      const variables = request.paging ? pageVariables(pageIndex, request.paging.pageSize) : undefined;
      if (this.host.panel) this.host.setStatus({ busy: true });
      const outcome = await read.withProgress(progress, (signal) => this.store.query(record, { query: request.text, variables }, request.schema, signal));
      if (!read.isCurrent()) return undefined;
      if (outcome.kind === 'invalid') {
        this.host.setStatus({ busy: false });
        return outcome;
      }
      const { response, fields } = outcome;
      const shown: Shown = { request, pageIndex, response, fields, page: this.pageOf(request, pageIndex, response, fields) };
      this.shown = shown;
      const errors = response.errors?.length ? `, ${response.errors.length} error(s)` : '';
      this.log.info(`${title}: HTTP ${response.status}, ${fieldCounts(fields)}${errors} in ${shown.page.timeMs} ms`);
      this.reveal(record);
      this.host.show(shown.page);
      return outcome;
    });
  }

  /** The page of one answer: the chosen field's table (else the first field's), and every field with its row count. */
  private pageOf(request: QueryRequest, pageIndex: number, response: GraphqlResponse, fields: FieldTable[]): QueryResultPage {
    const table = fields.find((t) => t.field === this.field) ?? fields[0];
    // A page is full when any of its lists is: there may be more of that one.
    const rows = Math.max(0, ...fields.map((t) => t.rows.length));
    return {
      subgraph: request.record.name,
      endpoint: displaySubgraphUrl(this.store.queryUrlOf(request.record)),
      operation: request.operation ?? 'query',
      field: table?.field,
      fields: fields.map((t) => ({ name: t.field, rows: t.rows.length })),
      table: fittedTable(table ?? { columns: [], rows: [] }),
      ...offsetPage(pageIndex, rows, request.paging?.pageSize),
      paged: !!request.paging,
      httpStatus: response.status,
      timeMs: Math.round(response.timeMs),
      errors: response.errors?.length ? JSON.stringify(response.errors, null, 2) : '',
    };
  }

  /** Shows another top-level field of the answer shown (its tab was clicked). */
  private showField(field: string): undefined {
    const shown = this.shown;
    if (!shown || !shown.fields.some((t) => t.field === field)) return undefined;
    this.field = field;
    shown.page = this.pageOf(shown.request, shown.pageIndex, shown.response, shown.fields);
    this.host.show(shown.page);
    return undefined;
  }

  private reveal(record: SubgraphRecord): void {
    const title = `Query: ${record.name}`;
    const panel = this.host.panel;
    if (!panel) {
      this.host.open(title);
      return;
    }
    panel.title = title;
    panel.reveal(undefined, true);
    this.host.notify('canOpenUi', !!this.store.uiUrlOf(record));
  }

  private snapshot(): QuerySnapshot {
    const record = this.shown?.request.record;
    return { page: this.shown?.page, status: this.host.status, canOpenUi: !!record && !!this.store.uiUrlOf(record) };
  }

  /** Another page of the query being shown (0: the same page again). */
  private async turn(step: number): Promise<undefined> {
    const last = this.request;
    if (!last || this.host.status.busy) return undefined;
    // The record as it is now: its URLs may have changed since.
    const record = this.store.byId(last.request.record.id) ?? last.request.record;
    await this.run({ ...last.request, record }, turnPage(last.pageIndex, step));
    return undefined;
  }

  dispose(): void {
    this.host.dispose();
  }
}
