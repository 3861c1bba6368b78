/**
 * Editing subgraph.yaml as a user does: the spec's tutorial subgraph opened from Quick Open, its
 * event signature selected and typed over with one the ABI does not have, the squiggle on that
 * line and the entry in the Problems panel, then the quick fix from Ctrl+. putting it right.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { until } from '../../support/until';
import { env, runCommand, screenshot, screenshotOnFailure, startWorkbench } from './workbench';

const FOLDER = `subgraph-ui-${process.pid}`;
const FIXTURE = path.resolve(__dirname, '..', '..', 'fixtures', 'subgraphs', 'tutorial');
const WRONG = 'Approval(address,address,uint256)';
const RIGHT = 'Approval(indexed address,indexed address,uint256)';

let browser: Browser;
let page: Page;
let folder: string;

before(async () => {
  folder = path.join(env('CHAINDECK_TEST_WORKSPACE'), FOLDER);
  fs.cpSync(FIXTURE, folder, { recursive: true });
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  if (page) {
    // The fix left the text as it was on disk, but the editor is dirty: save, then close.
    await page.keyboard.press('Control+S').catch(() => undefined);
    await runCommand(page, 'View: Close All Editors').catch(() => undefined);
  }
  await browser?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

const editorLine = (text: string) => page.locator('.editor-group-container .monaco-editor .view-line', { hasText: text });
const squiggles = () => page.locator('.editor-group-container .monaco-editor .squiggly-error');
// The whole signature: while typing, earlier runs reported the half-typed ones.
const problem = () => page.locator('.part.panel .monaco-list-row', { hasText: `signature '${WRONG}' not present in ABI` });

/** Presses `key` until `shown` is visible: a busy workbench may let a keystroke pass unanswered. */
async function pressUntil(key: string, shown: Locator, tries = 4): Promise<void> {
  for (let i = 1; ; i++) {
    await page.keyboard.press(key);
    try {
      await shown.first().waitFor({ timeout: 7_500 });
      return;
    } catch (err) {
      if (i >= tries) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** Opens a workspace file through Quick Open (Ctrl+P), as a user does. */
async function openFile(relative: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await pressUntil('Control+P', input);
  await input.fill(relative);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(relative) })
    .first()
    .waitFor({ timeout: 30_000 });
  await input.press('Enter');
}

/** Moves the cursor like Ctrl+G does: to a 1-based line and column. */
async function goTo(line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  // The Go to Line quick input starts with ':'; without it the text is a file search.
  await input.fill(`:${line}:${column}`);
  await input.press('Enter');
}

test('a wrong event signature is squiggled, listed in Problems, and fixed from Ctrl+.', async () => {
  await screenshotOnFailure(page, 'subgraph-quickfix', async () => {
    await openFile(`${FOLDER}/subgraph.yaml`);
    await editorLine(`event: ${RIGHT}`).waitFor({ timeout: 30_000 });

    // Line 23 is `        - event: Approval(…)`; the signature starts at column 18. Select it and type over it.
    await goTo(23, 18);
    await page.keyboard.press('Shift+End');
    await page.keyboard.type(WRONG);
    const line = editorLine(`event: ${WRONG}`);
    await line.waitFor();
    // Close the suggestions typing brought up, and scroll back to the line's start.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');

    await squiggles().first().waitFor({ timeout: 15_000 });
    assert.equal(await squiggles().count(), 1, 'one squiggle: the signature');
    // The squiggle is on the signature's line, from its column 18 on.
    const { squiggle, lineBox, column18 } = await until('the squiggle and the line laid out', async () => {
      const squiggle = await squiggles().first().boundingBox();
      const lineBox = await line.boundingBox();
      const textBox = await line.locator('span').first().boundingBox();
      const text = (await line.textContent()) ?? '';
      return squiggle && lineBox && textBox ? { squiggle, lineBox, column18: textBox.x + (17 * textBox.width) / text.length } : undefined;
    });
    assert.ok(Math.abs(squiggle.y - lineBox.y) < lineBox.height / 2, `squiggle at y=${squiggle.y}, the line at y=${lineBox.y}`);
    assert.ok(Math.abs(squiggle.x - column18) < 4, `squiggle at x=${squiggle.x}, column 18 at x=${column18}`);

    await page.keyboard.press('Control+Shift+M');
    await problem().first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'subgraph-squiggle');

    // Back in the editor, inside the signature: Ctrl+. lists the fix; the keyboard chooses it.
    await page.locator('.editor-group-container .monaco-editor .view-lines').first().click();
    await goTo(23, 22);
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: `Change to ${RIGHT}` });
    await pressUntil('Control+.', fix);
    await screenshot(page, 'subgraph-quickfix-menu');
    await fix.hover();
    await page.keyboard.press('Enter');

    await editorLine(`event: ${RIGHT}`).waitFor();
    await squiggles().first().waitFor({ state: 'detached', timeout: 15_000 });
    await problem().first().waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(page, 'subgraph-fixed');
  });
});
