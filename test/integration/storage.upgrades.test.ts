/**
 * Upgrades and transactions, as users run them (dist/cli.js) on real anvil and ganache: a UUPS
 * ledger of our own (test/fixtures/solidity/LedgerUpgrade.sol) behind an ERC1967Proxy, credited
 * through the proxy, upgraded from V1 to V2 (which appends a plain variable and a namespace
 * member), credited again, then three transactions mined in one block. `proxy-history` lists both
 * implementations with their blocks and transactions; `storage-diff` across the upgrade decodes
 * each side with its own layout; `storage-diff --tx` shows one transaction's writes, exact also
 * when an earlier transaction of its block touched the same slots. Expected values come from a
 * model of what the test sent, never from Chaindeck's output.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, getAddress, Interface, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { buildCli, runCli, type CliRun } from '../support/cli';
import { attach, compileFixture, compileSource, deploy, writeArtifacts, type SolcCompiled } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;
const SOURCE = 'contracts/LedgerUpgrade.sol';
const PROXY_SOURCE = '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol';

const coder = AbiCoder.defaultAbiCoder();
const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const A = addr('alice');
const B = addr('bob');
const C = addr('carol');
const FEE = 25n;

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const minimal = (n: bigint) => `0x${n.toString(16)}`;
const mapSlot = (key: string, slot: bigint) => BigInt(keccak256(coder.encode(['address', 'uint256'], [key, slot])));
const root7201 = (id: string) => BigInt(keccak256(coder.encode(['uint256'], [BigInt(keccak256(toUtf8Bytes(id))) - 1n]))) & ~0xffn;
const LEDGER = 'erc7201:example.ledger.main';
const LEDGER_ROOT = root7201('example.ledger.main');
const INITIALIZABLE_ROOT = root7201('openzeppelin.storage.Initializable');
const IMPLEMENTATION_SLOT = BigInt(keccak256(toUtf8Bytes('eip1967.proxy.implementation'))) - 1n;
const ENTRIES_DATA = BigInt(keccak256(word(2n)));

/** The ledger as the test sent it. */
interface Ledger {
  version: 1 | 2;
  implementation: string;
  initialized: bigint;
  total: bigint;
  credits: Map<string, bigint>;
  entries: bigint[];
  fee: bigint;
  rounds: bigint;
  last: string;
  marks: Map<string, bigint>;
  nsVersion: bigint;
}

const copy = (l: Ledger): Ledger => ({ ...l, credits: new Map(l.credits), entries: [...l.entries], marks: new Map(l.marks) });

function credit(l: Ledger, who: string, amount: bigint): Ledger {
  const n = copy(l);
  n.credits.set(who, (n.credits.get(who) ?? 0n) + amount);
  n.total += amount;
  n.entries.push(amount);
  n.rounds += 1n;
  n.last = who;
  n.marks.set(who, (n.marks.get(who) ?? 0n) + 1n);
  return n;
}

/** The slots the model fills, as words: what the node must hold. */
function words(l: Ledger): Map<bigint, bigint> {
  const w = new Map<bigint, bigint>();
  w.set(IMPLEMENTATION_SLOT, BigInt(l.implementation));
  w.set(INITIALIZABLE_ROOT, l.initialized);
  w.set(0n, l.total);
  for (const [who, v] of l.credits) w.set(mapSlot(who, 1n), v);
  w.set(2n, BigInt(l.entries.length));
  l.entries.forEach((v, i) => w.set(ENTRIES_DATA + BigInt(i), v));
  w.set(3n, l.fee);
  w.set(LEDGER_ROOT, (BigInt(l.last) << 64n) | l.rounds);
  for (const [who, v] of l.marks) w.set(mapSlot(who, LEDGER_ROOT + 1n), v);
  w.set(LEDGER_ROOT + 2n, l.nsVersion);
  return w;
}

/** The raw diff storage-diff --tx prints: every slot whose word differs, in slot order. */
function rawDiff(a: Ledger, b: Ledger): { slot: string; before: string; after: string }[] {
  const wa = words(a);
  const wb = words(b);
  return [...new Set([...wa.keys(), ...wb.keys()])]
    .sort((x, y) => (x < y ? -1 : 1))
    .map((s) => ({ slot: s, before: wa.get(s) ?? 0n, after: wb.get(s) ?? 0n }))
    .filter((c) => c.before !== c.after)
    .map((c) => ({ slot: word(c.slot), before: word(c.before), after: word(c.after) }));
}

