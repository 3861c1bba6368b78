/** The Nodes feature: the tree, the status bar, the commands, Call Method… and request files. */
import * as vscode from 'vscode';
import { COMMANDS, VIEWS } from '../ids';
import { registerCommand } from '../kit/commands';
import type { EditorContext } from '../kit/context';
import { callMethod } from './callMethod';
import { migrateSecretsInSettings, registerNodeCommands } from './commands';
import type { NodesFeature } from './feature';
import { registerRequestFiles } from './requestFiles';
import { ResponseView } from './responseView';
import { NodeStatusBar } from './statusBar';
import { NodeFacts } from './facts';
import { NodeStore } from './store';
import { NodesTree } from './tree';
import { Subscriptions } from './subscriptions';

/** Registers everything of the feature; returns its pieces (extension-host tests use them). */
export function registerNodes({ extension, log, secrets, settings, milestones }: EditorContext): NodesFeature {
  const store = new NodeStore(secrets, settings);
  // One cache of live facts: the tree and the status bar read and refresh the same one.
  const facts = new NodeFacts(store, log);
  const tree = new NodesTree(store, facts, settings);
  const statusBar = new NodeStatusBar(store, extension.workspaceState, facts, settings);
  const f: NodesFeature = { store, log, facts, tree, statusBar, responses: new ResponseView(), subscriptions: new Subscriptions(store, log, settings), milestones };
  // The walkthrough's first step is done whenever a node is configured, however it got there.
  const configured = () => milestones.nodesConfigured(store.all().length > 0);
  configured();
  extension.subscriptions.push(
    facts,
    tree,
    f.statusBar,
    f.responses,
    f.subscriptions,
    vscode.window.createTreeView(VIEWS.nodes, { treeDataProvider: tree, showCollapseAll: true }),
    registerCommand(log, COMMANDS.callMethod, (arg?: unknown) => callMethod(f, arg)),
    registerCommand(log, COMMANDS.subscribe, (arg?: unknown, preset?: { kind: string; params?: unknown[] }) => f.subscriptions.subscribe(arg, preset)),
    registerCommand(log, COMMANDS.unsubscribe, (title?: string) => f.subscriptions.unsubscribe(title)),
    ...registerNodeCommands(f),
    ...registerRequestFiles(f),
    migrateSecretsInSettings(f),
    store.onDidChange(configured),
  );
  return f;
}
