/**
 * The Contract Storage view: one contract's state variables decoded by its compiler layout, as a
 * tree (core's decode and tree model; this file holds the session and draws it). A diff reads
 * the contract at an earlier block and the shown one together and marks what changed; watched
 * variables are read again whenever a new block comes, while the view is visible (one poll in
 * flight, a fixed interval, given up after repeated failures).
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import type { BlockInfo } from '../../core/storage/block';
import { readStorage, type DecodedNode, type StorageReading } from '../../core/storage/decode/decode';
import { CHILD_PAGE, childItems, decodedSlotNames, labelLine, searchStoppedText, variableItems, type StorageItem, type TreeStates } from '../../core/storage/decode/tree';
import type { ContractLayout } from '../../core/storage/layout';
import { CONTEXT_KEYS, COMMANDS } from '../ids';
import { errorText } from '../kit/errors';
import type { StorageFeature } from './feature';
import { layoutTitle } from './layouts';

/** How often watched variables look for a new block. */
export const WATCH_INTERVAL_MS = 2_000;
/** Failed polls in a row after which watching stops. */
const WATCH_FAILURES = 3;
/** Variables one view may watch at once. */
export const MAX_WATCHED = 20;

/** What the view shows: a contract, read at one block or two (a diff). */
export interface StorageSession {
  node: NodeConfig;
  /** Checksummed. */
  address: string;
  layout: ContractLayout;
  /** What the address is when a proxy: "ERC-1967 proxy → implementation 0x… (Points)". */
  description?: string;
  /** The mapping keys the user added for this contract. */
  keys: string[];
  reading: StorageReading;
  /** The block shown (the later one of a diff). */
  block: BlockInfo;
  /** The earlier block of a diff. */
  diffFrom?: BlockInfo;
  /** When the two states are just before and just after one transaction (its block is `block`, its parent `diffFrom`). */
  tx?: { hash: string; index: number };
  changedOnly: boolean;
}

/** A watched variable: its node from the last two readings (the earlier one for the "was" marks). */
interface Watched {
  node?: DecodedNode;
  states?: TreeStates;
}

type ItemElement = { kind: 'item'; item: StorageItem; states: TreeStates; variable: string };
/** A row of the tree: a decoded item, "Load more…", or "Add Key…" under a mapping whose key search the bound stopped. */
export type StorageElement = ItemElement | { kind: 'more'; parent: string; remaining: number } | { kind: 'addKey'; mapping: ItemElement; tries: number };

/** The combinations tried where the bound stopped a mapping's key search, if it did. */
const stoppedAt = (item: StorageItem) => (item.node.kind === 'mapping' ? item.node.searchStopped : undefined);

