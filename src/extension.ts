import * as vscode from 'vscode';
import { watchResponseLimit } from './editor/config';
import { COMMANDS } from './editor/ids';
import { Log } from './editor/log';
import { registerNodes } from './editor/nodes';
import type { NodesFeature } from './editor/nodes/feature';
import { registerPlatform } from './editor/platform';
import type { PlatformFeature } from './editor/platform/feature';
import { Secrets } from './editor/secrets';
import { registerStorage } from './editor/storage';
import { registerSubgraph } from './editor/subgraph';
import type { SubgraphsFeature } from './editor/subgraph/feature';

/** What extension-host tests get from `activate`; other callers get nothing. */
export interface TestApi {
  nodes: NodesFeature;
  platform: PlatformFeature;
  subgraphs: SubgraphsFeature;
  logUri: vscode.Uri;
}

/** Builds the shared pieces and registers each feature; nothing else happens here. */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const log = new Log();
  context.subscriptions.push(
    log,
    watchResponseLimit((message) => log.warn(message)),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    vscode.commands.registerCommand(COMMANDS.openSettings, () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chaindeck.chaindeck'),
    ),
  );
  const ctx = { extension: context, log, secrets: new Secrets(context.secrets) };
  const nodes = registerNodes(ctx);
  registerStorage(ctx, nodes);
  const platform = registerPlatform(ctx, nodes);
  const subgraphs = registerSubgraph(ctx, nodes);
  log.info(`Chaindeck ${context.extension.packageJSON.version} activated`);
  // Extension-host tests reach the node store through the extension's exports, and only they.
  return context.extensionMode === vscode.ExtensionMode.Test ? { nodes, platform, subgraphs, logUri: context.logUri } : undefined;
}

export function deactivate(): void {}
