/**
 * Storage read through proxies, on real anvil and ganache: contracts of our own compiled here
 * with solc-js against OpenZeppelin 5.7.0 — Points (UUPS) behind an ERC1967Proxy, a
 * TransparentUpgradeableProxy with the ProxyAdmin it creates, an UpgradeableBeacon with two
 * BeaconProxy, an ERC-1167 clone made with OZ Clones, a pre-1967 zeppelinos proxy and a diamond
 * with a loupe and two facets (test/fixtures/solidity/ProxyKinds.sol). Each is decoded by the
 * built CLI with FILE holding every contract of the compile and no --contract (the pick by code),
 * and by the core, which also says what it detected and picked. Expected values are computed here
 * from what the test sent (the ProxyAdmin's address from the proxy's first CREATE).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, getAddress, getCreateAddress, Interface, keccak256, toUtf8Bytes, type InterfaceAbi } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { readDeployed } from '../../src/core/storage/deployed/read';
import { readLayoutFile } from '../../src/core/storage/layout';
import { buildCli, runCli, type CliRun } from '../support/cli';
import { attach, compileFixture, deploy, type SolcCompiled } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;
const KINDS = 'contracts/ProxyKinds.sol';
const POINTS = 'contracts/Points.sol';
const OZ = '@openzeppelin/contracts/proxy';
const TRANSPARENT = `${OZ}/transparent/TransparentUpgradeableProxy.sol`;
const ADMIN = `${OZ}/transparent/ProxyAdmin.sol`;
const BEACON = `${OZ}/beacon/UpgradeableBeacon.sol`;
const BEACON_PROXY = `${OZ}/beacon/BeaconProxy.sol`;
const ERC1967 = `${OZ}/ERC1967/ERC1967Proxy.sol`;

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const A = addr('alice');
const B = addr('bob');
const ZERO = getAddress(`0x${'0'.repeat(40)}`);
const minimal = (n: bigint) => `0x${n.toString(16)}`;
/** An ERC-7201 namespace's root: keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff. */
const root = (id: string) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256'], [BigInt(keccak256(toUtf8Bytes(id))) - 1n]))) & ~0xffn;
/** bytes32(uint256(keccak256(label)) - 1), as EIP-1967 defines its slots. */
const eip1967 = (label: string) => minimal(BigInt(keccak256(toUtf8Bytes(label))) - 1n);

let kinds: SolcCompiled;
let points: SolcCompiled;
let dir: string;
let kindsFile: string;
let pointsFile: string;
let ledgerVars: { label: string; type: string; slot: string; offset: number }[];

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));
const iface = (compiled: SolcCompiled, source: string, name: string) => new Interface(compiled.output.contracts[source][name].abi as InterfaceAbi);

function jsonOf(run: CliRun): { label: string; type: string; slot: string; offset: number; value: unknown }[] {
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  return JSON.parse(run.stdout) as never;
}

interface LedgerState {
  count: number;
  owner: string;
  note: string;
  credit: Record<string, string>;
}

/** Initialises and fills a Ledger (at an address that delegates to one); returns what it holds. */
async function fillLedger(url: string, at: string, state: LedgerState): Promise<LedgerState> {
  const ledger = await attach(client(url), kinds, KINDS, 'Ledger', at);
  if (state.count) await ledger.send('bump', state.count);
  for (const [who, amount] of Object.entries(state.credit)) await ledger.send('give', who, amount);
  return state;
}

/** The decode's elements of a Ledger holding `state`, in layout order. */
function ledgerElements(state: LedgerState) {
  const values: Record<string, unknown> = { count: String(state.count), owner: state.owner, note: state.note, credit: state.credit };
  return ledgerVars.map((v) => ({ ...v, value: values[v.label] }));
}

