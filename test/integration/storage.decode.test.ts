/**
 * `chaindeck storage-decode` and `storage-diff` as users run them (the built dist/cli.js in a
 * subprocess) against our own contract, compiled here with solc-js and deployed on real anvil and
 * ganache: every encoding (packed signed and unsigned integers, bool, address, enum, bytesN,
 * contract, external function, a user-defined value type, short and long strings and bytes,
 * nested and packed structs, static, nested and dynamic arrays of packed elements and of structs,
 * mappings and a nested mapping filled through events, a string-keyed mapping, a key only --keys
 * names). Expected values are computed here from what the test sent, never by the decoder; the
 * layout file is each of the four kinds a toolchain writes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, getAddress, hexlify, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { assertNoSecret, buildCli, runCli, type CliRun } from '../support/cli';
import { freePort } from '../support/devnets';
import { startProxy } from '../support/proxy';
import { compileFixture, deploy, writeArtifacts, type Deployed, type SolcCompiled } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;
const SOURCE = 'contracts/StorageDemo.sol';
const NAME = 'StorageDemo';

const addr = (seed: string) => getAddress(keccak256(toUtf8Bytes(seed)).slice(0, 42));
const A = addr('alice');
const B = addr('bob');
const C = addr('carol');
/** Credited without an event: only --keys finds it. */
const D = addr('dave');
const ZERO = getAddress(`0x${'0'.repeat(40)}`);
const LONG_TEXT = 'Grüße aus der Speicherzelle — a string longer than one slot ✓';
const LONG_BYTES = hexlify(Uint8Array.from({ length: 40 }, (_, i) => (i * 7 + 1) & 0xff));
const NOTE = 'a note that is longer than thirty-one bytes, so it is long';
const BIG_ID = 1n << 40n;

let compiled: SolcCompiled;
let dir: string;
let files: ReturnType<typeof writeArtifacts>;

interface Var {
  label: string;
  type: string;
  slot: string;
  offset: number;
}
let layoutVars: Var[];

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url, auth: 'none' }, {}));
const decode = (args: string[], env: Record<string, string> = {}) => runCli(['storage-decode', ...args], env);
const diff = (args: string[], env: Record<string, string> = {}) => runCli(['storage-diff', ...args], env);

/** stdout is one JSON array and nothing else; stderr empty. */
function jsonOf(run: CliRun): unknown[] {
  assert.equal(run.code, 0, run.stderr);
  const parsed = JSON.parse(run.stdout);
  assert.ok(Array.isArray(parsed), run.stdout);
  return parsed;
}

/** A failure: the exit status, nothing on stdout, one line on stderr naming `culprit`. */
function assertOneLineFailure(run: CliRun, code: number, culprit: string | RegExp): void {
  assert.equal(run.code, code, run.stderr);
  assert.equal(run.stdout, '', 'nothing on stdout');
  const lines = run.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one line on stderr:\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  if (typeof culprit === 'string') assert.ok(run.stderr.includes(culprit), `${run.stderr} names ${culprit}`);
  else assert.match(run.stderr, culprit);
}

