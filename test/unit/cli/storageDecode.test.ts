/**
 * storage-decode against a loopback node that lies or refuses (what anvil cannot be made to do),
 * and against hostile layout files, in-process: a node that answers every eth_getLogs with a rate
 * limit or a range cap is asked a bounded number of times, with waits between rate-limit
 * refusals; logs that are not logs hold no keys; a type named like an Object method and a size
 * no value type has end in one line of ours, never in a JavaScript message.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AbiCoder, getAddress, keccak256 } from 'ethers';
import { LOG_BACKOFF, MAX_LOG_REQUESTS, RATE_LIMITS_WITHOUT_LOGS } from '../../../src/core/storage/decode/logs';
import { runMain, type MainRun } from '../../support/cli';
import { startRpcServer, type RpcServer } from '../../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;
const ALICE = getAddress('0x00000000000000000000000000000000000a11ce');
const word = (n: bigint | number) => `0x${n.toString(16).padStart(64, '0')}`;
const balanceSlot = (who: string) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [who, 1n])));

const UINT = { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' };
const LAYOUT = {
  storage: [
    { label: 'total', offset: 0, slot: '0', type: 't_uint256' },
    { label: 'balances', offset: 0, slot: '1', type: 't_mapping(t_address,t_uint256)' },
  ],
  types: {
    t_uint256: UINT,
    t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
    't_mapping(t_address,t_uint256)': { encoding: 'mapping', label: 'mapping(address => uint256)', numberOfBytes: '32', key: 't_address', value: 't_uint256' },
  },
};

let node: RpcServer;
let dir: string;
/** The chain head; eth_getLogs is searched up to it. */
let head: number;
let slots: Map<bigint, string>;

const layoutFile = (name: string, layout: unknown) => {
  const f = path.join(dir, name);
  writeFileSync(f, JSON.stringify({ contracts: { 'contracts/A.sol': { A: { storageLayout: layout } } } }));
  return f;
};
const decode = (file: string) => runMain(['storage-decode', '--rpc', node.url, '--address', ADDRESS, '--layout', file]);
const getLogsCalls = () => node.calls.filter((c) => c.method === 'eth_getLogs');

/** A failure in one line of ours: exit 1, nothing on stdout, no JavaScript message. (The decoded values are printed unredacted, through `revealed`.) */
function assertOneLine(run: MainRun, says: string): void {
  assert.equal(run.code, 1, run.err);
  assert.equal(run.out + run.revealed, '', 'nothing on stdout');
  assert.equal(run.err.split('\n').filter(Boolean).length, 1, run.err);
  assert.doesNotMatch(run.err, /Cannot read|Maximum BigInt|is not a function|undefined|TypeError|RangeError/);
  assert.ok(run.err.includes(says), run.err);
}

before(async () => {
  node = await startRpcServer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-hostile-'));
});
after(async () => {
  await node.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  node.clear();
  head = 0x10;
  slots = new Map([
    [0n, word(42)],
    [balanceSlot(ALICE), word(7)],
  ]);
  const block = () => ({ result: { number: `0x${head.toString(16)}`, hash: HASH } });
  node.methods = {
    eth_getBlockByNumber: block,
    eth_getBlockByHash: block,
    eth_getCode: { result: '0x6000' },
    eth_getStorageAt: (params) => ({ result: slots.get(BigInt((params as string[])[1])) ?? word(0) }),
    eth_getLogs: { result: [{ topics: [word(1), word(BigInt(ALICE))], data: '0x' }] },
  };
});

