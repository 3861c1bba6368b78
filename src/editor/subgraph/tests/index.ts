/**
 * Subgraph tests in the editor: the Test Explorer's "Subgraph Tests" (controller.ts, runner.ts),
 * the Postgres its runs keep (database.ts), and "Capture Test from Blocks…" (capture.ts, offered
 * in the text by offers.ts).
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../ids';
import { registerCommand } from '../../kit/commands';
import { MANIFEST_SELECTOR } from '../language/manifestLens';
import { captureTestCommand, type CaptureDeps } from './capture';
import { SubgraphTestTree } from './controller';
import { KeptTestDatabase } from './database';
import { CaptureFixes, CaptureLenses } from './offers';
import { SubgraphTestRunner, type TestRunnerDeps } from './runner';

export interface SubgraphTests {
  tree: SubgraphTestTree;
  runner: SubgraphTestRunner;
  database: KeptTestDatabase;
}

let kept: KeptTestDatabase | undefined;

/** Stops the tests' Postgres (deactivate waits for it, within its bound). */
export function stopSubgraphTests(): Promise<void> {
  return kept?.stop() ?? Promise.resolve();
}

export function registerSubgraphTests(deps: Omit<TestRunnerDeps, 'tree' | 'database'> & Omit<CaptureDeps, 'tree'>, subscriptions: vscode.Disposable[]): SubgraphTests {
  const tree = new SubgraphTestTree(deps.manifests);
  const database = new KeptTestDatabase(deps.globalStorage);
  kept = database;
  const runner = new SubgraphTestRunner({ ...deps, tree, database });
  const capture = { ...deps, tree };
  subscriptions.push(
    // The runner first: disposed before the tree whose controller it uses; the database last.
    runner,
    tree,
    database,
    registerCommand(deps.log, COMMANDS.subgraph.captureTest, (arg) => captureTestCommand(capture, arg)),
    vscode.languages.registerCodeLensProvider(MANIFEST_SELECTOR, new CaptureLenses(deps.toolchain.isTrusted)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new CaptureFixes(deps.local), CaptureFixes.metadata),
  );
  return { tree, runner, database };
}
