/**
 * The Nodes feature inside the real extension host, against the runner's anvil (the workspace
 * configures it as "Local anvil", the default node). Nodes added here are removed again: the
 * UI tests run on the same workspace afterwards.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { closedPort, KEYED_NODE } from '../fixture';
import { activateTestApi, anvil as rpc, until } from './helpers';

/** Shaped like a provider's access key, so the redactor and the endpoint parser treat it as one. */
const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';

function savedNodes(): { name: string; url: string; auth?: string }[] {
  return vscode.workspace.getConfiguration('chaindeck').get('nodes') ?? [];
}

describe('nodes', () => {
  let api: TestApi;

  before(async () => {
    ({ api } = await activateTestApi('activate() returned no test API: is the extension host running tests (ExtensionMode.Test)?', (a) => a.nodes));
  });

  it('shows the configured node in the tree, with its latest block and chain', async () => {
    const { tree } = api.nodes;
    const roots = await tree.getChildren();
    const anvil = roots.find((e) => e.kind === 'node' && e.node.name === 'Local anvil');
    assert.ok(anvil, `no "Local anvil" among ${roots.length} tree items`);
    const item = tree.getTreeItem(anvil);
    assert.equal(item.label, 'Local anvil');
    assert.equal(item.contextValue, 'node.default');

    const facts = (await tree.getChildren(anvil)).map((e) => tree.getTreeItem(e));
    const fact = (label: string) => facts.find((f) => f.label === label)?.description;
    assert.match(String(fact('Latest block')), /^\d+ \(0x[0-9a-f]+\)$/, `facts: ${JSON.stringify(facts.map((f) => [f.label, f.description]))}`);
    assert.match(String(fact('Chain')), /^31337\b/);
    assert.match(String(fact('Client version')), /anvil/i);
  });

  it('shows in the tree the latest block the status bar shows, from one poll', async () => {
    const { tree, statusBar, store } = api.nodes;
    const node = store.all().find((n) => n.name === 'Local anvil')!;
    const element = (await tree.getChildren()).find((e) => e.kind === 'node' && e.node.id === node.id)!;
    const blockInTree = async () => String((await tree.getChildren(element)).map((e) => tree.getTreeItem(e)).find((i) => i.label === 'Latest block')?.description).split(' ')[0];
    const blockInBar = () => /#(\d+)$/.exec(statusBar.shown().text)?.[1];

    /** Waits until the bar shows block `target`, asking it again each second (a poll already under way may land short of it, and the timed poll waits for window focus). */
    const barShows = (target: string) => {
      let asked = 0;
      return until(`block ${target} in the status bar`, () => {
        if (blockInBar() === target) return target;
        if (Date.now() - asked > 1000) {
          asked = Date.now();
          statusBar.update();
        }
        return undefined;
      }).catch((err: Error) => {
        throw new Error(`${err.message}; it shows "${statusBar.shown().text}"`);
      });
    };
    // The chain's head, not what the bar showed before (an earlier suite moved the chain on).
    const first = await barShows(String(BigInt((await rpc('eth_blockNumber', [])) as string)));
    assert.equal(await blockInTree(), first);

    // New blocks; the status bar's next poll sees them, and the tree follows without a refresh of its own.
    await rpc('evm_mine', []);
    await rpc('evm_mine', []);
    const redrawn = new Promise<void>((resolve) => {
      const s = tree.onDidChangeTreeData((e) => {
        if (e === element) {
          s.dispose();
          resolve();
        }
      });
    });
    const later = await barShows(String(BigInt(first) + 2n));
    await redrawn;
    assert.equal(await blockInTree(), later, 'the tree kept its older block');
    assert.match(String(tree.getTreeItem(element).description), new RegExp(`· #${later}$`), 'the collapsed node shows the block too');
  });

  it('marks a failing node while collapsed: error icon, its error once, the full text in the tooltip and the log', async () => {
    const { tree, store } = api.nodes;
    const port = await closedPort();
    const node = await store.add({ name: 'Down node', protocol: 'evm', url: `http://127.0.0.1:${port}`, auth: 'none' });
    try {
      const element = await until('the node in the tree', async () => (await tree.getChildren()).find((e) => e.kind === 'node' && e.node.id === node.id));
      // Never expanded: the tree asks the node by itself and redraws it.
      const item = await until('the error icon', () => {
        const i = tree.getTreeItem(element);
        return i.iconPath instanceof vscode.ThemeIcon && i.iconPath.id === 'error' ? i : undefined;
      });
      assert.match(String(item.description), /^EVM · .*refused/i);
      const tooltip = (item.tooltip as vscode.MarkdownString).value;
      const failure = api.nodes.facts.get(node.id)?.failure;
      assert.ok(failure, 'no failure in the facts cache');
      // The full text after an error icon, as markdown-escaped text (spaces as &nbsp;).
      assert.ok(
        tooltip.includes('$(error)') &&
          tooltip
            .replace(/&nbsp;/g, ' ')
            .replace(/\\(.)/g, '$1')
            .includes(failure),
        `tooltip: ${tooltip}`,
      );
      assert.match(failure!, new RegExp(`127\\.0\\.0\\.1:${port}`));

      const rows = (await tree.getChildren(element)).map((e) => tree.getTreeItem(e));
      assert.equal(rows.length, 1, `the error is repeated: ${JSON.stringify(rows.map((r) => [r.label, r.description]))}`);
      assert.equal(rows[0].label, failure);

      const logFile = path.join(api.logUri.fsPath, 'Chaindeck.log');
      const log = await until('the failure in the log', () => {
        const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
        return text.includes(`Down node: ${failure}`) ? text : undefined;
      });
      assert.equal(log.split(`Down node: ${failure}`).length - 1, 1, 'logged more than once');
    } finally {
      await store.remove(node.id);
    }
  });

  it('keeps an access key out of settings and in secret storage', async () => {
    const { store } = api.nodes;
    const url = `https://ethereum-mainnet.core.example.com/${KEY}`;
    const node = await store.add({ name: 'Keyed test node', protocol: 'evm', url, auth: 'none' });
    try {
      const saved = savedNodes();
      assert.ok(!JSON.stringify(saved).includes(KEY), 'the key is in chaindeck.nodes');
      const entry = saved.find((n) => n.name === 'Keyed test node');
      assert.equal(entry?.url, 'https://ethereum-mainnet.core.example.com/{key}');
      assert.equal(entry?.auth, 'key');
      const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
      assert.ok(!fs.readFileSync(settingsFile, 'utf8').includes(KEY), 'the key is in .vscode/settings.json');

      assert.equal((await store.secretOf(node)).tail, KEY);
      assert.equal((await store.resolve(node)).httpUrl, url);
    } finally {
      await store.remove(node.id);
    }
    assert.equal((await store.secretOf(node)).tail, undefined, 'removing the node left its key in secret storage');
    assert.ok(!savedNodes().some((n) => n.name === 'Keyed test node'));
  });

  it('on activation, moved the key that settings.json held in the clear to secret storage, and the node still answers', async () => {
    const { store } = api.nodes;
    const keyedUrl = process.env.CHAINDECK_TEST_KEYED_URL;
    assert.ok(keyedUrl && keyedUrl.endsWith(KEYED_NODE.secret), 'the runner did not start the key-in-path proxy');
    const settingsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    const node = await until('the node moved out of settings', () => {
      const n = store.byName(KEYED_NODE.name);
      // The file and the configuration model are updated one after the other.
      const moved = !fs.readFileSync(settingsFile, 'utf8').includes('abc123key') && !JSON.stringify(savedNodes()).includes('abc123key');
      return n && moved ? n : undefined;
    });
    try {
      const text = fs.readFileSync(settingsFile, 'utf8');
      for (const part of ['abc123key', 'zq-settings-9', 'apikey']) assert.ok(!text.includes(part), `settings.json still holds ${part}:\n${text}`);
      const entry = savedNodes().find((n) => n.name === KEYED_NODE.name);
      assert.equal(entry?.url, keyedUrl.replace(KEYED_NODE.secret, '{key}'));
      assert.equal(entry?.auth, 'key');
      assert.equal((await store.secretOf(node)).tail, KEYED_NODE.secret, 'secret storage lacks the key');

      const endpoint = await store.resolve(node);
      assert.equal(endpoint.httpUrl, keyedUrl, 'the node resolves to the URL settings held');
      const reply = await fetch(endpoint.httpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
        signal: AbortSignal.timeout(10_000),
      });
      assert.deepEqual(await reply.json(), { jsonrpc: '2.0', id: 1, result: '0x7a69' }, 'the node behind the key no longer answers');

      const logFile = path.join(api.logUri.fsPath, 'Chaindeck.log');
      const log = await until('the migration in the log', () => {
        const t = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
        return t.includes(`node ${KEYED_NODE.name}'s URL`) ? t : undefined;
      });
      assert.match(log, /Moved the secret parts of node Key left in settings's URL \(http:\/\/127\.0\.0\.1:\d+\/\*\*\*\?\*\*\*\) from settings to secret storage/);
      assert.ok(!log.includes('abc123key') && !log.includes('zq-settings-9'), 'the key is in the log');
    } finally {
      await store.remove(node.id);
    }
  });

  it('a path marked public goes to settings and is shown; marked secret again, it goes back to secret storage', async () => {
    const { store } = api.nodes;
    const url = 'https://rpc.example.com/v1/mainnet?token=zq-public-7';
    let node = await store.add({ name: 'Public path node', protocol: 'evm', url, auth: 'none' });
    try {
      assert.equal(savedNodes().find((n) => n.name === 'Public path node')?.url, 'https://rpc.example.com/{key}');
      node = await store.setPublicPath(node, true);
      const entry = savedNodes().find((n) => n.name === 'Public path node') as { url: string; publicPath?: boolean } | undefined;
      assert.equal(entry?.url, 'https://rpc.example.com/v1/mainnet{key}');
      assert.equal(entry?.publicPath, true);
      assert.deepEqual(await store.secretOf(node), { tail: '?token=zq-public-7' });
      assert.equal((await store.resolve(node)).httpUrl, url);
      node = await store.setPublicPath(node, false);
      assert.equal(savedNodes().find((n) => n.name === 'Public path node')?.url, 'https://rpc.example.com/{key}');
      assert.equal((await store.secretOf(node)).tail, 'v1/mainnet?token=zq-public-7');
      assert.equal((await store.resolve(node)).httpUrl, url);
      assert.ok(!fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json'), 'utf8').includes('zq-public-7'));
    } finally {
      await store.remove(node.id);
    }
  });

  it('moves a key typed into settings by hand to secret storage as soon as it is written', async () => {
    const { store } = api.nodes;
    const settings = vscode.workspace.getConfiguration('chaindeck');
    const before = settings.inspect<unknown[]>('nodes')?.workspaceValue ?? [];
    // As a user might write it: no id, no auth, the key right in the URL.
    await settings.update('nodes', [...before, { name: 'Hand-written node', protocol: 'evm', url: `https://eth.example.com/${KEY}` }], vscode.ConfigurationTarget.Workspace);
    const node = await until('the hand-written entry, moved', () => {
      const n = store.byName('Hand-written node');
      return n && !JSON.stringify(savedNodes()).includes(KEY) ? n : undefined;
    });
    try {
      assert.equal(node.id, 'hand-written-node');
      assert.equal(savedNodes().find((n) => n.name === 'Hand-written node')?.url, 'https://eth.example.com/{key}');
      assert.equal((await store.secretOf(node)).tail, KEY);
      assert.deepEqual(store.withCredentialInSettings(), []);
    } finally {
      await store.remove(node.id);
    }
  });

  it('never writes the key to the log, even when a call with it fails', async () => {
    const { store } = api.nodes;
    // Nothing listens on port 9: the call fails, and the failure names the URL.
    const node = await store.add({ name: 'Unreachable keyed node', protocol: 'evm', url: `http://127.0.0.1:9/${KEY}`, auth: 'none' });
    try {
      const document = await vscode.workspace.openTextDocument({ language: 'jsonrpc', content: '# @node Unreachable keyed node\n{"method": "eth_blockNumber"}\n' });
      await vscode.commands.executeCommand('chaindeck.requests.send', document.uri, 0);

      const logFile = path.join(api.logUri.fsPath, 'Chaindeck.log');
      const log = await until('the failure in the log', () => {
        const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
        return text.includes('on Unreachable keyed node') ? text : undefined;
      });
      assert.ok(!log.includes(KEY), 'the key is in the log');
      assert.match(log, /127\.0\.0\.1:9\/\*\*\*/, 'the failure should name the URL, redacted');
    } finally {
      await store.remove(node.id);
    }
  });

  it('sends the request of a request file and shows the response in the active group, its quantities read', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'demo.jsonrpc');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'jsonrpc');
    await vscode.window.showTextDocument(document);

    // Through the lenses the user clicks: "Node: Local anvil" at the top, "Send" above the request.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    assert.ok(
      lenses.some((l) => l.command?.title.includes('Node: Local anvil')),
      'no "Node: Local anvil" lens',
    );
    const send = lenses.find((l) => l.command?.command === 'chaindeck.requests.send');
    assert.ok(send?.command, 'no Send lens');
    await vscode.commands.executeCommand(send.command.command, ...(send.command.arguments ?? []));

    const response = await until('the response document', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'chaindeck-response' && d.getText().includes('"result"')));
    assert.match(response.getText(), /^\/\/ HTTP 200 OK · \d+ ms · \d+ B · Local anvil · eth_blockNumber\n/);
    assert.equal(response.languageId, 'jsonc');
    const body = JSON.parse(response.getText().replace(/^\/\/.*\n/gm, ''));
    assert.match(body.result, /^0x[0-9a-f]+$/);
    // The block number read as a number above the reply, which stays as the node sent it.
    assert.ok(response.getText().includes(`// result: ${body.result} = ${BigInt(body.result)}\n`), response.getText());
    // In the group the user works in: no second group opened beside.
    assert.equal(vscode.window.tabGroups.all.length, 1, 'the response opened a new editor group');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), response.uri.toString());

    // The next call, another method, reuses the same tab: one response tab, now with the balance.
    const balance = await vscode.workspace.openTextDocument({
      language: 'jsonrpc',
      content: '# @node Local anvil\n{"method": "eth_getBalance", "params": ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest"]}\n',
    });
    await vscode.window.showTextDocument(balance);
    await vscode.commands.executeCommand('chaindeck.requests.send', balance.uri, 0);
    const updated = await until('the balance in the response', () => (response.getText().includes('eth_getBalance') ? response.getText() : undefined));
    const wei = BigInt(JSON.parse(updated.replace(/^\/\/.*\n/gm, '')).result);
    assert.match(updated, new RegExp(`^// result: 0x[0-9a-f]+ = ${wei} wei = [0-9.]+ ETH$`, 'm'));
    const responseTabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'chaindeck-response');
    assert.equal(responseTabs.length, 1, `response tabs: ${responseTabs.map((t) => t.label).join(', ')}`);
    assert.equal(responseTabs[0].label, 'Local anvil · response.jsonc');
    assert.equal(vscode.window.tabGroups.all.length, 1, 'the second response opened a new editor group');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('marks a JSON error in a request file where it is', async () => {
    // A file of its own: an untitled document may reuse the name (and diagnostics) of an earlier one.
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'broken.jsonrpc');
    fs.writeFileSync(file.fsPath, '### broken\n{"method": "eth_chainId",}\n');
    try {
      const document = await vscode.workspace.openTextDocument(file);
      const [problem] = await until('a diagnostic', () => {
        const found = vscode.languages.getDiagnostics(document.uri);
        return found.length ? found : undefined;
      });
      assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(problem.range.start.line, 1);
      assert.match(problem.message, /trailing comma/);
    } finally {
      fs.rmSync(file.fsPath, { force: true });
    }
  });

  it('streams new block headers over the WebSocket and stops on request', async () => {
    const { subscriptions, store } = api.nodes;
    const anvil = store.all().find((n) => n.name === 'Local anvil');
    assert.ok(anvil);
    const title = await vscode.commands.executeCommand<string | undefined>('chaindeck.subscribe', anvil, { kind: 'newHeads' });
    assert.equal(title, 'Local anvil newHeads');
    await rpc('evm_mine', []);
    await until('a newHeads notification', () => subscriptions.running.find((s) => s.title === title && s.received > 0));
    await vscode.commands.executeCommand('chaindeck.unsubscribe', title);
    assert.deepEqual(subscriptions.running, []);
  });
});