describe('eth_getLogs that refuses every time: bounded, with waits on rate limits', () => {
  test('-32005 "request rate limited" on every ask: waited out, asked again a few times, then a warning; the decode still done', async () => {
    node.methods.eth_getLogs = { error: { code: -32005, message: 'daily request count exceeded, request rate limited' } };
    const started = Date.now();
    const run = await decode(layoutFile('plain.json', LAYOUT));
    const took = Date.now() - started;
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(
      JSON.parse(run.revealed).map((v: { value: unknown }) => v.value),
      ['42', {}],
    );
    assert.equal(getLogsCalls().length, LOG_BACKOFF.retries + 1, 'the same range asked again, never split');
    assert.equal(
      run.err,
      `Warning: mapping keys: eth_getLogs was refused as rate-limited ${LOG_BACKOFF.retries + 1} times in a row (JSON-RPC error -32005: daily request count exceeded, request rate limited); blocks 0–16 were not searched\n`,
    );
    // The waits double from 250 ms, each between half and all of it: at least 125 + 250 + 500.
    assert.ok(took >= 875, `waited between refusals (${took} ms)`);
  });

  test('a rate limit that passes: the keys are found, no warning', async () => {
    let refused = 0;
    node.methods.eth_getLogs = () => (refused++ < 2 ? { error: { code: -32005, message: 'Too Many Requests' } } : { result: [{ topics: [word(BigInt(ALICE))], data: '0x' }] });
    const run = await decode(layoutFile('plain.json', LAYOUT));
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.revealed)[1].value, { [ALICE]: '7' });
    assert.equal(run.err, '');
    assert.equal(getLogsCalls().length, 3);
  });

  // Unbounded, this splits down to a million single blocks: the timeout makes that a failure, not a hang.
  test('-32005 "limit exceeded" (a range cap) for every range, however narrow: at most MAX_LOG_REQUESTS asks, then a warning', { timeout: 60_000 }, async () => {
    head = 1_000_000;
    node.methods.eth_getLogs = { error: { code: -32005, message: 'limit exceeded' } };
    const run = await decode(layoutFile('plain.json', LAYOUT));
    assert.equal(run.code, 0, run.err);
    assert.equal(getLogsCalls().length, MAX_LOG_REQUESTS);
    // One line for the bound and for the single blocks refused on the way (hundreds of lines before).
    const lines = run.err.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, run.err);
    assert.match(
      lines[0],
      new RegExp(
        `^Warning: mapping keys: eth_getLogs was asked ${MAX_LOG_REQUESTS} times, the most one search sends; blocks \\d+–1000000 were not searched; \\d+ ranges of eth_getLogs \\(\\d+ blocks, the first blocks 0–0, the last blocks \\d+–\\d+\\) failed and were not searched; the node's last reason: JSON-RPC error -32005: limit exceeded$`,
      ),
    );
  });

  test('a rate limit that comes back after every wait, between caps ("more than 10000 results"): the search stops early, in one warning line', async () => {
    let asked = 0;
    node.methods.eth_getLogs = () =>
      asked++ % 2 === 0 ? { error: { code: -32005, message: 'rate limited, slow down' } } : { error: { code: -32005, message: 'query returned more than 10000 results' } };
    const run = await decode(layoutFile('plain.json', LAYOUT));
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(
      JSON.parse(run.revealed).map((v: { value: unknown }) => v.value),
      ['42', {}],
    );
    // The first refusal waited out, then RATE_LIMITS_WITHOUT_LOGS more, each after a cap: no single blocks reached.
    assert.equal(getLogsCalls().length, 2 * RATE_LIMITS_WITHOUT_LOGS + 1);
    assert.equal(
      run.err,
      `Warning: mapping keys: eth_getLogs was refused as rate-limited again ${RATE_LIMITS_WITHOUT_LOGS} times after waiting, with no logs answered between (JSON-RPC error -32005: rate limited, slow down); blocks 0–16 were not searched\n`,
    );
  });

  test('single blocks the node refuses on the way: one warning line, however many, with the first, the last and the last reason', async () => {
    node.methods.eth_getLogs = (params) => {
      const [{ fromBlock, toBlock }] = params as { fromBlock: string; toBlock: string }[];
      if (fromBlock !== toBlock) return { error: { code: -32005, message: 'query returned more than 10000 results' } };
      return Number(fromBlock) % 4 === 0 ? { error: { code: -32000, message: `block ${Number(fromBlock)} is pruned` } } : { result: [] };
    };
    const run = await decode(layoutFile('plain.json', LAYOUT));
    assert.equal(run.code, 0, run.err);
    assert.equal(
      run.err,
      "Warning: mapping keys: 5 ranges of eth_getLogs (5 blocks, the first blocks 0–0, the last blocks 16–16) failed and were not searched; the node's last reason: JSON-RPC error -32000: block 16 is pruned\n",
    );
  });
});

describe('what a node or a layout file may hold, in one line of ours', () => {
  test('eth_getLogs with null entries, numbers and topics that are no list: those hold no keys, the rest still do', async () => {
    node.methods.eth_getLogs = { result: [null, 5, 'text', { topics: 'x', data: 7 }, { topics: [null, 3] }, { topics: [word(BigInt(ALICE))], data: '0x' }] };
    const run = await decode(layoutFile('plain.json', LAYOUT));
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.revealed)[1].value, { [ALICE]: '7' });
    assert.equal(run.err, '');
  });

  test('a type named like an Object method: described, it decodes; undescribed, the variable is named', async () => {
    const described = { storage: [{ label: 'x', offset: 0, slot: '0', type: 'constructor' }], types: { constructor: UINT } };
    const run = await decode(layoutFile('described.json', described));
    assert.equal(run.code, 0, run.err);
    assert.equal(JSON.parse(run.revealed)[0].value, '42');
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const missing = { storage: [{ label: 'x', offset: 0, slot: '0', type: id }], types: { t_uint256: UINT } };
      assertOneLine(await decode(layoutFile('missing.json', missing)), `x: the layout names type ${id} but does not describe it`);
      const key = {
        storage: [{ label: 'm', offset: 0, slot: '1', type: 't_mapping' }],
        types: { t_uint256: UINT, t_mapping: { encoding: 'mapping', label: 'mapping', numberOfBytes: '32', key: id, value: 't_uint256' } },
      };
      const keyRun = await decode(layoutFile('key.json', key));
      assert.equal(keyRun.code, 0, keyRun.err);
      assert.deepEqual(JSON.parse(keyRun.revealed)[0].value, {}, 'a key type not described: no candidate keys');
    }
  });

  test('a value type of more than 32 bytes (numberOfBytes 1e29) is a malformed layout; a static array that large is not', async () => {
    const huge = '1'.padEnd(30, '0');
    const file = layoutFile('huge.json', { ...LAYOUT, types: { ...LAYOUT.types, t_uint256: { ...UINT, numberOfBytes: huge } } });
    assertOneLine(await decode(file), `${file}: the storage layout of contracts/A.sol:A is malformed: type t_uint256: numberOfBytes "${huge}" is more than the 32 bytes of a value type`);
    // 3125 × 10^24 uint256 elements: the first 10,000 read, the warning names the real length.
    const length = `3125${'0'.repeat(24)}`;
    const id = `t_array(t_uint256)${length}_storage`;
    const array = {
      storage: [{ label: 'arr', offset: 0, slot: '0', type: id }],
      types: { t_uint256: UINT, [id]: { encoding: 'inplace', label: `uint256[${length}]`, numberOfBytes: huge, base: 't_uint256' } },
    };
    const run = await decode(layoutFile('array.json', array));
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(run.revealed)[0].value.slice(0, 2), ['42', '0']);
    assert.equal(run.err, `Warning: arr: ${length} elements, the first 10000 read\n`);
  });
});

