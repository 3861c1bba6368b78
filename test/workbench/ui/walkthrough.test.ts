/**
 * The Getting Started walkthrough as a new user finds it: listed by Welcome: Open Walkthrough…,
 * its four steps shown with their markdown, and a step's button running its command and
 * completing the step.
 */
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { runCommand, screenshot, screenshotOnFailure, startWorkbench, webviewFrame } from './workbench';

let browser: Browser;
let page: Page;

before(async () => {
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
});

const STEPS = ['Add a node', 'Send a call', 'Browse storage', 'Open a subgraph'];

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

test('the Add Node button of the first step runs the command and completes the step', () =>
  screenshotOnFailure(page, 'walkthrough-add-node', async () => {
    const step = page.locator('.gettingStartedContainer .getting-started-step', { hasText: 'Add a node' });
    assert.equal(await step.locator('[role="checkbox"]').getAttribute('aria-checked'), 'false', 'done before its command ran');
    await step.locator('.monaco-button', { hasText: 'Add Node' }).first().click();
    const input = page.locator('.quick-input-widget');
    await input.filter({ hasText: "Paste the node's HTTPS or WSS endpoint" }).waitFor({ timeout: 15_000 });
    await input.locator('input').press('Escape');
    await input.waitFor({ state: 'hidden', timeout: 15_000 });
    // The Welcome page sometimes slides back to its start page while the command runs (seen in
    // CI): the completion is read from the walkthrough opened again, where the saved state shows.
    const again = await openWalkthrough();
    const done = again.locator('.getting-started-step', { hasText: 'Add a node' }).locator('[role="checkbox"][aria-checked="true"]');
    await done.waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await done.getAttribute('aria-label'), 'Add a node: Completed');
    await screenshot(page, 'walkthrough-add-node');
  }));
