/**
 * One Storage panel: the query form, the page shown, and the stack of visited pages. The host
 * owns this state; the webview draws it and sends intents (load, next, previous, cancel, copy,
 * export). Reading runs in a cancellable progress notification whose cancel, like the panel's
 * Cancel button, aborts the same AbortSignal handed to core.
 */
import * as vscode from 'vscode';
import { displayUrl } from '../../core/nodes/endpoint';
import type { NodeConfig } from '../../core/nodes/model';
import { redactText } from '../../core/redact';
import type { RpcClient } from '../../core/rpc/client';
import { RpcFailure } from '../../core/rpc/failure';
import { StorageRangeError } from '../../core/storage/errors';
import { storageExportName } from '../../core/storage/exportName';
import { normaliseAddress } from '../../core/storage/inputs';
import { storageRange, toSpecOutput, type StorageRangeResult } from '../../core/storage/range';
import { modeNotes, rangeTable } from '../../core/storage/table';
import { exportText } from '../../core/table/export';
import { cursorPage } from '../../core/table/paging';
import type { ExportFormat, NodeChoice, StorageContract, StorageForm, StoragePage, StorageSnapshot, StorageStatus } from '../../webview/protocol';
import { clientFor } from '../nodes/calls';
import { HostMessenger } from '../webview/messenger';
import { createPanel } from '../webview/panel';
import type { StorageFeature } from './feature';