/** The decoded leaves of a state by a version's layout, the plain variables', the namespaces' and the proxy's implementation (those the ledger changes): path → value (a mapping entry only where non-zero). */
function leafValues(l: Ledger, version: 1 | 2): Map<string, string> {
  const m = new Map<string, string>();
  m.set('total', String(l.total));
  for (const [who, v] of l.credits) if (v !== 0n) m.set(`credits[${who}]`, String(v));
  m.set('entries.length', String(l.entries.length));
  l.entries.forEach((v, i) => m.set(`entries[${i}]`, String(v)));
  if (version === 2) m.set('fee', String(l.fee));
  m.set(`${LEDGER}.rounds`, String(l.rounds));
  m.set(`${LEDGER}.lastCredited`, getAddress(l.last));
  for (const [who, v] of l.marks) if (v !== 0n) m.set(`${LEDGER}.marks[${who}]`, String(v));
  if (version === 2) m.set(`${LEDGER}.version`, String(l.nsVersion));
  m.set('erc7201:openzeppelin.storage.Initializable._initialized', String(l.initialized));
  m.set('eip1967.proxy.implementation', l.implementation);
  return m;
}

/** The changed leaves between two states, each by its own version's layout, sorted by path: a mapping entry absent is zero, an array element or a variable its layout lacks is null. */
function decodedDiff(a: Ledger, va: 1 | 2, b: Ledger, vb: 1 | 2): { path: string; before: string | null; after: string | null }[] {
  const la = leafValues(a, va);
  const lb = leafValues(b, vb);
  const absent = (p: string) => (/^(credits|erc7201:example\.ledger\.main\.marks)\[/.test(p) ? '0' : null);
  return [...new Set([...la.keys(), ...lb.keys()])]
    .map((p) => ({ path: p, before: la.get(p) ?? absent(p), after: lb.get(p) ?? absent(p) }))
    .filter((c) => c.before !== c.after)
    .sort((x, y) => (x.path < y.path ? -1 : 1));
}

/** The leaves of a CLI diff, without slots, sorted by path. */
function leavesOf(run: CliRun): { path: string; before: unknown; after: unknown }[] {
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { path: string; before: unknown; after: unknown }[])
    .map(({ path: p, before: b, after: a }) => ({ path: p, before: b, after: a }))
    .sort((x, y) => (x.path < y.path ? -1 : 1));
}

/** A failure: the exit status, nothing on stdout, one line on stderr naming `culprit`. */
function assertOneLineFailure(run: CliRun, code: number, culprit: string): void {
  assert.equal(run.code, code, run.stderr);
  assert.equal(run.stdout, '', 'nothing on stdout');
  assert.equal(run.stderr.split('\n').filter(Boolean).length, 1, `one line on stderr:\n${run.stderr}`);
  assert.ok(run.stderr.includes(culprit), `${run.stderr} names ${culprit}`);
}

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));
const cli = (args: string[]) => runCli(args);

interface Chain {
  url: string;
  proxy: string;
  v1: string;
  v2: string;
  deployBlock: number;
  deployTx: string;
  upgradeBlock: number;
  upgradeTx: string;
  /** The ledger after each block of the setup. */
  at: Map<number, Ledger>;
  /** Blocks: after crediting A and B (V1), and after crediting A again (V2). */
  v1Block: number;
  v2Block: number;
  /** A transaction through the proxy, mined alone, with the ledger before and after it. */
  alone?: { tx: string; before: Ledger; after: Ledger };
  /** Three transactions in one block (anvil): credit C, credit C again, bump C's entry; the ledger before each and after the last. */
  shared?: { block: number; txs: string[]; states: Ledger[] };
}

let compiled: SolcCompiled;
let dir: string;
let files: ReturnType<typeof writeArtifacts>;
/** A layout file that holds neither implementation. */
let unrelated: string;
const chains: Partial<Record<'anvil' | 'ganache', Chain>> = {};

async function txOf(c: RpcClient, block: number): Promise<string> {
  const b = await c.call<{ transactions: string[] }>('eth_getBlockByNumber', [minimal(BigInt(block)), false]);
  assert.equal(b.transactions.length, 1, `block ${block} holds one transaction`);
  return b.transactions[0];
}

