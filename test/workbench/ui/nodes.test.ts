/**
 * The Nodes feature as a user meets it: add a node through the palette, see it and its latest
 * block in the tree (the block the status bar shows), a failing node marked while collapsed,
 * send the request of demo.jsonrpc with its "Send" lens (the reply in the same editor group, its
 * quantities read as numbers), remove the node.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { closedPort } from '../fixture';
import { anvil, env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader } from './workbench';

const NODE = 'UI anvil';
let browser: Browser;
let page: Page;

before(async () => {
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
});

const quickInput = () => page.locator('.quick-input-widget');

/** Waits for the quick input to show `prompt`, types `text` and presses Enter. */
async function answer(prompt: string | RegExp, text?: string): Promise<void> {
  await quickInput().filter({ hasText: prompt }).waitFor({ timeout: 15_000 });
  const input = quickInput().locator('input');
  if (text !== undefined) await input.fill(text);
  await input.press('Enter');
}

const treeRow = (text: string | RegExp) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const statusItem = () => page.locator('.part.statusbar .statusbar-item', { hasText: 'Local anvil #' });

/** Removes a node through its context menu, as a user does. */
async function removeNode(name: string): Promise<void> {
  await treeRow(name).first().click({ button: 'right' });
  // Menu items act on mouse-up after a hover; the keyboard is the dependable way to choose one.
  await page.locator('.context-view .action-item', { hasText: 'Remove Node…' }).hover();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).click();
  await treeRow(name).waitFor({ state: 'detached', timeout: 15_000 });
}

test('adds a node through the palette and shows its latest block', () =>
  screenshotOnFailure(page, 'nodes-add', async () => {
    await openContainer(page, 'Chaindeck');
    await viewHeader(page, 'Nodes').waitFor({ timeout: 15_000 });
    await treeRow('Local anvil').waitFor({ timeout: 15_000 });

    await runCommand(page, 'Chaindeck: Add Node');
    await answer("Paste the node's HTTPS or WSS endpoint", env('CHAINDECK_TEST_ANVIL_URL'));
    await answer('A name for the node', NODE);
    await quickInput().locator('.monaco-list-row', { hasText: 'EVM' }).waitFor({ timeout: 15_000 });
    await answer('Ethereum and EVM-compatible chains');

    const row = treeRow(NODE);
    await row.waitFor({ timeout: 15_000 });
    await screenshot(page, 'nodes-added');

    await row.click();
    const block = treeRow('Latest block');
    await block.waitFor({ timeout: 20_000 });
    assert.match((await block.textContent()) ?? '', /Latest block\s*\d+ \(0x[0-9a-f]+\)/);
    await screenshot(page, 'nodes-latest-block');
  }));

test('the tree shows the block the status bar shows, and follows it without a refresh', () =>
  screenshotOnFailure(page, 'nodes-fresh', async () => {
    await openContainer(page, 'Chaindeck');
    const local = treeRow(/^Local anvil/).first();
    const blockOf = async (text: Promise<string | null>) => /#(\d+)/.exec((await text) ?? '')?.[1];
    await statusItem().waitFor({ timeout: 20_000 });
    // Collapsed, the node row carries the block; so does the status bar, from the same poll.
    await local.filter({ hasText: /#\d+/ }).waitFor({ timeout: 20_000 });
    const before = await blockOf(statusItem().textContent());
    assert.equal(await blockOf(local.textContent()), before);

    await anvil('evm_mine', []);
    // A new poll interval makes the status bar poll now; the tree asks nothing itself, yet shows
    // the new block as soon as the status bar does.
    const settingsFile = path.join(env('CHAINDECK_TEST_WORKSPACE'), '.vscode', 'settings.json');
    const settings = fs.readFileSync(settingsFile, 'utf8');
    try {
      fs.writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(settings), 'chaindeck.statusBar.refreshSeconds': 5 }, null, 2));
      const next = `#${BigInt(before!) + 1n}`;
      await statusItem().filter({ hasText: next }).waitFor({ timeout: 20_000 });
      await local.filter({ hasText: next }).waitFor({ timeout: 2_000 });
      await screenshot(page, 'nodes-fresh-block');
    } finally {
      fs.writeFileSync(settingsFile, settings);
    }
  }));

