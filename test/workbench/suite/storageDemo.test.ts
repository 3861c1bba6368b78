/**
 * What `npm run demo` shows in the Contract Storage view, inside the real extension host: the
 * demo's own contracts (scripts/demo, deployed on the runner's anvil, "Local anvil") and its
 * compiler output written where the demo writes it (artifacts/build-info/). Decoding the Points
 * proxy with nothing but its address finds the layout by the implementation's code, says
 * "ERC-1967 proxy → implementation 0x… (Points)", and shows the state kept at the proxy: the
 * `erc7201:openzeppelin.storage.ERC20` namespace with the balances, Points' own namespace and the
 * `eip1967.proxy.implementation` slot. DemoToken's `_allowances` shows the two allowances its
 * Approval events name, though every pair of its thousand holders is beyond the search's bound,
 * and says where the search stopped with a row that runs "Add Key…". Expected values are what
 * the demo sent.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { StorageElement } from '../../../src/editor/storage/contractStorage';
import type { DecodeSummary } from '../../../src/editor/storage/decodeCommands';
import { demoBuildInfo, deployPoints, setUpDemoChain, writeBuildInfo } from '../../support/demoChain';
import { activateTestApi, anvil, until } from './helpers';

const CS = 'chaindeck.contractStorage';
/** The demo's airdrop: every pair of its holders is ten times the 100,000 combinations a search tries. */
const AIRDROP = 1_000;
const units = (n: number) => (BigInt(n) * 10n ** 18n).toString();

