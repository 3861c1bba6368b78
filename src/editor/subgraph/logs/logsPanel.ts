/**
 * "Show Subgraph Logs" on a local deployment: a panel with its entries, a page at a time, filtered
 * as the page asks, following new ones. A row opens the mapping line that logged it: the source
 * line graph-node names (an abort), else the handler's function in the mapping (graph build
 * writes no source maps); the project is the one the deployment was deployed from.
 */
import * as vscode from 'vscode';
import { parseLevel, type LogEntry } from '../../../core/indexing/logs/entry';
import type { LogFilter, LogStore } from '../../../core/indexing/logs/store';
import { inertLine } from '../../../core/inert';
import { redactText } from '../../../core/redact';
import { handlerSpanInMapping, mappingOfHandler } from '../../../core/subgraph/graphnode/fatalError';
import type { LogFilterInput, LogRow, LogsView, SubgraphLogsContract } from '../../../webview/subgraphLogs/protocol';
import { PANEL_TYPES } from '../../ids';
import type { Log } from '../../log';
import { readWorkspaceText } from '../../readFile';
import { HostMessenger } from '../../webview/messenger';
import { createPanel } from '../../webview/panel';
import type { LocalNode } from '../localnode/localNode';
import { besideManifest } from '../manifests';

/** Rows a page shows: the page renders each, so it stays small. */
export const PAGE_SIZE = 500;
/** How often a following panel is told of new entries at most. */
const FOLLOW_NOTIFY_MS = 250;
const MAX_CELL_CHARS = 4000;

const NO_FILTER: LogFilterInput = { level: 'debug', handler: '', fromBlock: '', toBlock: '', text: '' };
const text = (s: string) => inertLine(redactText(s.length > MAX_CELL_CHARS ? `${s.slice(0, MAX_CELL_CHARS)}…` : s));

/** The filters as typed, read; a block that is no number is said, not guessed. */
export function readFilter(input: LogFilterInput): { filter: LogFilter; note?: string } {
  const filter: LogFilter = {};
  const level = parseLevel(input.level);
  if (level && level !== 'debug') filter.level = level;
  if (input.handler) filter.handler = input.handler;
  if (input.text.trim()) filter.text = input.text.trim();
  const notes: string[] = [];
  for (const [key, value] of [
    ['fromBlock', input.fromBlock],
    ['toBlock', input.toBlock],
  ] as const) {
    if (!value) continue;
    if (/^\d{1,15}$/.test(value)) filter[key] = Number(value);
    else notes.push(`'${text(value.slice(0, 40))}' is no block number: the ${key === 'fromBlock' ? 'from' : 'to'} block is not applied.`);
  }
  return { filter, note: notes.join(' ') || undefined };
}

function rowOf(e: LogEntry): LogRow {
  return {
    time: e.time,
    level: e.level,
    handler: text(e.handler ?? ''),
    block: e.block ?? null,
    tx: e.tx ?? '',
    message: text(e.message),
    source: e.source ? text(`${e.source.file}:${e.source.line}`) : '',
  };
}

interface OpenPanel {
  panel: vscode.WebviewPanel;
  filter: LogFilterInput;
  offset: number;
  follow: boolean;
  /** The entries of the page shown, which `open` and `copyTx` name by index. */
  rows: LogEntry[];
}

