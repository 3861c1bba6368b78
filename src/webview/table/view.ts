/**
 * The page end of a table panel (Storage, query results): what every such page has around its
 * own parts. The virtualised table, the pager (Previous, the page, Next) with CSV/JSON export,
 * the progress line with Cancel and the error box; it sends the table's requests, draws the
 * status and the pages the host posts, and keeps where the table was scrolled while the panel is
 * hidden. The page places these elements among its own and draws its own parts of a page (a
 * summary, a banner) in `showPage`. The host end is src/editor/webview/tablePanel.ts.
 */
import { el } from '../dom';
import type { ExportFormat, TableContract, TablePage, TableSnapshot, TableStatus } from '../protocol';
import { WebviewRpc } from '../rpc';
import { Table } from './table';
import './view.css';

/** What a table page keeps while hidden (VS Code holds it): where the table was scrolled, and the page's own. */
export interface ViewState {
  scrollTop: number;
}

type PageOf<C extends TableContract> = NonNullable<C['notifications']['page']>;

export interface TableViewOptions<P extends TablePage> {
  /** Shown in the table when there are no rows. */
  emptyText: string;
  /** Shown while a read runs, unless the host says how far it got. */
  busyText: string;
  /** The pager's label for a page; default "Page N". */
  pageLabel?: (page: P) => string;
  /** Whether the pager shows only once there is a page (else always, its buttons disabled). */
  pagerNeedsPage?: boolean;
  /** Draws the page's own parts of a page (undefined: none shown). */
  showPage: (page: P | undefined) => void;
  /** Sets the page's own controls after the status or the page changed (e.g. disables them while busy). */
  update?: (page: P | undefined, status: TableStatus) => void;
}

export class TableView<C extends TableContract, S extends ViewState = ViewState> {
  readonly rpc = new WebviewRpc<C>();
  /** The same channel, seen through the table's requests and notifications only. */
  private readonly tableRpc = this.rpc as unknown as WebviewRpc<TableContract<PageOf<C>>>;
  readonly table: Table;
  readonly errorBox = el('div', { className: 'error', hidden: true });
  readonly progressBox: HTMLElement;
  readonly pager: HTMLElement;
  private readonly progressText = el('span', { className: 'progress-text' });
  private readonly prevButton = el('button', { type: 'button', textContent: '‹ Previous' });
  private readonly nextButton = el('button', { type: 'button', textContent: 'Next ›' });
  private readonly pageLabel = el('span', { className: 'page-label' });
  private readonly csvButton = el('button', { type: 'button', textContent: 'Export CSV…' });
  private readonly jsonButton = el('button', { type: 'button', textContent: 'Export JSON…' });
  private readonly exportNote = el('span', { className: 'export-note' });
  private state: Partial<S> = this.rpc.loadState<S>();
  private shown: PageOf<C> | undefined;
  private current: TableStatus = { busy: false };
  /** Where focus goes when the next page arrives: the pager button used (to page on), else the table. */
  private pageFocus: HTMLButtonElement | undefined;

  constructor(private readonly options: TableViewOptions<PageOf<C>>) {
    this.errorBox.setAttribute('role', 'alert');
    const cancelButton = el('button', { type: 'button', textContent: 'Cancel' });
    this.progressBox = el('div', { className: 'progress', hidden: true }, el('span', { className: 'spinner' }), this.progressText, cancelButton);
    this.progressBox.setAttribute('role', 'status');
    this.table = new Table({
      copy: (text) => this.tableRpc.request('copy', { text }),
      emptyText: options.emptyText,
      onScroll: (scrollTop) => this.saveState({ scrollTop } as Partial<S>),
    });
    this.exportNote.setAttribute('role', 'status');
    this.pager = el('nav', { className: 'pager' }, this.prevButton, this.pageLabel, this.nextButton, el('span', { className: 'spacer' }), this.exportNote, this.csvButton, this.jsonButton);
    this.pager.setAttribute('aria-label', 'Pages');

    this.prevButton.addEventListener('click', () => void this.send(() => this.tableRpc.request('previous'), this.prevButton));
    this.nextButton.addEventListener('click', () => void this.send(() => this.tableRpc.request('next'), this.nextButton));
    cancelButton.addEventListener('click', () => void this.send(() => this.tableRpc.request('cancel')));
    this.csvButton.addEventListener('click', () => void this.send(() => this.exportPage('csv')));
    this.jsonButton.addEventListener('click', () => void this.send(() => this.exportPage('json')));
    this.tableRpc.on('status', (status) => this.showStatus(status));
    this.tableRpc.on('page', (page) => {
      this.saveState({ scrollTop: 0 } as Partial<S>);
      this.showPage(page ?? undefined);
      const focus = this.pageFocus;
      this.pageFocus = undefined;
      if (!page) return;
      if (focus && !focus.disabled) focus.focus();
      else this.table.focus();
    });
  }

  get page(): PageOf<C> | undefined {
    return this.shown;
  }

  get status(): TableStatus {
    return this.current;
  }

  /** The view state saved last (the page's own fields and the table's scroll offset). */
  get saved(): Partial<S> {
    return this.state;
  }

  saveState(changes: Partial<S>): void {
    this.state = { ...this.state, ...changes };
    this.rpc.saveState(this.state);
  }

  /**
   * Sends a request; a failure is shown where errors go (the host has logged it). `focus` is
   * where focus goes when the page it asks for arrives (the table when not given).
   */
  async send(run: () => Promise<unknown>, focus?: HTMLButtonElement): Promise<void> {
    this.pageFocus = focus;
    try {
      await run();
    } catch (error) {
      this.showStatus({ busy: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Draws what the host's answer to `ready` says: the status, and the page scrolled as it was left. */
  restore(snapshot: TableSnapshot<PageOf<C>>): void {
    this.showStatus(snapshot.status);
    this.showPage(snapshot.page, this.state.scrollTop ?? 0);
  }

  private showStatus(status: TableStatus): void {
    this.current = status;
    this.progressBox.hidden = !status.busy;
    this.progressText.textContent = status.progress ?? this.options.busyText;
    this.errorBox.hidden = !status.error;
    this.errorBox.textContent = status.error ?? '';
    this.update();
  }

  private showPage(page: PageOf<C> | undefined, scrollTop = 0): void {
    this.shown = page;
    this.table.setData(page?.table ?? { columns: [], rows: [] }, scrollTop);
    this.options.showPage(page);
    this.update();
  }

  private update(): void {
    const { busy } = this.current;
    const page = this.shown;
    this.prevButton.disabled = busy || !page?.hasPrevious;
    this.nextButton.disabled = busy || !page?.hasNext;
    this.csvButton.disabled = this.jsonButton.disabled = busy || !page;
    if (this.options.pagerNeedsPage) this.pager.hidden = !page;
    this.pageLabel.textContent = page ? (this.options.pageLabel?.(page) ?? `Page ${page.pageNumber}`) : '';
    this.options.update?.(page, this.current);
  }

  private async exportPage(format: ExportFormat): Promise<void> {
    this.exportNote.textContent = '';
    const { path } = await this.tableRpc.request('export', { format });
    if (path) this.exportNote.textContent = `Saved ${path}`;
  }
}
