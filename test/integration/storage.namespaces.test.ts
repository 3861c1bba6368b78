/**
 * ERC-7201 namespaces decoded and diffed by `chaindeck storage-decode` / `storage-diff` (the built
 * CLI in a subprocess) on real anvil and ganache: Points, an OpenZeppelin 5 upgradeable ERC-20,
 * behind its ERC1967Proxy (the layout named with --contract: finding it is the proxy support's
 * part), NamespacedShapes (namespaces of many member shapes, no proxy) and LayoutAt (plain
 * variables moved by `layout at`, and a namespace). Expected values are computed here from what
 * the test sent; roots by EIP-7201's formula written out with the ABI coder.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, getAddress, hexlify, Interface, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { readStorage } from '../../src/core/storage/decode/decode';
import { variableItems } from '../../src/core/storage/decode/tree';
import { readLayoutFile, selectLayout } from '../../src/core/storage/layout';
import { buildCli, runCli, type CliRun } from '../support/cli';
import { attach, compileFixture, deploy, writeArtifacts, type Deployed, type SolcCompiled } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;
const POINTS_SOURCE = 'contracts/Points.sol';
const PROXY_SOURCE = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';
const SHAPES_SOURCE = 'contracts/NamespacedShapes.sol';
const AT_SOURCE = 'contracts/LayoutAt.sol';

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const A = addr('alice');
const B = addr('bob');
const C = addr('carol');
const KEEPER = addr('keeper');
const FEED = addr('feed');
const MOTTO = 'Every point counts, and every point is counted twice — once per season.';
const coder = AbiCoder.defaultAbiCoder();
const minimal = (n: bigint) => `0x${n.toString(16)}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const mapSlot = (keyType: string, key: unknown, slot: bigint) => BigInt(keccak256(coder.encode([keyType, 'uint256'], [key, slot])));
/** EIP-7201: keccak256(abi.encode(uint256(keccak256(bytes(id))) - 1)) & ~bytes32(uint256(0xff)). */
const root = (id: string) => BigInt(keccak256(coder.encode(['uint256'], [BigInt(keccak256(toUtf8Bytes(id))) - 1n]))) & ~0xffn;

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));
const cli = (args: string[]) => runCli(args);

function jsonOf(run: CliRun): Record<string, unknown>[] {
  assert.equal(run.code, 0, run.stderr);
  const parsed = JSON.parse(run.stdout);
  assert.ok(Array.isArray(parsed), run.stdout);
  return parsed;
}

const byLabel = (out: Record<string, unknown>[], label: string) => out.find((e) => e.label === label);

interface PointsChain {
  url: string;
  owner: string;
  impl: string;
  proxy: Deployed;
  setupBlock: number;
  laterBlock: number;
  balances: Map<string, bigint>;
}
interface ShapesChain {
  url: string;
  shapes: Deployed;
  setupBlock: number;
  laterBlock: number;
}
interface AtChain {
  url: string;
  at: Deployed;
  setupBlock: number;
  laterBlock: number;
}

let points: SolcCompiled;
let dir: string;
let pointsFiles: ReturnType<typeof writeArtifacts>;
let shapesFiles: ReturnType<typeof writeArtifacts>;
let atFiles: ReturnType<typeof writeArtifacts>;
const pointsChains = {} as Record<'anvil' | 'ganache', PointsChain>;
const shapesChains = {} as Record<'anvil' | 'ganache', ShapesChain>;
const atChains = {} as Record<'anvil' | 'ganache', AtChain>;

