/**
 * The local graph-node inside the real extension host, on the real gnd, Postgres and anvil: the
 * node started through its command on the chain of a node whose key is in its URL path (the
 * key-in-path proxy in front of anvil), a copy of the tutorial subgraph deployed through "Deploy
 * to Local Graph Node" (the real graph CLI: codegen, build, create, deploy) for a contract set on
 * anvil that emits Approval with the value of its call data, the deployment synced and healthy
 * in the tree, a query file run against it by name, a mapping that aborts on one value giving a
 * fatal error in Problems (manifest and handler), a save of the mapping redeploying it
 * (redeployOnSave), gnd and then Postgres killed with SIGKILL while it indexes (the failure named,
 * Restart bringing it back with every event of eth_getLogs indexed once), the stop leaving nothing
 * running, races of start and stop, and the start on activation (autoStart) finding the
 * deployment again in the data folder. The key of the chain's URL is in no output or message.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SubgraphsFeature } from '../../../src/editor/subgraph/feature';
import type { LocalDeployResult } from '../../../src/core/subgraph/graphcli/localDeploy';
import type { LocalNodeDeath } from '../../../src/editor/subgraph/localnode/localNode';
import type { SubgraphsElement } from '../../../src/editor/subgraph/records/element';
import type { TestApi } from '../../../src/extension';
import { copyProject, graphCli, removeScratch, scratchFolder } from '../../support/localGraph';
import { killProcessesUsing, processesUsing } from '../../support/processes';
import { activateTestApi, anvil, until as poll } from './helpers';

const NAME = 'chaindeck/local-approvals';
/** A name deployed from outside the editor, as from a terminal. */
const OUTSIDE_NAME = 'terminal/approvals';
const FOLDER = 'ln-tutorial';
/** The node of the workspace whose URL holds a key in its path and query (see test/workbench/fixture.ts). */
const KEYED_NODE = { name: 'Key left in settings', secretParts: ['abc123key', 'zq-settings-9'] };
/** Where the CLI and the integration tests keep the pinned gnd; absent, the extension installs its own. */
const CACHED_GND = path.join(os.userInfo().homedir, '.cache', 'chaindeck', 'gnd', '0.45.0', 'gnd');
const CONTRACT = '0x00000000000000000000000000000000000c4a1d';
const APPROVAL = '8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
/** Copies the call data to memory, then LOG3(Approval, caller, caller) with it as the data: the event's value is the call's argument. */
const EMITTER = `0x3660006000373333 7f${APPROVAL}3660 00a300`.replace(/\s/g, '');
/** The value whose Approval the mapping refuses (it aborts). */
const FATAL_VALUE = 666;
/** The line the mapping gets that refuses FATAL_VALUE; the redeploy-on-save test takes it out again. */
const REFUSAL = `if (event.params.value.toString() == "${FATAL_VALUE}") assert(false, "refusing the value ${FATAL_VALUE}");\n  `;
/** The supervisor's lock in the data folder: the pids of gnd and Postgres. */
const LOCK_FILE = 'chaindeck-graph-node.lock';

/** Points a copy of the tutorial manifest at the emitter contract, from the suite's start block. */
const pointAtContract = (manifestFile: string, startBlock: number) =>
  fs.writeFileSync(
    manifestFile,
    fs
      .readFileSync(manifestFile, 'utf8')
      .replace(/address: "0x[0-9a-fA-F]+"/, `address: "${CONTRACT}"`)
      .replace(/startBlock: \d+/, `startBlock: ${startBlock}`),
  );

const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => poll(what, probe, 90_000);
const config = () => vscode.workspace.getConfiguration('chaindeck.localGraphNode');

