/**
 * Browsing storage as a user does: 25 slots written on anvil, the Storage panel opened from the
 * Nodes tree's context menu, the form filled in, pages walked forward and back, a cell copied,
 * the page exported as CSV through the save dialog. Also: the panel never holds a node's key,
 * and the table stays light with 10,000 rows (a synthetic page posted into the panel).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { anvil, env, openContainer, runCommand, screenshot, screenshotOnFailure, startWorkbench, webviewFrame } from './workbench';

const CONTRACT = '0x00000000000000000000000000000000c0ffee25';
/** Shaped like a provider's access key: it must never reach the panel. */
const KEY = '7f3e9a1c5b2d4e6f8a0b1c2d3e4f5a6b';
const KEYED_NODE = 'Keyed storage node';
const HOLDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** keccak256(pad32(0) ‖ pad32(0)): mapping at slot 0, key 0. */
const MAPPING_0_0 = '0xad3228b676f7d3cd4284a5443f17f1962b36e491b30a40b2405849e597ba5fb5';

let browser: Browser;
let page: Page;

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

before(async () => {
  // Slots 0..24 hold 0x100 + slot: three pages of ten (the last one five).
  for (let slot = 0n; slot < 25n; slot++) await anvil('anvil_setStorageAt', [CONTRACT, word(slot), word(0x100n + slot)]);
  // Slot 5 holds an address: the only row of the first page with an Address reading.
  await anvil('anvil_setStorageAt', [CONTRACT, word(5n), word(BigInt(HOLDER))]);
  // mapping(uint256 => uint256) at slot 0: the value of key 0 is 42.
  await anvil('anvil_setStorageAt', [CONTRACT, MAPPING_0_0, word(42n)]);
  await anvil('evm_mine', []);
  ({ browser, page } = await startWorkbench());
});

after(async () => {
  await browser?.close();
});

const quickInput = () => page.locator('.quick-input-widget');
const treeRow = (text: string) => page.locator('.part.sidebar [role="treeitem"]', { hasText: text });
const panel = () => webviewFrame(page);
const rows = () => panel().locator('.dt-rows [role="row"]');
const firstCell = (index: number) => panel().locator(`.dt-rows [role="row"][data-index="${index}"] [role="gridcell"]`).first();

async function answer(prompt: string, text?: string): Promise<void> {
  await quickInput().filter({ hasText: prompt }).waitFor({ timeout: 15_000 });
  const input = quickInput().locator('input');
  if (text !== undefined) await input.fill(text);
  await input.press('Enter');
}

/** Filters the open quick pick by `text` and accepts the first item that shows it. */
async function choose(text: string): Promise<void> {
  // The quick input is reused from step to step: wait until the list offering the item is up,
  // or the text would go into the previous step's box.
  await quickInput().locator('.monaco-list-row', { hasText: text }).first().waitFor({ timeout: 15_000 });
  const input = quickInput().locator('input');
  await input.fill(text);
  // Wait for the filter to have made the item the active one: the row may be visible before.
  await quickInput().locator('.monaco-list-row.focused', { hasText: text }).first().waitFor({ timeout: 15_000 });
  await input.press('Enter');
}

/** Chooses an item of a tree row's context menu (the keyboard is the dependable way). */
async function contextMenu(row: string, item: string): Promise<void> {
  await treeRow(row).click({ button: 'right' });
  await page.locator('.context-view .action-item', { hasText: item }).hover();
  await page.keyboard.press('Enter');
}

/** Waits until the panel shows page `n` whose first slot is `slot`. */
async function showsPage(n: number, slot: string, count: number): Promise<void> {
  await panel()
    .locator('.page-label', { hasText: `Page ${n}` })
    .waitFor({ timeout: 20_000 });
  await panel()
    .locator('.dt-rows [role="row"][data-index="0"] [role="gridcell"]', { hasText: new RegExp(`^${slot}$`) })
    .waitFor({ timeout: 10_000 });
  assert.equal(await rows().count(), count);
}

/** The panel's innermost frame, for what locators cannot do (evaluate a script, read the whole HTML). */
async function panelFrame(): Promise<Frame> {
  for (let i = 0; i < 50; i++) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('.dt-scroll')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error('no Storage panel frame');
}

