/**
 * Indexing speed in the Subgraphs view (blocks/s, triggers/s, ETA on each local deployment while
 * it indexes, sampled only while the view is visible) and "Show Indexing Profile".
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../ids';
import { registerCommand } from '../../kit/commands';
import type { Log } from '../../log';
import type { LocalNode } from '../localnode/localNode';
import type { SubgraphsTree } from '../records/tree';
import { ProfilePanels } from './profilePanel';
import { IndexingSpeed } from './speed';

export function registerIndexingSpeed(extensionUri: vscode.Uri, log: Log, local: LocalNode, tree: SubgraphsTree, view: vscode.TreeView<unknown>): vscode.Disposable[] {
  const speed = new IndexingSpeed(local);
  tree.setSpeed(speed);
  speed.setViewVisible(view.visible);
  const panels = new ProfilePanels(extensionUri, local, speed, log);
  return [panels, speed, view.onDidChangeVisibility((e) => speed.setViewVisible(e.visible)), registerCommand(log, COMMANDS.localGraphNode.showProfile, (arg) => panels.show(arg))];
}