export class ContractStorageView implements vscode.TreeDataProvider<StorageElement>, vscode.Disposable {
  private current: StorageSession | undefined;
  private readonly watched = new Map<string, Watched>();
  /** Elements and entries shown per path, beyond the first page. */
  private readonly shown = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<StorageElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<StorageElement>;
  private timer: NodeJS.Timeout | undefined;
  /** The block the watched variables were last read at, when after the session's. */
  private watchedAt: number | undefined;
  private polling: AbortController | undefined;
  private failures = 0;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly f: StorageFeature,
    viewId: string,
  ) {
    this.view = vscode.window.createTreeView(viewId, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      this.changed,
      this.view.onDidChangeVisibility(() => this.schedule()),
      f.store.onDidChange(() => {
        // The node was removed: nothing to read from any more.
        if (this.current && !f.store.byId(this.current.node.id)) this.clear();
      }),
    );
    void this.setContexts();
  }

  get session(): StorageSession | undefined {
    return this.current;
  }

  /** Shows a new reading (a decode, a diff, a refresh); watched variables and pages shown are kept where the layout still has them. */
  show(session: StorageSession): void {
    const sameContract = this.current && this.current.node.id === session.node.id && this.current.address === session.address && this.current.layout === session.layout;
    if (!sameContract) {
      this.watched.clear();
      this.shown.clear();
    }
    for (const label of this.watched.keys()) if (!session.layout.storage.some((v) => v.label === label)) this.watched.delete(label);
    for (const w of this.watched.values()) {
      w.node = undefined;
      w.states = undefined;
    }
    this.current = session;
    this.watchedAt = undefined;
    this.f.layouts.remember(session.node, session.address, session.layout, decodedSlotNames(this.roots(session)));
    this.redraw();
    this.schedule();
  }

  clear(): void {
    this.current = undefined;
    this.watchedAt = undefined;
    this.watched.clear();
    this.shown.clear();
    this.redraw();
    this.schedule();
  }

  setChangedOnly(on: boolean): void {
    if (!this.current) return;
    this.current = { ...this.current, changedOnly: on };
    this.redraw();
  }

  /** Ends the diff: the later block alone, as read. */
  clearDiff(): void {
    if (!this.current?.diffFrom) return;
    this.current = { ...this.current, diffFrom: undefined, changedOnly: false };
    this.redraw();
  }

  isWatched(label: string): boolean {
    return this.watched.has(label);
  }

  watch(label: string): void {
    if (!this.current?.layout.storage.some((v) => v.label === label)) throw new Error(`No state variable '${label}' in the contract shown.`);
    if (!this.watched.has(label) && this.watched.size >= MAX_WATCHED) throw new Error(`At most ${MAX_WATCHED} variables can be watched at once.`);
    this.watched.set(label, this.watched.get(label) ?? {});
    this.failures = 0;
    this.redraw();
    this.schedule();
  }

  unwatch(label: string): void {
    this.watched.delete(label);
    this.redraw();
    this.schedule();
  }

  /** Shows one more page of the children of `path`. */
  loadMore(path: string): void {
    this.shown.set(path, (this.shown.get(path) ?? CHILD_PAGE) + CHILD_PAGE);
    this.redraw();
  }

  /** The root variables as shown: a watched one from its own last readings. */
  private roots(session: StorageSession): { label: string; node: DecodedNode; states: TreeStates }[] {
    const states: TreeStates = session.diffFrom ? { shown: 1, before: 0 } : { shown: session.reading.blocks.length - 1 };
    return session.reading.variables.map((v) => {
      const w = this.watched.get(v.label);
      return w?.node && w.states ? { label: v.label, node: w.node, states: w.states } : { label: v.label, node: v.node, states };
    });
  }

  getChildren(element?: StorageElement): StorageElement[] {
    const session = this.current;
    if (!session) return [];
    if (!element) {
      const roots = this.roots(session);
      return variableItems(roots, session.changedOnly).map((item) => ({ kind: 'item', item, states: roots.find((r) => r.label === item.path)!.states, variable: item.path }));
    }
    if (element.kind !== 'item') return [];
    const { items, more } = childItems(element.item, element.states, this.shown.get(element.item.path) ?? CHILD_PAGE, session.changedOnly);
    const children: StorageElement[] = items.map((item) => ({ kind: 'item', item, states: element.states, variable: element.variable }));
    if (more > 0) children.push({ kind: 'more', parent: element.item.path, remaining: more });
    const tries = stoppedAt(element.item);
    if (tries !== undefined) children.push({ kind: 'addKey', mapping: element, tries });
    return children;
  }

  getTreeItem(element: StorageElement): vscode.TreeItem {
    if (element.kind === 'more') {
      const row = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      row.id = `${element.parent}#more`;
      row.description = `${element.remaining} more`;
      row.iconPath = new vscode.ThemeIcon('ellipsis');
      row.command = { command: COMMANDS.contractStorage.loadMore, title: 'Load more', arguments: [element.parent] };
      return row;
    }
    if (element.kind === 'addKey') {
      const row = new vscode.TreeItem(`${searchStoppedText(element.tries)} — Add Key…`, vscode.TreeItemCollapsibleState.None);
      row.id = `${this.current?.node.id}:${this.current?.address}:${element.mapping.item.path}#addKey`;
      row.tooltip = `Not every combination of the candidate keys was tried: give a key of ${labelLine(element.mapping.item.path)} to read its entry.`;
      row.iconPath = new vscode.ThemeIcon('key');
      row.command = { command: COMMANDS.contractStorage.addKey, title: 'Add Key…', arguments: [element.mapping] };
      return row;
    }
    const { item } = element;
    const isRoot = element.variable === item.path;
    // A mapping whose search stopped has a row to add a key under it, even without entries.
    const expandable = item.expandable || stoppedAt(item) !== undefined;
    const row = new vscode.TreeItem(item.label, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    // The path is unique and stable: expansion survives a refresh.
    row.id = `${this.current?.node.id}:${this.current?.address}:${item.path}`;
    row.description = describe(item) + (isRoot && this.watched.has(item.path) ? ' · watching' : '');
    // A plain string: shown as text, never as markdown or links.
    row.tooltip = item.tooltip;
    row.iconPath = iconOf(item);
    row.contextValue = `storage:${item.kind}${isRoot ? ':variable' : ''}${isRoot && this.watched.has(item.path) ? ':watched' : ''}`;
    return row;
  }

  /** The element at `path` (a variable, or below one), pages loaded as needed; for commands given a path. */
  find(path: string): StorageElement | undefined {
    const search = (elements: StorageElement[]): StorageElement | undefined => {
      for (const e of elements) {
        if (e.kind !== 'item') continue;
        if (e.item.path === path) return e;
        if (path.startsWith(e.item.path) && /^[.[]/.test(path.slice(e.item.path.length))) {
          let children = this.getChildren(e);
          while (children.some((c) => c.kind === 'more')) {
            this.shown.set(e.item.path, (this.shown.get(e.item.path) ?? CHILD_PAGE) + CHILD_PAGE);
            children = this.getChildren(e);
          }
          const found = search(children);
          if (found) return found;
        }
      }
      return undefined;
    };
    return search(this.getChildren());
  }

  private redraw(): void {
    const s = this.current;
    this.view.title = 'Contract Storage';
    this.view.description = s ? `${s.layout.contractName} ${short(s.address)}` : undefined;
    this.view.message = s
      ? labelLine(
          `${s.description ?? layoutTitle(s.layout)} at ${s.address} on ${s.node.name}, ` +
            (s.tx ? `just after transaction ${s.tx.hash} (index ${s.tx.index} of block ${s.block.number})` : `block ${s.block.number}`) +
            (s.diffFrom ? ` — ${s.tx ? 'its changes' : `changes since block ${s.diffFrom.number}`}${s.changedOnly ? ' (changed leaves only)' : ''}` : '') +
            (s.reading.warnings.length ? ` — ${s.reading.warnings.length} warning(s) in the log` : ''),
          400,
        )
      : undefined;
    this.changed.fire(undefined);
    void this.setContexts();
  }

  private async setContexts(): Promise<void> {
    const s = this.current;
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.contractStorageShown, s !== undefined);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.contractStorageDiffing, s?.diffFrom !== undefined);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.contractStorageChangedOnly, s?.changedOnly === true);
  }

  // ---- watching ----------------------------------------------------------------------------

  /** Polls while the view is visible and something is watched; stops otherwise. */
  private schedule(): void {
    const wanted = this.current !== undefined && this.watched.size > 0 && this.view.visible;
    if (!wanted) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.polling?.abort();
      this.polling = undefined;
      return;
    }
    if (this.timer || this.polling) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll().finally(() => this.schedule());
    }, WATCH_INTERVAL_MS);
  }

  /** One poll: the block number, and the watched variables again when it moved on. */
  private async poll(): Promise<void> {
    const session = this.current;
    if (!session || this.watched.size === 0) return;
    const abort = new AbortController();
    this.polling = abort;
    try {
      const client = await this.f.store.client(session.node);
      const head = Number(BigInt(await client.call<string>('eth_blockNumber', [], { signal: abort.signal })));
      const last = this.lastWatchedBlock(session);
      if (head <= last) return;
      const storage = session.layout.storage.filter((v) => this.watched.has(v.label));
      const reading = await readStorage(client, { storage, types: session.layout.types }, [String(last), String(head)], {
        address: session.address,
        keys: session.keys,
        signal: abort.signal,
      });
      if (this.current !== session || abort.signal.aborted) return;
      for (const v of reading.variables) {
        const w = this.watched.get(v.label);
        if (!w) continue;
        w.node = v.node;
        w.states = { shown: 1, before: 0 };
      }
      this.watchedAt = head;
      this.failures = 0;
      this.f.log.info(`Watched variables of ${session.address} on ${session.node.name} read at block ${head}`);
      this.redraw();
    } catch (error) {
      if (abort.signal.aborted) return;
      this.failures++;
      this.f.log.warn(`Watching storage of ${session.address} on ${session.node.name}: ${errorText(error)}`);
      if (this.failures >= WATCH_FAILURES) {
        this.watched.clear();
        this.redraw();
        void vscode.window.showWarningMessage(`Stopped watching storage of ${session.address}: ${WATCH_FAILURES} reads in a row failed (${errorText(error)}).`);
      }
    } finally {
      if (this.polling === abort) this.polling = undefined;
    }
  }

  private lastWatchedBlock(session: StorageSession): number {
    return Math.max(session.block.number, this.watchedAt ?? 0);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.polling?.abort();
    for (const s of this.subscriptions) s.dispose();
  }
}

function describe(item: StorageItem): string {
  // The search's words end in the command that finds what it missed.
  const description = stoppedAt(item) !== undefined ? `${item.description} — Add Key…` : item.description;
  switch (item.change?.kind) {
    case 'changed':
      return `${description} · was ${item.change.before}`;
    case 'added':
      return `${description} · added`;
    case 'removed':
      return `${description} · removed`;
    default:
      return description;
  }
}

const ICONS: Record<StorageItem['kind'], string> = { value: 'symbol-field', struct: 'symbol-structure', array: 'symbol-array', mapping: 'symbol-namespace' };

function iconOf(item: StorageItem): vscode.ThemeIcon {
  switch (item.change?.kind) {
    case 'changed':
      return new vscode.ThemeIcon('diff-modified', new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'));
    case 'added':
      return new vscode.ThemeIcon('diff-added', new vscode.ThemeColor('gitDecoration.addedResourceForeground'));
    case 'removed':
      return new vscode.ThemeIcon('diff-removed', new vscode.ThemeColor('gitDecoration.deletedResourceForeground'));
    case 'inside':
      return new vscode.ThemeIcon(ICONS[item.kind], new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'));
    default:
      return new vscode.ThemeIcon(ICONS[item.kind]);
  }
}

function short(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
