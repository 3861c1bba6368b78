/**
 * The query results panel: what was asked and how it went, and the endpoint's errors exactly as
 * it sent them, around the shared table, pager and export (TableView). It renders what the host
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
const errorsBox = el('pre', { className: 'error errors', hidden: true });
errorsBox.setAttribute('aria-label', 'Errors from the endpoint');

const view = new TableView<QueryContract>({
  emptyText: 'No rows.',
  busyText: 'Querying…',
  // An operation without $first/$skip is one page: no page number to show.
  pageLabel: (page) => (page.paged ? `Page ${page.pageNumber}` : ''),
  pagerNeedsPage: true,
  showPage,
  update: (page, status) => (rerunButton.disabled = status.busy || !page),
});
const { rpc } = view;

document.getElementById('app')!.append(toolbar, view.errorBox, view.progressBox, errorsBox, view.table.element, view.pager);

/** The page's own parts of a page: the summary line and the endpoint's errors. */
function showPage(page: QueryResultPage | undefined): void {
  summary.replaceChildren();
  if (page) {
    const rows = page.table.rows.length;
    summary.append(
      el('strong', { textContent: page.subgraph }),
      el('span', { textContent: page.field ? `${page.operation} · ${page.field}` : page.operation }),
      el('span', { textContent: `${rows} row${rows === 1 ? '' : 's'}` }),
      el('span', { textContent: `HTTP ${page.httpStatus} · ${page.timeMs} ms` }),
      el('span', { className: 'endpoint', textContent: page.endpoint }),
    );
  }
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
