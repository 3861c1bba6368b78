/**
 * The Profile panel: a deployment's speed, each handler's count, total and mean time and share,
 * the share of eth_call and the calls it made, and the `calls:` hint with a link to the handler
 * in subgraph.yaml. It renders what the host posts, as text (textContent), never as HTML.
 */
import { el } from '../dom';
import { WebviewRpc } from '../rpc';
import type { ProfileContract, ProfileView } from './protocol';
import './profile.css';

const rpc = new WebviewRpc<ProfileContract>();
const app = document.getElementById('app')!;

const ms = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(2));
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

function table(headers: string[], rows: (string | HTMLElement)[][], numeric: boolean[]): HTMLTableElement {
  const cell = (tag: 'th' | 'td', value: string | HTMLElement, i: number) => el(tag, { className: numeric[i] ? 'num' : '' }, value);
  return el('table', {}, el('thead', {}, el('tr', {}, ...headers.map((h, i) => cell('th', h, i)))), el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((v, i) => cell('td', v, i))))));
}

function bar(share: number): HTMLElement {
  const fill = el('span', { className: 'fill' });
  fill.style.width = `${Math.round(Math.max(0, Math.min(1, share)) * 120)}px`;
  return el('span', { className: 'bar', title: percent(share) }, fill, el('span', { className: 'share', textContent: percent(share) }));
}

function render(view: ProfileView): void {
  const parts: HTMLElement[] = [
    el('h1', { textContent: `Profile: ${view.title}` }),
    el('div', { className: 'meta', textContent: `Deployment ${view.deployment} · read ${new Date(view.at).toLocaleTimeString()}` }),
  ];
  if (view.speed) parts.push(el('div', { className: 'speed', textContent: view.speed }));
  if (view.problem) parts.push(el('div', { className: 'problem', textContent: view.problem }));
  parts.push(el('h2', { textContent: 'Handlers' }));
  if (!view.handlers.length) parts.push(el('p', { textContent: 'No handler has run yet (the counts start when gnd starts).' }));
  else
    parts.push(
      table(
        ['Handler', 'Count', 'Total ms', 'Mean ms', 'Share of handler time'],
        view.handlers.map((h) => [h.handler, h.count.toLocaleString('en-US'), ms(h.totalMs), ms(h.meanMs), bar(h.share)]),
        [false, true, true, true, false],
      ),
    );
  parts.push(el('h2', { textContent: 'eth_call' }));
  const call = view.ethCall;
  parts.push(
    el('p', {
      textContent: call.count
        ? `${call.count.toLocaleString('en-US')} calls, ${ms(call.totalMs)} ms: ${percent(call.share)} of the handler time.`
        : 'No eth_call made (or all answered from graph-node’s cache).',
    }),
  );
  if (call.methods.length)
    parts.push(
      table(
        ['Contract', 'Method', 'Calls', 'Mean ms'],
        call.methods.map((m) => [m.contract, m.method, m.count.toLocaleString('en-US'), ms(m.meanMs)]),
        [false, false, true, true],
      ),
    );
  if (view.hint) {
    const hint = el('div', { className: 'hint' }, el('strong', { textContent: 'Declare the eth_calls' }), el('p', { textContent: view.hint.message }));
    for (const place of view.hint.places) {
      const link = el('button', { className: 'link', textContent: `Open ${place.handler} in subgraph.yaml (line ${place.line + 1})` });
      link.addEventListener('click', () => void rpc.request('openManifest', { line: place.line }));
      hint.append(link);
    }
    parts.push(hint);
  }
  app.replaceChildren(...parts);
}

rpc.on('profile', render);
void rpc.request('ready').then((view) => (view ? render(view) : app.replaceChildren(el('p', { textContent: 'Reading the metrics…' }))));
