/** The Platform feature: the API key, the Platform view, and importing its nodes into the Nodes view. */
import * as vscode from 'vscode';
import { VIEWS } from '../ids';
import type { EditorContextWithNodes } from '../nodes/feature';
import { registerPlatformCommands } from './commands';
import type { PlatformFeature } from './feature';
import { PlatformSession } from './session';
import { PlatformTree } from './tree';

/** Registers everything of the feature; returns its pieces (extension-host tests use them). */
export function registerPlatform({ extension, log, secrets, settings, nodes }: EditorContextWithNodes): PlatformFeature {
  const session = new PlatformSession(secrets, extension.secrets, settings);
  const tree = new PlatformTree(session);
  const f: PlatformFeature = { session, tree, nodes, log };
  extension.subscriptions.push(session, tree, vscode.window.createTreeView(VIEWS.platform, { treeDataProvider: tree, showCollapseAll: true }), ...registerPlatformCommands(f));
  return f;
}