async function setUp(url: string, shareBlock: boolean): Promise<Chain> {
  const c = client(url);
  const v1 = await deploy(c, compiled, SOURCE, 'LedgerV1');
  const v2 = await deploy(c, compiled, SOURCE, 'LedgerV2');
  const v1Abi = new Interface(compiled.output.contracts[SOURCE].LedgerV1.abi);
  const v2Abi = new Interface(compiled.output.contracts[SOURCE].LedgerV2.abi);
  const proxy = await deploy(c, compiled, PROXY_SOURCE, 'ERC1967Proxy', v1.address, v1Abi.encodeFunctionData('initialize'));
  const deployBlock = Number(await c.call<string>('eth_blockNumber'));
  const at = new Map<number, Ledger>();
  let ledger: Ledger = {
    version: 1,
    implementation: getAddress(v1.address),
    initialized: 1n,
    total: 0n,
    credits: new Map(),
    entries: [],
    fee: 0n,
    rounds: 0n,
    last: `0x${'0'.repeat(40)}`,
    marks: new Map(),
    nsVersion: 0n,
  };
  at.set(deployBlock, ledger);
  const asV1 = await attach(c, compiled, SOURCE, 'LedgerV1', proxy.address);
  await asV1.send('credit', A, 5n);
  ledger = credit(ledger, A, 5n);
  const v1Block = await asV1.send('credit', B, 7n);
  ledger = credit(ledger, B, 7n);
  at.set(v1Block, ledger);
  const upgradeBlock = await asV1.send('upgradeToAndCall', v2.address, v2Abi.encodeFunctionData('initializeV2', [FEE]));
  ledger = { ...copy(ledger), version: 2, implementation: getAddress(v2.address), initialized: 2n, fee: FEE, nsVersion: 2n };
  at.set(upgradeBlock, ledger);
  const asV2 = await attach(c, compiled, SOURCE, 'LedgerV2', proxy.address);
  const v2Block = await asV2.send('credit', A, 3n);
  const alone = { tx: await txOf(c, v2Block), before: ledger, after: credit(ledger, A, 3n) };
  ledger = alone.after;
  at.set(v2Block, ledger);
  const chain: Chain = {
    url,
    proxy: getAddress(proxy.address),
    v1: getAddress(v1.address),
    v2: getAddress(v2.address),
    deployBlock,
    deployTx: await txOf(c, deployBlock),
    upgradeBlock,
    upgradeTx: await txOf(c, upgradeBlock),
    at,
    v1Block,
    v2Block,
    alone,
  };
  if (shareBlock) {
    // Three transactions in one block: the second credits C again, the third bumps the entry the first pushed.
    const [from] = await c.call<string[]>('eth_accounts');
    const index = BigInt(ledger.entries.length);
    const calls = [v2Abi.encodeFunctionData('credit', [C, 11n]), v2Abi.encodeFunctionData('credit', [C, 2n]), v2Abi.encodeFunctionData('bump', [index, 4n])];
    await c.call('evm_setAutomine', [false]);
    const txs: string[] = [];
    try {
      for (const data of calls) txs.push(await c.call<string>('eth_sendTransaction', [{ from, to: proxy.address, data, gas: '0x1e8480' }]));
      await c.call('evm_mine', []);
    } finally {
      await c.call('evm_setAutomine', [true]);
    }
    const states = [ledger, credit(ledger, C, 11n)];
    states.push(credit(states[1], C, 2n));
    const bumped = copy(states[2]);
    bumped.entries[Number(index)] += 4n;
    states.push(bumped);
    const receipts = await Promise.all(txs.map((h) => c.call<{ status: string; blockNumber: string }>('eth_getTransactionReceipt', [h])));
    const block = Number(receipts[0].blockNumber);
    assert.ok(
      receipts.every((r) => r.status === '0x1' && Number(r.blockNumber) === block),
      'the three transactions succeeded in one block',
    );
    chain.shared = { block, txs, states };
    at.set(block, bumped);
  }
  return chain;
}

