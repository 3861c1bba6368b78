/**
 * The Storage panel: a query form, the mode banner and the summary of the page, around the shared
 * table, pager and export (TableView). It renders what the host posts and posts the user's
 * intents back; it never reaches the network. Values are set as text (textContent, input.value),
 * never parsed as HTML.
 */
import { el } from '../dom';
import { TableView, type ViewState } from '../table/view';
import type { NodeChoice, StorageContract, StorageForm, StorageMode, StoragePage, StorageSnapshot } from './protocol';
import './storage.css';

/** What the page keeps while hidden: the form as typed (and where the table was scrolled). */
interface StorageViewState extends ViewState {
  form: StorageForm;
  /** The host's form version the draft started from: a newer one from the host wins. */
  formVersion: number;
}

const MODES: { value: StorageMode; label: string }[] = [
  { value: 'auto', label: 'Auto (native, else emulate)' },
  { value: 'native', label: 'Native (debug_storageRangeAt)' },
  { value: 'emulate', label: 'Emulate (eth_getStorageAt)' },
];

// ---- building the page ------------------------------------------------------------------------

function field(label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLElement {
  control.id = `f-${label.toLowerCase().replace(/\W+/g, '-')}`;
  if (hint) control.title = hint;
  return el('div', { className: 'field' }, el('label', { htmlFor: control.id, textContent: label }), control);
}

const input = (name: string, placeholder: string, size = 10) => el('input', { name, placeholder, type: 'text', spellcheck: false, autocomplete: 'off', size });
const whole = (name: string, placeholder: string, min: number) => el('input', { name, placeholder, type: 'number', min: String(min), step: '1' });

const f = {
  node: el('select', { name: 'node' }),
  address: input('address', '0x… (40 hex digits)', 44),
  block: input('block', 'latest', 12),
  txIndex: whole('txIndex', '0', 0),
  start: input('start', '0', 12),
  max: whole('max', '10', 1),
  mode: el('select', { name: 'mode' }, ...MODES.map((m) => el('option', { value: m.value, textContent: m.label }))),
};

const loadButton = el('button', { type: 'submit', className: 'primary', textContent: 'Read Storage' });
const form = el(
  'form',
  { className: 'query', noValidate: true },
  field('Node', f.node),
  field('Contract', f.address, 'The contract address: 40 hex digits, checksummed or not'),
  field('Block', f.block, 'latest, a block number, or a block hash'),
  field('Tx index', f.txIndex, 'Native mode shows the state before this transaction of the block'),
  field('Start key', f.start, 'Slot (emulation) or hashed key (native) to start from'),
  field('Page size', f.max, 'Entries per page'),
  field('Mode', f.mode),
  el('div', { className: 'field actions' }, loadButton),
);

const nodeUrl = el('div', { className: 'node-url' });
const banner = el('div', { className: 'banner', hidden: true });
banner.setAttribute('role', 'note');
const summary = el('div', { className: 'summary' });

const view = new TableView<StorageContract, StorageViewState>({
  emptyText: 'No entries. Enter a contract address and press Read Storage.',
  busyText: 'Reading storage…',
  showPage,
  update: (_page, status) => (loadButton.disabled = status.busy),
});
const { rpc } = view;

document.getElementById('app')!.append(form, nodeUrl, view.errorBox, view.progressBox, banner, summary, view.table.element, view.pager);

// ---- rendering what the host posts ----------------------------------------------------------

function readForm(): StorageForm {
  return {
    nodeId: f.node.value,
    address: f.address.value.trim(),
    block: f.block.value.trim(),
    txIndex: f.txIndex.value.trim(),
    start: f.start.value.trim(),
    max: f.max.value.trim(),
    mode: f.mode.value as StorageMode,
  };
}

function showForm(values: StorageForm): void {
  f.node.value = values.nodeId;
  f.address.value = values.address;
  f.block.value = values.block;
  f.txIndex.value = values.txIndex;
  f.start.value = values.start;
  f.max.value = values.max;
  f.mode.value = values.mode;
  showNodeUrl();
}

let nodes: NodeChoice[] = [];

function showNodes(choices: NodeChoice[]): void {
  const selected = f.node.value;
  nodes = choices;
  f.node.replaceChildren(...choices.map((n) => el('option', { value: n.id, textContent: n.name })));
  if (choices.some((n) => n.id === selected)) f.node.value = selected;
  showNodeUrl();
}

function showNodeUrl(): void {
  const node = nodes.find((n) => n.id === f.node.value);
  nodeUrl.textContent = node ? `${node.name} · ${node.url}` : nodes.length ? '' : 'No EVM node is configured: add one in the Nodes view.';
}

/** The page's own parts of a page: the mode banner and the summary line. */
function showPage(page: StoragePage | undefined): void {
  banner.replaceChildren();
  banner.hidden = !page;
  summary.replaceChildren();
  if (!page) return;
  banner.className = `banner ${page.mode}`;
  const title = page.mode === 'native' ? 'Native debug_storageRangeAt' : 'Emulated with eth_getStorageAt';
  banner.append(el('strong', { textContent: title }));
  if (page.notes.length) banner.append(el('ul', {}, ...page.notes.map((n) => el('li', { textContent: n }))));
  if (page.warnings.length) banner.append(el('ul', { className: 'warnings' }, ...page.warnings.map((w) => el('li', { textContent: w }))));
  const parts = [
    `${page.table.rows.length} ${page.table.rows.length === 1 ? 'entry' : 'entries'}`,
    `contract ${page.address}`,
    `block ${page.block.number}`,
    `hash ${page.block.hash}`,
    page.layout ? `layout: ${page.layout}` : undefined,
  ];
  summary.append(...parts.filter((p): p is string => !!p).map((p) => el('span', { textContent: p })));
}

// ---- the user's intents -----------------------------------------------------------------------

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void view.send(() => rpc.request('load', readForm()));
});
form.addEventListener('input', () => view.saveState({ form: readForm() }));
f.node.addEventListener('change', showNodeUrl);

rpc.on('nodes', showNodes);
rpc.on('form', ({ form: values, version }) => {
  showForm(values);
  view.saveState({ form: values, formVersion: version });
});

async function start(): Promise<void> {
  const snapshot: StorageSnapshot = await rpc.request('ready');
  showNodes(snapshot.nodes);
  // The form as the user left it wins over the host's copy (it may hold edits not yet sent),
  // unless a command has set the form since.
  const saved = view.saved;
  const draft = saved.form && saved.formVersion === snapshot.version ? saved.form : undefined;
  showForm(draft ?? snapshot.form);
  view.saveState({ form: draft ?? snapshot.form, formVersion: snapshot.version });
  if (!f.node.value) f.node.value = snapshot.form.nodeId;
  showNodeUrl();
  view.restore(snapshot);
  if (!snapshot.form.address) f.address.focus();
}

void view.send(start);
