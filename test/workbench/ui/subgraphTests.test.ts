/**
 * Subgraph tests as a user meets them in the Testing view: the gnd test files of a subgraph under
 * its manifest, each by its name; a test run from its row's Run action on the real gnd and
 * Postgres; its failed assertion marked in the tree and its diff, expected against actual, shown in
 * the peek at the assertion in the test file.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { processesUsing } from '../../support/processes';
import { TEST_FILES, writeTestedSubgraph } from '../../support/subgraphTests';
import { activityItem, env, screenshot, screenshotOnFailure, startWorkbench } from './workbench';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FOLDER = `tests-ui-${process.pid}`;

let browser: Browser;
let page: Page;
let workspace: string;
let folder: string;
let settingsBefore: string;
const started = Date.now();

const settingsFile = () => path.join(workspace, '.vscode', 'settings.json');
const testRow = (text: string | RegExp) => page.locator('.part.sidebar .test-explorer [role="treeitem"]', { hasText: text });

before(async () => {
  workspace = env('CHAINDECK_TEST_WORKSPACE');
  folder = path.join(workspace, FOLDER);
  writeTestedSubgraph(ROOT, folder);
  const gnd = path.join(env('CHAINDECK_TEST_GND_CACHE'), 'gnd', '0.45.0', 'gnd');
  settingsBefore = fs.readFileSync(settingsFile(), 'utf8');
  fs.writeFileSync(
    settingsFile(),
    JSON.stringify(
      {
        ...JSON.parse(settingsBefore),
        ...(fs.existsSync(gnd) ? { 'chaindeck.localGraphNode.gndPath': gnd } : {}),
        // The peek opens on the failure wherever it is, not only in a visible editor.
        'testing.automaticallyOpenPeekView': 'failureAnywhere',
      },
      null,
      2,
    ),
  );
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
  // As root, the tests' Postgres lives in a folder of the temporary folder (the workbench's storage is private):
  // the one this test made goes once its cluster stopped (the extension stops it on deactivate).
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('chaindeck-gnd-test-'))) {
    const dir = path.join(os.tmpdir(), name);
    if (fs.statSync(dir).mtimeMs < started) continue;
    for (let i = 0; i < 100 && processesUsing(dir).length; i++) await new Promise((r) => setTimeout(r, 100));
    if (!processesUsing(dir).length) fs.rmSync(dir, { recursive: true, force: true });
  }
  if (settingsBefore) fs.writeFileSync(settingsFile(), settingsBefore);
  if (folder) {
    fs.rmSync(path.join(folder, 'node_modules'), { force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test('the Testing view lists the subgraph tests by name; a failing one shows its expected/actual diff at the assertion', () =>
  screenshotOnFailure(page, 'subgraph-tests', async () => {
    await activityItem(page, 'Testing').click();
    const manifestRow = testRow(`${FOLDER}/subgraph.yaml`).first();
    await manifestRow.waitFor({ timeout: 60_000 });
    if ((await manifestRow.getAttribute('aria-expanded')) === 'false') await manifestRow.click();
    for (const t of Object.values(TEST_FILES)) await testRow(t.name).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'subgraph-tests-listed');

    const failing = testRow(TEST_FILES.failing.name).first();
    await failing.hover();
    await failing.locator('.action-label[aria-label="Run Test"]').click();

    // Build and gnd: the peek opens at the failed assertion, the diff's two sides the expected and the actual answer.
    const peek = page.locator('.test-output-peek');
    await peek.waitFor({ timeout: 300_000 });
    const diff = peek.locator('.monaco-diff-editor');
    await diff.waitFor({ timeout: 30_000 });
    const side = (which: 'original' | 'modified') => diff.locator(`.editor.${which} .view-lines`).first().textContent();
    await page.waitForFunction(() => document.querySelector('.test-output-peek .monaco-diff-editor .editor.modified .view-lines')?.textContent?.includes('"value"'), undefined, {
      timeout: 30_000,
    });
    assert.match((await side('original')) ?? '', /"value":\s*"6"/);
    assert.match((await side('modified')) ?? '', /"value":\s*"5"/);
    // In the test file, at the second assertion (the line of its opening brace, just above its query).
    const editorTab = page.locator('.tabs-container .tab', { hasText: TEST_FILES.failing.file });
    await editorTab.waitFor({ timeout: 15_000 });
    const lines = fs.readFileSync(path.join(folder, 'tests', TEST_FILES.failing.file), 'utf8').split('\n');
    const assertionLine = lines.findIndex((l) => l.includes('"query": "{\\n  approvalQueries {\\n    value')); // 0-based line of its query = 1-based line of its brace
    assert.ok(assertionLine > 0);
    await page.locator('.statusbar-item', { hasText: new RegExp(`^Ln ${assertionLine}, Col`) }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'subgraph-tests-diff');
  }));
