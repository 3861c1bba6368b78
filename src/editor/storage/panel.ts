/**
 * One Storage panel: the query form, the page shown, and the stack of visited pages. The host
 * owns this state; the webview draws it and sends intents (load, next, previous, cancel, copy,
 * export). The table host (TablePanel) runs each read in a cancellable progress notification
 * whose cancel, like the panel's Cancel button, aborts the same AbortSignal handed to core.
 */
import * as vscode from 'vscode';
import { displayUrl } from '../../core/nodes/endpoint';
import type { NodeConfig } from '../../core/nodes/model';
import type { RpcClient } from '../../core/rpc/client';
import { storageExportName } from '../../core/storage/exportName';
import { normaliseAddress } from '../../core/storage/inputs';
import { StorageRangeError } from '../../core/storage/errors';
import { storageRange, toSpecOutput, type StorageRangeResult } from '../../core/storage/range';
import { modeNotes, rangeTable } from '../../core/storage/table';
import { cursorPage } from '../../core/table/paging';
import type { NodeChoice, StorageContract, StorageForm, StoragePage, StorageSnapshot } from '../../webview/storage/protocol';
import { CONTEXT_KEYS, PANEL_TYPES } from '../ids';
import { errorText } from '../kit/errors';
import { TablePanel } from '../webview/tablePanel';
import type { StorageFeature } from './feature';

/** A form with its node found: what core is called with (core checks the fields). */
interface Query {
  node: NodeConfig;
  /** One client per query, so auto mode learns once that a node lacks the native method. */
  client: RpcClient;
  /** Checksummed. */
  address: string;
  block: string;
  txIndex?: number;
  maxResults?: number;
  mode: StorageForm['mode'];
}

interface VisitedPage {
  result: StorageRangeResult;
  page: StoragePage;
}

/** What a command opening a panel resolves with: core's result and the page as shown. */
export type Shown = StorageRangeResult & { page: StoragePage };

export class StoragePanel implements vscode.Disposable {
  private readonly host: TablePanel<StorageContract>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private form: StorageForm;
  /** Bumped when the host sets the form, so the page knows its saved draft is older. */
  private formVersion = 1;
  private query: Query | undefined;
  /** Visited pages, oldest first: Next pushes, Previous pops. */
  private pages: VisitedPage[] = [];
  private isDisposed = false;
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;

  constructor(
    private readonly f: StorageFeature,
    form: StorageForm,
  ) {
    this.form = form;
    this.host = new TablePanel<StorageContract>(f.extensionUri, {
      panel: { viewType: PANEL_TYPES.storage, entry: 'storage', iconPath: new vscode.ThemeIcon('database') },
      log: f.log,
      name: 'Storage panel',
      detailOf: (error) => (error instanceof StorageRangeError ? error.detail : undefined),
      requests: {
        ready: () => this.snapshot(),
        load: (form) => this.load(form),
        next: () => this.next(),
        previous: () => this.previous(),
      },
      export: {
        what: 'Storage Page',
        rows: 'storage entries',
        nothing: 'There is no page to export yet.',
        source: (format) => {
          const shown = this.pages.at(-1);
          if (!shown) return undefined;
          const { page, result } = shown;
          // JSON is the spec's output form (what the node or the emulation answers); CSV is the table.
          return {
            name: storageExportName({ address: page.address, contract: page.layout, block: page.block.number, page: page.pageNumber, format }),
            table: page.table,
            json: () => toSpecOutput(result),
          };
        },
      },
    });
    this.host.open('Storage');
    this.subscriptions.push(
      this.host,
      f.store.onDidChange(() => this.host.notify('nodes', this.nodeChoices())),
      this.host.onDidClose(() => this.dispose()),
    );
  }

  get page(): StoragePage | undefined {
    return this.pages.at(-1)?.page;
  }

  /** Whether this panel shows the contract `form` asks for, so a new request can reuse it. */
  shows(form: StorageForm): boolean {
    return this.form.nodeId === form.nodeId && this.form.address.toLowerCase() === form.address.toLowerCase();
  }

  reveal(): void {
    this.host.panel?.reveal();
  }

  /** Sets the form (as a command asked) and reads its first page; resolves with what was read and shown. */
  async open(form: StorageForm, read: boolean): Promise<Shown | undefined> {
    this.form = form;
    this.host.notify('form', { form, version: ++this.formVersion });
    if (!read) return undefined;
    const before = this.pages.at(-1);
    await this.load(form);
    const shown = this.pages.at(-1);
    return shown && shown !== before ? { ...shown.result, page: shown.page } : undefined;
  }

  private snapshot(): StorageSnapshot {
    return { nodes: this.nodeChoices(), form: this.form, version: this.formVersion, page: this.page, status: this.host.status };
  }

