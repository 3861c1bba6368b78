/**
 * The Subgraphs feature inside the real extension host, with the real graph CLI: a copy of the
 * tutorial subgraph in the workspace (node_modules linked to the repository's, so the CLI and
 * graph-ts resolve from it as in a user's project), pointed at a real ERC-20 on the runner's
 * anvil that approved 250 spenders, and a real local graph-node (gnd, Postgres, the IPFS
 * endpoint) behind gateways (test/support/proxy) that demand the access key in their paths and
 * the deploy key as a bearer token, as a host does. Real CLI runs, in order: codegen, build,
 * build with a planted error, deploy; the records, health and pages then come from graph-node.
 * Everything added is removed again (the UI tests reuse the workspace), and nothing of the
 * graph-node is left running.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GraphCommand } from '../../../src/core/subgraph/graphcli/commands';
import type { CompareResult } from '../../../src/core/indexing/compare/compare';
import type { SubgraphsFeature } from '../../../src/editor/subgraph/feature';
import type { ManifestLenses } from '../../../src/editor/subgraph/language/manifestLens';
import type { FinishedRun, GraphTasks, TaskDeps } from '../../../src/editor/subgraph/tasks/graphTasks';
import type { GraphToolchain } from '../../../src/editor/subgraph/tasks/toolchain';
import type { SubgraphsElement } from '../../../src/editor/subgraph/records/element';
import type { TestApi } from '../../../src/extension';
import { makeApprovals, pointManifest, type Approvals } from '../../support/approvals';
import { graphCli, startLocalGraph, type LocalGraph } from '../../support/localGraph';
import { startProxy, type Proxy } from '../../support/proxy';
import { activateTestApi, anvil, EXTENSION_ID, until as poll } from './helpers';

/** Shaped like real keys, so core's URL splitting and the redactor treat them as keys. */
const ACCESS_KEY = '5e8a1c3f7b9d2e4a6c8f0b1d3e5a7c9f';
const DEPLOY_KEY = 'dk4f6a8c0e2b4d6f8a1c3e5b7d9f1a3c5e';
const NAME = 'chaindeck/erc20-approvals';
const FOLDER = 'eh-tutorial';

/** Real CLI runs are slow: waits here allow longer than the other suites'. */
const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => poll(what, probe, 20_000);

/** The JSON body of a request a gateway passed on. */
const bodyOf = (request: { body: string }) => JSON.parse(request.body) as { method?: string; params?: unknown; query?: string; variables?: unknown };

