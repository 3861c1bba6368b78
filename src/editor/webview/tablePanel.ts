/**
 * The host end of a table panel (Storage, query results): the webview and its messenger, the
 * status, the one read in flight, and the table's own requests: copy a cell, export the page
 * shown as CSV or JSON, cancel the read. A panel configures it with its own requests and what
 * its export writes, and shows its pages through it. The page end is src/webview/table/view.ts.
 */
import * as vscode from 'vscode';
import { exportText, type ExportFormat } from '../../core/table/export';
import type { Tabular } from '../../core/table/table';
import type { NotificationName, TableContract, TableStatus } from '../../webview/protocol';
import { logFailure, reportError } from '../kit/errors';
import { withProgress, type Report } from '../kit/progress';
import type { Log } from '../log';
import { HostMessenger, type Handlers } from './messenger';
import { createPanel, type PanelOptions } from './panel';

/** The requests the table host answers itself, whatever the panel. */
type TableOwnRequests = 'copy' | 'export' | 'cancel';

/** What the page shown exports: CSV is always its table; JSON is the panel's (e.g. the answer as sent). */
interface ExportSource {
  /** The file name the save dialog offers. */
  name: string;
  table: Tabular;
  json: () => unknown;
}

interface TablePanelOptions<C extends TableContract> {
  /** The webview; its title is given when it opens. */
  panel: Omit<PanelOptions, 'title'>;
  log: Log;
  /** How the log names the panel, e.g. "Storage panel". */
  name: string;
  /** More about a failure for the log only (e.g. what the node said), shown after its message. */
  detailOf?(error: unknown): string | undefined;
  /** The panel's own requests, and next and previous (paging is the panel's). */
  requests: Omit<Handlers<C>, TableOwnRequests>;
  export: {
    /** What the save dialog's title names: "Export <what> as CSV". */
    what: string;
    /** What the rows are, for the log: "Exported 12 <rows> to …". */
    rows: string;
    /** The error when there is nothing to export yet. */
    nothing: string;
    /** What the page shown exports as; undefined before the first page. */
    source(format: ExportFormat): ExportSource | undefined;
  };
}

/** One read in flight, as `TablePanel.read` hands it to the panel. */
export interface Read {
  /** Whether no read has been started since (a newer one supersedes this one). */
  isCurrent(): boolean;
  /** Runs `work` in a progress notification; its signal is aborted by that Cancel, the panel's, or a newer read. */
  withProgress<T>(title: string, work: (signal: AbortSignal, report: Report) => Promise<T>): Promise<T>;
}

export class TablePanel<C extends TableContract> implements vscode.Disposable {
  private webview: { panel: vscode.WebviewPanel; messenger: HostMessenger<C>; closed: vscode.Disposable } | undefined;
  private current: TableStatus = { busy: false };
  private running: AbortController | undefined;
  private isDisposed = false;
  private readonly closed = new vscode.EventEmitter<void>();
  /** Fires when the user closes the panel; a later `open` makes a new one. */
  readonly onDidClose = this.closed.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly options: TablePanelOptions<C>,
  ) {}

  /** The webview panel, while it is open. */
  get panel(): vscode.WebviewPanel | undefined {
    return this.webview?.panel;
  }

  get status(): TableStatus {
    return this.current;
  }

  /** Opens the panel (when it is not open) under `title`. */
  open(title: string): vscode.WebviewPanel {
    if (this.webview) return this.webview.panel;
    const { log, name } = this.options;
    const panel = createPanel(this.extensionUri, { ...this.options.panel, title });
    const own: Pick<Handlers<TableContract>, TableOwnRequests> = {
      copy: async ({ text }) => void (await vscode.env.clipboard.writeText(String(text))),
      export: ({ format }) => this.export(format),
      cancel: () => void this.running?.abort(),
    };
    // The table's own requests are the same in every table contract (TableRequests).
    const handlers = { ...this.options.requests, ...own } as unknown as Handlers<C>;
    const messenger = new HostMessenger<C>(panel, handlers, (method, message) => log.error(`${name} ${method}: ${message}`));
    const closed = panel.onDidDispose(() => {
      messenger.dispose();
      closed.dispose();
      this.webview = undefined;
      this.running?.abort();
      this.closed.fire();
    });
    this.webview = { panel, messenger, closed };
    return panel;
  }

  notify<N extends NotificationName<C>>(method: N, params: C['notifications'][N]): void {
    this.webview?.messenger.notify(method, params);
  }

  setStatus(status: TableStatus): void {
    this.current = status;
    this.notify('status', status);
  }

  /** Shows a page just read: idle first, so the page arrives with its buttons enabled, ready to take focus. */
  show(page: C['notifications']['page']): void {
    this.setStatus({ busy: false });
    this.notify('page', page);
  }

  /**
   * Runs `work` as the panel's one read in flight. A read started meanwhile supersedes it: it is
   * aborted, and `work` should drop its outcome (check `isCurrent()` before showing anything).
   * A failure of the current read shows in the panel and the log (see `fail`); it resolves
   * undefined then.
   */
  async read<T>(doing: string, work: (read: Read) => Promise<T>): Promise<T | undefined> {
    this.running?.abort();
    const running = new AbortController();
    this.running = running;
    const isCurrent = () => this.running === running;
    try {
      return await work({ isCurrent, withProgress: (title, task) => withProgress(title, task, { signal: running.signal }) });
    } catch (error) {
      if (isCurrent()) this.fail(doing, error);
      return undefined;
    } finally {
      if (isCurrent()) this.running = undefined;
    }
  }

  /** Stops the read in flight without a word: its outcome, whatever it is, is dropped. */
  supersede(): void {
    this.running?.abort();
    this.running = undefined;
  }

  /**
   * A failure as the panel shows it (core's message, redacted) and as logged; a cancellation is
   * only logged. With no panel open (nothing shown yet) the failure shows as a notification.
   */
  fail(doing: string, error: unknown): void {
    const detail = this.options.detailOf?.(error);
    if (!this.webview && !this.isDisposed) {
      this.current = { busy: false };
      return reportError(this.options.log, doing, error, detail);
    }
    const message = logFailure(this.options.log, doing, error, detail);
    if (this.webview) this.setStatus(message === undefined ? { busy: false } : { busy: false, error: message });
  }

  private async export(format: ExportFormat): Promise<{ path?: string }> {
    const { what, rows, nothing, source } = this.options.export;
    const shown = source(format);
    if (!shown) throw new Error(nothing);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      title: `Export ${what} as ${format.toUpperCase()}`,
      saveLabel: 'Export',
      defaultUri: folder ? vscode.Uri.joinPath(folder, shown.name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!uri) return {};
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(exportText(format, shown.table, shown.json)));
    this.options.log.info(`Exported ${shown.table.rows.length} ${rows} to ${uri.fsPath}`);
    return { path: vscode.workspace.asRelativePath(uri, false) };
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.running?.abort();
    this.running = undefined;
    this.webview?.panel.dispose();
    this.closed.dispose();
  }
}