  private nodeChoices(): NodeChoice[] {
    return this.f.store
      .all()
      .filter((n) => n.protocol === 'evm')
      .map((n) => ({ id: n.id, name: n.name, url: displayUrl(n) }));
  }

  /** Reads the form's first page; a bad field or a failed read shows in the panel, never throws. */
  private async load(form: StorageForm): Promise<undefined> {
    this.form = form;
    // A new query supersedes a read still running, even one this form will never start.
    this.host.supersede();
    let query: Query;
    try {
      query = await this.check(form);
    } catch (error) {
      this.host.fail('Storage form', error);
      return undefined;
    }
    const result = await this.read(query, form.start.trim() || '0', []);
    if (result && this.host.panel) this.host.panel.title = `Storage ${short(query.address)}`;
    return undefined;
  }

  private async next(): Promise<undefined> {
    const last = this.pages.at(-1);
    if (!this.query || !last?.result.nextKey) return undefined;
    await this.read(this.query, last.result.nextKey, this.pages);
    return undefined;
  }

  /** Shows the page before this one again, as it was read (same block): no call to the node. */
  private previous(): undefined {
    if (this.pages.length < 2 || this.host.status.busy) return undefined;
    this.pages = this.pages.slice(0, -1);
    this.host.notify('page', this.page!);
    return undefined;
  }

  /** The form's node, and its address checked by core (the other fields core checks when called). */
  private async check(form: StorageForm): Promise<Query> {
    const node = this.f.store.byId(form.nodeId);
    if (!node) throw new Error('Choose a node: the one chosen is no longer configured.');
    if (node.protocol !== 'evm') throw new Error(`${node.name} is not an EVM node: storage ranges need eth_getStorageAt or debug_storageRangeAt.`);
    return {
      node,
      address: normaliseAddress(form.address),
      client: await this.f.store.client(node),
      block: form.block.trim() || 'latest',
      txIndex: number(form.txIndex),
      maxResults: number(form.max),
      mode: form.mode,
    };
  }

  /**
   * Reads one page from `startKey` and pushes it on `below` (the pages before it). The block is
   * pinned to the first page's hash, so every page of a walk shows the same state. A read started
   * meanwhile supersedes this one: its outcome, whatever it is, is dropped.
   */
  private read(query: Query, startKey: string, below: VisitedPage[]): Promise<StorageRangeResult | undefined> {
    const what = `storage of ${short(query.address)} on ${query.node.name}`;
    return this.host.read(`Reading ${what}`, async (read) => {
      this.host.setStatus({ busy: true, progress: `Reading ${what}…` });
      let shown = 0;
      const result = await read.withProgress(`Reading ${what}`, (signal, report) =>
        storageRange(query.client, {
          address: query.address,
          block: query.block,
          txIndex: query.txIndex,
          startKey,
          maxResults: query.maxResults,
          mode: query.mode,
          signal,
          onProgress: (p) => {
            // Progress comes per read: tell the panel a few times a second at most.
            if (!read.isCurrent() || Date.now() - shown < 150) return;
            shown = Date.now();
            const text = `${p.slotsRead} of at most ${p.maxReads} reads, ${p.entriesFound} of ${p.maxResults} entries`;
            report(text);
            this.host.setStatus({ busy: true, progress: text });
          },
        }),
      );
      const pinned: Query = { ...query, block: result.block.hash };
      const page = await this.toPage(pinned, result, below.length + 1);
      if (!read.isCurrent()) return undefined;
      this.query = pinned;
      this.pages = [...below, { result, page }];
      this.host.show(page);
      this.f.milestones.reached(CONTEXT_KEYS.storageBrowsed);
      this.f.log.info(`Read ${Object.keys(result.storage).length} entries of ${what} at block ${result.block.number} (${result.mode}, page ${page.pageNumber})`);
      for (const w of result.warnings) this.f.log.warn(`${what}: ${w}`);
      return result;
    });
  }

  private async toPage(query: Query, result: StorageRangeResult, depth: number): Promise<StoragePage> {
    const layout = await this.f.layouts.labelsFor(query.node, query.address).catch((error) => {
      this.f.log.warn(`Storage layout for ${query.address}: ${errorText(error)}`);
      return undefined;
    });
    return {
      table: rangeTable(result, layout?.label),
      mode: result.mode,
      address: query.address,
      nodeName: query.node.name,
      block: { number: String(result.block.number), hash: result.block.hash },
      ...cursorPage(depth, result.nextKey),
      notes: modeNotes(result, query.txIndex),
      warnings: result.warnings,
      layout: layout?.name,
    };
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions.length = 0;
    this.disposed.fire();
    this.disposed.dispose();
  }
}

/** A numeric field: undefined when empty (core's default applies); core refuses what is not a whole number. */
function number(text: string): number | undefined {
  return text.trim() ? Number(text) : undefined;
}

function short(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