describe('names from the layout file in warnings', () => {
  test('a struct name and a type with line breaks in a namespace note: one warning line each in storage-decode and storage-diff, never a forged second line', async () => {
    const elementary = (typeString: string) => ({ nodeType: 'ElementaryTypeName', name: typeString, typeDescriptions: { typeString } });
    const struct = {
      nodeType: 'StructDefinition',
      id: 2,
      name: 'S',
      canonicalName: 'A.S\n::error::forged line',
      documentation: { text: '@custom:storage-location erc7201:x.y' },
      members: [{ nodeType: 'VariableDeclaration', name: 'q', id: 3, typeName: elementary('uint7\r\nError: forged too') }],
    };
    const file = path.join(dir, 'forging.json');
    const ast = {
      nodeType: 'SourceUnit',
      absolutePath: 'contracts/A.sol',
      id: 100,
      nodes: [{ nodeType: 'ContractDefinition', id: 1, name: 'A', linearizedBaseContracts: [1], nodes: [struct] }],
    };
    writeFileSync(file, JSON.stringify({ contracts: { 'contracts/A.sol': { A: { storageLayout: LAYOUT } } }, sources: { 'contracts/A.sol': { id: 0, ast } } }));
    for (const args of [['storage-decode'], ['storage-diff', '--from', '0x10', '--to', '0x10']]) {
      const run = await runMain([...args, '--rpc', node.url, '--address', ADDRESS, '--layout', file]);
      assert.equal(run.code, 0, run.err);
      assert.deepEqual(
        run.err.split('\n').filter(Boolean),
        ['Warning: erc7201:x.y (struct A.S\\n::error::forged line) is not decoded: type uint7\\nError: forged too has no storage layout Chaindeck knows'],
        args[0],
      );
    }
  });
});

describe('JSON on stdout: masked value by value, then serialised', () => {
  test('a string in storage that is the --user password with a quote in it: masked in storage-decode and storage-diff, where masking the serialised text missed its escaped form', async () => {
    const password = 'pa"ss\\word9';
    const bytes = Buffer.from(password);
    // A short string: the bytes left-aligned, twice the length in the lowest byte.
    slots.set(2n, `0x${bytes.toString('hex').padEnd(62, '0')}${(bytes.length * 2).toString(16).padStart(2, '0')}`);
    const file = layoutFile('with-string.json', {
      storage: [...LAYOUT.storage, { label: 'note', offset: 0, slot: '2', type: 't_string_storage' }],
      types: { ...LAYOUT.types, t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' } },
    });
    const env = { CHAINDECK_PASSWORD: password };
    const common = ['--rpc', node.url, '--user', 'bob', '--address', ADDRESS, '--layout', file, '--format', 'json'];
    const decoded = await runMain(['storage-decode', ...common], env, true);
    assert.equal(decoded.code, 0, decoded.err);
    assert.equal((JSON.parse(decoded.out) as { label: string; value: unknown }[]).find((v) => v.label === 'note')?.value, '***');
    // For the diff the note is set between blocks 1 and 16.
    const asked = (params: unknown) => {
      const [ref] = params as [string];
      const n = ref === 'latest' ? head : Number(BigInt(ref));
      return { result: { number: `0x${n.toString(16)}`, hash: word(0xb10c00 + n) } };
    };
    node.methods.eth_getBlockByNumber = asked;
    node.methods.eth_getStorageAt = (params) => {
      const [, slot, at] = params as string[];
      return { result: BigInt(slot) === 2n && at === '0x1' ? word(0) : (slots.get(BigInt(slot)) ?? word(0)) };
    };
    const diff = await runMain(['storage-diff', ...common.slice(0, 6), '--from', '0x1', '--to', '0x10', ...common.slice(6)], env, true);
    assert.equal(diff.code, 0, diff.err);
    assert.deepEqual((JSON.parse(diff.out) as { path: string; after: unknown }[]).find((c) => c.path === 'note')?.after, '***');
    for (const out of [decoded.out, diff.out]) assert.ok(!out.includes('word9'), out);
  });
});
