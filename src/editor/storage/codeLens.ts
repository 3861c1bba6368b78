/**
 * "Decode Storage…" over each `contract X` of a Solidity file whose layout the workspace's
 * artifacts hold (out/, artifacts/build-info/): it opens the Contract Storage view with that
 * layout, asking only the node's contract address. Beside it "Check Upgrade Against…": X's
 * layout checked against what it would replace (upgradeCheck.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { contractDeclarations } from '../../core/storage/soliditySource';
import { layoutName, type ContractLayout } from '../../core/storage/layout';
import { COMMANDS } from '../ids';
import type { Layouts } from './layouts';

export class StorageCodeLens implements vscode.CodeLensProvider {
  constructor(private readonly layouts: Layouts) {}

  get onDidChangeCodeLenses(): vscode.Event<void> {
    return this.layouts.onDidChange;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const declarations = contractDeclarations(document.getText());
    if (!declarations.length) return [];
    const all = await this.layouts.all();
    const relative = vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, '/');
    return declarations.flatMap((d) => {
      const layout = layoutOf(all, d.name, relative);
      if (!layout) return [];
      const range = new vscode.Range(d.line, d.character, d.line, d.character + 'contract'.length);
      return [
        new vscode.CodeLens(range, {
          title: 'Decode Storage…',
          tooltip: `Decode a deployed ${d.name}'s storage by its layout`,
          command: COMMANDS.contractStorage.decode,
          arguments: [{ contract: layoutName(layout) }],
        }),
        new vscode.CodeLens(range, {
          title: 'Check Upgrade Against…',
          tooltip: `Check that ${d.name}'s storage layout keeps that of a deployed address, a git ref or a layout file`,
          command: COMMANDS.storage.checkUpgrade,
          arguments: [{ contract: layoutName(layout), file: document.uri.toString() }],
        }),
      ];
    });
  }
}

/** The layout of contract `name` from this file: its source path the file's (or its tail), else the only one of that name. */
function layoutOf(all: readonly ContractLayout[], name: string, relative: string): ContractLayout | undefined {
  const named = all.filter((l) => l.contractName === name && l.storage.length > 0);
  const base = path.posix.basename(relative);
  const here = named.filter((l) => {
    const source = l.source.replace(/\\/g, '/').replace(/^project\//, '');
    return relative === source || relative.endsWith(`/${source}`) || source.endsWith(`/${relative}`) || path.posix.basename(source) === base;
  });
  if (here.length) return here[0];
  return named.length === 1 ? named[0] : undefined;
}
