/**
 * The local graph-node's commands (Start, Stop, Restart, Deploy, Open GraphiQL, Show Log), the
 * start when the workspace opens (autoStart), and the bounded stop on deactivation.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../ids';
import { registerCommand } from '../../kit/commands';
import type { Log } from '../../log';
import type { LocalDeployer } from './deploy';
import type { LocalDeployment, LocalNode } from './localNode';

/** The node deactivation stops (one extension host, one node). */
let running: LocalNode | undefined;

/** Stops the local graph-node, waiting a bounded time; for `deactivate`. */
export function stopLocalGraphNode(): Promise<void> {
  return running?.stopBounded() ?? Promise.resolve();
}

export function registerLocalNodeCommands(log: Log, local: LocalNode, deployer: LocalDeployer): vscode.Disposable[] {
  running = local;
  const command = (id: string, run: (...args: unknown[]) => unknown) => registerCommand(log, id, run);
  void local.startOnActivation();
  return [
    command(COMMANDS.localGraphNode.start, () => local.startOrReport()),
    command(COMMANDS.localGraphNode.stop, () => local.stop()),
    command(COMMANDS.localGraphNode.restart, () => local.restart()),
    command(COMMANDS.localGraphNode.deploy, (arg) => deployer.deploy(arg)),
    command(COMMANDS.localGraphNode.openGraphiql, (arg) => openGraphiql(local, arg)),
    command(COMMANDS.localGraphNode.showLog, () => local.output.show(true)),
    { dispose: () => (running = running === local ? undefined : running) },
  ];
}

/** Opens a local subgraph's GraphiQL page in the browser; resolves with its URL (for tests). */
async function openGraphiql(local: LocalNode, arg: unknown): Promise<string | undefined> {
  const deployment = (arg as { deployment?: LocalDeployment } | undefined)?.deployment;
  const record = arg as { name?: unknown } | undefined;
  const name = typeof arg === 'string' ? arg : (deployment?.names[0] ?? (typeof record?.name === 'string' ? record.name : undefined));
  if (!name) return undefined;
  const url = local.graphiqlUrl(name);
  if (!url) {
    void vscode.window.showInformationMessage('The local graph-node is not running: start it first.');
    return undefined;
  }
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
  return url;
}
