/**
 * The Contract Storage view inside the real extension host, on our StorageDemo contract compiled
 * with solc and deployed on the runner's anvil ("Local anvil"), its Foundry artifact in the
 * workspace: the view decodes it (the layout found by its deployed code), mapping entries come
 * from its events with the values the test sent, a key no event carries is added by hand (a bad
 * one refused), a diff with an earlier block marks the changed leaves with their old values, so
 * does a diff with one transaction (its state just before and after), a
 * watched variable follows new blocks, the raw table names a mapping entry's slot, and the
 * CodeLens over `contract StorageDemo` opens the view. Expected values are what the test sent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { keccak256 } from 'ethers';
import type { TestApi } from '../../../src/extension';
import type { StorageElement } from '../../../src/editor/storage/contractStorage';
import type { DecodeSummary } from '../../../src/editor/storage/decodeCommands';
import type { RpcClient } from '../../../src/core/rpc/client';
import { compileFixture, deploy, writeArtifacts, type Deployed } from '../../support/solidity';
import { activateTestApi, anvil, until } from './helpers';

const SOURCE = 'contracts/StorageDemo.sol';
const ALICE = '0x00000000000000000000000000000000000A11cE';
const BOB = '0x0000000000000000000000000000000000000B0b';
/** Credited without an event: found only once the user adds the key. */
const CAROL = '0x00000000000000000000000000000000000c4a01';
const CAROL_SUM = '0x00000000000000000000000000000000000C4A01';

const CS = 'chaindeck.contractStorage';
const VIEW = 'chaindeck.contractStorage';

const client = { call: (method: string, params?: unknown[]) => anvil(method, params ?? []) } as unknown as RpcClient;

function workspaceRoot(): string {
  return vscode.workspace.workspaceFolders![0].uri.fsPath;
}