async function setUpPoints(url: string): Promise<PointsChain> {
  const c = client(url);
  const [owner] = (await c.call<string[]>('eth_accounts')).map((a) => getAddress(a));
  const impl = await deploy(c, points, POINTS_SOURCE, 'Points');
  const init = new Interface(points.output.contracts[POINTS_SOURCE].Points.abi).encodeFunctionData('initialize', ['Points', 'PTS', KEEPER]);
  const proxyContract = await deploy(c, points, PROXY_SOURCE, 'ERC1967Proxy', impl.address, init);
  const proxy = await attach(c, points, POINTS_SOURCE, 'Points', proxyContract.address);
  const balances = new Map<string, bigint>();
  const move = (who: string, v: bigint) => balances.set(who, (balances.get(who) ?? 0n) + v);
  for (const [to, v] of [
    [A, 1000n],
    [B, 500n],
    [owner, 300n],
  ] as const) {
    await proxy.send('mint', to, v);
    move(to, v);
  }
  await proxy.send('transfer', A, 100n);
  move(owner, -100n);
  move(A, 100n);
  await proxy.send('approve', B, 77n);
  await proxy.send('approve', C, 5n);
  for (const s of [10, 20, 30]) await proxy.send('score', s);
  await proxy.send('setBonus', A, 9);
  await proxy.send('setBonus', C, 3);
  await proxy.send('setMotto', MOTTO);
  const setupBlock = await proxy.send('nextSeason');
  await proxy.send('mint', B, 5n);
  await proxy.send('score', 40);
  await proxy.send('setMotto', 'short');
  const laterBlock = await proxy.send('approve', B, 0n);
  return { url, owner, impl: impl.address, proxy, setupBlock, laterBlock, balances };
}

const PACKED = [1, 2, 3, 4, 65535];
const GRID = [
  [11n, 12n],
  [21n, 22n],
];
const BLOB = hexlify(Uint8Array.from({ length: 45 }, (_, i) => (i * 13 + 5) & 0xff));

async function setUpShapes(url: string): Promise<ShapesChain> {
  const compiled = compileFixture('NamespacedShapes.sol');
  const shapes = await deploy(client(url), compiled, SHAPES_SOURCE, 'NamespacedShapes');
  await shapes.send('setBase', 7, -300, '0xcafebabe');
  await shapes.send('setPacked', 200, -5, true, A, 2, 123456789n, FEED, '0x01020304050607');
  await shapes.send('setPos', 2n ** 128n - 1n, 99, true);
  await shapes.send('setArrays', PACKED, GRID, 5, 6);
  for (const v of [-1, 2, -3]) await shapes.send('push', v);
  await shapes.send('setText', 'A title', BLOB);
  await shapes.send('credit', A, 10);
  await shapes.send('credit', B, 20);
  await shapes.send('allow', A, B, true);
  await shapes.send('open', 42, 7, 8);
  const setupBlock = await shapes.send('name', 'alice', 3);
  await shapes.send('pop');
  await shapes.send('credit', A, 1);
  const laterBlock = await shapes.send('setText', 'A longer title that no longer fits in one slot', BLOB);
  return { url, shapes, setupBlock, laterBlock };
}

async function setUpAt(url: string): Promise<AtChain> {
  const compiled = compileFixture('LayoutAt.sol');
  const at = await deploy(client(url), compiled, AT_SOURCE, 'LayoutAt');
  await at.send('set', 5, 6, 'at 0x1020');
  await at.send('owe', A, 9);
  const setupBlock = await at.send('hit', 'first');
  await at.send('owe', A, 10);
  const laterBlock = await at.send('hit', 'second');
  return { url, at, setupBlock, laterBlock };
}

