/**
 * The query results panel: one query (an operation of a query file, tied to a record) sent to
 * the record's query URL by core, its answer as a table (core flattens: nested objects spread
 * into columns, BigInt and Bytes kept whole as sent), paging through $first/$skip, CSV/JSON
 * export, and the endpoint's errors shown exactly as sent. One panel, reused by every run.
 */
import type { GraphQLSchema } from 'graphql';
import * as vscode from 'vscode';
import { redactText } from '../../../core/redact';
import { RpcFailure } from '../../../core/rpc/failure';
import { pageVariables, querySubgraph, type GraphqlResponse, type QueryOutcome } from '../../../core/subgraph/query';
import { queryExportName } from '../../../core/subgraph/query/exportName';
import { displaySubgraphUrl, subgraphSecretValues, withKey, type SubgraphRecord } from '../../../core/subgraph/records';
import { exportText } from '../../../core/table/export';
import { offsetPage, turnPage } from '../../../core/table/paging';
import { fittedTable } from '../../../core/table/table';
import type { ExportFormat, QueryContract, QueryResultPage, QuerySnapshot, QueryStatus } from '../../../webview/protocol';
import { config } from '../../config';
import { COMMANDS } from '../../ids';
import type { Log } from '../../log';
import { HostMessenger } from '../../webview/messenger';
import { createPanel } from '../../webview/panel';
import type { SubgraphStore } from '../records/store';

export const RESULTS_VIEW_TYPE = 'chaindeck.queryResults';

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
  private panel: vscode.WebviewPanel | undefined;
  private messenger: HostMessenger<QueryContract> | undefined;
  private shown: Shown | undefined;
  /** The query being sent (or last sent): what Next, Previous and Re-run work on. */
  private request: { request: QueryRequest; pageIndex: number } | undefined;
  private status: QueryStatus = { busy: false };
  private running: AbortController | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: SubgraphStore,
    private readonly log: Log,
  ) {}

  /** The page the panel shows (for tests). */
  get page(): QueryResultPage | undefined {
    return this.shown?.page;
  }

  /**
   * Checks and sends a query, showing the answer in the panel. Resolves with core's outcome:
   * `invalid` (nothing sent, for the caller to mark), `answered`, or undefined when it failed
   * (shown in the panel and logged) or was cancelled.
   */
  async run(request: QueryRequest, pageIndex = 0): Promise<QueryOutcome | undefined> {
    this.running?.abort();
    const running = new AbortController();
    this.running = running;
    const current = () => this.running === running;
    this.request = { request, pageIndex };
    const { record } = request;
    const what = `${request.operation} on ${record.name}`;
    try {
      const template = this.store.queryUrlOf(record);
      if (!template) throw new Error(`${record.name} has no query URL yet: deploy it, or add the query URL from the console (Edit Subgraph…).`);
      const secrets = await this.store.secretsOf(record);
      const url = withKey(template, secrets.accessKey, 'query URL');
      const variables = request.paging ? pageVariables(pageIndex, request.paging.pageSize) : undefined;
      if (this.panel) this.setStatus({ busy: true });
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Querying ${what}`, cancellable: true },
        async (_progress, token) => {
          const cancelled = token.onCancellationRequested(() => running.abort());
          try {
            return await querySubgraph(url, { query: request.text, variables }, { timeoutMs: config.requestTimeoutMs(), signal: running.signal, secrets: subgraphSecretValues(secrets), schema: request.schema });
          } finally {
            cancelled.dispose();
          }
        },
      );
      if (!current()) return undefined;
      if (outcome.kind === 'invalid') {
        this.setStatus({ busy: false });
        return outcome;
      }
      const { response, table } = outcome;
      const rows = table.rows.length;
      const page: QueryResultPage = {
        subgraph: record.name,
        endpoint: displaySubgraphUrl(template),
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
      this.log.info(`Query ${what}: HTTP ${response.status}, ${rows} row${rows === 1 ? '' : 's'}${response.errors?.length ? `, ${response.errors.length} error(s)` : ''} in ${page.timeMs} ms`);
      this.reveal(record);
      this.setStatus({ busy: false });
      this.messenger?.notify('page', page);
      return outcome;
    } catch (error) {
      if (current()) this.fail(what, error);
      return undefined;
    } finally {
      if (current()) this.running = undefined;
    }
  }

  private fail(what: string, error: unknown): void {
    const message = redactText(error instanceof Error ? error.message : String(error));
    if (error instanceof RpcFailure && error.kind === 'cancelled') {
      this.log.info(`Query ${what}: cancelled`);
      this.setStatus({ busy: false });
      return;
    }
    this.log.error(`Query ${what}: ${message}`);
    if (this.panel) this.setStatus({ busy: false, error: message });
    else {
      this.status = { busy: false };
      void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => choice && this.log.show());
    }
  }

  private setStatus(status: QueryStatus): void {
    this.status = status;
    this.messenger?.notify('status', status);
  }

  private reveal(record: SubgraphRecord): void {
    const title = `Query: ${record.name}`;
    if (this.panel) {
      this.panel.title = title;
      this.panel.reveal(undefined, true);
      this.messenger?.notify('canOpenUi', !!this.store.uiUrlOf(record));
      return;
    }
    const panel = createPanel(this.extensionUri, { viewType: RESULTS_VIEW_TYPE, title, entry: 'query', column: vscode.ViewColumn.Beside, iconPath: new vscode.ThemeIcon('table') });
    this.panel = panel;
    this.messenger = new HostMessenger<QueryContract>(
      panel,
      {
        ready: () => this.snapshot(),
        next: () => this.turn(+1),
        previous: () => this.turn(-1),
        rerun: () => this.turn(0),
        cancel: () => void this.running?.abort(),
        copy: async ({ text }) => void (await vscode.env.clipboard.writeText(String(text))),
        export: ({ format }) => this.export(format),
        openUi: async () => {
          if (this.shown) await vscode.commands.executeCommand(COMMANDS.subgraphs.openGraphqlUi, this.shown.request.record);
          return undefined;
        },
      },
      (method, message) => this.log.error(`Query panel ${method}: ${message}`),
    );
    panel.onDidDispose(() => {
      this.messenger?.dispose();
      this.messenger = undefined;
      this.panel = undefined;
      this.running?.abort();
    });
  }

  private snapshot(): QuerySnapshot {
    const record = this.shown?.request.record;
    return { page: this.shown?.page, status: this.status, canOpenUi: !!record && !!this.store.uiUrlOf(record) };
  }

  /** Another page of the query being shown (0: the same page again). */
  private async turn(step: number): Promise<undefined> {
    const last = this.request;
    if (!last || this.status.busy) return undefined;
    // The record as it is now: its URLs may have changed since.
    const record = this.store.byId(last.request.record.id) ?? last.request.record;
    await this.run({ ...last.request, record }, turnPage(last.pageIndex, step));
    return undefined;
  }

  private async export(format: ExportFormat): Promise<{ path?: string }> {
    const shown = this.shown;
    if (!shown) throw new Error('There are no results to export yet.');
    const { page, response } = shown;
    const name = queryExportName(page, format);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      title: `Export Query Results as ${format.toUpperCase()}`,
      saveLabel: 'Export',
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!uri) return {};
    // CSV is the table as shown; JSON is `data` as the endpoint sent it (values untouched).
    const text = exportText(format, page.table, () => response.data ?? null);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    this.log.info(`Exported ${page.table.rows.length} query result rows to ${uri.fsPath}`);
    return { path: vscode.workspace.asRelativePath(uri, false) };
  }

  dispose(): void {
    this.running?.abort();
    this.panel?.dispose();
  }
}
