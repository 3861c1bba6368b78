import * as vscode from 'vscode';
import { COMMANDS } from './editor/ids';
import { registerCommand } from './editor/kit/commands';
import type { EditorContext } from './editor/kit/context';
import { Milestones } from './editor/kit/milestones';
import { settings } from './editor/kit/settings';
import { Log } from './editor/log';
import { registerNodes } from './editor/nodes';
import type { NodesFeature } from './editor/nodes/feature';
import { registerPlatform } from './editor/platform';
import type { PlatformFeature } from './editor/platform/feature';
import { Secrets } from './editor/secrets';
import { registerStorage } from './editor/storage';
import type { ContractStorageView } from './editor/storage/contractStorage';
import { registerSubgraph } from './editor/subgraph';
import { stopLocalGraphNode } from './editor/subgraph/localnode/commands';
import { stopSubgraphTests } from './editor/subgraph/tests';
import type { SubgraphsFeature } from './editor/subgraph/feature';

/** What extension-host tests get from `activate`; other callers get nothing. */
export interface TestApi {
  nodes: NodesFeature;
  platform: PlatformFeature;
  subgraphs: SubgraphsFeature;
  contractStorage: ContractStorageView;
  logUri: vscode.Uri;
}

/** Builds the shared pieces and registers each feature; nothing else happens here. */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const log = new Log();
  context.subscriptions.push(
    log,
    settings.watchResponseLimit((message) => log.warn(message)),
    registerCommand(log, COMMANDS.showLog, () => log.show()),
    registerCommand(log, COMMANDS.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chaindeck.chaindeck')),
  );
  const editor: EditorContext = { extension: context, log, secrets: new Secrets(context.secrets), settings, milestones: new Milestones(context.extension.id) };
  const nodes = registerNodes(editor);
  const withNodes = { ...editor, nodes };
  const contractStorage = registerStorage(withNodes);
  const platform = registerPlatform(withNodes);
  const subgraphs = registerSubgraph(withNodes);
  log.info(`Chaindeck ${context.extension.packageJSON.version} activated`);
  // Extension-host tests reach the node store through the extension's exports, and only they.
  return context.extensionMode === vscode.ExtensionMode.Test ? { nodes, platform, subgraphs, contractStorage, logUri: context.logUri } : undefined;
}

/** Stops what the extension started that outlives its disposables' synchronous end: the local graph-node (bounded). */
export function deactivate(): Promise<void> {
  return Promise.all([stopLocalGraphNode(), stopSubgraphTests()]).then(() => undefined);
}
