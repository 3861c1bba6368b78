// entry: webview
/**
 * The Storage panel: a query form, the mode banner, the table of entries and the pager. It
 * renders what the host posts and posts the user's intents back; it never reaches the network.
 * Values are set as text (textContent, input.value), never parsed as HTML.
 */
import './panel.css';
import './storage.css';
import type { ExportFormat, NodeChoice, StorageContract, StorageForm, StorageMode, StoragePage, StorageSnapshot, StorageStatus } from './protocol';
import { WebviewRpc } from './rpc';
import { Table } from './table';

/** What the page keeps while hidden: the form as typed and where the table was scrolled. */
interface ViewState {
  form: StorageForm;
  /** The host's form version the draft started from: a newer one from the host wins. */
  formVersion: number;
  scrollTop: number;
}

const MODES: { value: StorageMode; label: string }[] = [
  { value: 'auto', label: 'Auto (native, else emulate)' },
  { value: 'native', label: 'Native (debug_storageRangeAt)' },
  { value: 'emulate', label: 'Emulate (eth_getStorageAt)' },
];

const rpc = new WebviewRpc<StorageContract>();
let view: Partial<ViewState> = rpc.loadState<ViewState>();
let page: StoragePage | undefined;
let status: StorageStatus = { busy: false };

// ---- building the page ------------------------------------------------------------------------

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

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
const errorBox = el('div', { className: 'error', hidden: true });
errorBox.setAttribute('role', 'alert');
const progressText = el('span', { className: 'progress-text' });
const cancelButton = el('button', { type: 'button', className: 'secondary', textContent: 'Cancel' });
const progressBox = el('div', { className: 'progress', hidden: true }, el('span', { className: 'spinner' }), progressText, cancelButton);
progressBox.setAttribute('role', 'status');
const banner = el('div', { className: 'banner', hidden: true });
banner.setAttribute('role', 'note');
const summary = el('div', { className: 'summary' });

const table = new Table({
  copy: (text) => rpc.request('copy', { text }),
  emptyText: 'No entries. Enter a contract address and press Read Storage.',
  onScroll: (scrollTop) => saveView({ scrollTop }),
});

const prevButton = el('button', { type: 'button', className: 'secondary', textContent: '‹ Previous' });
const nextButton = el('button', { type: 'button', className: 'secondary', textContent: 'Next ›' });
const pageLabel = el('span', { className: 'page-label' });
const csvButton = el('button', { type: 'button', className: 'secondary', textContent: 'Export CSV…' });
const jsonButton = el('button', { type: 'button', className: 'secondary', textContent: 'Export JSON…' });
const exportNote = el('span', { className: 'export-note' });
exportNote.setAttribute('role', 'status');
const pager = el('nav', { className: 'pager' }, prevButton, pageLabel, nextButton, el('span', { className: 'spacer' }), exportNote, csvButton, jsonButton);
pager.setAttribute('aria-label', 'Pages');

document.getElementById('app')!.append(form, nodeUrl, errorBox, progressBox, banner, summary, table.element, pager);

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

function showStatus(next: StorageStatus): void {
  status = next;
  progressBox.hidden = !next.busy;
  progressText.textContent = next.progress ?? 'Reading storage…';
  errorBox.hidden = !next.error;
  errorBox.textContent = next.error ?? '';
  for (const b of [loadButton, csvButton, jsonButton]) b.disabled = next.busy;
  updatePager();
}

function showPage(next: StoragePage | undefined, scrollTop = 0): void {
  page = next;
  table.setData(next?.table ?? { columns: [], rows: [] }, scrollTop);
  banner.replaceChildren();
  banner.hidden = !next;
  summary.replaceChildren();
  if (next) {
    banner.className = `banner ${next.mode}`;
    const title = next.mode === 'native' ? 'Native debug_storageRangeAt' : 'Emulated with eth_getStorageAt';
    banner.append(el('strong', { textContent: title }));
    if (next.notes.length) banner.append(el('ul', {}, ...next.notes.map((n) => el('li', { textContent: n }))));
    if (next.warnings.length) banner.append(el('ul', { className: 'warnings' }, ...next.warnings.map((w) => el('li', { textContent: w }))));
    const parts = [
      `${next.table.rows.length} ${next.table.rows.length === 1 ? 'entry' : 'entries'}`,
      `contract ${next.address}`,
      `block ${next.block.number}`,
      `hash ${next.block.hash}`,
      next.layout ? `layout: ${next.layout}` : undefined,
    ];
    summary.append(...parts.filter((p): p is string => !!p).map((p) => el('span', { textContent: p })));
  }
  updatePager();
}

function updatePager(): void {
  prevButton.disabled = status.busy || !page?.hasPrevious;
  nextButton.disabled = status.busy || !page?.hasNext;
  csvButton.disabled = jsonButton.disabled = status.busy || !page;
  pageLabel.textContent = page ? `Page ${page.pageNumber}` : '';
}

function saveView(changes: Partial<ViewState>): void {
  view = { ...view, ...changes };
  rpc.saveState(view);
}

// ---- the user's intents -----------------------------------------------------------------------

/** Sends a request; a failure is shown where errors go (the host has logged it). */
async function send(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    showStatus({ ...status, busy: false, error: error instanceof Error ? error.message : String(error) });
  }
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  pageFocus = undefined;
  void send(() => rpc.request('load', readForm()));
});
form.addEventListener('input', () => saveView({ form: readForm() }));
f.node.addEventListener('change', showNodeUrl);
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
cancelButton.addEventListener('click', () => void send(() => rpc.request('cancel')));

async function exportPage(format: ExportFormat): Promise<void> {
  exportNote.textContent = '';
  const { path } = await rpc.request('export', { format });
  if (path) exportNote.textContent = `Saved ${path}`;
}
csvButton.addEventListener('click', () => void send(() => exportPage('csv')));
jsonButton.addEventListener('click', () => void send(() => exportPage('json')));

rpc.on('nodes', showNodes);
rpc.on('form', ({ form: values, version }) => {
  showForm(values);
  saveView({ form: values, formVersion: version });
});
rpc.on('status', showStatus);
rpc.on('page', (next) => {
  saveView({ scrollTop: 0 });
  showPage(next ?? undefined);
  if (!next) return;
  if (pageFocus && !pageFocus.disabled) pageFocus.focus();
  else table.focus();
});

async function start(): Promise<void> {
  const snapshot: StorageSnapshot = await rpc.request('ready');
  showNodes(snapshot.nodes);
  // The form as the user left it wins over the host's copy (it may hold edits not yet sent),
  // unless a command has set the form since.
  const draft = view.form && view.formVersion === snapshot.version ? view.form : undefined;
  showForm(draft ?? snapshot.form);
  saveView({ form: draft ?? snapshot.form, formVersion: snapshot.version });
  if (!f.node.value) f.node.value = snapshot.form.nodeId;
  showNodeUrl();
  showStatus(snapshot.status);
  showPage(snapshot.page, view.scrollTop ?? 0);
  if (!snapshot.form.address) f.address.focus();
}

void send(start);