before(async () => {
  assert.ok(ANVIL && GANACHE, 'the harness did not start the nodes');
  await buildCli();
  compiled = compileFixture('LedgerUpgrade.sol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-upgrades-'));
  files = writeArtifacts(dir, compiled, SOURCE, 'LedgerV2');
  const other = compileSource('contracts/Other.sol', 'pragma solidity ^0.8.24; contract One { uint256 a; } contract Two { uint256 b; }');
  const otherDir = path.join(dir, 'other');
  mkdirSync(otherDir);
  unrelated = writeArtifacts(otherDir, other, 'contracts/Other.sol', 'One').solcOutput;
  chains.anvil = await setUp(ANVIL, true);
  chains.ganache = await setUp(GANACHE, false);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`proxy-history and a diff across the upgrade on ${kind}`, () => {
    test('proxy-history lists both implementations with their blocks and transactions, in chain order', async () => {
      const chain = chains[kind]!;
      const run = await cli(['proxy-history', '--rpc', chain.url, '--address', chain.proxy]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      assert.deepEqual(JSON.parse(run.stdout), [
        { block: chain.deployBlock, tx: chain.deployTx, kind: 'implementation', address: chain.v1 },
        { block: chain.upgradeBlock, tx: chain.upgradeTx, kind: 'implementation', address: chain.v2 },
      ]);
    });

    test('proxy-history up to a block before the upgrade lists V1 only; as a table, one row per upgrade', async () => {
      const chain = chains[kind]!;
      const run = await cli(['proxy-history', '--rpc', chain.url, '--address', chain.proxy, '--block', String(chain.v1Block), '--format', 'table']);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      assert.deepEqual(lines[0].split(/\s+/), ['BLOCK', 'TX', 'KIND', 'ADDRESS', 'BEACON']);
      assert.deepEqual(
        lines.slice(1).map((l) => l.trim().split(/\s+/)),
        [[String(chain.deployBlock), chain.deployTx, 'implementation', chain.v1]],
      );
    });

    test('proxy-history of an implementation (no upgrade events): an empty array and a warning', async () => {
      const chain = chains[kind]!;
      const run = await cli(['proxy-history', '--rpc', chain.url, '--address', chain.v2]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), []);
      assert.match(run.stderr, /^Warning: .* logged no Upgraded or BeaconUpgraded event up to block \d+/);
    });

    test('storage-diff across the upgrade: each side decoded with its own layout, the appended variable and namespace member null before', async () => {
      const chain = chains[kind]!;
      const run = await cli([
        'storage-diff',
        '--rpc',
        chain.url,
        '--address',
        chain.proxy,
        '--from',
        String(chain.v1Block),
        '--to',
        String(chain.upgradeBlock),
        '--layout',
        files.solcOutput,
      ]);
      assert.deepEqual(leavesOf(run), decodedDiff(chain.at.get(chain.v1Block)!, 1, chain.at.get(chain.upgradeBlock)!, 2));
      assert.deepEqual(leavesOf(run), [
        { path: 'eip1967.proxy.implementation', before: chain.v1, after: chain.v2 },
        { path: `${LEDGER}.version`, before: null, after: '2' },
        { path: 'erc7201:openzeppelin.storage.Initializable._initialized', before: '1', after: '2' },
        { path: 'fee', before: null, after: String(FEE) },
      ]);
      assert.ok(
        run.stderr.includes(
          `the implementation of ${chain.proxy} changed from ${chain.v1} (LedgerV1) to ${chain.v2} (LedgerV2) at block ${chain.upgradeBlock} (transaction ${chain.upgradeTx})`,
        ),
        run.stderr,
      );
      assert.match(
        run.stderr,
        /2 changed leaves only in the layout of contracts\/LedgerUpgrade\.sol:LedgerV2 \(before is null\): (fee, erc7201:example\.ledger\.main\.version|erc7201:example\.ledger\.main\.version, fee)\n/,
      );
    });

    test('storage-diff across the upgrade with activity on both sides: mapping entries, array elements, the appended variable', async () => {
      const chain = chains[kind]!;
      const from = chain.deployBlock;
      const to = chain.v2Block;
      const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--from', String(from), '--to', String(to), '--layout', files.hardhat2]);
      const expected = decodedDiff(chain.at.get(from)!, 1, chain.at.get(to)!, 2);
      assert.ok(expected.some((c) => c.path === `credits[${B}]`) && expected.some((c) => c.path === 'entries[2]'));
      assert.deepEqual(leavesOf(run), expected);
    });

    test('a FILE with only V2: one line that the implementation changed and V1 is not at hand; both sides decoded with V2', async () => {
      const chain = chains[kind]!;
      const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--from', String(chain.v1Block), '--to', String(chain.upgradeBlock), '--layout', files.foundry]);
      assert.equal(run.code, 0, run.stderr);
      const warnings = run.stderr.split('\n').filter((l) => l.includes('changed from'));
      assert.equal(warnings.length, 1, run.stderr);
      assert.ok(warnings[0].includes(`changed from ${chain.v1} to ${chain.v2} (LedgerV2) at block ${chain.upgradeBlock}`), warnings[0]);
      assert.ok(warnings[0].includes(`the layouts to decode both sides are not at hand: no contract in ${files.foundry} has the code of ${chain.v1}`), warnings[0]);
      assert.deepEqual(leavesOf(run), decodedDiff(chain.at.get(chain.v1Block)!, 2, chain.at.get(chain.upgradeBlock)!, 2));
    });

    test('a FILE with neither implementation and several contracts: exit 1, one line saying so', async () => {
      const chain = chains[kind]!;
      const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--from', String(chain.v1Block), '--to', String(chain.upgradeBlock), '--layout', unrelated]);
      assertOneLineFailure(run, 1, `changed from ${chain.v1} to ${chain.v2} at block ${chain.upgradeBlock}`);
      assert.match(run.stderr, /the layouts to decode both sides are not at hand/);
    });

    test('no upgrade between the blocks: the diff is the plain one, no warning', async () => {
      const chain = chains[kind]!;
      const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--from', String(chain.upgradeBlock), '--to', String(chain.v2Block), '--layout', files.foundry]);
      assert.equal(run.stderr, '');
      assert.deepEqual(leavesOf(run), decodedDiff(chain.at.get(chain.upgradeBlock)!, 2, chain.at.get(chain.v2Block)!, 2));
    });
  });
}