export const VIEW_TYPE = 'chaindeck.storage';

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
  private readonly panel: vscode.WebviewPanel;
  private readonly messenger: HostMessenger<StorageContract>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private form: StorageForm;
  /** Bumped when the host sets the form, so the page knows its saved draft is older. */
  private formVersion = 1;
  private query: Query | undefined;
  /** Visited pages, oldest first: Next pushes, Previous pops. */
  private pages: VisitedPage[] = [];
  private status: StorageStatus = { busy: false };
  private running: AbortController | undefined;
  private isDisposed = false;
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;

  constructor(
    private readonly f: StorageFeature,
    form: StorageForm,
  ) {
    this.form = form;
    this.panel = createPanel(f.extensionUri, { viewType: VIEW_TYPE, title: 'Storage', entry: 'storage', iconPath: new vscode.ThemeIcon('database') });
    this.messenger = new HostMessenger<StorageContract>(
      this.panel,
      {
        ready: () => this.snapshot(),
        load: (form) => this.load(form),
        next: () => this.next(),
        previous: () => this.previous(),
        cancel: () => void this.running?.abort(),
        copy: async ({ text }) => void (await vscode.env.clipboard.writeText(String(text))),
        export: ({ format }) => this.export(format),
      },
      (method, message) => f.log.error(`Storage panel ${method}: ${message}`),
    );
    this.subscriptions.push(
      this.messenger,
      f.store.onDidChange(() => this.messenger.notify('nodes', this.nodeChoices())),
      this.panel.onDidDispose(() => this.dispose()),
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
    this.panel.reveal();
  }

  /** Sets the form (as a command asked) and reads its first page; resolves with what was read and shown. */
  async open(form: StorageForm, read: boolean): Promise<Shown | undefined> {
    this.form = form;
    this.messenger.notify('form', { form, version: ++this.formVersion });
    if (!read) return undefined;
    const before = this.pages.at(-1);
    await this.load(form);
    const shown = this.pages.at(-1);
    return shown && shown !== before ? { ...shown.result, page: shown.page } : undefined;
  }

  private snapshot(): StorageSnapshot {
    return { nodes: this.nodeChoices(), form: this.form, version: this.formVersion, page: this.page, status: this.status };
  }

  private nodeChoices(): NodeChoice[] {
    return this.f.store
      .all()
      .filter((n) => n.protocol === 'evm')
      .map((n) => ({ id: n.id, name: n.name, url: displayUrl(n) }));
  }

  private setStatus(status: StorageStatus): void {
    this.status = status;
    this.messenger.notify('status', status);
  }

  /** Reads the form's first page; a bad field or a failed read shows in the panel, never throws. */
  private async load(form: StorageForm): Promise<undefined> {
    this.form = form;
    // A new query supersedes a read still running, even one this form will never start.
    this.running?.abort();
    this.running = undefined;
    let query: Query;
    try {
      query = await this.check(form);
    } catch (error) {
      this.fail('Storage form', error);
      return undefined;
    }
    const result = await this.read(query, form.start.trim() || '0', []);
    if (result) this.panel.title = `Storage ${short(query.address)}`;
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
    if (this.pages.length < 2 || this.status.busy) return undefined;
    this.pages = this.pages.slice(0, -1);
    this.messenger.notify('page', this.page!);
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
      client: await clientFor(this.f.store, node),
      block: form.block.trim() || 'latest',
      txIndex: number(form.txIndex),
      maxResults: number(form.max),
      mode: form.mode,
    };
  }

  /**
   * Reads one page from `startKey` and pushes it on `below` (the pages before it). The block is
   * pinned to the first page's hash, so every page of a walk shows the same state. A read started
   * meanwhile supersedes this one: it is aborted and its outcome, whatever it is, dropped.
   */
  private async read(query: Query, startKey: string, below: VisitedPage[]): Promise<StorageRangeResult | undefined> {
    this.running?.abort();
    const running = new AbortController();
    this.running = running;
    const current = () => this.running === running;
    const what = `storage of ${short(query.address)} on ${query.node.name}`;
    this.setStatus({ busy: true, progress: `Reading ${what}…` });
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Reading ${what}`, cancellable: true },
        async (progress, token) => {
          const cancelled = token.onCancellationRequested(() => running.abort());
          let shown = 0;
          try {
            return await storageRange(query.client, {
              address: query.address,
              block: query.block,
              txIndex: query.txIndex,
              startKey,
              maxResults: query.maxResults,
              mode: query.mode,
              signal: running.signal,
              onProgress: (p) => {
                // Progress comes per read: tell the panel a few times a second at most.
                if (!current() || Date.now() - shown < 150) return;
                shown = Date.now();
                const text = `${p.slotsRead} of at most ${p.maxReads} reads, ${p.entriesFound} of ${p.maxResults} entries`;
                progress.report({ message: text });
                this.setStatus({ busy: true, progress: text });
              },
            });
          } finally {
            cancelled.dispose();
          }
        },
      );
      const pinned: Query = { ...query, block: result.block.hash };
      const page = await this.toPage(pinned, result, below.length + 1);
      if (!current()) return undefined;
      this.query = pinned;
      this.pages = [...below, { result, page }];
      // Idle first: the page then arrives with its buttons enabled, ready to take focus.
      this.setStatus({ busy: false });
      this.messenger.notify('page', page);
      this.f.log.info(`Read ${Object.keys(result.storage).length} entries of ${what} at block ${result.block.number} (${result.mode}, page ${page.pageNumber})`);
      for (const w of result.warnings) this.f.log.warn(`${what}: ${w}`);
      return result;
    } catch (error) {
      if (current()) this.fail(`Reading ${what}`, error);
      return undefined;
    } finally {
      if (current()) this.running = undefined;
    }
  }

  private async toPage(query: Query, result: StorageRangeResult, pageNumber: number): Promise<StoragePage> {
    const layout = await this.f.layouts.labelsFor(query.node, query.address).catch((error) => {
      this.f.log.warn(`Storage layout for ${query.address}: ${redactText(error instanceof Error ? error.message : String(error))}`);
      return undefined;
    });
    return {
      table: rangeTable(result, layout?.label),
      mode: result.mode,
      address: query.address,
      nodeName: query.node.name,
      block: { number: String(result.block.number), hash: result.block.hash },
      ...cursorPage(pageNumber, result.nextKey),
      notes: modeNotes(result, query.txIndex ?? 0),
      warnings: result.warnings,
      layout: layout?.name,
    };
  }

  /** A failure as the panel shows it (core's message, as the spec words it) and as logged. */
  private fail(doing: string, error: unknown): void {
    const message = redactText(error instanceof Error ? error.message : String(error));
    if ((error instanceof StorageRangeError && error.reason === 'cancelled') || (error instanceof RpcFailure && error.kind === 'cancelled')) {
      this.f.log.info(`${doing}: cancelled`);
      this.setStatus({ busy: false });
      return;
    }
    const detail = error instanceof StorageRangeError && error.detail ? ` (${redactText(error.detail)})` : '';
    this.f.log.error(`${doing}: ${message}${detail}`);
    this.setStatus({ busy: false, error: message });
  }

  private async export(format: ExportFormat): Promise<{ path?: string }> {
    const shown = this.pages.at(-1);
    if (!shown) throw new Error('There is no page to export yet.');
    const { page, result } = shown;
    const name = storageExportName({ address: page.address, contract: page.layout, block: page.block.number, page: page.pageNumber, format });
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      title: `Export Storage Page as ${format.toUpperCase()}`,
      saveLabel: 'Export',
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!uri) return {};
    // JSON is the spec's output form (what the node or the emulation answers); CSV is the table.
    const text = exportText(format, page.table, () => toSpecOutput(result));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    this.f.log.info(`Exported ${page.table.rows.length} storage entries to ${uri.fsPath}`);
    return { path: vscode.workspace.asRelativePath(uri, false) };
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.running?.abort();
    this.running = undefined;
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions.length = 0;
    this.panel.dispose();
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
