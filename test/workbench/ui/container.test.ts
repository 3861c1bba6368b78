import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader } from './workbench';

let browser: Browser;
let page: Page;

before(async () => {
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
});

test('the Chaindeck container shows the Nodes, Subgraphs and Platform views', () =>
  screenshotOnFailure(page, 'chaindeck-container', async () => {
    await openContainer(page, 'Chaindeck');
    for (const name of ['Nodes', 'Subgraphs', 'Platform']) {
      await viewHeader(page, name).waitFor({ timeout: 15_000 });
      assert.ok(await viewHeader(page, name).isVisible(), `${name} view header not visible`);
    }
    await screenshot(page, 'chaindeck-container');
  }));

test('Chaindeck: Show Log opens the log with the activation line', () =>
  screenshotOnFailure(page, 'chaindeck-log', async () => {
    await runCommand(page, 'Chaindeck: Show Log');
    // The Output view is a read-only editor in the panel (it renders spaces as U+00A0, hence
    // \s); activate() writes the first line.
    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: /Chaindeck\s\S+\sactivated/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'chaindeck-log');
  }));
