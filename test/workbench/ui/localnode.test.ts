/**
 * The local graph-node as a user meets it in the Subgraphs view: the "Local Graph Node" row with
 * its state, Start from the row's inline action (real gnd, Postgres and the IPFS endpoint, on the
 * runner's anvil), ready on the chosen node, a subgraph deployed through the palette's "Deploy to
 * Local Graph Node" (the real graph CLI) appearing under it synced, and Stop from the inline
 * action returning it to stopped with nothing left running from its data folder.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { scratchFolder } from '../../support/localGraph';
import { killProcessesUsing, processesUsing } from '../../support/processes';
import { anvil, env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, viewHeader } from './workbench';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FOLDER = `localnode-ui-${process.pid}`;
const NAME = 'ui/local-approvals';
const CHAIN = 'Local anvil';
/** An address nothing emits from: the deployment has no records, only its status. */
const CONTRACT = '0x00000000000000000000000000000000000c4a1e';

let browser: Browser;
let page: Page;
let workspace: string;
let folder: string;
let dataDir: string;
let settingsBefore: string;

const settingsFile = () => path.join(workspace, '.vscode', 'settings.json');
const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string | RegExp) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const localRow = () => treeRow('Local Graph Node').first();

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
  const head = Number(await anvil('eth_blockNumber', []));
  const manifest = path.join(folder, 'subgraph.yaml');
  fs.writeFileSync(
    manifest,
    fs
      .readFileSync(manifest, 'utf8')
      .replace(/address: "0x[0-9a-fA-F]+"/, `address: "${CONTRACT}"`)
      .replace(/startBlock: \d+/, `startBlock: ${head}`),
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
    await page.keyboard.press('Control+P');
    const input = quickInput().locator('input');
    await input.waitFor();
    await input.fill(`${FOLDER}/subgraph.yaml`);
    await quickInput().locator('.monaco-list-row', { hasText: 'subgraph.yaml' }).first().waitFor({ timeout: 30_000 });
    await input.press('Enter');
    await page.locator('.editor-group-container .monaco-editor .view-line', { hasText: 'specVersion' }).first().waitFor({ timeout: 30_000 });

    await runCommand(page, 'Chaindeck: Deploy to Local Graph Node');
    await quickInput().filter({ hasText: 'The subgraph name to deploy as' }).waitFor({ timeout: 15_000 });
    await quickInput().locator('input').fill(NAME);
    await quickInput().locator('input').press('Enter');

    // codegen, build, create, deploy; then the row gets a child: the deployment, under its name.
    await page.locator('.notifications-toasts', { hasText: `Deployed ${NAME} to the local graph-node.` }).waitFor({ timeout: 240_000 });
    // Open by itself, with no click: the deployment is in view.
    await localRow().and(page.locator('[aria-expanded="true"]')).waitFor({ timeout: 30_000 });
    const deployment = treeRow(NAME).filter({ hasText: /Qm\w{6}… · block \d+\/\d+ · synced · healthy/ });
    await deployment.waitFor({ timeout: 60_000 });
    await screenshot(page, 'localnode-deployed');
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
