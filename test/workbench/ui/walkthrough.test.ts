/**
 * The Getting Started walkthrough as a new user finds it: listed by Welcome: Open Walkthrough…,
 * its four steps shown with their markdown, and its steps completed by what the user did however
 * it was done: a node already configured (also when the extension activated first), a call sent
 * and storage read from the palette (with the only node, Call Method asks no node).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { NODE_NAME } from '../fixture';
import { env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, webviewFrame, workbenchUrl } from './workbench';

let browser: Browser;
let page: Page;

/** The workspace's settings.json, as the tests before this file left it: put back after. */
const settingsFile = path.join(new URL(workbenchUrl()).searchParams.get('folder') ?? '', '.vscode', 'settings.json');
let settingsBefore: string | undefined;

before(async () => {
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
  if (settingsBefore !== undefined) fs.writeFileSync(settingsFile, settingsBefore);
});

const STEPS = ['Add a node', 'Send a call', 'Browse storage', 'Open a subgraph'];
const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });

/** Waits until the step shows as completed in the walkthrough opened afresh (where the saved state shows). */
async function completed(title: string): Promise<void> {
  const editor = await openWalkthrough();
  const done = editor.locator('.getting-started-step', { hasText: title }).locator('[role="checkbox"][aria-checked="true"]');
  await done.waitFor({ state: 'attached', timeout: 30_000 });
  assert.equal(await done.getAttribute('aria-label'), `${title}: Completed`);
}

/** Welcome: Open Walkthrough… → Get Started with Chaindeck; returns the Welcome editor. */
async function openWalkthrough() {
  await runCommand(page, 'Welcome: Open Walkthrough');
  const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Chaindeck' });
  await pick.first().waitFor({ timeout: 15_000 });
  await pick.first().click();
  const editor = page.locator('.gettingStartedContainer');
  await editor.getByText('Get Started with Chaindeck').first().waitFor({ timeout: 15_000 });
  return editor;
}

test('Welcome: Open Walkthrough… lists Get Started with Chaindeck and shows its four steps', () =>
  screenshotOnFailure(page, 'walkthrough', async () => {
    const editor = await openWalkthrough();
    const titles = (await editor.locator('.getting-started-step .step-title').allTextContents()).map((t) => t.trim());
    assert.deepEqual(titles, STEPS);
    // The first step is open, its markdown beside it (shown when the editor is wide enough: the
    // side bars and other editor groups are put away).
    await runCommand(page, 'Maximize Editor Group and Hide Side Bars');
    await webviewFrame(page).getByText('A local devnet works too').waitFor({ timeout: 15_000 });
    await screenshot(page, 'walkthrough');
  }));

test('a node configured in the workspace completes the first step, without its button', () =>
  screenshotOnFailure(page, 'walkthrough-node', async () => {
    // The view activates the extension, which tells the walkthrough what is already there.
    await openContainer(page, 'Chaindeck');
    await treeRow(NODE_NAME).waitFor({ timeout: 15_000 });
    await completed('Add a node');
    await screenshot(page, 'walkthrough-node');
  }));

test('with the only node, Call Method from the palette asks no node; the call and a storage read complete their steps', () =>
  screenshotOnFailure(page, 'walkthrough-call', async () => {
    settingsBefore = fs.readFileSync(settingsFile, 'utf8');
    const only = { 'chaindeck.nodes': [{ name: NODE_NAME, protocol: 'evm', url: env('CHAINDECK_TEST_ANVIL_URL') }], 'chaindeck.defaultNode': NODE_NAME };
    fs.writeFileSync(settingsFile, JSON.stringify(only, null, 2) + '\n');
    await runCommand(page, 'View: Close All Editors');
    await openContainer(page, 'Chaindeck');
    await treeRow('Key left in settings').waitFor({ state: 'detached', timeout: 15_000 });

    await runCommand(page, 'Chaindeck: Call Method');
    // The method pick comes first: there is no node to choose.
    await quickInput()
      .filter({ hasText: `Call a Method on ${NODE_NAME}` })
      .waitFor({ timeout: 15_000 });
    assert.equal(await quickInput().filter({ hasText: 'Which Node' }).count(), 0);
    await quickInput().locator('input').fill('eth_blockNumber');
    await quickInput().locator('input').press('Enter');
    await quickInput().filter({ hasText: 'Params as a JSON array' }).waitFor({ timeout: 15_000 });
    await quickInput().locator('input').press('Enter');
    await page
      .locator('.tab', { hasText: `${NODE_NAME} · response` })
      .first()
      .waitFor({ timeout: 20_000 });

    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Chaindeck: Browse Storage');
    const panel = webviewFrame(page);
    await panel.locator('input[name="address"]').fill('0x00000000000000000000000000000000c0ffee25');
    await panel.getByRole('button', { name: 'Read Storage' }).click();
    await panel.locator('.page-label', { hasText: 'Page 1' }).waitFor({ timeout: 20_000 });
    await runCommand(page, 'View: Close All Editors');

    await completed('Send a call');
    await completed('Browse storage');
    await screenshot(page, 'walkthrough-call');
  }));

test('in a new browser session, where the extension activates before VS Code registers the walkthrough, the node still completes the first step', async () => {
  await browser.close();
  ({ browser, page } = await startWorkbench());
  await screenshotOnFailure(page, 'walkthrough-again', async () => {
    // The walkthrough's progress is kept by the browser: this one starts with none.
    await openContainer(page, 'Chaindeck');
    await treeRow(NODE_NAME).waitFor({ timeout: 15_000 });
    await completed('Add a node');
    await screenshot(page, 'walkthrough-again');
  });
});
