/**
 * The Storage feature inside the real extension host, against the runner's anvil ("Local anvil",
 * the default node; anvil has no debug_storageRangeAt, so auto mode emulates). Storage is written
 * with anvil_setStorageAt; the commands are run with options, so no input is asked.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import { activateTestApi, anvil, until } from './helpers';

const CONTRACT = '0x00000000000000000000000000000000c0ffee01';
const PROXY = '0x00000000000000000000000000000000c0ffee02';
const VAULT = '0x00000000000000000000000000000000c0ffee03';
/** Runtime code of the Vault below: any bytes will do, as long as the artifact holds the same. */
const VAULT_CODE = '0x6080604052348015600e575f80fd5b50600436106026575f3560e01c8063c0ffee0314602a575b5f80fd5b00';
const HOLDERS_DATA = 0xc2575a0e9e593c00f959f8c92f12db2869c3395a3b0502d05e2516446f71f85bn; // keccak256(pad32(3))

/** A Foundry artifact (out/<File>.sol/<Name>.json) with the storage layout solc writes. */
const VAULT_ARTIFACT = {
  abi: [],
  deployedBytecode: { object: VAULT_CODE, linkReferences: {}, immutableReferences: {} },
  metadata: { settings: { compilationTarget: { 'src/Vault.sol': 'Vault' } } },
  storageLayout: {
    storage: [
      { astId: 1, contract: 'src/Vault.sol:Vault', label: 'owner', offset: 0, slot: '0', type: 't_address' },
      { astId: 2, contract: 'src/Vault.sol:Vault', label: 'paused', offset: 20, slot: '0', type: 't_bool' },
      { astId: 3, contract: 'src/Vault.sol:Vault', label: 'total', offset: 0, slot: '1', type: 't_uint256' },
      { astId: 4, contract: 'src/Vault.sol:Vault', label: 'balances', offset: 0, slot: '2', type: 't_mapping(t_address,t_uint256)' },
      { astId: 5, contract: 'src/Vault.sol:Vault', label: 'holders', offset: 0, slot: '3', type: 't_array(t_address)dyn_storage' },
    ],
    types: {
      t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
      t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
      t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' },
      't_mapping(t_address,t_uint256)': { encoding: 'mapping', key: 't_address', label: 'mapping(address => uint256)', numberOfBytes: '32', value: 't_uint256' },
      't_array(t_address)dyn_storage': { encoding: 'dynamic_array', label: 'address[]', numberOfBytes: '32', base: 't_address' },
    },
  },
};
const IMPLEMENTATION = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const EIP1967 = {
  implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
};

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

function storageTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('chaindeck.storage'));
}

interface RangeResult {
  mode: string;
  storage: Record<string, { key: string | null; value: string }>;
  nextKey: string | null;
  block: { number: number; hash: string };
  page: { table: { columns: { title: string }[]; rows: string[][] }; layout?: string; notes: string[] };
}

function artifactFile(): string {
  return path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'out', 'Vault.sol', 'Vault.json');
}