/** The three eip1967.proxy.* elements. */
function eip1967Elements(implementation: string, admin: string, beacon: string) {
  return [
    { label: 'eip1967.proxy.implementation', type: 'address', slot: eip1967('eip1967.proxy.implementation'), offset: 0, value: implementation },
    { label: 'eip1967.proxy.admin', type: 'address', slot: eip1967('eip1967.proxy.admin'), offset: 0, value: admin },
    { label: 'eip1967.proxy.beacon', type: 'address', slot: eip1967('eip1967.proxy.beacon'), offset: 0, value: beacon },
  ];
}

interface Chain {
  url: string;
  owner: string;
  ledger: string;
  ledger2: string;
  transparent: { proxy: string; admin: string; state: LedgerState; before: number; upgraded: number };
  beacon: { beacon: string; proxies: { address: string; state: LedgerState }[] };
  clone: { address: string; state: LedgerState };
  zos: { address: string; state: LedgerState };
  diamond: { address: string; tally: string; stars: string; block: number };
  uups: { proxy: string; implementation: string };
  block: number;
}

async function setUp(url: string): Promise<Chain> {
  const c = client(url);
  const [owner] = await c.call<string[]>('eth_accounts');
  const ownerAddress = getAddress(owner);
  const ledgerI = iface(kinds, KINDS, 'Ledger');
  const init = (note: string) => ledgerI.encodeFunctionData('init', [ownerAddress, note]);
  const ledger = getAddress((await deploy(c, kinds, KINDS, 'Ledger')).address);
  const ledger2 = getAddress((await deploy(c, kinds, KINDS, 'Ledger')).address);

  // Transparent: the proxy creates its ProxyAdmin with its first CREATE (a contract's nonce starts at 1).
  const transparent = await deploy(c, kinds, TRANSPARENT, 'TransparentUpgradeableProxy', ledger, ownerAddress, init('transparent'));
  const admin = getCreateAddress({ from: transparent.address, nonce: 1 });
  const tState = await fillLedger(url, transparent.address, { count: 5, owner: ownerAddress, note: 'transparent', credit: { [A]: '10' } });

  const beacon = getAddress((await deploy(c, kinds, BEACON, 'UpgradeableBeacon', ledger, ownerAddress)).address);
  const proxies = [];
  for (const [i, note] of ['first beacon proxy', 'second beacon proxy'].entries()) {
    const p = await deploy(c, kinds, BEACON_PROXY, 'BeaconProxy', beacon, init(note));
    proxies.push({ address: p.address, state: await fillLedger(url, p.address, { count: i + 1, owner: ownerAddress, note, credit: { [i ? B : A]: String(20 + i) } }) });
  }

  const factory = await deploy(c, kinds, KINDS, 'CloneFactory');
  await factory.send('make', ledger);
  const cloneAddress = getCreateAddress({ from: factory.address, nonce: 1 });
  await (await attach(c, kinds, KINDS, 'Ledger', cloneAddress)).send('init', ownerAddress, 'clone');
  const cloneState = await fillLedger(url, cloneAddress, { count: 3, owner: ownerAddress, note: 'clone', credit: { [B]: '7' } });

  const zos = (await deploy(c, kinds, KINDS, 'ZosProxy', ledger, init('zeppelinos'))).address;
  const zosState = await fillLedger(url, zos, { count: 9, owner: ownerAddress, note: 'zeppelinos', credit: { [A]: '1' } });

  const tally = (await deploy(c, kinds, KINDS, 'TallyFacet')).address;
  const stars = (await deploy(c, kinds, KINDS, 'StarsFacet')).address;
  const sel = (name: string, fn: string) => iface(kinds, KINDS, name).getFunction(fn)!.selector;
  const diamond = (await deploy(c, kinds, KINDS, 'Diamond', [tally, stars], [[sel('TallyFacet', 'add')], [sel('StarsFacet', 'setTitle'), sel('StarsFacet', 'star')]])).address;
  await (await attach(c, kinds, KINDS, 'TallyFacet', diamond)).send('add', 7);
  await (await attach(c, kinds, KINDS, 'StarsFacet', diamond)).send('setTitle', 'galaxy');
  const diamondBlock = await (await attach(c, kinds, KINDS, 'StarsFacet', diamond)).send('star', A, 3);

  const pointsImpl = getAddress((await deploy(c, points, POINTS, 'Points')).address);
  const pointsInit = iface(points, POINTS, 'Points').encodeFunctionData('initialize', ['Points', 'PTS', B]);
  const uups = (await deploy(c, points, ERC1967, 'ERC1967Proxy', pointsImpl, pointsInit)).address;
  await (await attach(c, points, POINTS, 'Points', uups)).send('mint', A, 1000);
  const block = await (await attach(c, points, POINTS, 'Points', uups)).send('score', 5);

  // Last: an upgrade of the transparent proxy to a second Ledger (same code) and one more bump.
  const before = block;
  const proxyAdmin = await attach(c, kinds, ADMIN, 'ProxyAdmin', admin);
  await proxyAdmin.send('upgradeAndCall', transparent.address, ledger2, '0x');
  const upgraded = await (await attach(c, kinds, KINDS, 'Ledger', transparent.address)).send('bump', 4);

  return {
    url,
    owner: ownerAddress,
    ledger,
    ledger2,
    transparent: { proxy: transparent.address, admin, state: tState, before, upgraded },
    beacon: { beacon, proxies },
    clone: { address: cloneAddress, state: cloneState },
    zos: { address: zos, state: zosState },
    diamond: { address: diamond, tally, stars, block: diamondBlock },
    uups: { proxy: uups, implementation: pointsImpl },
    block,
  };
}