describe('storage-diff --tx on anvil: one transaction, from one trace of its block', () => {
  test("a transaction through the proxy, raw: every slot it wrote, as the proxy's (delegatecall), in slot order", async () => {
    const chain = chains.anvil!;
    const { tx, before, after } = chain.alone!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', tx]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), rawDiff(before, after));
  });

  test("the implementation itself: nothing written (the writes are the proxy's)", async () => {
    const chain = chains.anvil!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.v2, '--tx', chain.alone!.tx]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), []);
  });

  test('the upgrade transaction, raw: the ERC-1967 slot, the initializer version, the appended variable and member', async () => {
    const chain = chains.anvil!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', chain.upgradeTx]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), rawDiff(chain.at.get(chain.v1Block)!, chain.at.get(chain.upgradeBlock)!));
  });

  test('a transaction through the proxy, decoded with --layout: the leaves it changed', async () => {
    const chain = chains.anvil!;
    const { tx, before, after } = chain.alone!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', tx, '--layout', files.solcOutput, '--contract', 'LedgerV2']);
    assert.deepEqual(leavesOf(run), decodedDiff(before, 2, after, 2));
  });

  test('the second of two transactions crediting the same account in one block: before is after the first, not the parent block', async () => {
    const chain = chains.anvil!;
    const { txs, states } = chain.shared!;
    const raw = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', txs[1]]);
    assert.equal(raw.code, 0, raw.stderr);
    assert.deepEqual(JSON.parse(raw.stdout), rawDiff(states[1], states[2]));
    const decoded = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', txs[1], '--layout', files.foundry]);
    const expected = decodedDiff(states[1], 2, states[2], 2);
    assert.deepEqual(
      expected.find((c) => c.path === `credits[${C}]`),
      { path: `credits[${C}]`, before: '11', after: '13' },
    );
    assert.deepEqual(leavesOf(decoded), expected);
  });

  test('a transaction that writes an array element an earlier transaction of its block pushed: found through the overlaid length', async () => {
    const chain = chains.anvil!;
    const { txs, states } = chain.shared!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', txs[2], '--layout', files.foundry, '--format', 'table']);
    assert.equal(run.code, 0, run.stderr);
    const index = states[0].entries.length; // the entry the block's first transaction pushed
    const expected = decodedDiff(states[2], 2, states[3], 2);
    assert.deepEqual(expected, [{ path: `entries[${index}]`, before: '11', after: '15' }]);
    const rows = run.stdout.trim().split('\n');
    assert.deepEqual(rows[0].split(/\s+/), ['PATH', 'SLOT', 'BEFORE', 'AFTER']);
    assert.deepEqual(
      rows.slice(1).map((r) => r.trim().split(/\s+/)),
      [[`entries[${index}]`, minimal(ENTRIES_DATA + BigInt(index)), '11', '15']],
    );
  });

  test('an unknown transaction: exit 1, one line', async () => {
    const chain = chains.anvil!;
    const hash = `0x${'ab'.repeat(32)}`;
    assertOneLineFailure(await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', hash]), 1, `no transaction ${hash} on the node`);
  });

  test('--tx with --from, or no hash: exit 2', async () => {
    const chain = chains.anvil!;
    const both = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', chain.alone!.tx, '--from', '1']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--tx diffs one transaction: give it instead of --from and --to/);
    const bad = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', '0x1234']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--tx: '0x1234' is not a transaction hash/);
  });
});

describe('storage-diff --tx on ganache', () => {
  test('exit 1, one line: the node cannot trace a transaction state diff', async () => {
    const chain = chains.ganache!;
    const run = await cli(['storage-diff', '--rpc', chain.url, '--address', chain.proxy, '--tx', chain.alone!.tx]);
    assertOneLineFailure(run, 1, "the node cannot trace a transaction's state diff");
  });
});