describe('storageDemo', () => {
  let api: TestApi;
  let points: Awaited<ReturnType<typeof deployPoints>>;
  let token: string;

  const view = () => api.contractStorage;
  const element = (p: string) => until(`${p} in the Contract Storage view`, () => view().find(p));
  const row = (e: StorageElement) => view().getTreeItem(e);
  const description = async (p: string) => String(row(await element(p)).description);

  before(async function () {
    this.timeout(180_000);
    ({ api } = await activateTestApi('activate() returned no test API', (a) => a.contractStorage));
    const url = process.env.CHAINDECK_TEST_ANVIL_URL!;
    const info = demoBuildInfo();
    token = (await setUpDemoChain(url, AIRDROP)).address;
    points = await deployPoints(url, info);
    writeBuildInfo(vscode.workspace.workspaceFolders![0].uri.fsPath, info);
  });

  it('decodes the Points proxy from its address alone: namespaced state read through the proxy, the proxy named with its implementation', async function () {
    this.timeout(60_000);
    // The build-info was just written: the workspace's layouts are read again once its watcher fires.
    const shown = await until(
      'the decode of the Points proxy',
      async () => {
        const s = await vscode.commands.executeCommand<DecodeSummary | undefined>(`${CS}.decode`, { node: 'Local anvil', address: points.proxy });
        return s?.contract.endsWith(':Points') ? s : undefined;
      },
      30_000,
    );
    assert.equal(shown.address, points.proxy);
    assert.ok(String(view().view.message).includes(`ERC-1967 proxy → implementation ${points.implementation} (Points)`), `the view says what the address is: ${view().view.message}`);

    const { state } = points;
    const value = (label: string) => shown.variables.find((v) => v.label === label)?.value;
    const erc20 = value('erc7201:openzeppelin.storage.ERC20') as Record<string, unknown>;
    assert.deepEqual(erc20._balances, Object.fromEntries(Object.entries(state.balances).map(([k, v]) => [k, v.toString()])));
    assert.deepEqual(erc20._allowances, Object.fromEntries(Object.entries(state.allowances).map(([o, m]) => [o, Object.fromEntries(Object.entries(m).map(([s, v]) => [s, v.toString()]))])));
    assert.equal(erc20._name, state.name);
    assert.equal(erc20._symbol, state.symbol);
    assert.deepEqual(value('erc7201:example.points.main'), {
      season: '1',
      open: true,
      keeper: state.keeper,
      scores: state.scores.map(String),
      bonus: Object.fromEntries(Object.entries(state.bonus).map(([k, v]) => [k, v.toString()])),
      motto: state.motto,
    });
    assert.equal(value('eip1967.proxy.implementation'), points.implementation);

    // The tree: the namespace is one element, its balances below it; the proxy's slot beside it.
    const namespace = await element('erc7201:openzeppelin.storage.ERC20');
    assert.equal(row(namespace).description, 'struct ERC20Upgradeable.ERC20Storage');
    const [alice, balance] = Object.entries(state.balances)[0];
    assert.equal(await description(`erc7201:openzeppelin.storage.ERC20._balances[${alice}]`), balance.toString());
    assert.equal(await description('erc7201:example.points.main.motto'), JSON.stringify(state.motto));
    assert.equal(await description('eip1967.proxy.implementation'), points.implementation);
  });

  it("finds DemoToken's two allowances among a thousand holders, and says where the search stopped with a row that runs Add Key", async function () {
    this.timeout(120_000);
    const shown = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.decode`, { node: 'Local anvil', address: token });
    assert.ok(shown.contract.endsWith(':DemoToken'), shown.contract);
    // The demo's activity: Alice approved Bob 100 and Bob spent 40 of it; Carol approved the owner 50.
    const [owner, alice, bob, carol] = (await anvil('eth_accounts', [])) as string[];
    const allowances = shown.variables.find((v) => v.label === '_allowances')?.value as Record<string, Record<string, string>>;
    // eth_accounts answers lowercase, the decode checksums: compared case-blind.
    const lower = (m: Record<string, Record<string, string>>) =>
      Object.fromEntries(Object.entries(m).map(([o, s]) => [o.toLowerCase(), Object.fromEntries(Object.entries(s).map(([k, v]) => [k.toLowerCase(), v]))]));
    assert.deepEqual(lower(allowances), { [alice.toLowerCase()]: { [bob.toLowerCase()]: units(60) }, [carol.toLowerCase()]: { [owner.toLowerCase()]: units(50) } });

    const mapping = await element('_allowances');
    assert.equal(row(mapping).description, 'mapping(address => mapping(address => uint256)), 2 entries found, search stopped at 100,000 combinations — Add Key…');
    const children = view().getChildren(mapping);
    assert.equal(children.filter((c) => c.kind === 'item').length, 2);
    const addKey = children.at(-1)!;
    assert.equal(addKey.kind, 'addKey');
    const addRow = row(addKey);
    assert.equal(addRow.label, 'search stopped at 100,000 combinations — Add Key…');
    assert.equal(addRow.command?.command, `${CS}.addKey`);
    assert.equal(addRow.command?.arguments?.[0], mapping, 'Add Key… on this mapping');
  });

  it('decodes a proxy at an earlier block with the layout of the implementation live there, not the latest one', async function () {
    this.timeout(60_000);
    const slot = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
    const word = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;
    const before = Number(await anvil('eth_blockNumber', []));
    await anvil('evm_mine', []);
    // An "upgrade" to DemoToken's code, by hand: from the next block the proxy points at it.
    await anvil('anvil_setStorageAt', [points.proxy, slot, word(token)]);
    await anvil('evm_mine', []);
    try {
      const latest = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.decode`, { node: 'Local anvil', address: points.proxy });
      assert.ok(latest.contract.endsWith(':DemoToken'), latest.contract);
      const earlier = await vscode.commands.executeCommand<DecodeSummary>(`${CS}.decode`, { node: 'Local anvil', address: points.proxy, block: String(before) });
      assert.ok(earlier.contract.endsWith(':Points'), earlier.contract);
      assert.equal(earlier.block, before);
      assert.ok(String(view().view.message).includes(`implementation ${points.implementation} (Points)`), String(view().view.message));
      // Before the proxy existed: said at once, no layout asked for (a quick pick would wait here).
      const none = await Promise.race([
        vscode.commands.executeCommand<DecodeSummary | undefined>(`${CS}.decode`, { node: 'Local anvil', address: points.proxy, block: '0' }),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 15_000)),
      ]);
      if (none === 'still waiting') await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(none, undefined);
    } finally {
      await anvil('anvil_setStorageAt', [points.proxy, slot, word(points.implementation)]);
      await anvil('evm_mine', []);
    }
  });
});
