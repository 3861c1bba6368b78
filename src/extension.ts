import * as vscode from 'vscode';
import { Log } from './editor/log';

/** Builds the shared pieces and registers each feature; nothing else happens here. */
export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('chaindeck.showLog', () => log.show()),
    vscode.commands.registerCommand('chaindeck.openSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:chaindeck.chaindeck'),
    ),
  );
  log.info(`Chaindeck ${context.extension.packageJSON.version} activated`);
}

export function deactivate(): void {}