describe('subgraphs', function () {
  // Each real CLI run takes seconds (graph build ~7-10 s).
  this.timeout(90_000);
  let api: TestApi;
  let f: SubgraphsFeature;
  let dir: string;
  let manifest: vscode.Uri;
  let approvals: Approvals;
  let graph: LocalGraph;
  // The host's gateways in front of graph-node's ports: what the record's URLs name.
  let ipfs: Proxy;
  let admin: Proxy;
  let graphql: Proxy;
  const urls = () => ({ deployUrl: `${admin.url}/deploy`, ipfsUrl: `${ipfs.url}/api/v0`, queryUrl: `${graphql.url}/subgraphs/name/${NAME}` });

  const record = () => f.store.byName(NAME);
  const graphDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'graph');
  const logText = () => {
    const file = path.join(api.logUri.fsPath, 'Chaindeck.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };
  const ourTasks = async () => (await vscode.tasks.fetchTasks({ type: 'graph' })).filter((t) => t.definition.manifest === `${FOLDER}/subgraph.yaml`);

  before(async function () {
    this.timeout(180_000); // compiling the token, starting graph-node
    const { ext, api: exported } = await activateTestApi('activate() returned no subgraphs in the test API', (a) => a.subgraphs);
    api = exported;
    f = exported.subgraphs;

    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = path.join(ws, FOLDER);
    fs.cpSync(path.join(ext.extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), dir, { recursive: true });
    fs.symlinkSync(path.join(ext.extensionPath, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    manifest = vscode.Uri.file(path.join(dir, 'subgraph.yaml'));

    const rpcUrl = process.env.CHAINDECK_TEST_ANVIL_URL!;
    approvals = await makeApprovals(rpcUrl, ext.extensionPath, 250);
    pointManifest(manifest.fsPath, approvals);
    // gnd from the runner's cache: this extension host's own cache folder is a fresh one.
    graph = await startLocalGraph(rpcUrl, { cacheDir: process.env.CHAINDECK_TEST_GND_CACHE });
    // The name exists on the host before the first deploy, as after `graph create`.
    await graphCli(['create', '--node', graph.urls.admin, NAME], dir);
    graphql = await startProxy({ target: graph.urls.graphql, key: ACCESS_KEY, service: {} });
    ipfs = await startProxy({ target: graph.urls.ipfs, key: ACCESS_KEY, service: {} });
    admin = await startProxy({ target: graph.urls.admin, key: ACCESS_KEY, bearer: DEPLOY_KEY, service: { paths: { '/deploy': '/' } } });
  });

  after(async () => {
    const added = record();
    if (added) await f.store.remove(added.id);
    await Promise.all([ipfs?.close(), admin?.close(), graphql?.close()]);
    // Throws when anything of the graph-node is left running (and kills it).
    await graph?.stop();
    // The link first, by itself: the repository's node_modules must never be walked by the removal.
    if (dir) {
      fs.rmSync(path.join(dir, 'node_modules'), { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds a record: the keys go to secret storage, settings keep {key}', async () => {
    const added = await f.store.add({ name: NAME, project: 'Demo project', protocol: 'ethereum', network: 'mainnet', type: 'elastic', ...urls(), graphqlUiUrl: '' }, DEPLOY_KEY);
    const saved = JSON.stringify(vscode.workspace.getConfiguration('chaindeck').get('subgraphs'));
    const settingsFile = fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json'), 'utf8');
    for (const key of [ACCESS_KEY, DEPLOY_KEY]) {
      assert.ok(!saved.includes(key), 'a key is in chaindeck.subgraphs');
      assert.ok(!settingsFile.includes(key), 'a key is in .vscode/settings.json');
    }
    assert.equal(added.deployUrl, urls().deployUrl.replace(ACCESS_KEY, '{key}'));
    assert.equal(added.queryUrl, urls().queryUrl.replace(ACCESS_KEY, '{key}'));
    assert.deepEqual(await f.store.secretsOf(added), { accessKey: ACCESS_KEY, deployKey: DEPLOY_KEY });
  });

  it('offers codegen, build and deploy tasks for the subgraph.yaml', async () => {
    const tasks = await until('the graph tasks of the copied subgraph', async () => {
      const found = await ourTasks();
      return found.length === 3 ? found : undefined;
    });
    assert.deepEqual(tasks.map((t) => t.name).sort(), [`build - ${FOLDER}/subgraph.yaml`, `codegen - ${FOLDER}/subgraph.yaml`, `deploy - ${FOLDER}/subgraph.yaml`]);
    assert.ok(tasks.every((t) => t.source === 'graph' && t.execution instanceof vscode.CustomExecution));
  });

  it('lists the subgraph.yaml with its data source and handler; the handler opens the mapping at its function', async () => {
    const tree = f.tree;
    const groups = await tree.getChildren();
    const group = groups.find((g) => g.kind === 'group' && g.group === 'manifests');
    assert.ok(group, 'no group of workspace manifests');
    const manifests = await tree.getChildren(group);
    const ours = manifests.find((m) => m.kind === 'manifest' && m.manifest.fsPath === manifest.fsPath);
    assert.ok(ours, `${FOLDER}/subgraph.yaml is not in the tree`);
    const [dataSource] = await tree.getChildren(ours);
    const dsItem = tree.getTreeItem(dataSource);
    assert.equal(dsItem.label, 'ERC20');
    assert.equal(dsItem.description, `mainnet · from block ${approvals.startBlock}`);
    const [handler] = await tree.getChildren(dataSource);
    const item = tree.getTreeItem(handler as SubgraphsElement);
    assert.equal(item.label, 'handleApproval');
    assert.equal(item.description, 'Approval(indexed address,indexed address,uint256)');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const editor = await until('the mapping in an editor', () =>
      vscode.window.activeTextEditor?.document.fileName.endsWith(path.join(FOLDER, 'src', 'mapping.ts')) ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(editor.selection.active.line, 7);
    assert.equal(editor.document.getText(editor.selection), 'handleApproval');
  });

  it('runs codegen (the command other features call) and the build task', async () => {
    const codegen = await vscode.commands.executeCommand<{ run?: { outcome: { ok: boolean; summary: string }; output: string } }>('chaindeck.subgraph.codegen', manifest);
    assert.equal(codegen?.run?.outcome.ok, true, codegen?.run?.output);
    assert.ok(fs.existsSync(path.join(dir, 'generated', 'schema.ts')));

    const build = (await ourTasks()).find((t) => t.definition.task === 'build');
    assert.ok(build, 'no build task');
    const finished = new Promise<FinishedRun>((resolve) => {
      const subscription = f.tasks.onDidFinishRun((r) => {
        if (r.definition.task !== 'build' || r.manifest.fsPath !== manifest.fsPath) return;
        subscription.dispose();
        resolve(r);
      });
    });
    await vscode.tasks.executeTask(build);
    const { run } = await finished;
    assert.equal(run?.outcome.ok, true, run?.output);
    assert.equal(run?.outcome.summary, 'Build completed: build/subgraph.yaml');
    assert.ok(fs.existsSync(path.join(dir, 'build', 'ERC20', 'ERC20.wasm')));
  });

  it('puts a compile error on the mapping at its line, as a "graph" diagnostic', async () => {
    const mappingPath = path.join(dir, 'src', 'mapping.ts');
    const original = fs.readFileSync(mappingPath, 'utf8');
    fs.writeFileSync(mappingPath, original.replace('import { ApprovalQuery } from', 'import { ApprovalQuery, NoSuchEntity } from'));
    try {
      const finished = await f.tasks.run('build', manifest);
      assert.equal(finished?.run?.outcome.ok, false, 'the build should fail');
      const mapping = vscode.Uri.file(mappingPath);
      const [problem] = graphDiagnostics(mapping);
      assert.ok(problem, `no graph diagnostic on the mapping; the run said: ${finished?.run?.outcome.summary}`);
      assert.equal(problem.code, 'TS2305');
      assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(problem.range.start.line, 3, 'the error is on line 4 of the mapping');
      assert.match(problem.message, /NoSuchEntity/);
    } finally {
      fs.writeFileSync(mappingPath, original);
    }
    // Fixed: the next build passes and takes the diagnostic away.
    const fixed = await f.tasks.run('build', manifest);
    assert.equal(fixed?.run?.outcome.ok, true, fixed?.run?.output);
    assert.deepEqual(graphDiagnostics(vscode.Uri.file(mappingPath)), [], 'the passing build left the old diagnostic');
  });

  it('deploys with the keys put in by core only, and records the deployment', async () => {
    const before = logText().length;
    const finished = await f.tasks.run('deploy', manifest, { subgraph: NAME, versionLabel: 'v0.0.1' });
    const run = finished?.run;
    assert.equal(run?.outcome.ok, true, run?.output);

    // The gateway passed the deploy with the deploy key, at the keyed path; IPFS got the files
    // and graph-node indexes that deployment, to the block of the approvals.
    const deployCall = admin.requests.find((r) => bodyOf(r).method === 'subgraph_deploy');
    assert.ok(deployCall, 'graph-node saw no subgraph_deploy');
    assert.equal(deployCall.path, `/${ACCESS_KEY}/deploy`);
    assert.equal(deployCall.authorization, `Bearer ${DEPLOY_KEY}`);
    assert.deepEqual(bodyOf(deployCall).params, { name: NAME, ipfs_hash: run!.outcome.ipfsHash, version_label: 'v0.0.1' });
    assert.ok(ipfs.requests.some((r) => r.path.startsWith(`/${ACCESS_KEY}/api/v0/pin/add?`) && r.path.includes(`arg=${run!.outcome.ipfsHash}`)));
    const status = await graph.waitSynced(run!.outcome.ipfsHash!, approvals.block);
    assert.equal(status.health, 'healthy');

    const updated = record()!;
    assert.equal(updated.versionLabel, 'v0.0.1');
    assert.equal(updated.lastDeployment?.versionLabel, 'v0.0.1');
    assert.equal(updated.lastDeployment?.ipfsHash, run!.outcome.ipfsHash);
    // graph-node names its own port for queries (the CLI keeps only the deploy URL's host); the record's query URL stays the gateway's.
    assert.equal(updated.lastDeployment?.queriesUrl, `${graph.urls.graphql}/subgraphs/name/${NAME}`);
    assert.equal(updated.queryUrl, urls().queryUrl.replace(ACCESS_KEY, '{key}'));
    // The build error of the last run is gone with this run.
    assert.deepEqual(graphDiagnostics(vscode.Uri.file(path.join(dir, 'src', 'mapping.ts'))), []);

    // No key anywhere it could be seen: output, shown command, task definitions, settings, log.
    const definitions = JSON.stringify([finished!.definition, ...(await ourTasks()).map((t) => t.definition)]);
    const log = await until('the deploy in the log', () => {
      const text = logText().slice(before);
      return text.includes(`Deployed ${NAME} v0.0.1`) ? text : undefined;
    });
    for (const key of [ACCESS_KEY, DEPLOY_KEY]) {
      assert.ok(!run!.output.includes(key), 'a key is in the terminal output');
      assert.ok(!run!.command.includes(key), 'a key is in the shown command line');
      assert.ok(!definitions.includes(key), 'a key is in a task definition');
      assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('chaindeck').get('subgraphs')).includes(key), 'a key is in settings');
      assert.ok(!logText().includes(key), 'a key is in the log');
    }
    assert.match(run!.command, /--node http:\/\/127\.0\.0\.1:\d+\/\{key\}\/deploy .*--deploy-key \{deployKey\}/);
    assert.match(log, /graph deploy - eh-tutorial\/subgraph.yaml: Deployed/);
  });

  it('shows the subgraph health in the tree', async () => {
    f.tree.refresh();
    const groups = await f.tree.getChildren();
    const group = groups.find((g) => g.kind === 'group' && g.group === 'records')!;
    const item = (await f.tree.getChildren(group)).find((e) => e.kind === 'record' && e.record.name === NAME);
    assert.ok(item, 'the record is not in the tree');
    // Synced to the chain head, which nothing moves while this suite runs.
    const head = Number(BigInt((await anvil('eth_blockNumber', [])) as string));
    await graph.waitSynced(record()!.lastDeployment!.ipfsHash!, head);
    f.tree.getTreeItem(item); // asks for the health
    const description = await until('the health', () => {
      const d = String(f.tree.getTreeItem(item).description ?? '');
      return /^block/.test(d) ? d : undefined;
    });
    assert.equal(description, `block ${head} · healthy`);
    const asked = graphql.requests.at(-1)!;
    assert.equal(asked.path, `/${ACCESS_KEY}/subgraphs/name/${NAME}`);
    assert.equal(bodyOf(asked).query, '{ _meta { block { number } hasIndexingErrors } }');
  });

  it('writes the default list query for a new query and runs it from its lens into the results table', async () => {
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('chaindeck.subgraphs.newQuery', record());
    assert.ok(document, 'no query document');
    assert.equal(document.languageId, 'graphql');
    assert.match(document.getText(), /^# @subgraph chaindeck\/erc20-approvals\n/);
    // Titled by its one operation, not by the comment on its first line.
    assert.equal(document.uri.scheme, 'untitled');
    const tab = await until('the query tab', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === document.uri.toString()),
    );
    assert.equal(tab.label, 'ApprovalQueries.graphql');
    assert.match(
      document.getText(),
      /query ApprovalQueries\(\$first: Int = 100, \$skip: Int = 0\) \{\n {2}approvalQueries\(first: \$first, skip: \$skip\) \{\n {4}id\n {4}owner\n {4}spender\n {4}value\n/,
    );

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    assert.ok(
      lenses.some((l) => l.command?.title === `$(cloud) Subgraph: ${NAME}`),
      'no "Subgraph:" lens',
    );
    const run = lenses.find((l) => l.command?.command === 'chaindeck.subgraphs.runQuery');
    assert.ok(run?.command, 'no Run lens');
    const sent = graphql.requests.length;
    await vscode.commands.executeCommand(run.command.command, ...(run.command.arguments ?? []));

    const page = await until('the results page', () => f.results.page);
    assert.equal(page.subgraph, NAME);
    assert.equal(page.field, 'approvalQueries');
    assert.deepEqual(
      page.table.columns.map((c) => c.id),
      ['id', 'owner', 'spender', 'value'],
    );
    assert.equal(page.table.rows.length, 100);
    assert.ok(page.hasNext && !page.hasPrevious);
    // The first 100 of the 250 approvals by id, as graph-node indexed them from the chain.
    assert.deepEqual(
      page.table.rows,
      approvals.records.slice(0, 100).map((r) => [r.id, r.owner, r.spender, r.value]),
    );
    // uint256's maximum (the first approval, the first id), whole: never turned into a float.
    assert.equal(page.table.rows[0][3], (2n ** 256n - 1n).toString());
    assert.equal(page.endpoint.includes(ACCESS_KEY), false);
    assert.deepEqual(bodyOf(graphql.requests.at(-1)!).variables, { first: 100, skip: 0 });
    assert.equal(graphql.requests.length, sent + 1);
    await until('the results panel', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === `Query: ${NAME}`));
  });

  it('Compare with…: the record through its gateway equals the subgraph queried directly; a value rewritten on the way is the one entity that differs', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'graphql',
      content: `# @subgraph ${NAME}\nquery Approvals($first: Int = 100, $skip: Int = 0) {\n  approvalQueries(first: $first, skip: $skip) {\n    id\n    owner\n    spender\n    value\n  }\n}\n`,
    });
    await vscode.window.showTextDocument(document);
    const direct = `${graph.urls.graphql}/subgraphs/name/${NAME}`;
    const equal = await vscode.commands.executeCommand<CompareResult | undefined>('chaindeck.subgraphs.compareWith', document.uri, direct);
    assert.ok(equal, 'no compare result');
    assert.equal(equal.equal, true, `${JSON.stringify(equal.a)} ${JSON.stringify(equal.b)}`);
    // All 250 approvals each side, not the query's first 100: the compare reads collections whole.
    assert.deepEqual([equal.fields[0].countA, equal.fields[0].countB], [250, 250]);
    const shown = await until('the compare page', () => f.compare.page);
    assert.deepEqual([shown.equal, shown.differing, shown.table.rows.length], [true, 0, 0]);

    // The gateway passes the probe through, then rewrites one value of the page A reads.
    const changed = approvals.records[7];
    graphql.fail(
      { rewrite: (reply) => reply },
      {
        rewrite: (reply) => {
          const body = reply as { data: { approvalQueries: { id: string; value: string }[] } };
          body.data.approvalQueries.find((a) => a.id === changed.id)!.value = '1';
          return body;
        },
      },
    );
    const differ = await vscode.commands.executeCommand<CompareResult | undefined>('chaindeck.subgraphs.compareWith', document.uri, direct);
    assert.equal(differ?.equal, false);
    assert.deepEqual(differ.fields[0].changed, [{ id: changed.id, changes: [{ path: 'value', a: '1', b: changed.value }] }]);
    assert.deepEqual([differ.fields[0].onlyInA, differ.fields[0].onlyInB], [[], []]);
    const page = await until('the differing page', () => (f.compare.page?.differing === 1 ? f.compare.page : undefined));
    assert.deepEqual(page.table.rows, [['approvalQueries', 'changed', changed.id, `value: "1" → "${changed.value}"`]]);
    assert.equal(JSON.stringify(page).includes(ACCESS_KEY), false, 'the access key is in the page');
    assert.match(page.a.label, new RegExp(`^${NAME} \\(http://127\\.0\\.0\\.1:\\d+/\\*\\*\\*`));
    await until('the compare panel', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith(`Compare: ${NAME} ↔ `)));
  });

  it('flags a field the schema lacks where it is, and sends nothing', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'graphql', content: `# @subgraph ${NAME}\n{\n  approvalQueries {\n    id\n    ownr\n  }\n}\n` });
    const sent = graphql.requests.length;
    const outcome = await vscode.commands.executeCommand<{ kind: string }>('chaindeck.subgraphs.runQuery', document.uri, 0);
    assert.equal(outcome?.kind, 'invalid');
    assert.equal(graphql.requests.length, sent, 'the query was sent');
    const [problem] = vscode.languages.getDiagnostics(document.uri);
    assert.ok(problem, 'no diagnostic');
    assert.match(problem.message, /Cannot query field "ownr" on type "ApprovalQuery"/);
    assert.deepEqual([problem.range.start.line, problem.range.start.character, problem.range.end.character], [4, 4, 8]);
  });

  it("shows graph-node's own error as sent, with no key in it or in the log", async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'graphql', content: `# @subgraph ${NAME}\n{\n  approvalQueries(first: 5000) {\n    id\n  }\n}\n` });
    const before = logText().length;
    await vscode.commands.executeCommand('chaindeck.subgraphs.runQuery', document.uri, 0);
    const page = await until('the error page', () => (f.results.page?.errors ? f.results.page : undefined));
    // graph-node caps `first` at 1000: its message reaches the panel whole.
    assert.match(page.errors, /`first` argument must be between 0 and 1000, but is 5000/);
    assert.deepEqual(page.table.rows, []);
    const log = await until('the query in the log', () => {
      const text = logText().slice(before);
      return /error\(s\)/.test(text) ? text : undefined;
    });
    for (const text of [page.errors, page.endpoint, log]) {
      assert.ok(!text.includes(ACCESS_KEY) && !text.includes(DEPLOY_KEY), 'a key is in the error, the endpoint or the log');
    }
  });

  it('needs a trusted workspace to run the graph CLI: no tasks, an explaining lens, trust-gated commands', async () => {
    // The workbench runs with trust disabled (always trusted): check the guards directly.
    const Tasks = f.tasks.constructor as new (deps: TaskDeps) => GraphTasks;
    const Toolchain = f.toolchain.constructor as new (isTrusted: () => boolean) => GraphToolchain;
    const toolchain = new Toolchain(() => false);
    const untrusted = new Tasks({ store: f.store, manifests: f.manifests, log: f.log, toolchain, afterDeploy: async () => undefined });
    try {
      assert.deepEqual(await untrusted.provideTasks(), []);
    } finally {
      untrusted.dispose();
      toolchain.dispose();
    }
    // The toolchain itself refuses, whoever asks (a redeploy on save has no command to gate it): the CLI never starts.
    const refusing = new Toolchain(() => false);
    const codegen: GraphCommand = { subcommand: 'codegen', args: ['codegen', 'subgraph.yaml'], manifest: 'subgraph.yaml', notes: [] };
    try {
      const missingCli = path.join(path.dirname(manifest.fsPath), 'no-such-graph-cli.js');
      await assert.rejects(
        refusing.run(codegen, { toolchain: { kind: 'graph-cli', cli: missingCli }, cwd: path.dirname(manifest.fsPath), signal: new AbortController().signal }),
        /runs code from this workspace: trust the workspace first/,
      );
    } finally {
      refusing.dispose();
    }
    const Lenses = f.lenses.constructor as new (store: SubgraphsFeature['store'], isTrusted: () => boolean) => ManifestLenses;
    const lenses = new Lenses(f.store, () => false);
    try {
      const document = await vscode.workspace.openTextDocument(manifest);
      const [lens, ...more] = lenses.provideCodeLenses(document);
      assert.equal(more.length, 0);
      assert.equal(lens.command?.command, 'workbench.trust.manage');
      assert.match(lens.command!.title, /trust this workspace/);
    } finally {
      lenses.dispose();
    }
    // In the trusted workbench the same lens offers the three runs and the local deploy.
    const trusted = f.lenses.provideCodeLenses(await vscode.workspace.openTextDocument(manifest)).map((l) => l.command?.command);
    assert.deepEqual(trusted, ['chaindeck.subgraph.codegen', 'chaindeck.subgraph.build', 'chaindeck.subgraph.deploy', 'chaindeck.localGraphNode.deploy']);

    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: { command: string; enablement?: string }[]; menus: Record<string, { command: string; when?: string }[]> };
    };
    const cli = ['chaindeck.subgraph.init', 'chaindeck.subgraph.codegen', 'chaindeck.subgraph.build', 'chaindeck.subgraph.deploy', 'chaindeck.localGraphNode.deploy'];
    for (const id of cli) {
      assert.equal(pkg.contributes.commands.find((c) => c.command === id)?.enablement, 'isWorkspaceTrusted', `${id} is not disabled in untrusted workspaces`);
      for (const entry of Object.values(pkg.contributes.menus)
        .flat()
        .filter((m) => m.command === id)) {
        assert.match(entry.when ?? '', /isWorkspaceTrusted/, `a menu shows ${id} without isWorkspaceTrusted`);
      }
    }
  });
});
