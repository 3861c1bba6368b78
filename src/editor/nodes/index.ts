/** The Nodes feature: the tree, the status bar, the commands, Call Method… and request files. */
import * as vscode from 'vscode';
import { VIEWS } from '../ids';
import type { Log } from '../log';
import type { Secrets } from '../secrets';
import { callMethod, CALL_METHOD_COMMAND } from './callMethod';
import { reportError } from './calls';
import { migrateSecretsInSettings, registerNodeCommands } from './commands';
import type { NodesFeature } from './feature';
import { registerRequestFiles } from './requestFiles';
import { ResponseView } from './responseView';
import { NodeStatusBar } from './statusBar';
import { NodeFacts } from './facts';
import { NodeStore } from './store';
import { NodesTree } from './tree';
import { SUBSCRIBE_COMMAND, Subscriptions, UNSUBSCRIBE_COMMAND } from './subscriptions';

export interface NodesContext {
  extension: vscode.ExtensionContext;
  log: Log;
  secrets: Secrets;
}

/** Registers everything of the feature; returns its pieces (extension-host tests use them). */
export function registerNodes({ extension, log, secrets }: NodesContext): NodesFeature {
  const store = new NodeStore(secrets);
  // One cache of live facts: the tree and the status bar read and refresh the same one.
  const facts = new NodeFacts(store, log);
  const tree = new NodesTree(store, facts);
  const statusBar = new NodeStatusBar(store, extension.workspaceState, facts);
  const f: NodesFeature = { store, log, facts, tree, statusBar, responses: new ResponseView(), subscriptions: new Subscriptions(store, log) };
  extension.subscriptions.push(
    store,
    facts,
    tree,
    f.statusBar,
    f.responses,
    f.subscriptions,
    vscode.window.createTreeView(VIEWS.nodes, { treeDataProvider: tree, showCollapseAll: true }),
    vscode.commands.registerCommand(CALL_METHOD_COMMAND, (arg?: unknown) => callMethod(f, arg).catch((error) => reportError(log, CALL_METHOD_COMMAND, error))),
    vscode.commands.registerCommand(SUBSCRIBE_COMMAND, (arg?: unknown, preset?: { kind: string; params?: unknown[] }) =>
      f.subscriptions.subscribe(arg, preset).catch((error) => reportError(log, SUBSCRIBE_COMMAND, error)),
    ),
    vscode.commands.registerCommand(UNSUBSCRIBE_COMMAND, (title?: string) => f.subscriptions.unsubscribe(title).catch((error) => reportError(log, UNSUBSCRIBE_COMMAND, error))),
    ...registerNodeCommands(f),
    ...registerRequestFiles(f),
    migrateSecretsInSettings(f),
  );
  return f;
}
