/**
 * The compare panel: the two endpoints (keys masked by the host), the block, the verdict and the
 * counts per field, around the shared table of the entities that differ, paged (TableView). It
 * renders what the host posts and never reaches the network; every value is set as text.
 */
import { el } from '../dom';
import { TableView } from '../table/view';
import type { CompareContract, ComparePage } from './protocol';
import './compare.css';

const verdict = el('div', { className: 'verdict' });
verdict.setAttribute('aria-live', 'polite');
const endpoints = el('div', { className: 'endpoints' });
const counts = el('div', { className: 'counts' });
const rerunButton = el('button', { type: 'button', textContent: 'Compare Again' });
const toolbar = el('div', { className: 'toolbar' }, verdict, el('span', { className: 'spacer' }), rerunButton);

const view = new TableView<CompareContract>({
  emptyText: 'No entity differs.',
  busyText: 'Comparing…',
  pageLabel: (page) => `Page ${page.pageNumber} of ${page.pages}`,
  pagerNeedsPage: true,
  showPage,
  update: (page, status) => {
    rerunButton.disabled = status.busy || !page;
  },
});
const { rpc } = view;

document.getElementById('app')!.append(toolbar, endpoints, counts, view.errorBox, view.progressBox, view.table.element, view.pager);

function endpointLine(name: string, side: ComparePage['a']): HTMLElement[] {
  const facts = [side.head !== undefined ? `indexed to block ${side.head}` : '', side.failure ?? ''].filter(Boolean).join(' · ');
  return [el('strong', { textContent: name }), el('span', { textContent: facts ? `${side.label} — ${facts}` : side.label })];
}

function showPage(page: ComparePage | undefined): void {
  endpoints.replaceChildren(...(page ? [...endpointLine('A', page.a), ...endpointLine('B', page.b)] : []));
  const failed = !!page && (!!page.a.failure || !!page.b.failure);
  verdict.className = `verdict ${page?.equal ? 'equal' : 'differ'}`;
  verdict.textContent = !page
    ? ''
    : failed
      ? `Not compared at block ${page.block}: an endpoint failed.`
      : page.equal
        ? `Equal at block ${page.block}.`
        : `${page.differing} entit${page.differing === 1 ? 'y differs' : 'ies differ'} at block ${page.block}${page.blockFrom === 'heads' ? " (the lower of the endpoints' indexed blocks)" : ''}.`;
  counts.textContent = (page?.fields ?? []).map((f) => `${f.name}: ${f.countA} in A, ${f.countB} in B, ${f.differing} differ${f.truncated ? ' (read up to the bound)' : ''}`).join(' · ');
}

rerunButton.addEventListener('click', () => void view.send(() => rpc.request('rerun')));

async function start(): Promise<void> {
  view.restore(await rpc.request('ready'));
}

void view.send(start);
