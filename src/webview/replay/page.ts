/**
 * The Replay Block panel: the plan (grafted or from block N, under the debug name), what the last
 * replay saw (the entity changes written at N, before and after; or the new error with its
 * mapping line as a link; or the compiler's errors), and the block on chain (its events decoded
 * with the ABI and their transactions). It renders what the host posts; values are set as text.
 */
import { el } from '../dom';
import { WebviewRpc } from '../rpc';
import type { ReplayBlock, ReplayContract, ReplayResult, ReplaySnapshot } from './protocol';
import './replay.css';

const rpc = new WebviewRpc<ReplayContract>();
const app = document.getElementById('app')!;

const text = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

function section(title: string, ...children: (Node | string)[]): HTMLElement {
  return el('section', {}, el('h2', { textContent: title }), ...children);
}

function table(head: string[], rows: (string | Node)[][], className = ''): HTMLTableElement {
  return el(
    'table',
    { className },
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { textContent: h })))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c))))),
  );
}

function resultSection(result: ReplayResult): HTMLElement {
  if (result.kind === 'build-failed')
    return section('Build failed', el('p', { className: 'error', textContent: result.message }), el('pre', { className: 'output', textContent: result.output }));
  if (result.kind === 'failed') {
    const where = result.location
      ? el('a', { href: '#', className: 'location', textContent: `${result.location.file}:${result.location.line}:${result.location.column}` })
      : el('span', { textContent: 'no mapping line in the error' });
    if (result.location) {
      const location = result.location;
      where.addEventListener('click', (e) => {
        e.preventDefault();
        void rpc.request('openLocation', location);
      });
    }
    return section(
      `Failed${result.block !== undefined ? ` at block ${result.block}` : ''}`,
      el('p', {}, 'Mapping line: ', where),
      result.location?.message ? el('p', { className: 'error', textContent: result.location.message }) : '',
      el('pre', { className: 'output', textContent: result.message }),
    );
  }
  const rows: string[][] = [];
  for (const c of result.changes) {
    const fields = c.kind === 'created' ? Object.keys(c.after) : c.changed.length ? c.changed : ['(no field changed)'];
    fields.forEach((f, i) => rows.push([i ? '' : c.entity, i ? '' : c.id, i ? '' : c.kind, f, text(c.before?.[f]), text(c.after[f])]));
  }
  return section(
    `Entity changes at this block · ${result.changes.length}`,
    result.changes.length ? table(['Entity', 'id', 'Change', 'Field', 'Before', 'After'], rows, 'changes') : el('p', { textContent: 'The handlers wrote no entity at this block.' }),
    ...result.truncated.map((t) => el('p', { className: 'note', textContent: `${t}: only the first changes are shown.` })),
    ...result.errors.map((t) => el('p', { className: 'error', textContent: t })),
    result.laterError ? el('p', { className: 'note', textContent: `A later block failed: ${result.laterError}` }) : '',
  );
}

function chainSection(chain: ReplayBlock): HTMLElement {
  const args = (a: { name: string; value: string }[]) => a.map((x) => `${x.name} = ${x.value}`).join('\n');
  return section(
    `Block ${chain.number} on chain`,
    chain.hash ? el('p', { className: 'mono', textContent: chain.hash }) : '',
    el('h3', { textContent: `Triggering events · ${chain.events.length}${chain.truncated ? ' (first shown)' : ''}` }),
    chain.events.length
      ? table(
          ['Log', 'Data source', 'Event', 'Arguments', 'Transaction'],
          chain.events.map((e) => [String(e.logIndex), e.source, e.signature, args(e.args), e.transaction]),
          'events',
        )
      : el('p', { textContent: 'No log of this block matches a handler.' }),
    chain.blockHandlers.length ? el('p', { textContent: `Block handlers of ${chain.blockHandlers.join(', ')} run on every block.` }) : '',
    el('h3', { textContent: `Transactions · ${chain.transactions.length}` }),
    table(
      ['Hash', 'From', 'To', 'Value (wei)', 'Call'],
      chain.transactions.map((t) => [t.hash, t.from, t.to ?? '(contract creation)', t.value, t.call ? `${t.call.signature}\n${args(t.call.args)}` : (t.selector ?? '')]),
      'transactions',
    ),
  );
}

/** graph-node's call cache for the block: address and return data only, said plainly. */
function callsSection(s: ReplaySnapshot): HTMLElement {
  const note = el('p', {
    className: 'note',
    textContent:
      'From graph-node’s call cache for this block: the contract called and what it returned, from any subgraph on this node that called at this block (a call answered from the cache is listed once), in no particular order. graph-node does not keep a call’s input (function and arguments): a return value is decoded only where the ABI of the address’s data source has one output shape that fits it exactly.',
  });
  if (s.callsError) return section('eth_calls', note, el('p', { className: 'error', textContent: `The call cache could not be read: ${s.callsError}` }));
  if (!s.calls) return section('eth_calls', note, el('p', { textContent: 'Read after each replay.' }));
  const { calls, truncated } = s.calls;
  return section(
    `eth_calls cached for block ${s.block} · ${calls.length}${truncated ? ' (first shown)' : ''}`,
    note,
    calls.length
      ? table(
          ['Contract', 'Data source', 'Returned'],
          calls.map((c) => [
            c.address,
            c.sources.join(', ') || '(not a data source)',
            c.decoded
              ? `${c.decoded.functions.join(' or ')} →\n${c.decoded.values.map((v) => `${v.name} (${v.type}) = ${v.value}`).join('\n')}`
              : `${c.returned}${c.returnedBytes * 2 + 2 > c.returned.length ? ` … (${c.returnedBytes} bytes)` : ''}`,
          ]),
          'calls',
        )
      : el('p', { textContent: 'graph-node cached no eth_call for this block.' }),
  );
}

function render(s: ReplaySnapshot): void {
  const timings = s.timings && `build ${s.timings.build} ms · deploy ${s.timings.deploy} ms · index ${s.timings.index} ms · read ${s.timings.read} ms · total ${s.timings.total} ms`;
  const rerun = el('button', { type: 'button', textContent: 'Replay Again', disabled: !!s.busy });
  rerun.addEventListener('click', () => void rpc.request('rerun'));
  const status = el('p', { className: 'status', textContent: s.busy || (s.at ? `Replayed at ${new Date(s.at).toLocaleTimeString()}` : '') });
  status.setAttribute('aria-live', 'polite');
  app.replaceChildren(
    el('div', { className: 'toolbar' }, el('strong', { textContent: s.title }), el('span', { className: 'spacer' }), rerun),
    el('p', { textContent: `${s.debugName}: ${s.plan}. Saving the mapping replays it again.` }),
    status,
    s.error ? el('p', { className: 'error', textContent: s.error }) : '',
    s.result ? resultSection(s.result) : '',
    timings ? el('p', { className: 'note', textContent: `${timings}${s.deployment ? ` · ${s.deployment}` : ''}` }) : '',
    s.chain ? chainSection(s.chain) : s.chainError ? el('p', { className: 'error', textContent: `The block could not be read from the chain: ${s.chainError}` }) : '',
    callsSection(s),
  );
}

rpc.on('snapshot', render);
void rpc.request('ready').then(render);
