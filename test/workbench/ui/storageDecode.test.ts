/**
 * The Contract Storage view as a user meets it: our StorageDemo contract compiled with solc and
 * deployed on anvil, its Foundry artifact in the workspace; "Decode Contract Storage…" from the
 * Nodes tree's context menu asks the address, finds the layout by the deployed code, and the
 * view shows the variables; expanding the mapping shows the entry its event named, with the
 * value the test sent, and hovering it gives the slot.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { RpcClient } from '../../../src/core/rpc/client';
import { compileFixture, deploy, writeArtifacts, type Deployed } from '../../support/solidity';
import { anvil, openContainer, screenshot, screenshotOnFailure, startWorkbench, viewHeader, workbenchUrl } from './workbench';

const SOURCE = 'contracts/StorageDemo.sol';
const ALICE = '0x00000000000000000000000000000000000A11cE';
const BOB = '0x0000000000000000000000000000000000000B0b';

let browser: Browser;
let page: Page;
let demo: Deployed;
let tmp: string;

before(async () => {
  const client = { call: (method: string, params?: unknown[]) => anvil(method, params ?? []) } as unknown as RpcClient;
  const compiled = compileFixture('StorageDemo.sol');
  demo = await deploy(client, compiled, SOURCE, 'StorageDemo');
  await demo.send('transfer', ALICE, BOB, 1234n);
  await demo.send('setStrings', 'from the ui test', '', '0x', '0x');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-sd-ui-'));
  const { foundry } = writeArtifacts(tmp, compiled, SOURCE, 'StorageDemo');
  const workspace = new URL(workbenchUrl()).searchParams.get('folder')!;
  const out = path.join(workspace, 'out', 'StorageDemo.sol');
  fs.mkdirSync(out, { recursive: true });
  fs.copyFileSync(foundry, path.join(out, 'StorageDemo.json'));
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string | RegExp) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const storagePane = () => page.locator('.part.sidebar .pane', { has: page.locator('h3.title', { hasText: /^Contract Storage$/ }) });

/** Scrolls the Contract Storage view until `row` is drawn (the tree draws only the rows in sight). */
async function scrollTo(row: ReturnType<typeof treeRow>): Promise<void> {
  for (let i = 0; i < 40 && !(await row.first().isVisible()); i++) {
    await storagePane().locator('.monaco-list').hover();
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(100);
  }
  await row.first().waitFor({ timeout: 5_000 });
}

test('decodes a contract from the Nodes tree and expands its mapping to the entry its event named', () =>
  screenshotOnFailure(page, 'storage-decode', async () => {
    await openContainer(page, 'Chaindeck');
    const node = treeRow(/^Local anvil/).first();
    await node.waitFor({ timeout: 20_000 });
    await node.click({ button: 'right' });
    await page.locator('.context-view .action-item', { hasText: 'Decode Contract Storage…' }).hover();
    await page.keyboard.press('Enter');

    await quickInput().filter({ hasText: 'The contract address' }).waitFor({ timeout: 15_000 });
    await quickInput().locator('input').fill(demo.address);
    await quickInput().locator('input').press('Enter');

    // The layout is found by the deployed code: no question; the view lists the variables.
    await treeRow(/^baseVal/).waitFor({ timeout: 30_000 });
    // Room for the view: the other views of the container folded.
    for (const other of ['Nodes', 'Subgraphs', 'Platform']) await viewHeader(page, other).click();
    const name = treeRow(/^shortName/);
    await scrollTo(name);
    assert.match((await name.textContent()) ?? '', /"from the ui test"/);
    const balances = treeRow(/^balances/).first();
    await scrollTo(balances);
    assert.match((await balances.textContent()) ?? '', /mapping\(address => uint256\), 1 entry found/);
    await balances.click();
    const entry = treeRow(`[${BOB}]`);
    await entry.waitFor({ timeout: 15_000 });
    assert.match((await entry.textContent()) ?? '', /1234/);
    await screenshot(page, 'storage-decode-mapping');

    // Hovering the entry shows its path and slot as plain text (scrolled into view first: at the
    // view's bottom edge the pointer may land outside the row and no hover opens).
    // A hover that did not open (the pointer arrived while the tree was still settling) is tried
    // again from outside the row, as a person moves the mouse off and back.
    await scrollTo(entry);
    const hover = page.locator('.monaco-hover, .custom-hover, .workbench-hover').filter({ hasText: `balances[${BOB}]` });
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(0, 0);
      await entry.hover();
      const opened = await hover
        .first()
        .waitFor({ timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (opened) break;
      assert.ok(attempt < 3, `no hover on the entry after ${attempt} tries`);
    }
    assert.match((await hover.first().textContent()) ?? '', /slot: 0x[0-9a-f]{50,64}/);
  }));
