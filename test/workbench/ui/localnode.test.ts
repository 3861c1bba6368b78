/**
 * The local graph-node as a user meets it in the Subgraphs view: the "Local Graph Node" row with
 * its state, Start from the row's inline action (real gnd, Postgres and the IPFS endpoint, on the
 * runner's anvil), ready on the chosen node, a subgraph deployed through the palette's "Deploy to
 * Local Graph Node" (the real graph CLI) appearing under it, its row leading with "synced · #N"
 * where the default side bar width still shows it, a query of several top-level fields answered
 * with a tab and row count for each, its Subgraph Logs panel (from the row's context menu) showing
 * each line the mapping logged with its handler, block and transaction and narrowed by its
 * filters, and Stop from the inline action returning it to stopped with nothing left running
 * from its data folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeApprovals, pointManifest, type Approvals } from '../../support/approvals';
import { scratchFolder } from '../../support/localGraph';
import { killProcessesUsing, processesUsing } from '../../support/processes';
import { env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader, webviewFrame } from './workbench';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FOLDER = `localnode-ui-${process.pid}`;
const NAME = 'ui/local-approvals';
const CHAIN = 'Local anvil';
/** The approvals the deployment indexes: three records, a list to count beside `_meta`. */
const APPROVALS = 3;

let browser: Browser;
let page: Page;
let workspace: string;
let folder: string;
let dataDir: string;
let settingsBefore: string;
let approvals: Approvals;

const settingsFile = () => path.join(workspace, '.vscode', 'settings.json');
const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string | RegExp) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const localRow = () => treeRow('Local Graph Node').first();
const lens = (text: string) => page.locator('.editor-group-container .monaco-editor .codelens-decoration a', { hasText: text }).first();

/** Opens a file of the copied project through Quick Open, and waits for a line of it. */
async function openFile(name: string, line: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = quickInput().locator('input');
  await input.waitFor();
  await input.fill(`${FOLDER}/${name}`);
  await quickInput().locator('.monaco-list-row', { hasText: name }).first().waitFor({ timeout: 30_000 });
  await input.press('Enter');
  await page.locator('.editor-group-container .monaco-editor .view-line', { hasText: line }).first().waitFor({ timeout: 30_000 });
}

/** Clicks one of the row's inline actions (shown while the row is hovered). */
async function inlineAction(label: string): Promise<void> {
  const row = localRow();
  await row.hover();
  await row.locator(`.actions .action-label[aria-label="${label}"]`).click();
}