describe('storage', () => {
  let api: TestApi;

  before(async () => {
    ({ api } = await activateTestApi('activate() returned no test API'));
    // Slots 0..11 hold 1..12; slot 1 holds a short string "hi".
    for (let slot = 0n; slot < 12n; slot++) await anvil('anvil_setStorageAt', [CONTRACT, word(slot), word(slot + 1n)]);
    await anvil('anvil_setStorageAt', [CONTRACT, word(1n), `0x${Buffer.from('hi').toString('hex').padEnd(62, '0')}04`]);
    await anvil('anvil_setStorageAt', [PROXY, EIP1967.implementation, word(BigInt(IMPLEMENTATION))]);
    // The Vault: owner and paused packed in slot 0, total in 1, two holders in the array at 3.
    await anvil('anvil_setCode', [VAULT, VAULT_CODE]);
    await anvil('anvil_setStorageAt', [VAULT, word(0n), `0x0000000000000000000000${'01'}${IMPLEMENTATION.slice(2).toLowerCase()}`]);
    await anvil('anvil_setStorageAt', [VAULT, word(1n), word(1000n)]);
    await anvil('anvil_setStorageAt', [VAULT, word(3n), word(2n)]);
    await anvil('anvil_setStorageAt', [VAULT, word(HOLDERS_DATA), word(0xaan)]);
    await anvil('anvil_setStorageAt', [VAULT, word(HOLDERS_DATA + 1n), word(0xbbn)]);
    await anvil('evm_mine', []);
    fs.mkdirSync(path.dirname(artifactFile()), { recursive: true });
    fs.writeFileSync(artifactFile(), JSON.stringify(VAULT_ARTIFACT));
  });

  after(() => {
    fs.rmSync(path.dirname(path.dirname(artifactFile())), { recursive: true, force: true });
  });

  afterEach(async () => {
    await vscode.window.tabGroups.close(storageTabs());
  });

  it('browses a contract’s storage in a panel, emulated on anvil, page by page', async () => {
    const first = await vscode.commands.executeCommand<RangeResult>('chaindeck.storage.browse', { node: 'Local anvil', address: CONTRACT, max: 10 });
    assert.ok(first, 'the command resolved without a result');
    assert.equal(first.mode, 'emulate');
    assert.deepEqual(Object.keys(first.storage), ['0x0', '0x1', '0x2', '0x3', '0x4', '0x5', '0x6', '0x7', '0x8', '0x9']);
    assert.equal(first.storage['0x0'].value, word(1n));
    assert.equal(first.storage['0x0'].key, null);
    assert.equal(first.nextKey, '0xa');
    assert.match(first.block.hash, /^0x[0-9a-f]{64}$/);
    // The page as the panel shows it: decoded values, and the emulation's caveats.
    assert.deepEqual(
      first.page.table.columns.map((c) => c.title),
      ['Slot', 'Value', 'Decimal', 'Address', 'Text'],
    );
    assert.deepEqual(first.page.table.rows[1].slice(2), ['47226055194461434745431958897357469009552817079588419131632412154350433992708', '', 'hi']);
    // Slot 0 holds 1: a number, with no address reading beside it.
    assert.deepEqual(first.page.table.rows[0].slice(2), ['1', '', '']);
    // No tx index was given: the caveat names none.
    assert.ok(first.page.notes.includes('Reads show end-of-block state.'), first.page.notes.join('\n'));
    assert.ok(!first.page.notes.some((n) => /tx index/i.test(n)), first.page.notes.join('\n'));

    // The tab shows the panel's title a moment after it is set.
    await until('the Storage panel titled with the contract', () => storageTabs().find((t) => /^Storage 0x0000…ee01$/i.test(t.label)));

    // The next page, from nextKey, in a second call: two entries, then the end.
    const second = await vscode.commands.executeCommand<RangeResult>('chaindeck.storage.browse', { address: CONTRACT, start: first.nextKey!, block: first.block.hash, mode: 'emulate' });
    assert.deepEqual(Object.keys(second.storage), ['0xa', '0xb']);
    assert.equal(second.nextKey, null);
    assert.equal(storageTabs().length, 1, 'a request for the same contract should reuse its panel');
  });

  it('names variables from a Foundry artifact whose code matches the contract', async () => {
    const shown = await vscode.commands.executeCommand<RangeResult>('chaindeck.storage.browse', { address: VAULT, mode: 'emulate' });
    assert.equal(shown.page.layout, 'Vault (src/Vault.sol)');
    const titles = shown.page.table.columns.map((c) => c.title);
    const variable = titles.indexOf('Variable');
    assert.ok(variable > 0, `no Variable column in ${titles.join(', ')}`);
    assert.deepEqual(
      shown.page.table.rows.map((r) => [r[0], r[variable]]),
      [
        ['0x0', 'owner, paused'],
        ['0x1', 'total'],
        ['0x3', 'holders.length'],
      ],
    );
    // Above keccak256(3) lie the holders themselves.
    const elements = await vscode.commands.executeCommand<RangeResult>('chaindeck.storage.browse', { address: VAULT, start: `0x${HOLDERS_DATA.toString(16)}`, max: 2, mode: 'emulate' });
    assert.deepEqual(
      elements.page.table.rows.map((r) => r[variable]),
      ['holders[0]', 'holders[1]'],
    );
  });

  it('shows a bad address in the panel and the log, and reads nothing', async () => {
    const result = await vscode.commands.executeCommand('chaindeck.storage.browse', { address: '0x1234', max: 10 });
    assert.equal(result, undefined);
    await until('the Storage panel', () => storageTabs()[0]);
    const logFile = path.join(api.logUri.fsPath, 'Chaindeck.log');
    const log = await until('the refusal in the log', () => {
      const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      return /Storage form: Invalid address '0x1234'/.test(text) ? text : undefined;
    });
    assert.match(log, /an address is 0x followed by 40 hex digits/);
  });

  it('gives the EIP-1967 slots', async () => {
    const slots = await vscode.commands.executeCommand('chaindeck.storage.eip1967Slots', {});
    assert.deepEqual(slots, EIP1967);
  });

  it('computes mapping, nested mapping and array element slots', async () => {
    // keccak256(pad32(0) ‖ pad32(0)): mapping(uint256 => …) at slot 0, key 0.
    const simple = await vscode.commands.executeCommand<{ slot: string }>('chaindeck.storage.mappingSlot', { slot: 0, key: '0', keyType: 'uint256' });
    assert.equal(simple.slot, '0xad3228b676f7d3cd4284a5443f17f1962b36e491b30a40b2405849e597ba5fb5');
    const nested = await vscode.commands.executeCommand<{ slot: string }>('chaindeck.storage.mappingSlot', {
      slot: 0,
      keys: [
        { key: '0', type: 'uint256' },
        { key: '0', type: 'uint256' },
      ],
    });
    const again = await vscode.commands.executeCommand<{ slot: string }>('chaindeck.storage.mappingSlot', { slot: simple.slot, key: '0', keyType: 'uint256' });
    assert.equal(nested.slot, again.slot, 'a nested key applies to the outer mapping’s slot');
    // keccak256(pad32(2)) + 3: element 3 of a uint256[] at slot 2.
    const array = await vscode.commands.executeCommand<{ slot: string; dataSlot: string }>('chaindeck.storage.arraySlot', { slot: 2, index: 3 });
    assert.equal(array.dataSlot, '0x405787fa12a823e0f2b7631cc41b3ba8828b3321ca811111fa75cd3aa3bb5ace');
    assert.equal(BigInt(array.slot), BigInt(array.dataSlot) + 3n);
  });

  it('reads one slot with eth_getStorageAt and decodes it', async () => {
    const value = await vscode.commands.executeCommand<{ hex: string; address?: string }>('chaindeck.storage.readSlot', { address: PROXY, slot: EIP1967.implementation });
    assert.equal(value.address, IMPLEMENTATION);
    const text = await vscode.commands.executeCommand<{ text?: string }>('chaindeck.storage.readSlot', { node: 'Local anvil', address: CONTRACT, slot: '1' });
    assert.equal(text.text, 'hi');
  });
});
