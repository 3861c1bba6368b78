/**
 * The Platform view as a user meets it: the welcome offers to set an API key; the key is set
 * from the palette; the tree is expanded down to a node, whose inline Import action brings it
 * into the Nodes view, where it shows its latest block. The platform server and the proxy (in
 * front of the runner's anvil, accepting only the node's key in the path) run in this process;
 * the workspace settings point `chaindeck.platform.apiUrl` at the server until the end.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { sampleData, startPlatformServer, type PlatformServer } from '../../support/platformServer';
import { startProxy, type Proxy } from '../../support/proxy';
import { env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench } from './workbench';

/** Shaped like real keys, so the redactor and the endpoint parser treat them as keys. */
const API_KEY = 'pk4e8a2c6f0b3d7e1a5c9f2b6d0e4a8c3f';
const NODE_KEY = '8c3f1a6e9b2d5c0f7a4e1b8d3c6f9a2e';
const NODE_NAME = 'ui-platform-node';
const API_URL_SETTING = 'chaindeck.platform.apiUrl';

let browser: Browser;
let page: Page;
let server: PlatformServer;
let proxy: Proxy;

const settingsFile = () => path.join(env('CHAINDECK_TEST_WORKSPACE'), '.vscode', 'settings.json');

/** Sets (or, with undefined, removes) one workspace setting, keeping the others. */
function writeSetting(name: string, value: unknown): void {
  const settings = JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
  if (value === undefined) delete settings[name];
  else settings[name] = value;
  fs.writeFileSync(settingsFile(), `${JSON.stringify(settings, null, 2)}\n`);
}

before(async () => {
  proxy = await startProxy({ target: env('CHAINDECK_TEST_ANVIL_URL'), key: NODE_KEY });
  const data = sampleData({ nodes: 3 });
  Object.assign(data.nodes[0], { name: NODE_NAME, details: { mode: 'full', https_endpoint: proxy.url, wss_endpoint: proxy.wsUrl, auth_key: NODE_KEY } });
  server = await startPlatformServer({ apiKey: API_KEY, data });
  // Written before the window opens, so the extension reads it from the start.
  writeSetting(API_URL_SETTING, server.url);
  ({ browser, page } = await startWorkbench());
});

/** Leaves the workspace settings as the runner wrote them, for the UI test files after this one. */
function restoreSettings(): void {
  const settings = JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
  const nodes = settings['chaindeck.nodes'] as { id?: string }[] | undefined;
  // Should a test have failed before removing it, the imported node must not stay.
  if (nodes?.some((n) => n.id?.startsWith('platform-')))
    writeSetting(
      'chaindeck.nodes',
      nodes.filter((n) => !n.id?.startsWith('platform-')),
    );
  if (API_URL_SETTING in settings) writeSetting(API_URL_SETTING, undefined);
}

after(async () => {
  // With the window still open, so the workbench has taken the change in before the next file.
  restoreSettings();
  await page?.waitForTimeout(1000);
  await browser?.close();
  await server?.close();
  await proxy?.close();
});

const quickInput = () => page.locator('.quick-input-widget');

/** A view of the side bar (header and body), by its name. */
function pane(name: string): Locator {
  return page.locator('.part.sidebar .pane', { has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${name}$`) }) });
}

const row = (view: string, text: string | RegExp) => pane(view).locator('[role="treeitem"]', { hasText: text });
const setKeyButton = () => pane('Platform').locator('.welcome-view .monaco-button', { hasText: 'Set API Key' });

test('offers to set an API key, then shows the organization', () =>
  screenshotOnFailure(page, 'platform-key', async () => {
    await openContainer(page, 'Chaindeck');
    await setKeyButton().waitFor({ timeout: 20_000 });
    await screenshot(page, 'platform-welcome');

    await runCommand(page, 'Chaindeck: Set Platform API Key');
    await quickInput().filter({ hasText: 'Paste an API key' }).waitFor({ timeout: 15_000 });
    const input = quickInput().locator('input');
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill(API_KEY);
    await input.press('Enter');

    await row('Platform', 'Acme Chains').waitFor({ timeout: 20_000 });
    await setKeyButton().waitFor({ state: 'detached', timeout: 5_000 });
    assert.ok(server.requests.some((r) => r.url === '/v1/organization/' && r.authorization === `Bearer ${API_KEY}`));
    await screenshot(page, 'platform-organization');
  }));

test('imports a node with its inline action; the Nodes view shows its latest block', () =>
  screenshotOnFailure(page, 'platform-import', async () => {
    await row('Platform', 'Mainnet apps').click();
    await row('Platform', 'Ethereum Mainnet').click();
    const node = row('Platform', NODE_NAME);
    await node.waitFor({ timeout: 20_000 });
    assert.match((await node.textContent()) ?? '', /running · shared · us-east1/);

    await node.hover();
    await node.locator('.action-label[aria-label="Import Node"]').click();
    const imported = row('Nodes', NODE_NAME);
    await imported.waitFor({ timeout: 20_000 });
    await screenshot(page, 'platform-imported');

    // Only this node expanded, so its "Latest block" is the one in the view.
    await pane('Nodes').locator('.pane-header').hover();
    await pane('Nodes').locator('.pane-header .action-label[aria-label="Collapse All"]').click();
    await imported.click();
    const block = row('Nodes', 'Latest block');
    await block.waitFor({ timeout: 20_000 });
    assert.match((await block.textContent()) ?? '', /Latest block\s*\d+ \(0x[0-9a-f]+\)/);
    assert.ok(
      proxy.requests.some((r) => r.path === `/${NODE_KEY}` && r.methods.includes('eth_blockNumber')),
      'the node was not called through the proxy with its key',
    );
    await screenshot(page, 'platform-latest-block');
  }));

test('removes the imported node and forgets the key: the welcome is back', () =>
  screenshotOnFailure(page, 'platform-forget', async () => {
    await row('Nodes', NODE_NAME).click({ button: 'right' });
    // Menu items act on mouse-up after a hover; the keyboard is the dependable way to choose one.
    await page.locator('.context-view .action-item', { hasText: 'Remove Node…' }).hover();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).click();
    await row('Nodes', NODE_NAME).waitFor({ state: 'detached', timeout: 15_000 });

    await runCommand(page, 'Chaindeck: Forget Platform API Key');
    await setKeyButton().waitFor({ timeout: 15_000 });
    await row('Platform', 'Acme Chains').waitFor({ state: 'detached', timeout: 5_000 });
  }));