describe('localnode', function () {
  // A first start may install gnd; graph build takes ~10 s.
  this.timeout(300_000);
  let api: TestApi;
  let f: SubgraphsFeature;
  let dir: string;
  let dataDir: string;
  let manifest: vscode.Uri;
  let from: string;
  let startBlock: number;
  let extensionPath: string;
  const deaths: LocalNodeDeath[] = [];

  /** The state's kind read anew (no narrowing from an earlier assert). */
  const stateKind = (): string => f.localNode.state.kind;
  const localNodeElement = async () => (await f.tree.getChildren()).find((e) => e.kind === 'localNode');
  const ourDeployment = async () => {
    const top = await localNodeElement();
    const children = top ? await f.tree.getChildren(top) : [];
    return children.find((e): e is Extract<SubgraphsElement, { kind: 'localDeployment' }> => e.kind === 'localDeployment' && e.deployment.names.includes(NAME));
  };
  const approve = async (value: number) => {
    const hash = (await anvil('eth_sendTransaction', [{ from, to: CONTRACT, data: `0x${value.toString(16).padStart(64, '0')}`, gas: '0x30000' }])) as string;
    const receipt = await until('the receipt', async () => ((await anvil('eth_getTransactionReceipt', [hash])) as { blockNumber: string } | null) ?? undefined);
    return Number(receipt.blockNumber);
  };
  const outputText = () => {
    const files = fs.readdirSync(api.logUri.fsPath, { recursive: true }).map(String);
    return files
      .filter((file) => file.endsWith('.log'))
      .map((file) => fs.readFileSync(path.join(api.logUri.fsPath, file), 'utf8'))
      .join('\n');
  };

  /** Every Approval of the contract since the subgraph's start block, as eth_getLogs gives them: the records graph-node must hold, each once. */
  const expectedRecords = async () => {
    const logs = (await anvil('eth_getLogs', [{ address: CONTRACT, fromBlock: `0x${startBlock.toString(16)}`, toBlock: 'latest', topics: [`0x${APPROVAL}`] }])) as {
      transactionHash: string;
      logIndex: string;
      data: string;
      blockNumber: string;
    }[];
    return {
      records: logs.map((l) => ({ id: `${l.transactionHash}-${Number(l.logIndex)}`, value: BigInt(l.data).toString() })).sort((a, b) => a.id.localeCompare(b.id)),
      last: Math.max(...logs.map((l) => Number(l.blockNumber))),
    };
  };
  /** The name's records as graph-node answers them, with the block it indexed to. */
  const answeredRecords = async () => {
    const res = await fetch(`${f.localNode.urls!.graphql}/subgraphs/name/${NAME}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ approvalQueries(first: 1000, orderBy: id) { id value } _meta { block { number } deployment } }' }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json()) as { data?: { approvalQueries: { id: string; value: string }[]; _meta: { block: { number: number }; deployment: string } } };
    return body.data;
  };
  /** Waits until graph-node has indexed past the last Approval, then its records must be eth_getLogs's, none missing, none twice. */
  const assertRecordsMatchLogs = async () => {
    const expected = await expectedRecords();
    const answered = await until(`records indexed to block ${expected.last}`, async () => {
      const data = await answeredRecords().catch(() => undefined);
      return data && data._meta.block.number >= expected.last ? data : undefined;
    });
    const records = [...answered.approvalQueries].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(records, expected.records);
    assert.equal(new Set(records.map((r) => r.id)).size, records.length, 'a record twice');
    return answered;
  };
  /** gnd's or Postgres's pid, from the supervisor's lock in the data folder. */
  const pidOf = (role: 'gnd' | 'postgres') => {
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as { processes: { role: string; pid: number }[] };
    const pid = lock.processes.find((p) => p.role === role)?.pid;
    assert.ok(pid, `no ${role} in the lock: ${JSON.stringify(lock)}`);
    return pid;
  };
  /** Kills `role` with SIGKILL right after two approvals (graph-node is indexing them); the editor must say which died and offer Restart, which brings every record back. */
  const killWhileIndexing = async (role: 'gnd' | 'postgres', reason: RegExp) => {
    const pid = pidOf(role);
    const seen = deaths.length;
    await approve(21);
    await approve(22);
    process.kill(pid, 'SIGKILL');
    const failed = await until(`the failure after ${role} was killed`, () => (f.localNode.state.kind === 'failed' ? f.localNode.state : undefined));
    assert.match(failed.reason, reason);
    // Said once, with Restart, and the same words in the tree.
    const death = await until('the death notification', () => deaths[seen]);
    assert.equal(deaths.length, seen + 1, JSON.stringify(deaths.slice(seen)));
    assert.equal(death.message, `The local graph-node stopped: ${failed.reason}`);
    assert.deepEqual(death.actions, ['Restart', 'Show Log']);
    for (const secret of KEYED_NODE.secretParts) assert.ok(!death.message.includes(secret), `the notification holds ${secret}`);
    const item = f.tree.getTreeItem((await localNodeElement())!);
    assert.equal(item.contextValue, 'localGraphNode.failed');
    assert.equal(item.description, `failed: ${failed.reason.split('\n')[0]}`);
    assert.ok(String(item.tooltip).includes(failed.reason), 'the whole reason is not in the tooltip');
    for (const secret of KEYED_NODE.secretParts) assert.ok(!String(item.tooltip).includes(secret), `the tooltip holds ${secret}`);
    // What was left of the node is stopped with it.
    await until('nothing running from the data folder after the failure', () => (processesUsing(dataDir).length === 0 ? true : undefined));
    assert.equal(f.store.byName(NAME), undefined, 'a record of a node that is down');
    // More events while it is down: they are indexed after the restart.
    await approve(23);
    // The notification's Restart runs this command.
    const urls = await vscode.commands.executeCommand<{ graphql: string } | undefined>('chaindeck.localGraphNode.restart');
    assert.ok(urls, `not restarted: ${JSON.stringify(f.localNode.state)}`);
    assert.equal(f.localNode.state.kind, 'ready');
    await assertRecordsMatchLogs();
    await until('the record back in the store', () => f.store.byName(NAME));
    // One failure, though both the watch of Postgres and gnd's exit may see it.
    const firstLine = `chaindeck: failed: ${failed.reason.split('\n')[0]}`;
    await until('the failure in the output', () => (outputText().includes(firstLine) ? true : undefined));
    assert.equal(outputText().split(firstLine).length - 1, 1, `"${firstLine}" is in the output more than once`);
  };

  before(async () => {
    const { ext, api: exported } = await activateTestApi('activate() returned no subgraphs in the test API', (a) => a.subgraphs?.localNode);
    api = exported;
    f = exported.subgraphs;
    extensionPath = ext.extensionPath;
    from = ((await anvil('eth_accounts', [])) as string[])[0];
    await anvil('anvil_setCode', [CONTRACT, EMITTER]);
    const head = Number(await anvil('eth_blockNumber', []));
    startBlock = head + 1;
    api.subgraphs.localNode.onDidDie((death) => deaths.push(death));

    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = path.join(ws, FOLDER);
    fs.cpSync(path.join(ext.extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), dir, { recursive: true });
    fs.symlinkSync(path.join(ext.extensionPath, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const manifestFile = path.join(dir, 'subgraph.yaml');
    pointAtContract(manifestFile, startBlock);
    const mapping = path.join(dir, 'src', 'mapping.ts');
    fs.writeFileSync(mapping, fs.readFileSync(mapping, 'utf8').replace('const id =', `${REFUSAL}const id =`));
    manifest = vscode.Uri.file(manifestFile);

    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-ln-editor-'));
    fs.chmodSync(dataDir, 0o711); // as root, Postgres runs as the postgres user, which must pass through it
    await config().update('dataFolder', dataDir, vscode.ConfigurationTarget.Workspace);
    await config().update('chain', KEYED_NODE.name, vscode.ConfigurationTarget.Workspace);
    if (fs.existsSync(CACHED_GND)) await config().update('gndPath', CACHED_GND, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.commands.executeCommand('chaindeck.localGraphNode.stop').then(undefined, () => undefined);
    if (dataDir) {
      killProcessesUsing(dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    for (const key of ['dataFolder', 'chain', 'gndPath', 'redeployOnSave', 'autoStart']) await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    if (dir) {
      fs.rmSync(path.join(dir, 'node_modules'), { force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts through its command: ready in the tree, where gnd listens said plainly', async () => {
    const urls = await vscode.commands.executeCommand<{ graphql: string } | undefined>('chaindeck.localGraphNode.start');
    assert.ok(urls?.graphql, `not started: ${JSON.stringify(f.localNode.state)}`);
    assert.equal(f.localNode.state.kind, 'ready');
    assert.equal(f.localNode.chainNode, KEYED_NODE.name);
    const element = await localNodeElement();
    assert.ok(element, 'no Local Graph Node item');
    const item = f.tree.getTreeItem(element);
    assert.equal(item.description, `ready · ${KEYED_NODE.name}`);
    assert.equal(item.contextValue, 'localGraphNode.ready');
    assert.match(String(item.tooltip), /every network interface/);
    assert.ok(processesUsing(dataDir).length > 0, 'nothing runs from the data folder');
  });

  it('deploys the subgraph through its command; the tree shows it synced and healthy with its records', async () => {
    const result = await vscode.commands.executeCommand<LocalDeployResult | undefined>('chaindeck.localGraphNode.deploy', { manifest, name: NAME });
    assert.equal(result?.ok, true, result?.summary);
    assert.match(result!.deployment ?? '', /^Qm/);
    assert.equal(f.localNode.nameOf(manifest), NAME);
    let last = 0;
    for (const value of [1, 2, 3]) last = await approve(value);
    const deployment = await until('the deployment synced past the last approval', async () => {
      await f.localNode.refresh();
      const found = await ourDeployment();
      const status = found?.deployment.status;
      return status?.synced && (status.indexed ?? 0) >= last && status.entityCount ? found : undefined;
    });
    assert.equal(deployment.deployment.id, result!.deployment);
    assert.equal(deployment.deployment.status.health, 'healthy');
    const item = f.tree.getTreeItem(deployment);
    assert.equal(item.label, NAME);
    // State and block first (a narrow side bar cuts the end); the id only in the tooltip.
    assert.match(String(item.description), new RegExp(`^synced · #${deployment.deployment.status.indexed}(/\\d+)? · \\d+ entit(y|ies)$`));
    assert.ok(!String(item.description).includes('Qm'), `the row shows the deployment id: ${String(item.description)}`);
    assert.match(String(item.tooltip), new RegExp(`Deployment ${deployment.deployment.id}`));
    // gnd's own placeholder deployment is not listed.
    const top = await localNodeElement();
    assert.ok((await f.tree.getChildren(top)).every((e) => e.kind === 'localDeployment' && /^Qm/.test(e.deployment.id)));
    // A record for the name, with the local URLs, but nothing in settings.
    const record = f.store.byName(NAME);
    assert.equal(record?.queryUrl, `${f.localNode.urls!.graphql}/subgraphs/name/${NAME}`);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('chaindeck').get('subgraphs')).includes(NAME), 'a local record was written to settings');
    // Open GraphiQL hands the browser the node's GraphiQL page (whether a browser opens is the workbench's business).
    const page = `${f.localNode.urls!.graphql}/subgraphs/name/${NAME}/graphql`;
    const opened = await Promise.race([
      vscode.commands.executeCommand<string>('chaindeck.localGraphNode.openGraphiql', deployment),
      new Promise<string>((r) => setTimeout(() => r(page), 5000)),
    ]);
    assert.equal(opened, page);
    const html = await (await fetch(page)).text();
    assert.match(html, /graphiql/i);
  });

  it('runs a query file against the local subgraph by its name', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'graphql',
      content: `# @subgraph ${NAME}\nquery Approvals {\n  approvalQueries(orderBy: value) {\n    id\n    value\n  }\n}\n`,
    });
    await vscode.window.showTextDocument(document);
    const outcome = await vscode.commands.executeCommand<{ kind: string; response?: { data?: { approvalQueries?: { value: string }[] } } }>('chaindeck.subgraphs.runQuery', document.uri, 0);
    assert.equal(outcome?.kind, 'answered', JSON.stringify(outcome));
    assert.deepEqual(
      outcome.response?.data?.approvalQueries?.map((r) => r.value),
      ['1', '2', '3'],
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('lists a subgraph deployed from outside (the graph CLI in a terminal) under its name within one refresh; a query file by that name runs', async () => {
    const scratch = scratchFolder('chaindeck-ln-outside-');
    try {
      // The tutorial as it is (no refusal in its mapping), outside the workspace: a deployment of its own.
      const project = copyProject(path.join(extensionPath, 'test', 'fixtures', 'subgraphs', 'tutorial'), scratch);
      pointAtContract(path.join(project, 'subgraph.yaml'), startBlock);
      const urls = f.localNode.urls!;
      await graphCli(['codegen'], project);
      await graphCli(['build'], project);
      await graphCli(['create', '--node', urls.admin, OUTSIDE_NAME], project);
      const { output } = await graphCli(['deploy', '--node', urls.admin, '--ipfs', urls.ipfs, OUTSIDE_NAME, '--version-label', 'v1'], project);
      const id = /Build completed:\s+(Qm\w{44})/.exec(output)?.[1];
      assert.ok(id, output);

      await f.localNode.refresh();
      const top = await localNodeElement();
      const outside = (await f.tree.getChildren(top)).find((e): e is Extract<SubgraphsElement, { kind: 'localDeployment' }> => e.kind === 'localDeployment' && e.deployment.id === id);
      assert.ok(outside, 'the deployment from outside is not listed after one refresh');
      assert.deepEqual(outside.deployment.names, [OUTSIDE_NAME]);
      assert.equal(outside.deployment.manifest, undefined, 'no subgraph.yaml of this workspace was deployed under that name');
      const item = f.tree.getTreeItem(outside);
      assert.equal(item.label, OUTSIDE_NAME);
      assert.equal(item.contextValue, 'localDeployment.named');
      // gnd's own placeholder name is not the user's.
      assert.equal(f.store.byName('subgraph-0'), undefined);
      assert.equal(f.store.byName(OUTSIDE_NAME)?.queryUrl, `${urls.graphql}/subgraphs/name/${OUTSIDE_NAME}`);

      const document = await vscode.workspace.openTextDocument({
        language: 'graphql',
        content: `# @subgraph ${OUTSIDE_NAME}\nquery Approvals {\n  approvalQueries(orderBy: value) {\n    value\n  }\n}\n`,
      });
      await vscode.window.showTextDocument(document);
      type Outcome = { kind: string; response?: { data?: { approvalQueries?: { value: string }[] } } };
      const values = await until('the records of the name deployed from outside', async () => {
        const outcome = await vscode.commands.executeCommand<Outcome>('chaindeck.subgraphs.runQuery', document.uri, 0);
        assert.equal(outcome?.kind, 'answered', JSON.stringify(outcome));
        const answered = outcome.response?.data?.approvalQueries?.map((r) => r.value);
        return answered?.length === 3 ? answered : undefined;
      });
      assert.deepEqual(values, ['1', '2', '3']);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      removeScratch(scratch);
    }
  });

  it('puts a fatal indexing error into Problems: on the manifest and on the handler, with the block', async () => {
    const block = await approve(FATAL_VALUE);
    const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'local graph-node');
    const [onManifest] = await until('the fatal error on subgraph.yaml', () => {
      const found = ours(manifest);
      return found.length ? found : undefined;
    });
    assert.match(onManifest.message, new RegExp(`^${NAME} stopped indexing in handleApproval at block ${block}: .*refusing the value ${FATAL_VALUE}`));
    const manifestText = fs.readFileSync(manifest.fsPath, 'utf8').split('\n');
    assert.match(manifestText[onManifest.range.start.line], /handler: handleApproval/);
    const mapping = vscode.Uri.file(path.join(dir, 'src', 'mapping.ts'));
    const [onMapping] = ours(mapping);
    assert.ok(onMapping, 'no diagnostic on the mapping');
    assert.match(fs.readFileSync(mapping.fsPath, 'utf8').split('\n')[onMapping.range.start.line], /export function handleApproval\(/);
    const deployment = await ourDeployment();
    assert.equal(deployment?.deployment.status.health, 'failed');
  });

  it('replays the failing block from its Problems entry: the same error at its mapping line, then, the refusal saved away, the record written at that block', async () => {
    const failed = (await ourDeployment())!.deployment;
    const block = failed.status.fatalError!.block!;
    assert.match(f.tree.getTreeItem((await ourDeployment())!).contextValue ?? '', /^localDeployment\.named\.failed$/);
    const [diagnostic] = vscode.languages.getDiagnostics(manifest).filter((d) => d.source === 'local graph-node');
    // The workbench asks the providers for a document it has open.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(manifest));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', manifest, diagnostic.range);
    const replay = actions.find((a) => a.title === `Replay Block ${block}`);
    assert.ok(replay?.command, `no "Replay Block ${block}" among ${actions.map((a) => a.title).join(', ')}`);
    await vscode.commands.executeCommand(replay.command.command, ...(replay.command.arguments ?? []));
    const session = await until('the replay session', () => f.replays.session(NAME));
    assert.equal(session.plan.start.kind, 'graft', session.plan.reason);
    const mapping = vscode.Uri.file(path.join(dir, 'src', 'mapping.ts'));
    const refusalLine =
      fs
        .readFileSync(mapping.fsPath, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes(`refusing the value ${FATAL_VALUE}`)) + 1;
    const first = await poll('the first replay', () => session.last, 180_000);
    assert.equal(first.outcome.kind, 'failed', JSON.stringify(first.outcome));
    assert.deepEqual(first.outcome.kind === 'failed' && [first.outcome.block, first.outcome.location?.file, first.outcome.location?.line], [block, 'src/mapping.ts', refusalLine]);

    // The fix, saved: the replay runs again and the block's record is written.
    const document = await vscode.workspace.openTextDocument(mapping);
    const at = document.getText().indexOf(REFUSAL);
    const edit = new vscode.WorkspaceEdit();
    edit.delete(mapping, new vscode.Range(document.positionAt(at), document.positionAt(at + REFUSAL.length)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    const fixed = await poll('the replay after the save', () => (session.last !== first ? session.last : undefined), 180_000);
    assert.equal(fixed.outcome.kind, 'indexed', JSON.stringify(fixed.outcome));
    assert.deepEqual(fixed.outcome.kind === 'indexed' && fixed.outcome.changes.changes.map((c) => [c.entity, c.kind, c.after.value]), [['ApprovalQuery', 'created', String(FATAL_VALUE)]]);
    // The panel is closed and the refusal put back, as the next test expects the project.
    session.panel.dispose();
    const back = new vscode.WorkspaceEdit();
    back.insert(mapping, document.positionAt(at), REFUSAL);
    assert.ok(await vscode.workspace.applyEdit(back));
    assert.ok(await document.save());
    assert.equal(f.replays.session(NAME), undefined);
  });

  it('redeploys on save (redeployOnSave): a new deployment becomes current and answers with its new behaviour', async () => {
    const before = (await ourDeployment())!.deployment.id;
    await config().update('redeployOnSave', true, vscode.ConfigurationTarget.Workspace);
    const mapping = vscode.Uri.file(path.join(dir, 'src', 'mapping.ts'));
    const document = await vscode.workspace.openTextDocument(mapping);
    const at = document.getText().indexOf(REFUSAL);
    assert.ok(at >= 0, 'the refusal is not in the mapping');
    const edit = new vscode.WorkspaceEdit();
    edit.delete(mapping, new vscode.Range(document.positionAt(at), document.positionAt(at + REFUSAL.length)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save(), 'the mapping was not saved');
    // codegen, build, create, deploy: a new deployment id becomes the name's current one.
    const redeployed = await poll(
      'a new deployment of the name',
      async () => {
        await f.localNode.refresh();
        const found = await ourDeployment();
        return found && found.deployment.id !== before && found.deployment.status.synced ? found : undefined;
      },
      240_000,
    );
    assert.match(redeployed.deployment.id, /^Qm/);
    assert.equal(redeployed.deployment.status.health, 'healthy');
    // Its behaviour: the value the old mapping refused is a record now, and all of them are eth_getLogs's.
    const answered = await assertRecordsMatchLogs();
    assert.equal(answered._meta.deployment, redeployed.deployment.id);
    assert.ok(
      answered.approvalQueries.some((r) => r.value === String(FATAL_VALUE)),
      JSON.stringify(answered.approvalQueries),
    );
    // The old version's fatal error is not the project's problem any more.
    await until('the fatal error gone from Problems', () => (vscode.languages.getDiagnostics(manifest).some((d) => d.source === 'local graph-node') ? undefined : true));
    await config().update('redeployOnSave', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('gnd killed with SIGKILL while indexing: failed naming gnd, Restart, and it resumes with every event once', async () => {
    await killWhileIndexing('gnd', /^gnd exited unexpectedly \(SIGKILL\)/);
  });

  it('Postgres killed with SIGKILL while indexing: failed naming Postgres, Restart, and it resumes with every event once', async () => {
    await killWhileIndexing('postgres', /^Postgres \(pid \d+\) exited unexpectedly; its log is .*server\.log$/);
  });

  it('stops: nothing is left running, the diagnostics are gone, and no output holds the chain key', async () => {
    await vscode.commands.executeCommand('chaindeck.localGraphNode.stop');
    assert.equal(f.localNode.state.kind, 'stopped');
    await until('nothing running from the data folder', () => (processesUsing(dataDir).length === 0 ? true : undefined));
    await until('the fatal error cleared', () => (vscode.languages.getDiagnostics(manifest).some((d) => d.source === 'local graph-node') ? undefined : true));
    assert.equal(f.store.byName(NAME), undefined, 'the local record outlived the node');
    const output = outputText();
    assert.match(output, /Starting on Key left in settings/);
    // gnd's own levels: the channel stamps time and level, so gnd's stamp is gone; its ERRO lines (the fatal error,
    // the killed Postgres) are errors there, and the placeholder subgraph's lines are labelled and never alarm.
    const channelLines = output.split('\n').flatMap((line) => {
      const m = /\[(\w+)\] (.*)$/.exec(line);
      return m ? [{ level: m[1], text: m[2], line }] : [];
    });
    assert.ok(!output.split('\n').some((l) => / \w{3} \d{1,2} \d{2}:\d{2}:\d{2}\.\d{3} (ERRO|CRIT|WARN|INFO) /.test(l)), "gnd's own stamp is still in the channel");
    const failures = channelLines.filter((l) => /^(Handler skipped due to execution failure|Subgraph error \d+\/\d+|Subgraph instance failed to run)/.test(l.text));
    assert.ok(failures.length > 0, "none of gnd's lines about the fatal error in the output");
    for (const l of failures) assert.equal(l.level, 'error', l.line);
    for (const l of channelLines.filter((c) => c.text.startsWith("[gnd dev's placeholder subgraph, harmless]"))) assert.ok(l.level === 'info' || l.level === 'debug', l.line);
    assert.match(output, /every network interface/);
    for (const secret of KEYED_NODE.secretParts) assert.ok(!output.includes(secret), `the output holds ${secret}`);
  });

  it('a setting naming no node ends the start at once (the message does not hold it open), and the next start tries again', async () => {
    await config().update('chain', 'No such node', vscode.ConfigurationTarget.Workspace);
    try {
      const started = await Promise.race([f.localNode.start(), new Promise<string>((r) => setTimeout(() => r('still waiting'), 20_000))]);
      assert.equal(started, undefined);
      assert.equal(f.localNode.state.kind, 'stopped');
    } finally {
      await config().update('chain', KEYED_NODE.name, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('two starts at once are one start; a stop while it starts ends it without an error and leaves nothing running', async () => {
    const first = f.localNode.start();
    const second = f.localNode.start();
    assert.equal(first, second, 'a second click started a second node');
    await until('the start under way', () => (f.localNode.state.kind === 'starting' || f.localNode.state.kind === 'installing' ? true : undefined));
    const stopping = f.localNode.stop();
    // A second stop joins the first.
    assert.equal(f.localNode.stop(), stopping);
    await stopping;
    assert.equal(await first, undefined, 'a start stopped by the user is no failure');
    assert.equal(f.localNode.state.kind, 'stopped');
    await until('nothing running from the data folder', () => (processesUsing(dataDir).length === 0 ? true : undefined));
  });

  it('starts on activation with autoStart: the deployment in the data folder answers again without a redeploy', async () => {
    // Without the setting the activation path starts nothing.
    assert.equal(await f.localNode.startOnActivation(), undefined);
    assert.equal(f.localNode.state.kind, 'stopped');
    await config().update('autoStart', true, vscode.ConfigurationTarget.Workspace);
    const starting = f.localNode.startOnActivation();
    // A query file for the name, opened while gnd starts (as the demo's is): no warning that the
    // name does not exist while the node's names are not known yet, only that it waits.
    const document = await vscode.workspace.openTextDocument({ language: 'graphql', content: `# @subgraph ${NAME}\n{ approvalQueries { id } }\n` });
    await vscode.window.showTextDocument(document);
    const lensTitles = new Set<string>();
    const warnings = new Set<string>();
    const deadline = Date.now() + 90_000;
    while (!f.store.byName(NAME) && (f.localNode.namesPending || stateKind() === 'ready') && Date.now() < deadline) {
      for (const lens of f.queries.provideCodeLenses(document)) lensTitles.add(lens.command?.title ?? '');
      for (const d of vscode.languages.getDiagnostics(document.uri)) warnings.add(d.message);
      await new Promise((r) => setTimeout(r, 50));
    }
    const urls = await starting;
    assert.ok(urls, `not started: ${JSON.stringify(f.localNode.state)}`);
    assert.deepEqual([...warnings], [], 'a warning while the node came up');
    assert.ok(
      [...lensTitles].some((t) => t.includes(`${NAME}, waiting for the local graph-node`)),
      `the lens never said it waits: ${[...lensTitles].join(' | ')}`,
    );
    // Once its names are read, the name is found: the lens names it, and still no warning.
    await until('the lens naming the subgraph', () => (f.queries.provideCodeLenses(document).some((l) => l.command?.title.endsWith(`Subgraph: ${NAME}`)) ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(vscode.languages.getDiagnostics(document.uri), []);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const deployment = await until('the deployment back under its name', async () => {
      await f.localNode.refresh();
      return (await ourDeployment())?.deployment;
    });
    assert.match(deployment.id, /^Qm/);
    await until('the record back in the store', () => f.store.byName(NAME));
    const answered = await assertRecordsMatchLogs();
    assert.equal(answered._meta.deployment, deployment.id);
    await config().update('autoStart', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('a deploy asked for while the node stops waits for the stop, then starts it again and deploys; the last stop leaves nothing', async () => {
    assert.equal(stateKind(), 'ready');
    const stopping = f.localNode.stop();
    assert.equal(stateKind(), 'stopping');
    const deploying = vscode.commands.executeCommand<LocalDeployResult | undefined>('chaindeck.localGraphNode.deploy', { manifest, name: NAME });
    await stopping;
    const result = await deploying;
    assert.equal(result?.ok, true, result?.summary);
    assert.equal(stateKind(), 'ready');
    await assertRecordsMatchLogs();
    await vscode.commands.executeCommand('chaindeck.localGraphNode.stop');
    assert.equal(stateKind(), 'stopped');
    await until('nothing running from the data folder', () => (processesUsing(dataDir).length === 0 ? true : undefined));
    for (const secret of KEYED_NODE.secretParts) assert.ok(!outputText().includes(secret), `the output holds ${secret}`);
  });
  it('a data folder inside the workspace: its subgraph.yaml files are no workspace subgraphs, get no diagnostics and no lenses', async () => {
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const inside = '.graph-node-scan';
    // What gnd's placeholder looks like to a scan: a subgraph.yaml whose schema and mapping are not there.
    const broken = 'specVersion: 0.0.5\nschema:\n  file: ./schema.graphql\ndataSources: []\n';
    const placeholder = path.join(ws, inside, 'dev', 'subgraph.yaml');
    const sibling = path.join(ws, `${inside}-sibling`, 'subgraph.yaml');
    for (const file of [placeholder, sibling]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, broken);
    }
    const listed = async (file: string) => (await f.manifests.all()).some((m) => m.fsPath === file);
    const diagnosed = (file: string) => vscode.languages.getDiagnostics(vscode.Uri.file(file)).length > 0;
    try {
      // Before the setting names it, it is a manifest like any other: the check below can tell.
      await until('the placeholder listed while no setting names its folder', async () => {
        f.manifests.refresh();
        return (await listed(placeholder)) ? true : undefined;
      });
      await config().update('dataFolder', inside, vscode.ConfigurationTarget.Workspace);
      await until('the placeholder no longer listed', async () => ((await listed(placeholder)) ? undefined : true));
      assert.equal(f.localNode.dataFolder(), path.join(ws, inside));
      // A folder whose name only starts like it is the user's.
      assert.ok(await listed(sibling), 'the sibling folder’s manifest is not listed');
      // Opened in an editor, the user's is checked and has the lenses; the node's has neither.
      const siblingDocument = await vscode.workspace.openTextDocument(sibling);
      await vscode.window.showTextDocument(siblingDocument);
      await until('the sibling’s diagnostics', () => (diagnosed(sibling) ? true : undefined));
      const placeholderDocument = await vscode.workspace.openTextDocument(placeholder);
      await vscode.window.showTextDocument(placeholderDocument);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(diagnosed(placeholder), false, 'the opened placeholder was checked');
      assert.deepEqual(f.lenses.provideCodeLenses(placeholderDocument), []);
      assert.ok(f.lenses.provideCodeLenses(siblingDocument).length > 0, 'no lenses on the user’s manifest');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    } finally {
      await config().update('dataFolder', dataDir, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(path.join(ws, inside), { recursive: true, force: true });
      fs.rmSync(path.dirname(sibling), { recursive: true, force: true });
    }
  });
});
