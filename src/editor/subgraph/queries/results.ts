/**
 * The query results panel: one query (an operation of a query file, tied to a record) sent to
 * the record's query URL by core, its answer as a table (core flattens: nested objects spread
 * into columns, BigInt and Bytes kept whole as sent), paging through $first/$skip, CSV/JSON
 * export, and the endpoint's errors shown exactly as sent. One panel, reused by every run.
 */
import type { GraphQLSchema } from 'graphql';
import * as vscode from 'vscode';
import { pageVariables } from '../../../core/subgraph/query/build';
import type { GraphqlResponse, QueryOutcome } from '../../../core/subgraph/query/client';
import { queryExportName } from '../../../core/subgraph/query/exportName';
import { displaySubgraphUrl, type SubgraphRecord } from '../../../core/subgraph/records';
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
  operation: string;
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
}

export class QueryResults implements vscode.Disposable {
  private readonly host: TablePanel<QueryContract>;
  private shown: Shown | undefined;
  /** The query being sent (or last sent): what Next, Previous and Re-run work on. */
  private request: { request: QueryRequest; pageIndex: number } | undefined;

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
    this.request = { request, pageIndex };
    const { record } = request;
    const what = `${request.operation} on ${record.name}`;
    return this.host.read(`Query ${what}`, async (read) => {
      const variables = request.paging ? pageVariables(pageIndex, request.paging.pageSize) : undefined;
      if (this.host.panel) this.host.setStatus({ busy: true });
      const outcome = await read.withProgress(`Querying ${what}`, (signal) => this.store.query(record, { query: request.text, variables }, request.schema, signal));
      if (!read.isCurrent()) return undefined;
      if (outcome.kind === 'invalid') {
        this.host.setStatus({ busy: false });
        return outcome;
      }
      const { response, table } = outcome;
      const rows = table.rows.length;
      const page: QueryResultPage = {
        subgraph: record.name,
        endpoint: displaySubgraphUrl(this.store.queryUrlOf(record)),
        operation: request.operation,
        field: table.field,
        table: fittedTable(table),
        ...offsetPage(pageIndex, rows, request.paging?.pageSize),
        paged: !!request.paging,
        httpStatus: response.status,
        timeMs: Math.round(response.timeMs),
        errors: response.errors?.length ? JSON.stringify(response.errors, null, 2) : '',
      };
      this.shown = { request, pageIndex, page, response };
      this.log.info(
        `Query ${what}: HTTP ${response.status}, ${rows} row${rows === 1 ? '' : 's'}${response.errors?.length ? `, ${response.errors.length} error(s)` : ''} in ${page.timeMs} ms`,
      );
      this.reveal(record);
      this.host.show(page);
      return outcome;
    });
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
