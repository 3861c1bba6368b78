/**
 * The subgraph language features: diagnostics while editing subgraph.yaml, schema.graphql and
 * the files they name; quick fixes; completions and hovers in the manifest, hovers in the
 * schema; the optional EIP-1967 proxy hint from the selected node. Validation is core's.
 */
import * as vscode from 'vscode';
import type { Log } from '../log';
import type { NodesFeature } from '../nodes/feature';
import { ManifestCompletions } from './completions';
import { SubgraphDiagnostics } from './diagnostics';
import { REVEAL_COMMAND, revealFix, RUN_CODEGEN_COMMAND, runCodegen, SubgraphFixes } from './fixes';
import { SubgraphHovers } from './hovers';
import { ProxyHints } from './proxyHints';

export interface SubgraphLanguageContext {
  extension: vscode.ExtensionContext;
  log: Log;
}

export function registerSubgraphLanguage({ extension, log }: SubgraphLanguageContext, nodes: NodesFeature): void {
  const proxies = new ProxyHints(nodes);
  const diagnostics = new SubgraphDiagnostics(log, proxies);
  const manifests: vscode.DocumentSelector = { language: 'yaml', scheme: 'file' };
  extension.subscriptions.push(
    proxies,
    diagnostics,
    // Findings land in schemas, mappings and ABIs too: fixes are offered wherever they are.
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new SubgraphFixes(diagnostics), SubgraphFixes.metadata),
    vscode.languages.registerCompletionItemProvider(manifests, new ManifestCompletions(diagnostics), ':', ' '),
    vscode.languages.registerHoverProvider([manifests, { language: 'graphql', scheme: 'file' }], new SubgraphHovers(diagnostics, proxies)),
    vscode.commands.registerCommand(RUN_CODEGEN_COMMAND, runCodegen),
    vscode.commands.registerCommand(REVEAL_COMMAND, revealFix),
  );
}
