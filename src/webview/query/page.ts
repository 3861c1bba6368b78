/**
 * The query results panel: what was asked and how it went, and the endpoint's errors exactly as
 * it sent them, around the shared table, pager and export (TableView); a tab for each top-level
 * field of the answer, with its row count, when there are several. It renders what the host
 * posts and posts the user's intents back; it never reaches the network. Values are set as text.
 */
import { el } from '../dom';
import { TableView } from '../table/view';
import type { QueryContract, QueryResultPage, QuerySnapshot } from './protocol';
import './query.css';

const summary = el('div', { className: 'summary' });
summary.setAttribute('aria-live', 'polite');
const rerunButton = el('button', { type: 'button', textContent: 'Run Again' });
const uiButton = el('button', { type: 'button', textContent: 'Open GraphQL UI', hidden: true });
const toolbar = el('div', { className: 'toolbar' }, summary, el('span', { className: 'spacer' }), rerunButton, uiButton);
const fieldTabs = el('div', { className: 'field-tabs', hidden: true });
fieldTabs.setAttribute('role', 'tablist');
fieldTabs.setAttribute('aria-label', 'Top-level fields');
const errorsBox = el('pre', { className: 'error errors', hidden: true });
errorsBox.setAttribute('aria-label', 'Errors from the endpoint');

const view = new TableView<QueryContract>({
  emptyText: 'No rows.',
  busyText: 'Querying…',
  // An operation without $first/$skip is one page: no page number to show.
  pageLabel: (page) => (page.paged ? `Page ${page.pageNumber}` : ''),
  pagerNeedsPage: true,
  showPage,
  update: (page, status) => {
    rerunButton.disabled = status.busy || !page;
    fieldTabs.querySelectorAll('button').forEach((tab) => (tab.disabled = status.busy));
  },
});
const { rpc } = view;

document.getElementById('app')!.append(toolbar, view.errorBox, view.progressBox, errorsBox, fieldTabs, view.table.element, view.pager);

const rowCount = (rows: number) => `${rows} row${rows === 1 ? '' : 's'}`;

/** One tab per top-level field ("transfers · 10 rows"), the shown one selected; none for a single field (the summary names it). */
function showTabs(page: QueryResultPage | undefined): void {
  const fields = page?.fields ?? [];
  fieldTabs.hidden = fields.length < 2;
  fieldTabs.replaceChildren(
    ...(fields.length < 2 ? [] : fields).map(({ name, rows }) => {
      const tab = el('button', { type: 'button', className: 'field-tab', textContent: `${name} · ${rowCount(rows)}`, disabled: view.status.busy });
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(name === page?.field));
      tab.addEventListener('click', () => void view.send(() => rpc.request('showField', { field: name })));
      return tab;
    }),
  );
}

/** The page's own parts of a page: the summary line and the endpoint's errors. */
function showPage(page: QueryResultPage | undefined): void {
  summary.replaceChildren();
  if (page) {
    summary.append(
      el('strong', { textContent: page.subgraph }),
      el('span', { textContent: page.field ? `${page.operation} · ${page.field}` : page.operation }),
      el('span', { textContent: rowCount(page.table.rows.length) }),
      el('span', { textContent: `HTTP ${page.httpStatus} · ${page.timeMs} ms` }),
      el('span', { className: 'endpoint', textContent: page.endpoint }),
    );
  }
  showTabs(page);
  errorsBox.hidden = !page?.errors;
  errorsBox.textContent = page?.errors ?? '';
}

rerunButton.addEventListener('click', () => void view.send(() => rpc.request('rerun')));
uiButton.addEventListener('click', () => void view.send(() => rpc.request('openUi')));
rpc.on('canOpenUi', (can) => (uiButton.hidden = !can));

async function start(): Promise<void> {
  const snapshot: QuerySnapshot = await rpc.request('ready');
  uiButton.hidden = !snapshot.canOpenUi;
  view.restore(snapshot);
}

void view.send(start);