test('opens the Storage panel from the Nodes tree and walks the pages', () =>
  screenshotOnFailure(page, 'storage-pages', async () => {
    await openContainer(page, 'Chaindeck');
    // A node with an access key: the panel may show its name and redacted URL, never the key.
    await runCommand(page, 'Chaindeck: Add Node');
    await answer("Paste the node's HTTPS or WSS endpoint", `https://ethereum-mainnet.core.example.com/${KEY}`);
    await answer('A name for the node', KEYED_NODE);
    await quickInput().locator('.monaco-list-row', { hasText: 'EVM' }).waitFor({ timeout: 15_000 });
    await answer('Ethereum and EVM-compatible chains');
    await treeRow(KEYED_NODE).waitFor({ timeout: 15_000 });

    await contextMenu('Local anvil', 'Browse Storage…');
    const address = panel().locator('input[name="address"]');
    await address.waitFor({ timeout: 20_000 });
    assert.equal(await panel().locator('select[name="node"] option:checked').textContent(), 'Local anvil');
    assert.equal(await panel().locator('input[name="block"]').inputValue(), 'latest');
    assert.equal(await panel().locator('input[name="max"]').inputValue(), '10');

    await address.fill(CONTRACT);
    await panel().getByRole('button', { name: 'Read Storage' }).click();
    await showsPage(1, '0x0', 10);
    const banner = panel().locator('.banner');
    assert.match((await banner.textContent()) ?? '', /Emulated with eth_getStorageAt/);
    // No tx index was given: the field stays empty and the caveat names none.
    assert.equal(await panel().locator('input[name="txIndex"]').inputValue(), '');
    assert.match((await banner.textContent()) ?? '', /Reads show end-of-block state/);
    assert.doesNotMatch((await banner.textContent()) ?? '', /tx index/i);
    assert.match((await banner.textContent()) ?? '', /Slower: \d+ reads/);
    assert.match((await panel().locator('.summary').textContent()) ?? '', /block \d+.*hash 0x[0-9a-f]{64}/);
    assert.equal(await panel().locator('.dt-rows [role="row"][data-index="0"] [role="gridcell"]').nth(2).textContent(), '256');
    // The Address column: empty beside small integers, the checksummed address where one is stored.
    const addressCell = (row: number) => panel().locator(`.dt-rows [role="row"][data-index="${row}"] [role="gridcell"]`).nth(3);
    assert.equal(await addressCell(0).textContent(), '', 'the number 256 shown as an address');
    assert.equal(await addressCell(5).textContent(), HOLDER);
    await screenshot(page, 'storage-page1');

    const next = panel().getByRole('button', { name: 'Next ›' });
    const previous = panel().getByRole('button', { name: '‹ Previous' });
    assert.ok(await previous.isDisabled(), 'Previous should be disabled on the first page');
    await next.click();
    await showsPage(2, '0xa', 10);
    await next.click();
    await showsPage(3, '0x14', 5);
    assert.ok(await next.isDisabled(), 'Next should be disabled on the last page');
    await screenshot(page, 'storage-page3');
    await previous.click();
    await showsPage(2, '0xa', 10);
    await previous.click();
    await showsPage(1, '0x0', 10);
    assert.equal(await firstCell(0).textContent(), '0x0');

    // A click copies the cell, and says so.
    await firstCell(3).click();
    await panel().locator('.dt-status', { hasText: 'Copied slot: 0x3' }).waitFor({ timeout: 10_000 });
  }));

test('exports the page as CSV through the save dialog', () =>
  screenshotOnFailure(page, 'storage-export', async () => {
    const file = path.join(env('CHAINDECK_TEST_WORKSPACE'), 'storage-ui-page1.csv');
    fs.rmSync(file, { force: true });
    await panel().getByRole('button', { name: 'Export CSV…' }).click();
    // code-server's save dialog is a quick input holding a path.
    const input = quickInput().locator('input');
    await input.waitFor({ timeout: 15_000 });
    // The dialog fills in the suggested path once it has read the folder; type ours after that.
    for (let i = 0; i < 100 && !(await input.inputValue()).endsWith('.csv'); i++) await page.waitForTimeout(100);
    // The name says which contract and which block.
    const suggested = await input.inputValue();
    assert.match(suggested, new RegExp(`/storage-${CONTRACT}-block-\\d+\\.csv$`));
    await screenshot(page, 'storage-export-name');
    await input.fill(file);
    await input.press('Enter');
    for (let i = 0; i < 100 && !fs.existsSync(file); i++) await page.waitForTimeout(100);
    assert.ok(fs.existsSync(file), `${file} was not written`);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines[0], 'Slot,Value,Decimal,Address,Text');
    assert.equal(lines.length, 11);
    assert.equal(lines[1], `0x0,${word(0x100n)},256,,`);
    assert.equal(lines[6], `0x5,${word(BigInt(HOLDER)).toLowerCase()},${BigInt(HOLDER)},${HOLDER},`);
    assert.match(lines[10], /^0x9,/);
    await panel().locator('.export-note', { hasText: 'Saved storage-ui-page1.csv' }).waitFor({ timeout: 10_000 });
  }));