export class LogsPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly local: LocalNode,
    private readonly store: LogStore,
    private readonly log: Log,
  ) {}

  /** Shows the logs of the deployment in `arg` (a tree element or a deployment id); resolves with what it shows (for tests). */
  async show(arg: unknown, filter?: Partial<LogFilterInput>): Promise<LogsView | undefined> {
    const id = deploymentId(arg);
    if (!id) {
      void vscode.window.showInformationMessage('Choose a deployment of the local graph-node to see its logs.');
      return undefined;
    }
    const existing = this.open.get(id);
    if (existing) {
      existing.panel.reveal();
      if (filter) existing.filter = { ...existing.filter, ...filter };
      return this.view(id, existing);
    }
    const panel = createPanel(this.extensionUri, { viewType: PANEL_TYPES.subgraphLogs, title: `Logs: ${this.titleOf(id)}`, entry: 'subgraphLogs', iconPath: new vscode.ThemeIcon('output') });
    const state: OpenPanel = { panel, filter: { ...NO_FILTER, ...filter }, offset: 0, follow: true, rows: [] };
    this.open.set(id, state);
    const messenger = new HostMessenger<SubgraphLogsContract>(
      panel,
      {
        ready: () => this.view(id, state),
        show: ({ filter: typed, offset, follow }) => {
          Object.assign(state, { filter: { ...NO_FILTER, ...typed }, offset: Math.max(0, Math.floor(offset)), follow: follow === true });
          return this.view(id, state);
        },
        open: async ({ index }) => {
          await this.openSource(id, state.rows[index]);
          return undefined;
        },
        copyTx: async ({ index }) => {
          const tx = state.rows[index]?.tx;
          if (!tx) return;
          await vscode.env.clipboard.writeText(tx);
          vscode.window.setStatusBarMessage(`Copied ${tx}`, 3000);
        },
      },
      (method, message) => this.log.error(`Subgraph Logs panel: ${method} failed: ${message}`),
    );
    let pending: ReturnType<typeof setTimeout> | undefined;
    const following = this.store.follow((entry) => {
      if (entry.deployment !== id || !state.follow || pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        messenger.notify('view', this.view(id, state));
      }, FOLLOW_NOTIFY_MS);
    });
    panel.onDidDispose(() => {
      clearTimeout(pending);
      following();
      messenger.dispose();
      this.open.delete(id);
    });
    return this.view(id, state);
  }

  /** What a panel shows now: following, the newest page. */
  view(id: string, state: OpenPanel): LogsView {
    const { filter, note } = readFilter(state.filter);
    const total = this.store.page(id, filter, 0, 0).total;
    if (state.follow) state.offset = Math.max(0, total - PAGE_SIZE);
    const page = this.store.page(id, filter, state.offset, PAGE_SIZE);
    state.rows = page.entries;
    const dropped = this.store.dropped(id);
    return {
      title: text(this.titleOf(id)),
      deployment: id,
      rows: page.entries.map(rowOf),
      total: page.total,
      offset: state.offset,
      pageSize: PAGE_SIZE,
      handlers: this.store.handlers(id).map(text),
      follow: state.follow,
      filter: state.filter,
      note:
        [note, dropped ? `The ${dropped.toLocaleString('en-US')} oldest entries were dropped (${this.store.size(id).toLocaleString('en-US')} are kept).` : undefined]
          .filter(Boolean)
          .join(' ') || undefined,
    };
  }

  /** Opens where `entry` was logged: the source line graph-node named, else its handler's function. */
  private async openSource(id: string, entry: LogEntry | undefined): Promise<void> {
    if (!entry) return;
    const manifest = this.local.deployments().find((d) => d.id === id)?.manifest;
    if (!manifest) {
      void vscode.window.showInformationMessage('This deployment was not deployed from this workspace: its mapping cannot be opened.');
      return;
    }
    if (entry.source) {
      const at = new vscode.Position(Math.max(0, entry.source.line - 1), Math.max(0, entry.source.column - 1));
      await vscode.window.showTextDocument(besideManifest(manifest, entry.source.file), { selection: new vscode.Range(at, at) });
      return;
    }
    const mapping = entry.handler && mappingOfHandler(await readWorkspaceText(manifest), entry.handler);
    if (!entry.handler || !mapping) {
      void vscode.window.showInformationMessage(`No mapping in ${vscode.workspace.asRelativePath(manifest)} defines ${entry.handler ?? 'the handler of this entry'}.`);
      return;
    }
    const uri = besideManifest(manifest, mapping);
    const mappingText = await readWorkspaceText(uri);
    const span = handlerSpanInMapping(mappingText, entry.handler);
    const document = await vscode.workspace.openTextDocument(uri);
    const range = span ? new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)) : undefined;
    await vscode.window.showTextDocument(document, range ? { selection: range } : {});
  }

  private titleOf(id: string): string {
    const names = this.local.deployments().find((d) => d.id === id)?.names ?? [];
    return names.join(', ') || id;
  }

  dispose(): void {
    for (const { panel } of [...this.open.values()]) panel.dispose();
  }
}

function deploymentId(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const element = arg as { deployment?: { id?: unknown } } | undefined;
  return typeof element?.deployment?.id === 'string' ? element.deployment.id : undefined;
}