const chains: Record<'anvil' | 'ganache', Chain> = {} as never;

before(async () => {
  assert.ok(ANVIL && GANACHE, 'the harness did not start the nodes');
  await buildCli();
  kinds = compileFixture('ProxyKinds.sol');
  points = compileFixture('Points.sol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-proxies-'));
  kindsFile = path.join(dir, 'kinds.json');
  pointsFile = path.join(dir, 'points.json');
  writeFileSync(kindsFile, JSON.stringify(kinds.output));
  writeFileSync(pointsFile, JSON.stringify(points.output));
  const layout = kinds.output.contracts[KINDS].Ledger.storageLayout as { storage: { label: string; slot: string; offset: number; type: string }[]; types: Record<string, { label: string }> };
  ledgerVars = layout.storage.map((s) => ({ label: s.label, type: layout.types[s.type].label, slot: minimal(BigInt(s.slot)), offset: s.offset }));
  chains.anvil = await setUp(ANVIL);
  chains.ganache = await setUp(GANACHE);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const decode = (chain: Chain, address: string, file: string, block: number, ...more: string[]) =>
  runCli(['storage-decode', '--rpc', chain.url, '--address', address, '--layout', file, '--block', String(block), ...more]);

/** What the core detected and picked at `address`. */
async function detected(chain: Chain, address: string, file: string, block: number) {
  const { deployed } = await readDeployed(client(chain.url), readLayoutFile(file).layouts, [String(block)], { address });
  return { kind: deployed.proxy.kind, picked: deployed.picked.map((l) => l.contractName), description: deployed.description };
}

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`storage through proxies on ${kind}`, () => {
    test('a TransparentUpgradeableProxy: the Ledger picked by the implementation’s code, its variables, then the three eip1967 elements (admin = the ProxyAdmin it created)', async () => {
      const chain = chains[kind];
      const t = chain.transparent;
      const out = jsonOf(await decode(chain, t.proxy, kindsFile, t.before));
      assert.deepEqual(out, [...ledgerElements(t.state), ...eip1967Elements(chain.ledger, t.admin, ZERO)]);
      assert.deepEqual(await detected(chain, t.proxy, kindsFile, t.before), {
        kind: 'erc1967',
        picked: ['Ledger'],
        description: `ERC-1967 proxy → implementation ${chain.ledger} (Ledger)`,
      });
    });

    test('the table names the eip1967 elements by their labels', async () => {
      const chain = chains[kind];
      const run = await decode(chain, chain.transparent.proxy, kindsFile, chain.transparent.before, '--format', 'table');
      assert.equal(run.code, 0, run.stderr);
      const line = run.stdout.split('\n').find((l) => l.startsWith('eip1967.proxy.admin '));
      assert.ok(line, run.stdout);
      assert.deepEqual(line.split(/\s+/).filter(Boolean), ['eip1967.proxy.admin', 'address', eip1967('eip1967.proxy.admin'), chain.transparent.admin]);
    });

    test('storage-diff across the upgrade: the implementation element and the bumped count, by their paths', async () => {
      const chain = chains[kind];
      const t = chain.transparent;
      const run = await runCli(['storage-diff', '--rpc', chain.url, '--address', t.proxy, '--layout', kindsFile, '--from', String(t.before), '--to', String(t.upgraded)]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), [
        { path: 'count', slot: ledgerVars.find((v) => v.label === 'count')!.slot, before: '5', after: '9' },
        { path: 'eip1967.proxy.implementation', slot: eip1967('eip1967.proxy.implementation'), before: chain.ledger, after: chain.ledger2 },
      ]);
    });

    test('two BeaconProxy of one UpgradeableBeacon: each its own state, the beacon element set, the implementation from the beacon', async () => {
      const chain = chains[kind];
      for (const p of chain.beacon.proxies) {
        const out = jsonOf(await decode(chain, p.address, kindsFile, chain.block));
        assert.deepEqual(out, [...ledgerElements(p.state), ...eip1967Elements(ZERO, ZERO, chain.beacon.beacon)]);
        assert.deepEqual(await detected(chain, p.address, kindsFile, chain.block), {
          kind: 'beacon',
          picked: ['Ledger'],
          description: `beacon proxy → beacon ${chain.beacon.beacon} → implementation ${chain.ledger} (Ledger)`,
        });
      }
    });

    test('an ERC-1167 clone and a zeppelinos proxy: the Ledger by its code, and no eip1967 elements', async () => {
      const chain = chains[kind];
      assert.deepEqual(jsonOf(await decode(chain, chain.clone.address, kindsFile, chain.block)), ledgerElements(chain.clone.state));
      assert.deepEqual(await detected(chain, chain.clone.address, kindsFile, chain.block), { kind: 'clone', picked: ['Ledger'], description: `ERC-1167 clone → ${chain.ledger} (Ledger)` });
      assert.deepEqual(jsonOf(await decode(chain, chain.zos.address, kindsFile, chain.block)), ledgerElements(chain.zos.state));
      assert.deepEqual(await detected(chain, chain.zos.address, kindsFile, chain.block), {
        kind: 'zeppelinos',
        picked: ['Ledger'],
        description: `zeppelinos proxy → implementation ${chain.ledger} (Ledger)`,
      });
    });

    test('the implementation itself and the ProxyAdmin: picked by their own code, without eip1967 elements', async () => {
      const chain = chains[kind];
      const impl = jsonOf(await decode(chain, chain.ledger, kindsFile, chain.block));
      assert.deepEqual(
        impl.map((v) => v.label),
        ledgerVars.map((v) => v.label),
      );
      const admin = jsonOf(await decode(chain, chain.transparent.admin, kindsFile, chain.block));
      assert.deepEqual(admin, [{ label: '_owner', type: 'address', slot: '0x0', offset: 0, value: chain.owner }]);
      assert.deepEqual(await detected(chain, chain.transparent.admin, kindsFile, chain.block), { kind: 'none', picked: ['ProxyAdmin'], description: undefined });
    });

    test('a diamond: both facets found by the loupe and picked by their code, each facet’s namespace decoded, the one they share once', async () => {
      const chain = chains[kind];
      const d = chain.diamond;
      assert.deepEqual(await detected(chain, d.address, kindsFile, d.block), {
        kind: 'diamond',
        picked: ['TallyFacet', 'StarsFacet'],
        description: 'diamond with 2 facets (TallyFacet, StarsFacet)',
      });
      const out = jsonOf(await decode(chain, d.address, kindsFile, d.block));
      const ns = (id: string, type: string, value: unknown) => ({ label: `erc7201:${id}`, type, slot: minimal(root(id)), offset: 0, value });
      assert.deepEqual(
        [...out].sort((a, b) => a.label.localeCompare(b.label)),
        [
          ns('example.facet.shared', 'struct FacetBase.SharedStorage', { calls: '3' }),
          ns('example.facet.stars', 'struct StarsFacet.StarsStorage', { title: 'galaxy', stars: { [A]: '3' } }),
          ns('example.facet.tally', 'struct TallyFacet.TallyStorage', { total: '7', last: chain.owner }),
        ],
      );
    });

    test('Points behind an ERC1967Proxy (UUPS): Points picked by code, its namespaces, then the implementation element its address, admin and beacon zero', async () => {
      const chain = chains[kind];
      const out = jsonOf(await decode(chain, chain.uups.proxy, pointsFile, chain.block));
      const ns = (id: string, type: string, value: unknown) => ({ label: `erc7201:${id}`, type, slot: minimal(root(id)), offset: 0, value });
      assert.deepEqual(out, [
        ns('openzeppelin.storage.Initializable', 'struct Initializable.InitializableStorage', { _initialized: '1', _initializing: false }),
        ns('openzeppelin.storage.ERC20', 'struct ERC20Upgradeable.ERC20Storage', { _balances: { [A]: '1000' }, _allowances: {}, _totalSupply: '1000', _name: 'Points', _symbol: 'PTS' }),
        ns('openzeppelin.storage.Ownable', 'struct OwnableUpgradeable.OwnableStorage', { _owner: chain.owner }),
        ns('example.points.main', 'struct Points.MainStorage', { season: '1', open: true, keeper: B, scores: ['5'], bonus: {}, motto: '' }),
        ...eip1967Elements(chain.uups.implementation, ZERO, ZERO),
      ]);
      assert.deepEqual(await detected(chain, chain.uups.proxy, pointsFile, chain.block), {
        kind: 'erc1967',
        picked: ['Points'],
        description: `ERC-1967 proxy → implementation ${chain.uups.implementation} (Points)`,
      });
    });

    test('no contract of FILE has the implementation’s code: exit 2, one line listing the candidates', async () => {
      const chain = chains[kind];
      const run = await decode(chain, chain.transparent.proxy, pointsFile, chain.block);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /no contract in .*points\.json has the code of 0x[0-9a-fA-F]{40} \(ERC-1967 proxy → implementation 0x[0-9a-fA-F]{40}\): choose one with --contract/);
      assert.match(run.stderr, /contracts\/Points\.sol:Points/);
    });

    test('a plain contract whose code no contract of FILE has: exit 2, the candidates listed', async () => {
      const chain = chains[kind];
      const run = await decode(chain, chain.transparent.admin, pointsFile, chain.block);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr.split('\n').filter(Boolean).length, 1, run.stderr);
      assert.ok(
        run.stderr.startsWith(`chaindeck storage-decode: no contract in ${pointsFile} has the code deployed at ${chain.transparent.admin}: choose one with --contract NAME or PATH:NAME (`),
        run.stderr,
      );
      assert.match(run.stderr, /contracts\/Points\.sol:Points/);
    });

    test('--contract still names the layout at a proxy, the eip1967 elements added', async () => {
      const chain = chains[kind];
      const t = chain.transparent;
      const out = jsonOf(await decode(chain, t.proxy, kindsFile, t.before, '--contract', 'Ledger'));
      assert.deepEqual(out, [...ledgerElements(t.state), ...eip1967Elements(chain.ledger, t.admin, ZERO)]);
    });
  });
}
