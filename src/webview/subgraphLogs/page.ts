/**
 * The Subgraph Logs panel: a deployment's entries (time, level, handler, block, transaction,
 * message) a page at a time, filtered by level, handler, block range and text, following new
 * entries while "Follow" is on. A row opens the mapping line that logged it; its transaction is
 * copied with one click. Everything is rendered as text (textContent), never as HTML.
 */
import { el } from '../dom';
import { WebviewRpc } from '../rpc';
import type { LogFilterInput, LogsView, SubgraphLogsContract } from './protocol';
import './subgraphLogs.css';

const rpc = new WebviewRpc<SubgraphLogsContract>();
const app = document.getElementById('app')!;

const LEVELS = ['debug', 'info', 'warning', 'error', 'critical'];
const level = el('select', { id: 'level', title: 'This level and above' }, ...LEVELS.map((l) => el('option', { value: l, textContent: l === 'debug' ? 'all levels' : `${l} and above` })));
const handler = el('select', { id: 'handler', title: 'One handler' }, el('option', { value: '', textContent: 'all handlers' }));
const fromBlock = el('input', { id: 'fromBlock', placeholder: 'from block', size: 10, inputMode: 'numeric' });
const toBlock = el('input', { id: 'toBlock', placeholder: 'to block', size: 10, inputMode: 'numeric' });
const text = el('input', { id: 'text', placeholder: 'text in message, handler or tx', size: 28, type: 'search' });
const follow = el('input', { id: 'follow', type: 'checkbox', checked: true });
const previous = el('button', { id: 'previous', textContent: '‹ Older' });
const next = el('button', { id: 'next', textContent: 'Newer ›' });
const position = el('span', { id: 'position', className: 'position' });
const title = el('h1');
const note = el('div', { className: 'note' });
const body = el('tbody');

let shown: LogsView | undefined;

function filter(): LogFilterInput {
  return { level: level.value, handler: handler.value, fromBlock: fromBlock.value.trim(), toBlock: toBlock.value.trim(), text: text.value };
}

function render(view: LogsView): void {
  shown = view;
  title.textContent = `Subgraph Logs: ${view.title}`;
  title.title = `Deployment ${view.deployment}`;
  // The handler choices, keeping the one picked.
  const picked = handler.value || view.filter.handler;
  handler.replaceChildren(el('option', { value: '', textContent: 'all handlers' }), ...view.handlers.map((h) => el('option', { value: h, textContent: h })));
  handler.value = view.handlers.includes(picked) ? picked : '';
  follow.checked = view.follow;
  note.textContent = view.note ?? '';
  const last = Math.min(view.total, view.offset + view.rows.length);
  position.textContent = view.total ? `${(view.offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${view.total.toLocaleString('en-US')}` : 'no entries';
  previous.disabled = view.offset === 0;
  next.disabled = last >= view.total;
  body.replaceChildren(
    ...view.rows.map((row, index) => {
      const open = el('button', { className: 'link open', textContent: row.message || '(empty)', title: row.source ? `Open ${row.source}` : row.handler ? `Open ${row.handler}` : '' });
      open.disabled = !row.source && !row.handler;
      open.addEventListener('click', () => void rpc.request('open', { index }));
      const tx = el('td', { className: 'tx' });
      if (row.tx) {
        const copy = el('button', { className: 'link copy', textContent: `${row.tx.slice(0, 10)}…${row.tx.slice(-4)}`, title: `Copy ${row.tx}` });
        copy.addEventListener('click', () => void rpc.request('copyTx', { index }));
        tx.append(copy);
      }
      return el(
        'tr',
        { className: `row level-${row.level}` },
        el('td', { className: 'time', textContent: row.time.replace('T', ' ').replace('Z', '') }),
        el('td', { className: 'level', textContent: row.level }),
        el('td', { className: 'handler', textContent: row.handler }),
        el('td', { className: 'block num', textContent: row.block === null ? '' : String(row.block) }),
        tx,
        el('td', { className: 'message' }, open),
      );
    }),
  );
  if (view.follow && view.offset + view.rows.length >= view.total) window.scrollTo(0, document.body.scrollHeight);
}

async function show(offset: number, following = follow.checked): Promise<void> {
  render(await rpc.request('show', { filter: filter(), offset, follow: following }));
}

let typing: ReturnType<typeof setTimeout> | undefined;
const changed = () => {
  clearTimeout(typing);
  typing = setTimeout(() => void show(0), 250);
};
for (const input of [fromBlock, toBlock, text]) input.addEventListener('input', changed);
for (const select of [level, handler]) select.addEventListener('change', () => void show(0));
follow.addEventListener('change', () => void show(0));
previous.addEventListener('click', () => shown && void show(Math.max(0, shown.offset - shown.pageSize), false));
next.addEventListener('click', () => shown && void show(shown.offset + shown.pageSize, false));

app.replaceChildren(
  title,
  el('div', { className: 'toolbar' }, level, handler, fromBlock, toBlock, text, el('label', { className: 'follow' }, follow, ' Follow'), previous, next, position),
  note,
  el('table', {}, el('thead', {}, el('tr', {}, ...['Time', 'Level', 'Handler', 'Block', 'Transaction', 'Message'].map((h) => el('th', { textContent: h })))), body),
);
rpc.on('view', render);
void rpc.request('ready').then(render);