const coder = AbiCoder.defaultAbiCoder();
const mapSlot = (keyType: string, key: unknown, slot: bigint) => BigInt(keccak256(coder.encode([keyType, 'uint256'], [key, slot])));
const minimal = (n: bigint) => `0x${n.toString(16)}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const slotOf = (label: string) => BigInt(layoutVars.find((v) => v.label === label)!.slot);
/** A short string or bytes in its slot: data left-aligned, length × 2 in the lowest byte. */
const shortWord = (data: Uint8Array) => word(BigInt(`0x${Buffer.from(data).toString('hex').padEnd(62, '0')}${(data.length * 2).toString(16).padStart(2, '0')}`));

/** The state the setup sends, as the decoder must print it. */
function expectedValues(contract: string): Record<string, unknown> {
  const balances = new Map<string, bigint>();
  const credit = (who: string, v: bigint) => balances.set(who, (balances.get(who) ?? 0n) + v);
  for (const [from, to, v] of TRANSFERS) {
    credit(to, v);
    if ((balances.get(from) ?? 0n) >= v) credit(from, -v);
  }
  return {
    baseVal: '7',
    small8: '200',
    neg8: '-2',
    neg64: '-300',
    flag: true,
    owner: A,
    kind: '2',
    sel: '0xdeadbeef',
    thing: B,
    price: `0x${(12345).toString(16).padStart(24, '0')}`,
    b32: `0x${'ab'.repeat(32)}`,
    negBig: '-5',
    total: '42',
    fn: getAddress(contract),
    shortName: 'hello',
    longText: LONG_TEXT,
    shortBytes: '0xc0ffee',
    longBytes: LONG_BYTES,
    pos: { amount: '1000', since: '77', open: true, who: A },
    outer: { inner: { a: '3', b: '-4' }, note: 'note', list: ['1', '2', '3'] },
    smallArr: ['1', '2', '3', '4', '5'],
    bigArr: ['10', '20', '30'],
    grid: [
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ],
    dynSmall: ['161', '162', '163'],
    dynMid: ['1', '2', '3'],
    positions: [
      { amount: '5', since: '6', open: false, who: B },
      { amount: (2n ** 128n - 1n).toString(), since: '0', open: true, who: C },
    ],
    balances: Object.fromEntries([...balances].filter(([, v]) => v !== 0n).map(([k, v]) => [k, v.toString()])),
    allowed: { [A]: { [B]: '50' }, [B]: { [C]: '7' } },
    posById: { '9': { amount: '11', since: '12', open: true, who: B }, [BIG_ID.toString()]: { amount: '1', since: '2', open: true, who: A } },
    byInt: { '-1': true, '5': true },
    bySel: { '0x12345678': '99' },
    byName: { alice: '5', bob: '6' },
    notes: { [A]: NOTE },
  };
}

/** [from, to, value] of the Transfer events sent; the zero address mints. */
const TRANSFERS: [string, string, bigint][] = [
  [ZERO, A, 100n],
  [ZERO, B, 70n],
  [A, C, 30n],
];

interface Chain {
  url: string;
  demo: Deployed;
  /** The block after the whole setup. */
  setupBlock: number;
  /** Blocks of the later changes, in order. */
  later: number[];
}

async function setUp(url: string): Promise<Chain> {
  const c = client(url);
  const demo = await deploy(c, compiled, SOURCE, NAME);
  await demo.send('setPacked', 7, 200, -2, -300, true, A, 2);
  await demo.send('setWords', '0xdeadbeef', B, 12345, `0x${'ab'.repeat(32)}`, -5, 42);
  await demo.send('setStrings', 'hello', LONG_TEXT, '0xc0ffee', LONG_BYTES);
  await demo.send('setPos', 1000, 77, true, A);
  await demo.send('setOuter', 3, -4, 'note', [1, 2, 3]);
  await demo.send(
    'setArrays',
    [1, 2, 3, 4, 5],
    [10, 20, 30],
    [
      [1, 2],
      [3, 4],
      [5, 6],
    ],
    [0xa1, 0xa2, 0xa3],
    [1, 2, 3],
  );
  await demo.send('pushPosition', 5, 6, false, B);
  await demo.send('pushPosition', 2n ** 128n - 1n, 0, true, C);
  for (const [from, to, v] of TRANSFERS) await demo.send('transfer', from, to, v);
  await demo.send('credit', D, 4);
  await demo.send('approve', A, B, 50);
  await demo.send('approve', B, C, 7);
  await demo.send('approve', C, A, 0);
  await demo.send('open', 9, 11, 12, B);
  await demo.send('open', BIG_ID, 1, 2, A);
  await demo.send('setByInt', -1, true);
  await demo.send('setByInt', 5, true);
  await demo.send('setByInt', -128, false);
  await demo.send('setBySel', '0x12345678', 99);
  await demo.send('setByName', 'alice', 5);
  await demo.send('setByName', 'bob', 6);
  const setupBlock = await demo.send('setNote', A, NOTE);
  return { url, demo, setupBlock, later: [] };
}

/** The changes after the setup, one block each: the diff's subject. */
async function changeLater(chain: Chain): Promise<void> {
  chain.later.push(await chain.demo.send('transfer', A, B, 10));
  chain.later.push(await chain.demo.send('popSmall'));
  chain.later.push(await chain.demo.send('setStrings', 'bye', 'short now', '0xc0ffee', LONG_BYTES));
  chain.later.push(await chain.demo.send('approve', A, B, 0));
}

const chains: Record<'anvil' | 'ganache', Chain> = {} as never;

before(async () => {
  assert.ok(ANVIL && GANACHE, 'the harness did not start the nodes');
  await buildCli();
  compiled = compileFixture('StorageDemo.sol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-decode-'));
  files = writeArtifacts(dir, compiled, SOURCE, NAME);
  const layout = compiled.output.contracts[SOURCE][NAME].storageLayout as {
    storage: { label: string; slot: string; offset: number; type: string }[];
    types: Record<string, { label: string }>;
  };
  layoutVars = layout.storage.map((s) => ({ label: s.label, type: layout.types[s.type].label, slot: minimal(BigInt(s.slot)), offset: s.offset }));
  chains.anvil = await setUp(ANVIL);
  chains.ganache = await setUp(GANACHE);
  await changeLater(chains.anvil);
  await changeLater(chains.ganache);
});

after(() => {
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const kind of ['anvil', 'ganache'] as const) {
  describe(`storage-decode on ${kind}`, () => {
    test('every encoding, decoded from a Foundry artifact at the setup block: one element per variable in layout order, keys exactly label/type/slot/offset/value', async () => {
      const chain = chains[kind];
      const out = jsonOf(await decode(['--rpc', chain.url, '--address', chain.demo.address.toLowerCase(), '--layout', files.foundry, '--block', String(chain.setupBlock)]));
      const values = expectedValues(chain.demo.address);
      assert.deepEqual(
        out.map((v) => Object.keys(v as object)),
        layoutVars.map(() => ['label', 'type', 'slot', 'offset', 'value']),
      );
      assert.deepEqual(
        out.map((v) => (v as Var).label),
        layoutVars.map((v) => v.label),
      );
      for (const [i, v] of layoutVars.entries()) {
        assert.deepEqual(out[i], { ...v, value: values[v.label] }, v.label);
      }
    });

    test('--keys adds a key no event carries (balances of an address only credited)', async () => {
      const chain = chains[kind];
      const run = await decode([
        '--rpc',
        chain.url,
        '--address',
        chain.demo.address,
        '--layout',
        files.hardhat2,
        '--contract',
        NAME,
        '--block',
        String(chain.setupBlock),
        '--keys',
        `${D.toLowerCase()},carol`,
      ]);
      const balances = (jsonOf(run).find((v) => (v as Var).label === 'balances') as { value: Record<string, string> }).value;
      assert.equal(balances[D], '4');
      assert.deepEqual(balances, { ...(expectedValues(chain.demo.address).balances as object), [D]: '4' });
      // "carol" fits the string-keyed mapping (no entry there), so no warning either.
      assert.equal(run.stderr, '');
    });

    test('the same values from the solc output, the Hardhat 2 build-info and the Hardhat 3 .output.json (PATH:NAME), and by block hash', async () => {
      const chain = chains[kind];
      const args = ['--rpc', chain.url, '--address', chain.demo.address, '--block', String(chain.setupBlock)];
      const reference = jsonOf(await decode([...args, '--layout', files.foundry]));
      assert.deepEqual(jsonOf(await decode([...args, '--layout', files.solcOutput, '--contract', NAME])), reference);
      assert.deepEqual(jsonOf(await decode([...args, '--layout', files.hardhat2, '--contract', `${SOURCE}:${NAME}`])), reference);
      assert.deepEqual(jsonOf(await decode([...args, '--layout', files.hardhat3, '--contract', `${SOURCE}:${NAME}`])), reference);
      // By hash (ganache takes no EIP-1898 block object: the reads go by number, checked against the hash).
      const { hash } = await client(chain.url).call<{ hash: string }>('eth_getBlockByNumber', [minimal(BigInt(chain.setupBlock)), false]);
      assert.deepEqual(jsonOf(await decode(['--rpc', chain.url, '--address', chain.demo.address, '--block', hash, '--layout', files.foundry])), reference);
    });

    test('storage-diff with a layout across several blocks: each changed leaf in layout order, zeros shown, null for the popped element', async () => {
      const chain = chains[kind];
      const run = await diff(['--rpc', chain.url, '--address', chain.demo.address, '--from', String(chain.setupBlock), '--to', String(chain.later.at(-1)), '--layout', files.foundry]);
      const balanceOrder = [A, B].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
      const before = new Map([
        [A, '70'],
        [B, '70'],
      ]);
      const after = new Map([
        [A, '60'],
        [B, '80'],
      ]);
      const dynData = BigInt(keccak256(word(slotOf('dynSmall'))));
      assert.deepEqual(jsonOf(run), [
        { path: 'shortName', slot: minimal(slotOf('shortName')), before: 'hello', after: 'bye' },
        { path: 'longText', slot: minimal(slotOf('longText')), before: LONG_TEXT, after: 'short now' },
        { path: 'dynSmall.length', slot: minimal(slotOf('dynSmall')), before: '3', after: '2' },
        { path: 'dynSmall[2]', slot: minimal(dynData), before: '163', after: null },
        ...balanceOrder.map((who) => ({ path: `balances[${who}]`, slot: minimal(mapSlot('address', who, slotOf('balances'))), before: before.get(who), after: after.get(who) })),
        { path: `allowed[${A}][${B}]`, slot: minimal(mapSlot('address', B, mapSlot('address', A, slotOf('allowed')))), before: '50', after: '0' },
      ]);
      assert.equal(run.stderr, '');
      const table = await diff([
        '--rpc',
        chain.url,
        '--address',
        chain.demo.address,
        '--from',
        String(chain.setupBlock),
        '--to',
        String(chain.later.at(-1)),
        '--layout',
        files.foundry,
        '--format',
        'table',
      ]);
      const rows = table.stdout.trimEnd().split('\n');
      assert.match(rows[0], /^PATH\s+SLOT\s+BEFORE\s+AFTER$/);
      assert.match(
        rows.find((r) => r.startsWith('dynSmall[2] '))!,
        /\s163\s+null$/,
      );
      assert.equal(rows.length, 1 + jsonOf(run).length, 'a row per change');
      const none = await diff(['--rpc', chain.url, '--address', chain.demo.address, '--from', String(chain.later[0]), '--to', String(chain.later[0]), '--layout', files.foundry]);
      assert.deepEqual(jsonOf(none), [], 'a block against itself');
    });

    test('--format table: aligned columns with a header', async () => {
      const chain = chains[kind];
      const run = await decode(['--rpc', chain.url, '--address', chain.demo.address, '--layout', files.foundry, '--block', String(chain.setupBlock), '--format', 'table']);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^PATH\s+TYPE\s+SLOT\s+VALUE$/);
      assert.ok(
        lines.some((l) => /^pos\.who\s+address\s+0xd\s+/.test(l) && l.endsWith(A)),
        'a struct member on its own row',
      );
      assert.ok(lines.some((l) => l.startsWith(`allowed[${A}][${B}] `) && l.endsWith(' 50')));
      assert.ok(
        lines.some((l) => l.startsWith('shortName ') && l.endsWith(' "hello"')),
        'a string quoted',
      );
    });
  });
}

describe('storage-diff without a layout: raw slots from state-diff tracing', () => {
  test('anvil: every changed slot in slot order, 32-byte hex, read at both blocks', async () => {
    const chain = chains.anvil;
    const run = await diff(['--rpc', chain.url, '--address', chain.demo.address, '--from', String(chain.setupBlock), '--to', String(chain.later.at(-1))]);
    const longData = BigInt(keccak256(word(slotOf('longText'))));
    const longWords = Buffer.from(toUtf8Bytes(LONG_TEXT));
    const dynData = BigInt(keccak256(word(slotOf('dynSmall'))));
    const expected = [
      { slot: slotOf('shortName'), before: shortWord(toUtf8Bytes('hello')), after: shortWord(toUtf8Bytes('bye')) },
      { slot: slotOf('longText'), before: word(BigInt(longWords.length * 2 + 1)), after: shortWord(toUtf8Bytes('short now')) },
      { slot: slotOf('dynSmall'), before: word(3n), after: word(2n) },
      { slot: mapSlot('address', A, slotOf('balances')), before: word(70n), after: word(60n) },
      { slot: mapSlot('address', B, slotOf('balances')), before: word(70n), after: word(80n) },
      { slot: mapSlot('address', B, mapSlot('address', A, slotOf('allowed'))), before: word(50n), after: word(0n) },
      { slot: dynData, before: word((0xa3n << 64n) | (0xa2n << 32n) | 0xa1n), after: word((0xa2n << 32n) | 0xa1n) },
      ...Array.from({ length: Math.ceil(longWords.length / 32) }, (_, i) => ({
        slot: longData + BigInt(i),
        before: `0x${longWords
          .subarray(i * 32, i * 32 + 32)
          .toString('hex')
          .padEnd(64, '0')}`,
        after: word(0n),
      })),
    ]
      .sort((x, y) => (x.slot < y.slot ? -1 : 1))
      .map((e) => ({ ...e, slot: word(e.slot) }));
    assert.deepEqual(jsonOf(run), expected);
  });

  test('ganache: exit 1, one line saying the node cannot trace state diffs', async () => {
    const chain = chains.ganache;
    const run = await diff(['--rpc', chain.url, '--address', chain.demo.address, '--from', String(chain.setupBlock), '--to', 'latest']);
    assertOneLineFailure(run, 1, 'the node cannot trace state diffs');
  });
});

describe('key discovery pages eth_getLogs', () => {
  test('a provider that caps ranges at 4 blocks: the keys are still found, by halving', async () => {
    const chain = chains.anvil;
    const proxy = await startProxy({ target: ANVIL });
    try {
      proxy.failCalls((call) => {
        if (call.method !== 'eth_getLogs') return undefined;
        const [{ fromBlock, toBlock }] = call.params as { fromBlock: string; toBlock: string }[];
        return Number(BigInt(toBlock)) - Number(BigInt(fromBlock)) > 3 ? { code: -32005, message: 'query exceeds max block range 4' } : undefined;
      });
      const run = await decode(['--rpc', proxy.url, '--address', chain.demo.address, '--layout', files.foundry, '--block', String(chain.setupBlock)]);
      const out = jsonOf(run);
      const values = expectedValues(chain.demo.address);
      for (const label of ['balances', 'allowed', 'posById', 'byName']) assert.deepEqual((out.find((v) => (v as Var).label === label) as { value: unknown }).value, values[label], label);
      assert.ok(proxy.requests.filter((r) => r.methods.includes('eth_getLogs')).length > 8, 'the range was split');
    } finally {
      await proxy.close();
    }
  });
});

describe('bad input: one line naming the culprit, nothing on stdout', () => {
  const base = () => ['--rpc', ANVIL, '--address', chains.anvil.demo.address];

  test('usage (exit 2): a missing --layout, a bad --format, a bad address, a bad block', async () => {
    for (const [args, says] of [
      [base(), '--layout is required'],
      [[...base(), '--layout', files.foundry, '--format', 'yaml'], "--format is json or table, not 'yaml'"],
      [['--rpc', ANVIL, '--address', '0x1234', '--layout', files.foundry], "--address: Invalid address '0x1234'"],
      [[...base(), '--layout', files.foundry, '--block', 'yesterday'], "--block: Invalid block 'yesterday'"],
    ] as const) {
      const run = await decode([...args]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.startsWith(`chaindeck storage-decode: ${says}`), run.stderr);
    }
  });

  test('several contracts in the file and no --contract: the one whose code is deployed there', async () => {
    const picked = jsonOf(await decode([...base(), '--layout', files.solcOutput, '--block', String(chains.anvil.setupBlock)]));
    const named = jsonOf(await decode([...base(), '--layout', files.solcOutput, '--contract', NAME, '--block', String(chains.anvil.setupBlock)]));
    assert.deepEqual(picked, named);
  });

  test('exit 1: a missing file, one that is not JSON, one without layout, a Hardhat 3 input file, a --contract not in the file', async () => {
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '{"contracts": ');
    const noLayout = path.join(dir, 'no-layout.json');
    const stripped = JSON.parse(JSON.stringify(compiled.output)) as SolcCompiled['output'];
    for (const byName of Object.values(stripped.contracts)) for (const c of Object.values(byName)) delete (c as { storageLayout?: unknown }).storageLayout;
    writeFileSync(noLayout, JSON.stringify(stripped));
    const missing = path.join(dir, 'nowhere.json');
    assertOneLineFailure(await decode([...base(), '--layout', missing]), 1, missing);
    assertOneLineFailure(await decode([...base(), '--layout', notJson]), 1, `${notJson} is not JSON`);
    const none = await decode([...base(), '--layout', noLayout]);
    assertOneLineFailure(none, 1, `${noLayout} has no storage layout`);
    assert.match(none.stderr, /outputSelection/);
    assert.match(none.stderr, /--extra-output storageLayout/);
    assertOneLineFailure(await decode([...base(), '--layout', files.hardhat3Input]), 1, files.hardhat3.replace(/^.*\//, ''));
    const wrong = await decode([...base(), '--layout', files.hardhat2, '--contract', 'Nope']);
    assertOneLineFailure(wrong, 1, '--contract Nope is not in');
    assert.ok(wrong.stderr.includes(`${SOURCE}:${NAME}`) && wrong.stderr.includes(`${SOURCE}:Base`), 'lists those that are');
  });

  test('exit 1: an address with no code, an unknown block (named as given), an unreachable node whose key stays secret', async () => {
    const noCode = await decode(['--rpc', ANVIL, '--address', C, '--layout', files.foundry]);
    assertOneLineFailure(noCode, 1, `${C} has no code`);
    const unknownHash = `0x${'ef'.repeat(32)}`;
    assertOneLineFailure(await decode([...base(), '--layout', files.foundry, '--block', unknownHash]), 1, unknownHash);
    assertOneLineFailure(await decode([...base(), '--layout', files.foundry, '--block', '99999999']), 1, 'block 99999999');
    assertOneLineFailure(await diff([...base(), '--from', '99999999', '--to', 'latest']), 1, 'block 99999999');
    const key = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const unreachable = await decode(['--rpc', `http://127.0.0.1:${await freePort()}/${key}`, '--address', A, '--layout', files.foundry]);
    assertOneLineFailure(unreachable, 1, 'Failed to connect to Ethereum node');
    assertNoSecret(unreachable, key);
  });
});