before(async () => {
  assert.ok(ANVIL && GANACHE, 'the harness did not start the nodes');
  await buildCli();
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-namespaces-'));
  points = compileFixture('Points.sol');
  pointsFiles = writeArtifacts(path.join(dir, 'points'), points, POINTS_SOURCE, 'Points');
  shapesFiles = writeArtifacts(path.join(dir, 'shapes'), compileFixture('NamespacedShapes.sol'), SHAPES_SOURCE, 'NamespacedShapes');
  atFiles = writeArtifacts(path.join(dir, 'at'), compileFixture('LayoutAt.sol'), AT_SOURCE, 'LayoutAt');
  for (const [kind, url] of [
    ['anvil', ANVIL],
    ['ganache', GANACHE],
  ] as const) {
    pointsChains[kind] = await setUpPoints(url);
    shapesChains[kind] = await setUpShapes(url);
    atChains[kind] = await setUpAt(url);
  }
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ERC20 = root('openzeppelin.storage.ERC20');
const MAIN = root('example.points.main');

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`namespaces on ${kind}`, () => {
    test('Points through its ERC1967Proxy: the Initializable, ERC20, Ownable and example.points.main namespaces, one element each', async () => {
      const chain = pointsChains[kind];
      const out = jsonOf(
        await cli(['storage-decode', '--rpc', chain.url, '--address', chain.proxy.address, '--layout', pointsFiles.solcOutput, '--contract', 'Points', '--block', String(chain.setupBlock)]),
      );
      const balances = Object.fromEntries([...chain.balances].map(([k, v]) => [k, v.toString()]));
      const total = [...chain.balances.values()].reduce((a, b) => a + b, 0n).toString();
      const expected = [
        {
          label: 'erc7201:openzeppelin.storage.Initializable',
          type: 'struct Initializable.InitializableStorage',
          slot: minimal(root('openzeppelin.storage.Initializable')),
          offset: 0,
          value: { _initialized: '1', _initializing: false },
        },
        {
          label: 'erc7201:openzeppelin.storage.ERC20',
          type: 'struct ERC20Upgradeable.ERC20Storage',
          slot: minimal(ERC20),
          offset: 0,
          value: { _balances: balances, _allowances: { [chain.owner]: { [B]: '77', [C]: '5' } }, _totalSupply: total, _name: 'Points', _symbol: 'PTS' },
        },
        {
          label: 'erc7201:openzeppelin.storage.Ownable',
          type: 'struct OwnableUpgradeable.OwnableStorage',
          slot: minimal(root('openzeppelin.storage.Ownable')),
          offset: 0,
          value: { _owner: chain.owner },
        },
        {
          label: 'erc7201:example.points.main',
          type: 'struct Points.MainStorage',
          slot: minimal(MAIN),
          offset: 0,
          value: { season: '2', open: true, keeper: KEEPER, scores: ['10', '20', '30'], bonus: { [A]: '9', [C]: '3' }, motto: MOTTO },
        },
      ];
      const namespaces = out.filter((e) => String(e.label).startsWith('erc7201:'));
      assert.deepEqual(namespaces, expected);
      for (const e of namespaces) assert.deepEqual(Object.keys(e), ['label', 'type', 'slot', 'offset', 'value']);
      // The implementation itself: initializers disabled (the largest uint64), nothing else set.
      const impl = jsonOf(
        await cli(['storage-decode', '--rpc', chain.url, '--address', chain.impl, '--layout', pointsFiles.hardhat2, '--contract', 'Points', '--block', String(chain.setupBlock)]),
      );
      assert.deepEqual(byLabel(impl, 'erc7201:openzeppelin.storage.Initializable')?.value, { _initialized: (2n ** 64n - 1n).toString(), _initializing: false });
      assert.deepEqual(byLabel(impl, 'erc7201:openzeppelin.storage.ERC20')?.value, { _balances: {}, _allowances: {}, _totalSupply: '0', _name: '', _symbol: '' });
    });

    test('storage-diff through the proxy: paths start with the namespace label', async () => {
      const chain = pointsChains[kind];
      const run = await cli([
        'storage-diff',
        '--rpc',
        chain.url,
        '--address',
        chain.proxy.address,
        '--layout',
        pointsFiles.foundry,
        '--from',
        String(chain.setupBlock),
        '--to',
        String(chain.laterBlock),
      ]);
      const total = [...chain.balances.values()].reduce((a, b) => a + b, 0n);
      const balancesB = chain.balances.get(B)!;
      const n = 'erc7201:openzeppelin.storage.ERC20';
      const m = 'erc7201:example.points.main';
      assert.deepEqual(jsonOf(run), [
        { path: `${n}._balances[${B}]`, slot: minimal(mapSlot('address', B, ERC20)), before: balancesB.toString(), after: (balancesB + 5n).toString() },
        { path: `${n}._allowances[${chain.owner}][${B}]`, slot: minimal(mapSlot('address', B, mapSlot('address', chain.owner, ERC20 + 1n))), before: '77', after: '0' },
        { path: `${n}._totalSupply`, slot: minimal(ERC20 + 2n), before: total.toString(), after: (total + 5n).toString() },
        { path: `${m}.scores.length`, slot: minimal(MAIN + 1n), before: '3', after: '4' },
        { path: `${m}.scores[3]`, slot: minimal(BigInt(keccak256(word(MAIN + 1n))) + 3n), before: null, after: '40' },
        { path: `${m}.motto`, slot: minimal(MAIN + 3n), before: MOTTO, after: 'short' },
      ]);
      assert.equal(run.stderr, '');
    });

    test('the table and the Contract Storage tree name a namespace by its label and struct type', async () => {
      const chain = pointsChains[kind];
      const table = await cli([
        'storage-decode',
        '--rpc',
        chain.url,
        '--address',
        chain.proxy.address,
        '--layout',
        pointsFiles.hardhat3,
        '--contract',
        'Points',
        '--block',
        String(chain.setupBlock),
        '--format',
        'table',
      ]);
      assert.equal(table.code, 0, table.stderr);
      const rows = table.stdout.split('\n');
      const total = [...chain.balances.values()].reduce((x, y) => x + y, 0n);
      const supplyRow = new RegExp(`^erc7201:openzeppelin\\.storage\\.ERC20\\._totalSupply\\s+uint256\\s+${minimal(ERC20 + 2n)}\\s+${total}$`);
      assert.ok(
        rows.some((r) => supplyRow.test(r)),
        table.stdout,
      );
      assert.ok(rows.some((r) => r.startsWith('erc7201:example.points.main.keeper ') && r.endsWith(KEEPER)));
      const layout = selectLayout(readLayoutFile(pointsFiles.solcOutput).layouts, 'Points', pointsFiles.solcOutput);
      const reading = await readStorage(client(chain.url), layout, [String(chain.setupBlock)], { address: chain.proxy.address });
      const items = variableItems(reading.variables.map((v) => ({ label: v.label, node: v.node, states: { shown: 0 } })));
      const main = items.find((i) => i.label === 'erc7201:example.points.main')!;
      assert.equal(main.description, 'struct Points.MainStorage');
      assert.ok(main.expandable);
      assert.match(main.tooltip, new RegExp(`slot: ${minimal(MAIN)}`));
    });

    test('a build-info without ASTs: no namespace element, and a warning saying how to get them', async () => {
      const chain = pointsChains[kind];
      const json = JSON.parse(readFileSync(pointsFiles.hardhat2, 'utf8'));
      for (const s of Object.values(json.output.sources as Record<string, { ast?: unknown }>)) delete s.ast;
      const bare = path.join(dir, 'points', 'no-ast.json');
      writeFileSync(bare, JSON.stringify(json));
      const run = await cli(['storage-decode', '--rpc', chain.url, '--address', chain.proxy.address, '--layout', bare, '--contract', 'Points', '--block', String(chain.setupBlock)]);
      assert.deepEqual(
        jsonOf(run).filter((e) => String(e.label).startsWith('erc7201:')),
        [],
      );
      assert.equal(
        run.stderr,
        'Warning: ERC-7201 namespaces are not decoded: the file carries no AST though its sources use @custom:storage-location; add "ast" to the compiler\'s outputSelection ({"*": {"": ["ast"]}})\n',
      );
    });

    test('NamespacedShapes (no proxy): every member shape of its namespaces, from the Foundry artifact and the Hardhat 3 output alike', async () => {
      const chain = shapesChains[kind];
      const args = ['storage-decode', '--rpc', chain.url, '--address', chain.shapes.address, '--block', String(chain.setupBlock), '--keys', 'alice'];
      const out = jsonOf(await cli([...args, '--layout', shapesFiles.foundry]));
      assert.deepEqual(
        out.map((e) => [e.label, e.type, e.slot]),
        [
          ['plainCounter', 'uint256', '0x0'],
          ['erc7201:example.shapes.base', 'struct ShapesBase.BaseStorage', minimal(root('example.shapes.base'))],
          ['erc7201:example.shapes.main', 'struct NamespacedShapes.MainStorage', minimal(root('example.shapes.main'))],
        ],
      );
      assert.equal(out[0].value, '1');
      assert.deepEqual(out[1].value, { level: '7', tilt: '-300', tag: '0xcafebabe' });
      assert.deepEqual(out[2].value, {
        small: '200',
        signedSmall: '-5',
        flag: true,
        who: A,
        kind: '2',
        price: `0x${(123456789).toString(16).padStart(24, '0')}`,
        feed: FEED,
        code: '0x01020304050607',
        pos: { amount: (2n ** 128n - 1n).toString(), since: '99', open: true },
        packed: PACKED.map(String),
        grid: GRID.map((row) => row.map(String)),
        pair: [
          { amount: '5', since: '1', open: true },
          { amount: '6', since: '2', open: false },
        ],
        series: ['-1', '2', '-3'],
        title: 'A title',
        blob: BLOB,
        credit: { [A]: '10', [B]: '20' },
        allowed: { [A]: { [B]: true } },
        positions: { '42': { amount: '7', since: '8', open: true } },
        byName: { alice: '3' },
      });
      assert.deepEqual(jsonOf(await cli([...args, '--layout', shapesFiles.hardhat3, '--contract', 'NamespacedShapes'])), out);
      const diff = jsonOf(
        await cli([
          'storage-diff',
          '--rpc',
          chain.url,
          '--address',
          chain.shapes.address,
          '--layout',
          shapesFiles.solcOutput,
          '--contract',
          'NamespacedShapes',
          '--from',
          String(chain.setupBlock),
          '--to',
          String(chain.laterBlock),
        ]),
      );
      const main = root('example.shapes.main');
      // Members' slots by solc's rules: small…who, kind 0; price, feed 1; code 2; pos 3; packed 4; grid 5–8; pair 9–10; series 11; title 12; blob 13; credit 14.
      assert.deepEqual(diff, [
        { path: 'erc7201:example.shapes.main.series.length', slot: minimal(main + 11n), before: '3', after: '2' },
        { path: 'erc7201:example.shapes.main.series[2]', slot: minimal(BigInt(keccak256(word(main + 11n)))), before: '-3', after: null },
        { path: 'erc7201:example.shapes.main.title', slot: minimal(main + 12n), before: 'A title', after: 'A longer title that no longer fits in one slot' },
        { path: `erc7201:example.shapes.main.credit[${A}]`, slot: minimal(mapSlot('address', A, main + 14n)), before: '10', after: '11' },
      ]);
    });

    test('`layout at`: plain variables at the absolute slots solc reports, a namespace beside them, decoded and diffed', async () => {
      const chain = atChains[kind];
      const base = 0x1020n;
      const out = jsonOf(await cli(['storage-decode', '--rpc', chain.url, '--address', chain.at.address, '--layout', atFiles.hardhat2, '--block', String(chain.setupBlock)]));
      assert.deepEqual(out, [
        { label: 'low', type: 'uint128', slot: minimal(base), offset: 0, value: '5' },
        { label: 'mid', type: 'uint64', slot: minimal(base), offset: 16, value: '6' },
        { label: 'owed', type: 'mapping(address => uint256)', slot: minimal(base + 1n), offset: 0, value: { [A]: '9' } },
        { label: 'label', type: 'string', slot: minimal(base + 2n), offset: 0, value: 'at 0x1020' },
        { label: 'erc7201:example.layoutat.extra', type: 'struct LayoutAt.Extra', slot: minimal(root('example.layoutat.extra')), offset: 0, value: { hits: '1', note: 'first' } },
      ]);
      const diff = jsonOf(
        await cli(['storage-diff', '--rpc', chain.url, '--address', chain.at.address, '--layout', atFiles.foundry, '--from', String(chain.setupBlock), '--to', String(chain.laterBlock)]),
      );
      const extra = root('example.layoutat.extra');
      assert.deepEqual(diff, [
        { path: `owed[${A}]`, slot: minimal(mapSlot('address', A, base + 1n)), before: '9', after: '10' },
        { path: 'erc7201:example.layoutat.extra.hits', slot: minimal(extra), before: '1', after: '2' },
        { path: 'erc7201:example.layoutat.extra.note', slot: minimal(extra + 1n), before: 'first', after: 'second' },
      ]);
    });
  });
}
