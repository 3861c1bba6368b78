/**
 * The Nodes feature as a user meets it: add a node through the palette, see it and its latest
 * block in the tree, send the request of demo.jsonrpc with its "Send" lens, remove the node.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader } from './workbench';

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
    assert.match((await response.textContent()) ?? '', /HTTP\s200\sOK/);
    await page.locator('.tabs-container .tab', { hasText: 'eth_blockNumber' }).first().waitFor({ timeout: 5_000 });
    await screenshot(page, 'nodes-response');
  }));

test('removes the node through its context menu', () =>
  screenshotOnFailure(page, 'nodes-remove', async () => {
    await openContainer(page, 'Chaindeck');
    await treeRow(NODE).click({ button: 'right' });
    // Menu items act on mouse-up after a hover; the keyboard is the dependable way to choose one.
    await page.locator('.context-view .action-item', { hasText: 'Remove Node…' }).hover();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).click();
    await treeRow(NODE).waitFor({ state: 'detached', timeout: 15_000 });
  }));
