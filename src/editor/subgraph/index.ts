/**
 * The subgraph feature, one folder per concept: the manifest's language features (diagnostics
 * while editing subgraph.yaml, schema.graphql and the files they name; quick fixes, completions,
 * hovers, the proxy hint, code lenses) in language/; `graph init` and codegen/build/deploy as
 * `graph` tasks (with their problems as diagnostics) in tasks/; hosted subgraph records
 * (settings + SecretStorage) and the workspace's subgraph.yaml files in the Subgraphs view in
 * records/; GraphQL query files with a results table in queries/. Validation is core's.
 */
import * as vscode from 'vscode';
import { COMMANDS, VIEWS } from '../ids';
import { functionOffset } from '../../core/subgraph/manifest/manifestSummary';
import { isManifestFile } from '../../core/subgraph/copies';
import { registerCommand, type CommandRun } from '../kit/commands';
import type { Settings } from '../kit/settings';
import type { Log } from '../log';
import type { EditorContextWithNodes, NodesFeature } from '../nodes/feature';
import type { SubgraphsFeature } from './feature';
import { ManifestCompletions } from './language/completions';
import { SubgraphDiagnostics } from './language/diagnostics';
import { revealFix, SubgraphFixes } from './language/fixes';
import { SubgraphHovers } from './language/hovers';
import { MANIFEST_SELECTOR, ManifestLenses } from './language/manifestLens';
import { ProxyHints } from './language/proxyHints';
import { besideManifest, Manifests } from './manifests';
import { manifestOf, resolveManifest } from './pickers';
import { QUERY_LANGUAGE, QueryFiles } from './queries/queryFiles';
import { QueryResults } from './queries/results';
import { CompareWith } from './compare/compareWith';
import { ComparePanel } from './compare/panel';
import { addRecord, editRecord, openGraphqlUi, removeRecord, setDeployKey } from './records/commands';
import { SubgraphStore } from './records/store';
import { SubgraphsTree } from './records/tree';
import { afterDeploy, deploy } from './tasks/deploy';
import { GraphTasks, type GraphTaskKind } from './tasks/graphTasks';
import { initSubgraph } from './tasks/init';
import { GRAPH_TASK_TYPE, GraphToolchain } from './tasks/toolchain';
import { registerLocalNodeCommands } from './localnode/commands';
import { LocalNodeDataFolder } from './localnode/dataFolder';
import { LocalDeployer } from './localnode/deploy';
import { isLocalRecord, LocalNode } from './localnode/localNode';
import { FatalErrorDiagnostics } from './localnode/problems';
import { Replays } from './replay/feature';
import { registerSubgraphTests } from './tests';
import { registerSubgraphLogs } from './logs';
import { registerIndexingSpeed } from './speed';