test('a failing node shows an error icon and its error while collapsed, and the error once when expanded', () =>
  screenshotOnFailure(page, 'nodes-failing', async () => {
    const port = await closedPort();
    await runCommand(page, 'Chaindeck: Add Node');
    await answer("Paste the node's HTTPS or WSS endpoint", `http://127.0.0.1:${port}`);
    await answer('A name for the node', 'Down node');
    await quickInput().locator('.monaco-list-row', { hasText: 'EVM' }).waitFor({ timeout: 15_000 });
    await answer('Ethereum and EVM-compatible chains');

    const row = treeRow('Down node');
    await row.filter({ has: page.locator('.codicon-error') }).waitFor({ timeout: 20_000 });
    assert.equal(await row.getAttribute('aria-expanded'), 'false', 'marked before anyone expands it');
    assert.match((await row.textContent()) ?? '', /Down node.*connection refused \(ECONNREFUSED\)/);
    await screenshot(page, 'nodes-failing-collapsed');

    // The row's hover (its tooltip) covers it: move away and let it close before clicking.
    await page.mouse.move(640, 790);
    await page.keyboard.press('Escape');
    await page
      .locator('.context-view')
      .filter({ hasText: `127.0.0.1:${port}` })
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
    await row.click();
    const children = page.locator('.part.sidebar [role="treeitem"][aria-level="2"]', { hasText: `127.0.0.1:${port}` });
    await children.first().waitFor({ timeout: 15_000 });
    assert.equal(await children.count(), 1, 'the error is repeated in several rows');
    assert.match((await children.first().textContent()) ?? '', /Cannot reach .* connection refused/);
    await screenshot(page, 'nodes-failing-expanded');
    await removeNode('Down node');
  }));

test('sends the request of demo.jsonrpc with its Send lens', () =>
  screenshotOnFailure(page, 'nodes-send', async () => {
    // Quick Open: the palette without '>' opens files.
    await page.keyboard.press('F1');
    const input = quickInput().locator('input');
    await input.fill('demo.jsonrpc');
    await quickInput().locator('.monaco-list-row', { hasText: 'demo.jsonrpc' }).first().waitFor({ timeout: 15_000 });
    await input.press('Enter');

    const send = page.locator('.monaco-editor .codelens-decoration a', { hasText: 'Send' });
    await send.first().waitFor({ timeout: 20_000 });
    await send.first().click();

    const response = page.locator('.monaco-editor .view-lines', { hasText: '"result"' });
    await response.waitFor({ timeout: 20_000 });
    const text = ((await response.textContent()) ?? '').replace(/\u00a0/g, ' ');
    assert.match(text, /HTTP 200 OK/);
    // The block number read as a number above the reply.
    assert.match(text, /\/\/ result: 0x[0-9a-f]+ = \d+/);
    // In the group the request file was in, as its next tab: no empty group beside.
    await page.locator('.tabs-container .tab.active', { hasText: 'Local anvil · response' }).waitFor({ timeout: 5_000 });
    assert.equal(await page.locator('.part.editor .editor-group-container').count(), 1, 'the response opened another editor group');
    await screenshot(page, 'nodes-response');

    // Sent again: the same tab, still one group.
    await page.locator('.tabs-container .tab', { hasText: 'demo.jsonrpc' }).click();
    await send.first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'Local anvil · response' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('.tabs-container .tab', { hasText: 'Local anvil · response' }).count(), 1);
    assert.equal(await page.locator('.part.editor .editor-group-container').count(), 1);
  }));

test('removes the node through its context menu', () =>
  screenshotOnFailure(page, 'nodes-remove', async () => {
    await openContainer(page, 'Chaindeck');
    await removeNode(NODE);
  }));