describe('storageDecode', () => {
  let api: TestApi;
  let demo: Deployed;
  let earlier: number;
  let tmp: string;

  const view = () => api.contractStorage;
  const element = (p: string) => until(`${p} in the Contract Storage view`, () => view().find(p));
  const row = (e: StorageElement) => view().getTreeItem(e);
  const description = async (p: string) => String(row(await element(p)).description);

  before(async function () {
    this.timeout(120_000);
    ({ api } = await activateTestApi('activate() returned no test API', (a) => a.contractStorage));
    const compiled = compileFixture('StorageDemo.sol');
    demo = await deploy(client, compiled, SOURCE, 'StorageDemo');
    // The layout where a Foundry project keeps it; the .sol file where its lens shows.
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-sd-'));
    const { foundry } = writeArtifacts(tmp, compiled, SOURCE, 'StorageDemo');
    const out = path.join(workspaceRoot(), 'out', 'StorageDemo.sol');
    fs.mkdirSync(out, { recursive: true });
    fs.copyFileSync(foundry, path.join(out, 'StorageDemo.json'));
    fs.mkdirSync(path.join(workspaceRoot(), 'contracts'), { recursive: true });
    fs.copyFileSync(path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'solidity', 'StorageDemo.sol'), path.join(workspaceRoot(), SOURCE));

    await demo.send('setPacked', 1n, 7, -2, -300, true, ALICE, 2);
    await demo.send('setStrings', 'hi', 'a long text of more than thirty-one bytes, kept in data slots', '0xc0ffee', `0x${'ab'.repeat(40)}`);
    await demo.send('transfer', ALICE, BOB, 100n);
    await demo.send('approve', ALICE, BOB, 7n);
    await demo.send('setPos', 5n, 6n, true, BOB);
    // 60 elements: more than one page of the tree.
    await demo.send(
      'setArrays',
      [1, 2, 3, 4, 5],
      [1n, 2n, 3n],
      [
        [1, 2],
        [3, 4],
        [5, 6],
      ],
      Array.from({ length: 60 }, (_, i) => 1000 + i),
      [7n],
    );
    // A note from outside: controls, a bidi override, markdown with a command link, and length.
    await demo.send('setNote', BOB, `evil \u202e\x1b[31m [x](command:workbench.action.quit) ${'z'.repeat(500)}`);
    earlier = await demo.send('credit', CAROL, 42n);
    // After the earlier block: Bob gets 50 more, the position changes, a long text is shortened.
    await demo.send('transfer', ALICE, BOB, 50n);
    await demo.send('setPos', 9n, 6n, false, BOB);
    await demo.send('setStrings', 'hi', 'now short', '0xc0ffee', `0x${'ab'.repeat(40)}`);
  });

  after(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('decodes the contract found by its deployed code: values as sent, mapping entries from the events', async function () {
    this.timeout(60_000);
    // The artifact was just written: the workspace's layouts are read again once its watcher fires.
    const shown = await until(
      'the decode of StorageDemo',
      async () => vscode.commands.executeCommand<DecodeSummary | undefined>(`${CS}.decode`, { node: 'Local anvil', address: demo.address, contract: 'StorageDemo' }),
      30_000,
    );
    assert.equal(shown.contract, `${SOURCE}:StorageDemo`);
    const value = (label: string) => shown.variables.find((v) => v.label === label)?.value;
    assert.equal(value('small8'), '7');
    assert.equal(value('neg64'), '-300');
    assert.equal(value('owner'), ALICE);
    assert.equal(value('longText'), 'now short');
    assert.deepEqual(value('balances'), { [BOB]: '150' }, 'Alice had nothing to give; Carol has no event');
    assert.deepEqual(value('allowed'), { [ALICE]: { [BOB]: '7' } });
    assert.deepEqual(value('pos'), { amount: '9', since: '6', open: false, who: BOB });

    // The tree: a mapping expands to its entries, a nested one to the inner mapping.
    const balances = await element('balances');
    assert.equal(row(balances).contextValue, 'storage:mapping:variable');
    assert.equal(row(balances).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const entries = view().getChildren(balances);
    assert.deepEqual(
      entries.map((e) => [row(e).label, row(e).description]),
      [[`[${BOB}]`, '150']],
    );
    assert.equal(await description(`allowed[${ALICE}][${BOB}]`), '7');
    const since = row(await element('pos.since'));
    assert.match(String(since.tooltip), /^pos\.since\ntype: uint64\nslot: 0x\w+, offset 16\nvalue: 6$/);
    assert.equal(await description('shortName'), '"hi"');
  });

  it('pages a long array with "Load more"', async () => {
    const list = await element('dynSmall');
    assert.equal(row(list).description, 'uint32[], 60 elements');
    const first = view().getChildren(list);
    assert.equal(first.length, 51);
    const more = first[50];
    assert.equal(more.kind, 'more');
    assert.equal(row(more).description, '10 more');
    assert.equal(row(first[49]).description, '1049');
    const command = row(more).command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    const all = view().getChildren(list);
    assert.equal(all.length, 60);
    assert.deepEqual([row(all[0]).label, row(all[0]).description, row(all[59]).label, row(all[59]).description], ['[0]', '1000', '[59]', '1059']);
  });

  it("shows a node's text inert and bounded, and the tooltip as plain text", async () => {
    const note = row(await element(`notes[${BOB}]`));
    const shown = String(note.description);
    assert.ok(!shown.includes('\u202e') && !shown.includes('\x1b'), 'no bidi override, no escape');
    assert.ok(shown.startsWith('"evil'), shown);
    assert.ok(shown.length <= 120, `${shown.length} characters`);
    assert.equal(typeof note.tooltip, 'string', 'a string tooltip is never rendered as markdown');
    assert.ok(!String(note.tooltip).includes('\u202e') && !String(note.tooltip).includes('\x1b'));
  });

  it('refuses an address without code in one message, leaving the view as it was', async () => {
    const before = view().session;
    const none = await vscode.commands.executeCommand(`${CS}.decode`, { node: 'Local anvil', address: '0x000000000000000000000000000000000000dEaD', contract: 'StorageDemo' });
    assert.equal(none, undefined);
    assert.equal(view().session, before);
  });

  it('adds a mapping key by hand, checked by its type, and remembers it for the contract', async () => {
    const refused = await vscode.commands.executeCommand(`${CS}.addKey`, { path: 'balances', key: '0x1234' });
    assert.equal(refused, undefined, 'a key that is no address is refused');
    assert.equal(view().find(`balances[${CAROL_SUM}]`), undefined);

    const added = await vscode.commands.executeCommand<{ path: string; found: boolean }>(`${CS}.addKey`, { path: 'balances', key: CAROL });
    assert.deepEqual(added, { path: `balances[${CAROL_SUM}]`, found: true });
    assert.equal(await description(`balances[${CAROL_SUM}]`), '42');
    assert.equal(view().session?.keys.includes(CAROL), true);

    // Decoding the contract again keeps the key.
    const again = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.refresh`);
    assert.deepEqual(again.variables.find((v) => v.label === 'balances')?.value, { [BOB]: '150', [CAROL_SUM]: '42' });
  });

  it('diffs with an earlier block: changed leaves carry their old value and a distinct icon; the filter keeps only them', async function () {
    this.timeout(30_000);
    const diff = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.diffWithBlock`, { block: earlier });
    assert.equal(diff.diffFrom, earlier);
    const bob = row(await element(`balances[${BOB}]`));
    assert.equal(bob.description, '150 · was 100');
    assert.equal((bob.iconPath as vscode.ThemeIcon).id, 'diff-modified');
    assert.equal(await description('pos.amount'), '9 · was 5');
    assert.equal(await description('pos.open'), 'false · was true');
    assert.equal(await description('longText'), '"now short" · was "a long text of more than thirty-one bytes, kept in data slots"');
    const carol = row(await element(`balances[${CAROL_SUM}]`));
    assert.equal(carol.description, '42', 'unchanged since the earlier block');
    assert.notEqual((carol.iconPath as vscode.ThemeIcon).id, 'diff-modified');
    assert.equal((row(await element('pos')).iconPath as vscode.ThemeIcon).id, 'symbol-structure', 'a struct with a change inside keeps its icon, coloured');

    await vscode.commands.executeCommand(`${CS}.showChangedOnly`);
    const roots = view()
      .getChildren()
      .map((e) => (e.kind === 'item' ? e.item.path : ''));
    assert.deepEqual(roots, ['longText', 'pos', 'balances']);
    assert.deepEqual(
      view()
        .getChildren(await element('balances'))
        .map((e) => row(e).label),
      [`[${BOB}]`],
    );
    await vscode.commands.executeCommand(`${CS}.showAll`);
    await vscode.commands.executeCommand(`${CS}.clearDiff`);
    assert.equal(await description(`balances[${BOB}]`), '150');
  });

  it('diffs with a transaction: the state just after it, its changes marked with the values just before', async function () {
    this.timeout(30_000);
    // The transfer of 50 to Bob, mined alone in the block after the earlier one.
    const block = (await anvil('eth_getBlockByNumber', [`0x${(earlier + 1).toString(16)}`, false])) as { transactions: string[] };
    const [hash] = block.transactions;
    const diff = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.diffWithTransaction`, { tx: hash });
    assert.equal(diff.tx, hash);
    assert.equal(diff.block, earlier + 1);
    assert.equal(diff.diffFrom, earlier);
    const bob = row(await element(`balances[${BOB}]`));
    assert.equal(bob.description, '150 · was 100');
    assert.equal((bob.iconPath as vscode.ThemeIcon).id, 'diff-modified');
    assert.equal(await description('pos.amount'), '5', 'as it was just after the transfer, before the later setPos');
    assert.match(String(view().view.message), new RegExp(`just after transaction ${hash} \\(index 0 of block ${earlier + 1}\\) — its changes`));
    await vscode.commands.executeCommand(`${CS}.refresh`);
    assert.equal(await description('pos.amount'), '9');
  });

  it('copies a path, a slot and a value', async () => {
    const bob = await element(`balances[${BOB}]`);
    assert.equal(await vscode.commands.executeCommand(`${CS}.copyPath`, bob), `balances[${BOB}]`);
    assert.equal(await vscode.env.clipboard.readText(), `balances[${BOB}]`);
    const balancesSlot = BigInt(shownSlot(await element('balances')));
    const expected = BigInt(keccak256(`0x${BOB.slice(2).toLowerCase().padStart(64, '0')}${balancesSlot.toString(16).padStart(64, '0')}`));
    assert.equal(await vscode.commands.executeCommand(`${CS}.copySlot`, bob), `0x${expected.toString(16)}`);
    assert.equal(await vscode.commands.executeCommand(`${CS}.copyValue`, bob), '150');
  });

  it('names a mapping entry the decode found in the raw storage table', async () => {
    const slot = shownSlot(await element(`balances[${BOB}]`));
    const page = await vscode.commands.executeCommand<{ page: { table: { columns: { title: string }[]; rows: string[][] } } }>('chaindeck.storage.browse', {
      node: 'Local anvil',
      address: demo.address,
      start: slot,
      max: 1,
      mode: 'emulate',
    });
    const variable = page.page.table.columns.findIndex((c) => c.title === 'Variable');
    assert.ok(variable > 0, 'a Variable column');
    assert.equal(page.page.table.rows[0][variable], `balances[${BOB}]`);
  });

  it('watches a variable: a new block brings its new value, marked with the old one', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand(`${CS}.watch`, await element('total'));
    assert.equal(row(await element('total')).contextValue, 'storage:value:variable:watched');
    await demo.send('setWords', '0xdeadbeef', ALICE, 3n, `0x${'11'.repeat(32)}`, -5n, 777n);
    await until('total read again after the new block', async () => ((await description('total')).startsWith('777 · was 0') ? true : undefined), 20_000);
    // Hidden, the view stops polling; shown again, it catches up.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await until('the view hidden', () => (view().view.visible ? undefined : true));
    await demo.send('setWords', '0xdeadbeef', ALICE, 3n, `0x${'11'.repeat(32)}`, -5n, 888n);
    await new Promise((r) => setTimeout(r, 3 * 2_000));
    assert.match(await description('total'), /^777 · was 0/, 'no reads while the view is hidden');
    await vscode.commands.executeCommand(`${VIEW}.focus`);
    await until('total read again once the view shows', async () => ((await description('total')).startsWith('888 · was 777') ? true : undefined), 20_000);
    await vscode.commands.executeCommand(`${CS}.unwatch`, await element('total'));
    assert.equal(row(await element('total')).contextValue, 'storage:value:variable');
  });

  it('shows "Decode Storage…" over contract StorageDemo, and it opens the view for that layout', async () => {
    const uri = vscode.Uri.file(path.join(workspaceRoot(), SOURCE));
    await vscode.window.showTextDocument(uri);
    const lenses = await until('the CodeLens over contract StorageDemo', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      const ours = found?.filter((l) => l.command?.command === `${CS}.decode`);
      return ours?.length ? ours : undefined;
    });
    const text = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
    assert.deepEqual(
      lenses.map((l) => text[l.range.start.line].trim().split(' ').slice(0, 2).join(' ')),
      ['contract StorageDemo'],
      'contract Base has no layout in the workspace: no lens',
    );
    const args = lenses[0].command!.arguments![0] as object;
    const shown = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.decode`, { ...args, node: 'Local anvil', address: demo.address });
    assert.equal(shown.contract, `${SOURCE}:StorageDemo`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});

function shownSlot(e: StorageElement): string {
  assert.equal(e.kind, 'item');
  return e.kind === 'item' ? e.item.slot : '';
}