/** Registers everything of the feature; returns its pieces (extension-host tests use them). */
export function registerSubgraph({ extension, log, secrets, settings, nodes }: EditorContextWithNodes, isTrusted = () => vscode.workspace.isTrusted): SubgraphsFeature {
  // The local graph-node's data folder may be inside the workspace: what it holds is not the user's.
  const dataFolder = new LocalNodeDataFolder(settings, extension);
  registerLanguage(extension, log, nodes, settings, dataFolder);
  const store = new SubgraphStore(secrets, extension.workspaceState, settings);
  const manifests = new Manifests(dataFolder);
  const localNode = new LocalNode({ extension, nodes, manifests, settings, log, dataFolder });
  store.setLocalSource({
    records: () => localNode.records(),
    manifestFor: (record) => (isLocalRecord(record) ? localNode.manifestOf(record.name) : undefined),
    pending: () => localNode.namesPending,
    onDidChangeRecords: localNode.onDidChangeRecords,
  });
  const results = new QueryResults(extension.extensionUri, store, log);
  const comparePanel = new ComparePanel(extension.extensionUri, log);
  const toolchain = new GraphToolchain(isTrusted, extension.globalStorageUri.fsPath);
  const tasks = new GraphTasks({ store, manifests, log, toolchain, afterDeploy: (record, label, run) => afterDeploy(store, log, record, label, run) });
  const tree = new SubgraphsTree(store, manifests, localNode);
  const queries = new QueryFiles({ store, manifests, results });
  const lenses = new ManifestLenses(store, isTrusted, dataFolder);
  const localProblems = new FatalErrorDiagnostics(localNode);
  const localDeploy = new LocalDeployer({ store, manifests, toolchain, local: localNode, settings });
  const tests = registerSubgraphTests({ manifests, toolchain, settings, log, globalStorage: extension.globalStorageUri, nodes, store, local: localNode }, extension.subscriptions);
  const replays = new Replays({ extensionUri: extension.extensionUri, log, local: localNode, manifests, toolchain });
  const subgraphsView = vscode.window.createTreeView(VIEWS.subgraphs, { treeDataProvider: tree, showCollapseAll: true });
  const f: SubgraphsFeature = {
    extensionUri: extension.extensionUri,
    log,
    store,
    manifests,
    tree,
    tasks,
    toolchain,
    queries,
    results,
    compare: comparePanel,
    lenses,
    localNode,
    localDeploy,
    localProblems,
    replays,
    tests,
  };

  const compareWith = new CompareWith({ store, local: localNode, manifests, secrets, settings, panel: comparePanel });
  const records = { store, log };
  // What a command resolves with is for callers (tests, other features).
  const command = (id: string, run: CommandRun) => registerCommand(log, id, run);
  const graphTask = (kind: GraphTaskKind) => async (arg?: unknown) => {
    if (!toolchain.requireTrust()) return undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    const preferred = active && isManifestFile(active.path) ? active : undefined;
    const manifest = manifestOf(arg) ?? preferred ?? (await resolveManifest(manifests, `graph ${kind}: Which subgraph.yaml?`));
    return manifest && tasks.run(kind, manifest);
  };

  extension.subscriptions.push(
    store,
    manifests,
    results,
    tasks,
    toolchain,
    tree,
    queries,
    lenses,
    subgraphsView,
    ...registerIndexingSpeed(extension.extensionUri, log, localNode, tree, subgraphsView),
    ...registerSubgraphLogs(extension.extensionUri, log, localNode),
    vscode.tasks.registerTaskProvider(GRAPH_TASK_TYPE, tasks),
    vscode.languages.registerCodeLensProvider(MANIFEST_SELECTOR, lenses),
    vscode.languages.registerCodeLensProvider({ language: QUERY_LANGUAGE }, queries),
    command(COMMANDS.subgraphs.add, () => addRecord(records)),
    command(COMMANDS.subgraphs.edit, (arg) => editRecord(records, arg)),
    command(COMMANDS.subgraphs.remove, (arg) => removeRecord(records, arg)),
    command(COMMANDS.subgraphs.setDeployKey, (arg) => setDeployKey(records, arg)),
    command(COMMANDS.subgraphs.openGraphqlUi, (arg) => openGraphqlUi(records, arg)),
    command(COMMANDS.subgraphs.refresh, async () => {
      manifests.refresh();
      tree.refresh();
    }),
    command(COMMANDS.subgraphs.newQuery, (arg) => queries.newQuery(arg)),
    command(COMMANDS.subgraphs.runQuery, (uri, index) => queries.run(uri instanceof vscode.Uri ? uri : undefined, typeof index === 'number' ? index : undefined)),
    command(COMMANDS.subgraphs.chooseForQuery, (uri) => queries.chooseSubgraph(uri instanceof vscode.Uri ? uri : undefined)),
    comparePanel,
    command(COMMANDS.subgraphs.compareWith, (arg, otherUrl) => compareWith.run(arg, otherUrl)),
    command(COMMANDS.subgraphs.openHandler, (manifest, mappingFile, handler) => openHandler(manifest as vscode.Uri, String(mappingFile), String(handler))),
    command(COMMANDS.subgraph.init, () => initSubgraph({ log, toolchain })),
    command(COMMANDS.subgraph.codegen, graphTask('codegen')),
    command(COMMANDS.subgraph.build, graphTask('build')),
    command(COMMANDS.subgraph.deploy, (arg) => deploy({ store, manifests, tasks, toolchain }, arg)),
    // Tasks and lenses change with trust; the commands check it when run.
    vscode.workspace.onDidGrantWorkspaceTrust(() => manifests.refresh()),
    // After the store and the tree (disposed in order): the node stops last.
    localProblems,
    replays,
    localDeploy,
    localNode,
    ...registerLocalNodeCommands(log, localNode, localDeploy),
  );
  return f;
}

/** The manifest's language features: they need the nodes (for the proxy hint), not the records. */
function registerLanguage(extension: vscode.ExtensionContext, log: Log, nodes: Pick<NodesFeature, 'store' | 'statusBar'>, settings: Settings, dataFolder: LocalNodeDataFolder): void {
  const proxies = new ProxyHints(nodes, settings);
  const diagnostics = new SubgraphDiagnostics(log, proxies, dataFolder);
  const manifests: vscode.DocumentSelector = { language: 'yaml', scheme: 'file' };
  extension.subscriptions.push(
    dataFolder,
    proxies,
    diagnostics,
    // Findings land in schemas, mappings and ABIs too: fixes are offered wherever they are.
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new SubgraphFixes(diagnostics), SubgraphFixes.metadata),
    vscode.languages.registerCompletionItemProvider(manifests, new ManifestCompletions(diagnostics), ':', ' '),
    vscode.languages.registerHoverProvider([manifests, { language: 'graphql', scheme: 'file' }], new SubgraphHovers(diagnostics, proxies)),
    registerCommand(log, COMMANDS.subgraph.revealFix, revealFix),
  );
}

/** Opens a data source's mapping at the handler's function (or at the top, when it is not there yet). */
async function openHandler(manifest: vscode.Uri, mappingFile: string, handler: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(besideManifest(manifest, mappingFile));
  const offset = functionOffset(document.getText(), handler);
  const at = document.positionAt(offset ?? 0);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(at, at.translate(0, offset === undefined ? 0 : handler.length)) });
  if (offset === undefined) void vscode.window.showInformationMessage(`${mappingFile} does not define ${handler} yet.`);
}