test('cancels a long read from the panel and keeps the page shown', () =>
  screenshotOnFailure(page, 'storage-cancel', async () => {
    // Up to a million reads from an empty region: long enough to cancel midway.
    await panel().locator('input[name="start"]').fill('0x100000');
    await panel().locator('input[name="max"]').fill('100000');
    await panel().getByRole('button', { name: 'Read Storage' }).click();
    const progress = panel().locator('.progress');
    await progress.locator('.progress-text', { hasText: /\d+ of at most 1000000 reads/ }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'storage-progress');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await progress.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.ok(await panel().locator('.error').isHidden(), 'a cancellation is not an error');
    await showsPage(1, '0x0', 10);

    await panel().locator('input[name="start"]').fill('0');
    await panel().locator('input[name="max"]').fill('10');
  }));

test('never puts a node key into the panel', () =>
  screenshotOnFailure(page, 'storage-secrets', async () => {
    const select = panel().locator('select[name="node"]');
    await select.selectOption({ label: KEYED_NODE });
    await panel().locator('.node-url', { hasText: 'https://ethereum-mainnet.core.example.com/***' }).waitFor({ timeout: 10_000 });
    const html = await (await panelFrame()).content();
    assert.ok(!html.includes(KEY), 'the key is in the panel');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; script-src 'nonce-/);
    await screenshot(page, 'storage-keyed-node');
    await select.selectOption({ label: 'Local anvil' });

    await openContainer(page, 'Chaindeck');
    await contextMenu(KEYED_NODE, 'Remove Node…');
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove' }).click();
    await treeRow(KEYED_NODE).waitFor({ state: 'detached', timeout: 15_000 });
  }));

test('computes a mapping slot from the palette and reads it', () =>
  screenshotOnFailure(page, 'storage-slot-tools', async () => {
    await runCommand(page, 'Chaindeck: Compute Mapping Slot');
    await answer('The slot the mapping is declared at', '0');
    await choose('uint256');
    await answer('The uint256 key', '0');
    const result = quickInput().locator('.monaco-list-row', { hasText: MAPPING_0_0 });
    await result.waitFor({ timeout: 15_000 });
    await screenshot(page, 'storage-mapping-slot');

    await choose('Read This Slot');
    await answer('The contract address', CONTRACT);
    const decimal = quickInput().locator('.monaco-list-row', { hasText: 'Decimal' });
    await decimal.waitFor({ timeout: 15_000 });
    assert.match((await decimal.textContent()) ?? '', /^\s*42\s*Decimal/);
    await screenshot(page, 'storage-read-slot');
    await page.keyboard.press('Escape');
  }));

test('renders 10,000 rows with only the visible ones in the DOM', () =>
  screenshotOnFailure(page, 'storage-10k', async () => {
    const frame = await panelFrame();
    // A page as the host would post it, built inside the panel: the same path real pages take.
    const ms = await frame.evaluate(`(() => {
      const rows = Array.from({ length: 10000 }, (_, i) => ['0x' + i.toString(16), '0x' + (i + 1).toString(16).padStart(64, '0'), String(i + 1), '', 'row ' + i]);
      const columns = [['slot', 'Slot', 130], ['value', 'Value', 500], ['decimal', 'Decimal', 120], ['address', 'Address', 200], ['text', 'Text', 120]]
        .map(([id, title, width]) => ({ id, title, width }));
      const params = { table: { columns, rows }, mode: 'emulate', address: '0x0000000000000000000000000000000000000000', nodeName: 'synthetic',
        block: { number: '1', hash: '0x' + '0'.repeat(64) }, pageNumber: 1, hasPrevious: false, hasNext: false, notes: ['A synthetic page of 10,000 rows.'], warnings: [] };
      const t0 = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data: { kind: 'notify', method: 'page', params } }));
      document.body.getBoundingClientRect();
      return performance.now() - t0;
    })()`);
    assert.ok(Number(ms) < 2000, `posting 10,000 rows took ${ms} ms`);
    const grid = panel().locator('.dt-scroll');
    assert.equal(await grid.getAttribute('aria-rowcount'), '10001');
    const drawn = await rows().count();
    assert.ok(drawn > 0 && drawn < 100, `${drawn} rows in the DOM`);
    await screenshot(page, 'storage-10k-top');

    // Scrolled to the end, the last row is drawn, and still only a window of rows.
    await grid.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = panel().locator('.dt-rows [role="row"][data-index="9999"]');
    await last.waitFor({ timeout: 10_000 });
    assert.match((await last.textContent()) ?? '', /row 9999/);
    assert.ok((await rows().count()) < 100);
    await screenshot(page, 'storage-10k-end');

    // The keyboard walks the grid too: Ctrl+Home to the first row, Ctrl+End back to the last.
    await grid.focus();
    await page.keyboard.press('Control+Home');
    await panel().locator('.dt-rows [role="row"][data-index="0"]').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Control+End');
    await last.waitFor({ timeout: 10_000 });
    assert.match((await panel().locator('.dt-active').textContent()) ?? '', /^0x270f$/);
  }));