before(async () => {
  workspace = env('CHAINDECK_TEST_WORKSPACE');
  folder = path.join(workspace, FOLDER);
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'subgraphs', 'tutorial'), folder, { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  approvals = await makeApprovals(env('CHAINDECK_TEST_ANVIL_URL'), ROOT, APPROVALS);
  pointManifest(path.join(folder, 'subgraph.yaml'), approvals);
  // The mapping logs each approval twice, at debug and at info: what the Subgraph Logs panel shows and filters.
  const mapping = path.join(folder, 'src', 'mapping.ts');
  fs.writeFileSync(
    mapping,
    fs
      .readFileSync(mapping, 'utf8')
      .replace('import { ApprovalQuery } from "../generated/schema";', 'import { ApprovalQuery } from "../generated/schema";\nimport { log } from "@graphprotocol/graph-ts";')
      .replace('  record.save();', "  record.save();\n  log.debug('checked approval {}', [id]);\n  log.info('approval {} of {}', [id, event.params.value.toString()]);"),
  );
  // A query of two top-level fields: the approvals and how far the node indexed.
  fs.writeFileSync(
    path.join(folder, 'overview.graphql'),
    `# @subgraph ${NAME}\n{\n  approvalQueries {\n    owner\n    spender\n    value\n  }\n  _meta {\n    block {\n      number\n    }\n    hasIndexingErrors\n  }\n}\n`,
  );
  dataDir = scratchFolder('chaindeck-ln-ui-');
  const gnd = path.join(env('CHAINDECK_TEST_GND_CACHE'), 'gnd', '0.45.0', 'gnd');
  settingsBefore = fs.readFileSync(settingsFile(), 'utf8');
  fs.writeFileSync(
    settingsFile(),
    JSON.stringify(
      {
        ...JSON.parse(settingsBefore),
        'chaindeck.localGraphNode.dataFolder': dataDir,
        'chaindeck.localGraphNode.chain': CHAIN,
        ...(fs.existsSync(gnd) ? { 'chaindeck.localGraphNode.gndPath': gnd } : {}),
      },
      null,
      2,
    ),
  );
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  if (page) await runCommand(page, 'Chaindeck: Stop Local Graph Node').catch(() => undefined);
  await browser?.close();
  if (settingsBefore) fs.writeFileSync(settingsFile(), settingsBefore);
  if (folder) {
    fs.rmSync(path.join(folder, 'node_modules'), { force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  }
  if (dataDir) {
    // Stopped by the extension above; a leftover is killed, and the test below has said so already.
    for (let i = 0; i < 100 && processesUsing(dataDir).length; i++) await new Promise((r) => setTimeout(r, 100));
    killProcessesUsing(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the Subgraphs view shows the Local Graph Node stopped; Start from its row makes it ready on the chosen node', () =>
  screenshotOnFailure(page, 'localnode-start', async () => {
    await openContainer(page, 'Chaindeck');
    await viewHeader(page, 'Subgraphs').waitFor({ timeout: 15_000 });
    await localRow().waitFor({ timeout: 30_000 });
    assert.match((await localRow().textContent()) ?? '', /Local Graph Node\s*stopped/);
    await screenshot(page, 'localnode-stopped');

    await inlineAction('Start Local Graph Node');
    // The start's notification says where gnd listens.
    await page.locator('.notifications-toasts', { hasText: 'gnd listens on every network interface' }).waitFor({ timeout: 30_000 });
    await localRow()
      .filter({ hasText: `ready · ${CHAIN}` })
      .waitFor({ timeout: 180_000 });
    assert.ok(processesUsing(dataDir).length > 0, 'nothing runs from the data folder');
    await screenshot(page, 'localnode-ready');
  }));

test('a deploy from the palette shows the deployment under it, synced', () =>
  screenshotOnFailure(page, 'localnode-deploy', async () => {
    await openFile('subgraph.yaml', 'specVersion');

    await runCommand(page, 'Chaindeck: Deploy to Local Graph Node');
    await quickInput().filter({ hasText: 'The subgraph name to deploy as' }).waitFor({ timeout: 15_000 });
    await quickInput().locator('input').fill(NAME);
    await quickInput().locator('input').press('Enter');

    // codegen, build, create, deploy; then the row gets a child: the deployment, under its name.
    await page.locator('.notifications-toasts', { hasText: `Deployed ${NAME} to the local graph-node.` }).waitFor({ timeout: 240_000 });
    // Open by itself, with no click: the deployment is in view.
    await localRow().and(page.locator('[aria-expanded="true"]')).waitFor({ timeout: 30_000 });
    // The row leads with what matters, state and block, then the entities; the deployment id is for the hover.
    const deployment = treeRow(NAME).filter({ hasText: /synced · #\d+ · \d+ entities/ });
    await deployment.waitFor({ timeout: 60_000 });
    const description = deployment.locator('.label-description');
    assert.match((await description.textContent()) ?? '', /^synced · #\d+/);
    assert.doesNotMatch((await deployment.textContent()) ?? '', /Qm\w/, 'the row shows the deployment id');
    // At the default side bar width, state and block are on screen: the row is cut, if at all, after them.
    const lead = /^synced · #\d+/.exec((await description.textContent()) ?? '')![0];
    const leadFits = await description.evaluate((e, length) => {
      const text = document.createTreeWalker(e, NodeFilter.SHOW_TEXT).nextNode()!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, Math.min(length, text.textContent!.length));
      const clip = (e.closest('.monaco-icon-label-container') ?? e.closest('.monaco-list-row'))!;
      return range.getBoundingClientRect().right <= clip.getBoundingClientRect().right;
    }, lead.length);
    assert.ok(leadFits, `"${lead}" is cut at the default side bar width`);
    await screenshot(page, 'localnode-deployed');
  }));

test('a query of several top-level fields shows each under its own tab, with its row count', () =>
  screenshotOnFailure(page, 'localnode-query-fields', async () => {
    await openFile('overview.graphql', 'approvalQueries');
    await lens(`Subgraph: ${NAME}`).waitFor({ timeout: 30_000 });
    await lens('Run').click();

    const frame = webviewFrame(page);
    const tabs = frame.locator('[role="tab"]');
    await tabs.first().waitFor({ timeout: 30_000 });
    assert.deepEqual(await tabs.allTextContents(), [`approvalQueries · ${APPROVALS} rows`, '_meta · 1 row']);
    assert.equal(await tabs.first().getAttribute('aria-selected'), 'true');
    const headers = () => frame.locator('[role="columnheader"]').allTextContents();
    assert.deepEqual(await headers(), ['owner', 'spender', 'value']);
    assert.equal(await frame.locator('.dt-rows .dt-row').count(), APPROVALS);
    await screenshot(page, 'localnode-query-fields');

    // The other field's tab shows its own table.
    await tabs.filter({ hasText: '_meta' }).click();
    await frame.locator('[role="tab"][aria-selected="true"]', { hasText: '_meta' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(await headers(), ['block.number', 'hasIndexingErrors']);
    const meta = await frame.locator('.dt-rows .dt-row').first().locator('[role="gridcell"]').allTextContents();
    assert.ok(Number(meta[0]) >= approvals.block, `_meta reads ${JSON.stringify(meta)}`);
    assert.equal(meta[1], 'false');
    await screenshot(page, 'localnode-query-meta');
  }));

test("the deployment's Subgraph Logs: each line the mapping logged with its handler, block and transaction, narrowed by level, text and block range", () =>
  screenshotOnFailure(page, 'localnode-logs', async () => {
    await runCommand(page, 'View: Close All Editors');
    await treeRow(NAME).first().click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: 'Show Subgraph Logs' }).first().click();
    const frame = webviewFrame(page);
    const rows = frame.locator('tr.row');
    await frame.locator('h1', { hasText: `Subgraph Logs: ${NAME}` }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await frame.locator('thead th').allTextContents(), ['Time', 'Level', 'Handler', 'Block', 'Transaction', 'Message']);
    await rows.nth(APPROVALS * 2 - 1).waitFor({ timeout: 30_000 });
    assert.equal(await rows.count(), APPROVALS * 2);
    assert.deepEqual(await frame.locator('tr.row td.handler').allTextContents(), Array(APPROVALS * 2).fill('handleApproval'));
    for (const block of await frame.locator('tr.row td.block').allTextContents()) assert.match(block, /^\d+$/);
    assert.deepEqual(await frame.locator('tr.row td.level').allTextContents(), Array(APPROVALS).fill(['debug', 'info']).flat());
    // Each row's transaction is the one its message names (the record id is `<tx>-<logIndex>`).
    const firstMessage = (await rows.first().locator('td.message').textContent()) ?? '';
    const tx = /0x[0-9a-f]{64}/.exec(firstMessage)![0];
    assert.equal(await rows.first().locator('td.tx button').getAttribute('title'), `Copy ${tx}`);
    // In a panel beside the side bars the message keeps room to be read (it was squeezed to a few letters a line).
    const messageWidth = await rows
      .first()
      .locator('td.message')
      .evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(messageWidth >= 200, `the message column is ${messageWidth}px wide`);
    await screenshot(page, 'localnode-logs');

    await frame.locator('#level').selectOption('info');
    await rows.nth(APPROVALS).waitFor({ state: 'detached', timeout: 15_000 });
    assert.deepEqual(await frame.locator('tr.row td.level').allTextContents(), Array(APPROVALS).fill('info'));

    // One record's id (`<tx>-<logIndex>`: the approvals may share a transaction) narrows to its line.
    const id = /0x[0-9a-f]{64}-\d+/.exec((await rows.nth(1).locator('td.message').textContent()) ?? '')![0];
    await frame.locator('#text').fill(`${id} of`);
    await rows.nth(1).waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(await rows.count(), 1);
    assert.match((await rows.first().locator('td.message').textContent()) ?? '', new RegExp(`^approval ${id} of \\d+$`));
    await screenshot(page, 'localnode-logs-filtered');

    await frame.locator('#text').fill('');
    await frame.locator('#fromBlock').fill('99999999');
    await frame.locator('#position', { hasText: 'no entries' }).waitFor({ timeout: 15_000 });
    assert.equal(await rows.count(), 0);
    await runCommand(page, 'View: Close All Editors');
  }));

test('Stop from its row returns it to stopped, with nothing left running', () =>
  screenshotOnFailure(page, 'localnode-stop', async () => {
    await inlineAction('Stop Local Graph Node');
    await localRow()
      .filter({ hasText: /Local Graph Node\s*stopped/ })
      .waitFor({ timeout: 60_000 });
    await treeRow(NAME).waitFor({ state: 'detached', timeout: 15_000 });
    for (let i = 0; i < 100 && processesUsing(dataDir).length; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(processesUsing(dataDir), [], 'processes left running from the data folder');
    await screenshot(page, 'localnode-stopped-again');
  }));
