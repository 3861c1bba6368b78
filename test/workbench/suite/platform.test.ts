/**
 * The Platform feature inside the real extension host. A loopback platform server runs in this
 * process; its first node's endpoint is the runner's anvil behind a proxy that accepts only the
 * node's key in the path. The key is set through the command (with an argument: no input box),
 * the tree is walked level by level, the node imported twice, and a wrong key, a throttled list
 * and a forgotten key are shown. Everything added is removed: the UI tests reuse the workspace.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PlatformElement } from '../../../src/editor/platform/tree';
import type { TestApi } from '../../../src/extension';
import { sampleData, startPlatformServer, type PlatformServer } from '../../support/platformServer';
import { startProxy, type Proxy } from '../../support/proxy';
import { activateTestApi } from './helpers';

/** Shaped like real keys, so the redactor and the endpoint parser treat them as keys. */
const API_KEY = 'pk9f3a7c1e5b2d8f4a6c0e3b7d1f5a9c2e';
const NODE_KEY = '6b2e9d4a7c1f3e8b5a0d2c7f4e9b1a6d';
const NODE_NAME = 'anvil-through-proxy';
const IMPORTED_ID = 'platform-ND-101-202-303';

describe('platform', () => {
  let api: TestApi;
  let server: PlatformServer;
  let proxy: Proxy;

  const tree = () => api.platform.tree;
  const label = (e: PlatformElement) => String(tree().getTreeItem(e).label);
  const child = async (parent: PlatformElement | undefined, text: string) => {
    const children = await tree().getChildren(parent);
    const found = children.find((e) => label(e) === text);
    assert.ok(found, `no "${text}" among ${JSON.stringify(children.map(label))}`);
    return found;
  };
  const settings = () => vscode.workspace.getConfiguration('chaindeck');
  const platformNodes = () => api.nodes.store.all().filter((n) => n.id.startsWith('platform-'));

  /** organization → Mainnet apps → Ethereum Mainnet → the node, as the user expands them. */
  async function walkToNode() {
    const [organization] = await tree().getChildren();
    const project = await child(organization, 'Mainnet apps');
    const network = await child(project, 'Ethereum Mainnet');
    const node = await child(network, NODE_NAME);
    return { organization, project, network, node };
  }

  before(async () => {
    ({ api } = await activateTestApi('activate() returned no platform in the test API', (a) => a.platform));

    const anvil = process.env.CHAINDECK_TEST_ANVIL_URL;
    assert.ok(anvil, 'CHAINDECK_TEST_ANVIL_URL is not set');
    proxy = await startProxy({ target: anvil, key: NODE_KEY });
    const data = sampleData({ nodes: 3 });
    Object.assign(data.nodes[0], { name: NODE_NAME, details: { mode: 'full', https_endpoint: proxy.url, wss_endpoint: proxy.wsUrl, auth_key: NODE_KEY } });
    server = await startPlatformServer({ apiKey: API_KEY, data });
    await settings().update('platform.apiUrl', server.url, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    for (const node of platformNodes()) await api.nodes.store.remove(node.id);
    await vscode.commands.executeCommand('chaindeck.platform.forgetApiKey');
    await settings().update('platform.apiUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await server?.close();
    await proxy?.close();
  });

  it('is empty without a key, so the welcome offers to set one', async () => {
    assert.equal(api.platform.session.hasKey, false);
    assert.deepEqual(await tree().getChildren(), []);
  });

  it('sets the key through the command and shows organization → project → network → node', async () => {
    await vscode.commands.executeCommand('chaindeck.platform.setApiKey', API_KEY);
    assert.equal(api.platform.session.hasKey, true);

    const roots = await tree().getChildren();
    assert.deepEqual(roots.map(label), ['Acme Chains', 'Identities']);
    assert.equal(tree().getTreeItem(roots[0]).description, 'RG-123-456');

    const { project, network, node } = await walkToNode();
    assert.equal(tree().getTreeItem(project).contextValue, 'platform.project');
    assert.deepEqual((await tree().getChildren(project)).map(label), ['Ethereum Mainnet', 'Polygon PoS']);
    const item = tree().getTreeItem(node);
    assert.equal(item.contextValue, 'platform.node');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass');
    assert.equal(item.description, 'running · shared · us-east1');
    const hover = (item.tooltip as vscode.MarkdownString).value;
    assert.ok(!hover.includes(NODE_KEY), 'the node key is in the tooltip');
    assert.match(hover, /HTTPS: `http:\/\/127\.0\.0\.1:\d+\/\*\*\*`/);
    assert.equal(tree().getTreeItem(network).description, 'ethereum · mainnet');

    // Each level is read with the API's filter, not by listing everything.
    const paths = server.requests.map((r) => r.url);
    assert.ok(paths.includes('/v1/networks/?project=PR-101-202'), JSON.stringify(paths));
    assert.ok(paths.includes('/v1/nodes/?network=NW-101-202-303'), JSON.stringify(paths));
    assert.ok(server.requests.every((r) => r.authorization === `Bearer ${API_KEY}`));

    const identities = await tree().getChildren(roots[1]);
    assert.deepEqual(identities.map(label), ['deploy-bot', 'ci']);
  });

  it('imports the node: the key goes to secret storage, and the node answers', async () => {
    const before = api.nodes.store.all().length;
    const { node } = await walkToNode();
    await vscode.commands.executeCommand('chaindeck.platform.importNode', node);

    const imported = api.nodes.store.byId(IMPORTED_ID);
    assert.ok(imported, 'the node is not in the store');
    assert.equal(api.nodes.store.all().length, before + 1);
    assert.equal(imported.name, NODE_NAME);
    assert.equal(imported.auth, 'key');
    assert.equal(imported.protocol, 'evm');
    assert.equal(imported.network, 'ethereum-mainnet');
    assert.match(imported.url, /^http:\/\/127\.0\.0\.1:\d+\/\{key\}$/);
    assert.equal((await api.nodes.store.secretOf(imported)).tail, NODE_KEY);

    const saved = JSON.stringify(settings().get('nodes'));
    assert.ok(!saved.includes(NODE_KEY), 'the node key is in chaindeck.nodes');
    const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    const file = fs.readFileSync(settingsFile, 'utf8');
    assert.ok(!file.includes(NODE_KEY) && !file.includes(API_KEY), 'a key is in .vscode/settings.json');

    // Through the Nodes view, as the user sees it: the latest block, read through the proxy.
    const element = (await api.nodes.tree.getChildren()).find((e) => e.kind === 'node' && e.node.id === IMPORTED_ID);
    assert.ok(element, 'the imported node is not in the Nodes view');
    const facts = (await api.nodes.tree.getChildren(element)).map((e) => api.nodes.tree.getTreeItem(e));
    const latest = facts.find((f) => f.label === 'Latest block');
    assert.match(String(latest?.description), /^\d+ \(0x[0-9a-f]+\)$/, JSON.stringify(facts.map((f) => [f.label, f.description])));
    assert.ok(proxy.requests.some((r) => r.path === `/${NODE_KEY}` && r.methods.includes('eth_blockNumber')));
  });

  it('updates on a second import instead of adding a copy', async () => {
    const count = api.nodes.store.all().length;
    server.data.nodes[0].region = 'europe-west3';
    const { node } = await walkToNode();
    await vscode.commands.executeCommand('chaindeck.platform.importNode', node);
    assert.equal(api.nodes.store.all().length, count);
    assert.equal(platformNodes().length, 1);
    assert.equal((await api.nodes.store.secretOf(api.nodes.store.byId(IMPORTED_ID)!)).tail, NODE_KEY);
  });

  it('imports every node of a project, updating the one imported before', async () => {
    const { project } = await walkToNode();
    await vscode.commands.executeCommand('chaindeck.platform.importProject', project);
    // node-00 (Ethereum) and node-01 (Polygon) are in "Mainnet apps"; node-02 (Bitcoin) is not.
    assert.deepEqual(
      platformNodes()
        .map((n) => n.id)
        .sort(),
      [IMPORTED_ID, 'platform-ND-102-203-304'],
    );
    const polygon = api.nodes.store.byId('platform-ND-102-203-304')!;
    assert.equal(polygon.network, 'polygon-pos-mainnet');
    assert.ok(!JSON.stringify(settings().get('nodes')).includes('0202020202'), 'a node key is in chaindeck.nodes');
  });

  it('never writes a key to the log', async () => {
    const logFile = path.join(api.logUri.fsPath, 'Chaindeck.log');
    // The channel writes its file asynchronously: wait for the last import's line.
    let log = '';
    for (let tries = 0; !/Imported "node-01"/.test(log) && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    }
    assert.match(log, /Updated "anvil-through-proxy" in the Nodes view/);
    assert.match(log, /Imported "node-01" into the Nodes view and updated "anvil-through-proxy"/);
    assert.ok(!log.includes(API_KEY) && !log.includes(NODE_KEY), 'a key is in the log');
  });

  it("lists a node's endpoints redacted and copies one with the key hidden", async () => {
    const { node } = await walkToNode();
    let settled = false;
    const done = vscode.commands.executeCommand('chaindeck.platform.openEndpoints', node).then(() => (settled = true));
    // The pick opens with its first action active: copy the HTTPS endpoint, key hidden. Accepting
    // before it is shown does nothing, so try until the command is done.
    for (let tries = 0; !settled && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 200));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    await done;
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /^http:\/\/127\.0\.0\.1:\d+\/\*\*\*$/);
  });

  it('shows a throttled list as an item with what to do, not an exception', async () => {
    server.fail({ path: '/v1/projects/', times: 1, fault: { status: 429, headers: { 'retry-after': '3600' }, body: { error: { code: 'throttled', message: 'Request was throttled.' } } } });
    tree().refresh();
    const [organization] = await tree().getChildren();
    const [message] = await tree().getChildren(organization);
    const item = tree().getTreeItem(message);
    assert.equal(item.label, 'Rate limited: try again later');
    assert.match(String(item.description), /rate limiting this key .* wait 3600 s/);
    assert.equal(item.command?.command, 'chaindeck.platform.refresh');
  });

  it('shows a wrong key as the 401 message with a way to set another', async () => {
    await vscode.commands.executeCommand('chaindeck.platform.setApiKey', 'wrong0key0for0this0organization1');
    const roots = await tree().getChildren();
    assert.equal(roots.length, 1);
    const item = tree().getTreeItem(roots[0]);
    assert.equal(item.label, 'API key not accepted: set a new one');
    assert.match(String(item.description), /did not accept the API key .*Set Platform API Key/);
    assert.ok(!String(item.description).includes('wrong0key0for0this0organization1'));
    assert.equal(item.command?.command, 'chaindeck.platform.setApiKey');
  });

  it('forgets the key: the tree empties and the context key flips', async () => {
    await vscode.commands.executeCommand('chaindeck.platform.forgetApiKey');
    assert.equal(api.platform.session.hasKey, false);
    assert.deepEqual(await tree().getChildren(), []);
    // Imported nodes keep their own credentials.
    assert.equal((await api.nodes.store.secretOf(api.nodes.store.byId(IMPORTED_ID)!)).tail, NODE_KEY);
  });
});
