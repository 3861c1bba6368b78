/**
 * Where "Capture Test from Blocks…" is offered in the text: a code lens above each data source of a
 * subgraph.yaml (its start block preset), and a quick fix on a local deployment's fatal indexing
 * error (the failing block preset as the whole range).
 */
import * as vscode from 'vscode';
import { isProjectSource } from '../../../core/subgraph/copies';
import { summarizeManifest } from '../../../core/subgraph/manifest/manifestSummary';
import { COMMANDS } from '../../ids';
import type { LocalNode } from '../localnode/localNode';
import { FATAL_ERROR_SOURCE } from '../localnode/problems';
import { dataSourceLines } from './captureText';

export class CaptureLenses implements vscode.CodeLensProvider {
  constructor(private readonly isTrusted: () => boolean) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.isTrusted()) return [];
    let dataSources;
    try {
      dataSources = summarizeManifest(document.getText()).dataSources.filter((ds) => !ds.template);
    } catch {
      return [];
    }
    const lines = dataSourceLines(
      document.getText(),
      dataSources.map((ds) => ds.name),
    );
    return dataSources.flatMap((ds) => {
      const line = ds.name === undefined ? undefined : lines.get(ds.name);
      if (line === undefined) return [];
      return [
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: '$(beaker) Capture Test from Blocks…',
          command: COMMANDS.subgraph.captureTest,
          arguments: [{ manifest: document.uri, dataSource: ds.name, from: ds.startBlock }],
          tooltip: 'Write a gnd test from a block range of a chain: its events, eth_calls and the entities the subgraph writes',
        }),
      ];
    });
  }
}

export class CaptureFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly local: LocalNode) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!context.diagnostics.some((d) => d.source === FATAL_ERROR_SOURCE)) return [];
    return this.local
      .deployments()
      .filter((d) => d.manifest && d.status.fatalError?.block !== undefined && isProjectSource(document.uri.fsPath, d.manifest.fsPath))
      .map((d) => {
        const block = d.status.fatalError!.block!;
        const action = new vscode.CodeAction(`Capture block ${block} as a regression test…`, vscode.CodeActionKind.QuickFix);
        action.command = {
          command: COMMANDS.subgraph.captureTest,
          title: action.title,
          arguments: [{ manifest: d.manifest, from: block, to: block, local: true, fatalError: d.status.fatalError!.message }],
        };
        action.diagnostics = context.diagnostics.filter((x) => x.source === FATAL_ERROR_SOURCE);
        return action;
      });
  }
}
