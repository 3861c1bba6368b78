/**
 * The demo's first minute, as a newcomer clicks it: the demo's own contracts (scripts/demo) on
 * anvil and its compiler output where the demo writes it (artifacts/build-info/). "Decode
 * Contract Storage…" from the Nodes tree with the Points proxy's address says "ERC-1967 proxy →
 * implementation 0x… (Points)" and shows the namespace with the balances read through the proxy
 * and the implementation slot; on DemoToken, `_allowances` shows its two entries and where the
 * search stopped, and clicking that row asks for a key.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { demoBuildInfo, writeBuildInfo } from '../../../scripts/demo/build';
import { setUpDemoChain } from '../../../scripts/demo/chain';
import { deployPoints, type DeployedPoints } from '../../../scripts/demo/points';
import { env, openContainer, screenshot, screenshotOnFailure, startWorkbench, viewHeader, workbenchUrl } from './workbench';

let browser: Browser;
let page: Page;
let points: DeployedPoints;
let token: string;

before(async () => {
  const info = demoBuildInfo();
  token = (await setUpDemoChain(env('CHAINDECK_TEST_ANVIL_URL'), 1_000)).address;
  points = await deployPoints(env('CHAINDECK_TEST_ANVIL_URL'), info);
  writeBuildInfo(path.resolve(new URL(workbenchUrl()).searchParams.get('folder')!), info);
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
});

const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string | RegExp) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const storagePane = () => page.locator('.part.sidebar .pane', { has: page.locator('h3.title', { hasText: /^Contract Storage$/ }) });

/** Opens or folds a view of the container (earlier test files may have left it either way). */
async function setExpanded(name: string, open: boolean): Promise<void> {
  const header = viewHeader(page, name);
  if ((await header.getAttribute('aria-expanded')) !== String(open)) await header.click();
}

/** "Decode Contract Storage…" on the Local anvil node, with `address`; then the other views folded, for room. */
async function decode(address: string): Promise<void> {
  await setExpanded('Nodes', true);
  const node = treeRow(/^Local anvil/).first();
  await node.waitFor({ timeout: 20_000 });
  await node.click({ button: 'right' });
  await page.locator('.context-view .action-item', { hasText: 'Decode Contract Storage…' }).hover();
  await page.keyboard.press('Enter');
  await quickInput().filter({ hasText: 'The contract address' }).waitFor({ timeout: 15_000 });
  await quickInput().locator('input').fill(address);
  await quickInput().locator('input').press('Enter');
  for (const other of ['Nodes', 'Subgraphs', 'Platform']) await setExpanded(other, false);
  await setExpanded('Contract Storage', true);
}

test('the Points proxy: the view names the proxy and its implementation, and shows the namespaced balances read through it', () =>
  screenshotOnFailure(page, 'storage-demo-proxy', async () => {
    await openContainer(page, 'Chaindeck');
    await decode(points.proxy);
    // The layout is found by the implementation's code: no question.
    await storagePane()
      .filter({ hasText: `ERC-1967 proxy → implementation ${points.implementation} (Points)` })
      .waitFor({ timeout: 60_000 });
    const namespace = treeRow(/^erc7201:openzeppelin\.storage\.ERC20/).first();
    await namespace.waitFor({ timeout: 15_000 });
    assert.match((await namespace.textContent()) ?? '', /struct ERC20Upgradeable\.ERC20Storage/);
    const implementation = treeRow(/^eip1967\.proxy\.implementation/).first();
    assert.match((await implementation.textContent()) ?? '', new RegExp(points.implementation));
    await namespace.click();
    const balances = treeRow(/^_balances/).first();
    await balances.waitFor({ timeout: 15_000 });
    assert.match((await balances.textContent()) ?? '', /3 entries found/);
    await balances.click();
    const [alice, balance] = Object.entries(points.state.balances)[0];
    const entry = treeRow(`[${alice}]`).first();
    await entry.waitFor({ timeout: 15_000 });
    assert.match((await entry.textContent()) ?? '', new RegExp(balance.toString()));
    await screenshot(page, 'storage-demo-proxy');
  }));

test('DemoToken: _allowances shows its two entries and where the search stopped; clicking that row asks for a key', () =>
  screenshotOnFailure(page, 'storage-demo-allowances', async () => {
    await decode(token);
    // The view shows DemoToken now, not the Points proxy (whose namespace has an _allowances too).
    await storagePane()
      .filter({ hasText: `DemoToken (contracts/DemoToken.sol) at ${token}` })
      .waitFor({ timeout: 60_000 });
    // Its _allowances (the Points namespace above had one too, without a stopped search, until the tree redraws).
    const allowances = treeRow(/^_allowancesmapping\(address => mapping\(address => uint256\)\), 2 entries found, search stopped at 100,000 combinations — Add Key…$/).first();
    await allowances.waitFor({ timeout: 60_000 });
    await allowances.click();
    const stopped = treeRow(/^search stopped at 100,000 combinations — Add Key…/).first();
    await stopped.waitFor({ timeout: 15_000 });
    await screenshot(page, 'storage-demo-allowances');
    await stopped.click();
    await quickInput().filter({ hasText: 'Add Key to _allowances' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
  }));
