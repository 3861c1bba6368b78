/**
 * Subgraph Logs: the local node's output read into entries per deployment (kept in a bounded
 * store for as long as the editor runs), "Show Subgraph Logs" on a local deployment, on a
 * subgraph of another graph-node (its `_logs`), and from a fatal error in Problems.
 */
import * as vscode from 'vscode';
import { GndEntries, IDLE_FLUSH_MS } from '../../../core/indexing/logs/gndEntries';
import { isPlaceholderDeployment } from '../../../core/indexing/logs/localLog';
import { LogStore } from '../../../core/indexing/logs/store';
import { COMMANDS } from '../../ids';
import { registerCommand } from '../../kit/commands';
import type { Log } from '../../log';
import type { LocalNode } from '../localnode/localNode';
import { FATAL_ERROR_SOURCE } from '../localnode/problems';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import type { SubgraphStore } from '../records/store';
import { LogsPanels, type LogsTarget } from './logsPanel';
import { readRemoteLogs } from './remote';

/** A handler's lines wait for the line that names it; after this long without output they are kept as they are. */

export function registerSubgraphLogs(extensionUri: vscode.Uri, log: Log, local: LocalNode, records: SubgraphStore): vscode.Disposable[] {
  const store = new LogStore();
  const reader = new GndEntries((entry) => store.add(entry), isPlaceholderDeployment);
  let lastLine = 0;
  const idle = setInterval(() => Date.now() - lastLine > IDLE_FLUSH_MS && reader.flushAll(), IDLE_FLUSH_MS);
  const targetOf = (arg: unknown): LogsTarget | undefined => {
    const record = (arg as { kind?: string; record?: SubgraphRecord } | undefined)?.kind === 'record' ? (arg as { record: SubgraphRecord }).record : undefined;
    if (record) {
      const key = `record:${record.id}`;
      return {
        key,
        title: () => record.name,
        manifest: () => records.manifestForRecord(record),
        attach: (problem) => readRemoteLogs(records, record, key, store, problem),
      };
    }
    const id = typeof arg === 'string' ? arg : (arg as { deployment?: { id?: unknown } } | undefined)?.deployment?.id;
    if (typeof id !== 'string') return undefined;
    const deployment = () => local.deployments().find((d) => d.id === id);
    return { key: id, title: () => deployment()?.names.join(', ') || id, manifest: () => deployment()?.manifest };
  };
  const panels = new LogsPanels(extensionUri, targetOf, store, log);
  return [
    panels,
    { dispose: () => clearInterval(idle) },
    local.onGndLine((line) => {
      lastLine = Date.now();
      reader.line(line);
    }),
    registerCommand(log, COMMANDS.localGraphNode.showLogs, (arg, filter) => panels.show(arg, filter as Parameters<LogsPanels['show']>[1])),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FatalErrorLogsAction(local), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
  ];
}

/** On a fatal error in Problems: "Show Subgraph Logs" of the deployment that failed. */
class FatalErrorLogsAction implements vscode.CodeActionProvider {
  constructor(private readonly local: LocalNode) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!context.diagnostics.some((d) => d.source === FATAL_ERROR_SOURCE)) return [];
    const path = document.uri.fsPath;
    return this.local
      .deployments()
      .filter((d) => d.status.fatalError && d.manifest && path.startsWith(vscode.Uri.joinPath(d.manifest, '..').fsPath))
      .map((d) => {
        const action = new vscode.CodeAction(`Show Subgraph Logs of ${d.names[0] ?? d.id}`, vscode.CodeActionKind.QuickFix);
        action.command = { command: COMMANDS.localGraphNode.showLogs, title: action.title, arguments: [d.id, { level: 'warning' }] };
        action.diagnostics = context.diagnostics.filter((x) => x.source === FATAL_ERROR_SOURCE);
        return action;
      });
  }
}
