// entry: webview
/**
 * The query results panel: what was asked and how it went, the endpoint's errors exactly as it
 * sent them, the rows in the shared virtualised table, paging, export. It renders what the host
 * posts and posts the user's intents back; it never reaches the network. Values are set as text.
 */
import './panel.css';
import './query.css';
import type { ExportFormat, QueryContract, QueryResultPage, QuerySnapshot, QueryStatus } from './protocol';
import { WebviewRpc } from './rpc';
import { Table } from './table';

interface ViewState {
  scrollTop: number;
}

const rpc = new WebviewRpc<QueryContract>();
let view: Partial<ViewState> = rpc.loadState<ViewState>();
let page: QueryResultPage | undefined;
let status: QueryStatus = { busy: false };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const summary = el('div', { className: 'summary' });
summary.setAttribute('aria-live', 'polite');
const rerunButton = el('button', { type: 'button', textContent: 'Run Again' });
const uiButton = el('button', { type: 'button', textContent: 'Open GraphQL UI', hidden: true });
const toolbar = el('div', { className: 'toolbar' }, summary, el('span', { className: 'spacer' }), rerunButton, uiButton);
const errorBox = el('div', { className: 'error', hidden: true });
errorBox.setAttribute('role', 'alert');
const errorsBox = el('pre', { className: 'errors', hidden: true });
errorsBox.setAttribute('aria-label', 'Errors from the endpoint');
const cancelButton = el('button', { type: 'button', textContent: 'Cancel' });
const progressBox = el('div', { className: 'progress', hidden: true }, el('span', { className: 'spinner' }), el('span', { textContent: 'Querying…' }), cancelButton);
progressBox.setAttribute('role', 'status');

const table = new Table({
  copy: (text) => rpc.request('copy', { text }),
  emptyText: 'No rows.',
  onScroll: (scrollTop) => saveView({ scrollTop }),
});

const prevButton = el('button', { type: 'button', textContent: '‹ Previous' });
const nextButton = el('button', { type: 'button', textContent: 'Next ›' });
const pageLabel = el('span', { className: 'page-label' });
const csvButton = el('button', { type: 'button', textContent: 'Export CSV…' });
const jsonButton = el('button', { type: 'button', textContent: 'Export JSON…' });
const exportNote = el('span', { className: 'export-note' });
exportNote.setAttribute('role', 'status');
const pager = el('nav', { className: 'pager' }, prevButton, pageLabel, nextButton, el('span', { className: 'spacer' }), exportNote, csvButton, jsonButton);
pager.setAttribute('aria-label', 'Pages');

document.getElementById('app')!.append(toolbar, errorBox, progressBox, errorsBox, table.element, pager);

function showPage(next: QueryResultPage | undefined, scrollTop = 0): void {
  page = next;
  table.setData(next?.table ?? { columns: [], rows: [] }, scrollTop);
  summary.replaceChildren();
  if (next) {
    const rows = next.table.rows.length;
    summary.append(
      el('strong', { textContent: next.subgraph }),
      el('span', { textContent: next.field ? `${next.operation} · ${next.field}` : next.operation }),
      el('span', { textContent: `${rows} row${rows === 1 ? '' : 's'}` }),
      el('span', { textContent: `HTTP ${next.httpStatus} · ${next.timeMs} ms` }),
      el('span', { className: 'endpoint', textContent: next.endpoint }),
    );
  }
  errorsBox.hidden = !next?.errors;
  errorsBox.textContent = next?.errors ?? '';
  updateButtons();
}

function showStatus(next: QueryStatus): void {
  status = next;
  progressBox.hidden = !next.busy;
  errorBox.hidden = !next.error;
  errorBox.textContent = next.error ?? '';
  updateButtons();
}

function updateButtons(): void {
  prevButton.disabled = status.busy || !page?.hasPrevious;
  nextButton.disabled = status.busy || !page?.hasNext;
  rerunButton.disabled = status.busy || !page;
  csvButton.disabled = jsonButton.disabled = status.busy || !page;
  pager.hidden = !page;
  pageLabel.textContent = page?.paged ? `Page ${page.pageNumber}` : '';
}

function saveView(changes: Partial<ViewState>): void {
  view = { ...view, ...changes };
  rpc.saveState(view);
}

/** Sends a request; a failure shows where errors go (the host has logged it). */
async function send(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    showStatus({ busy: false, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Where focus goes when a page arrives: the pager button used (to page on), else the table. */
let pageFocus: HTMLButtonElement | undefined;
prevButton.addEventListener('click', () => {
  pageFocus = prevButton;
  void send(() => rpc.request('previous'));
});
nextButton.addEventListener('click', () => {
  pageFocus = nextButton;
  void send(() => rpc.request('next'));
});
rerunButton.addEventListener('click', () => void send(() => rpc.request('rerun')));
cancelButton.addEventListener('click', () => void send(() => rpc.request('cancel')));
uiButton.addEventListener('click', () => void send(() => rpc.request('openUi')));

async function exportPage(format: ExportFormat): Promise<void> {
  exportNote.textContent = '';
  const { path } = await rpc.request('export', { format });
  if (path) exportNote.textContent = `Saved ${path}`;
}
csvButton.addEventListener('click', () => void send(() => exportPage('csv')));
jsonButton.addEventListener('click', () => void send(() => exportPage('json')));

rpc.on('status', showStatus);
rpc.on('canOpenUi', (can) => (uiButton.hidden = !can));
rpc.on('page', (next) => {
  saveView({ scrollTop: 0 });
  showPage(next ?? undefined);
  if (!next) return;
  if (pageFocus && !pageFocus.disabled) pageFocus.focus();
  else table.focus();
  pageFocus = undefined;
});

async function start(): Promise<void> {
  const snapshot: QuerySnapshot = await rpc.request('ready');
  uiButton.hidden = !snapshot.canOpenUi;
  showStatus(snapshot.status);
  showPage(snapshot.page, view.scrollTop ?? 0);
}

void send(start);
