/**
 * `chaindeck storage-range` in-process against a scripted loopback node: usage errors (exit 2,
 * exact message and the usage, nothing sent), the one JSON object in the spec's form on stdout
 * (exit 0 with a result, 1 with an error whose reason is also on stderr), native, auto and
 * emulated reads with the parameters the node receives, warnings on stderr, and --max bounds.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { assertUsageError, runMain, type MainRun } from '../../support/cli';
import { startRpcServer, type CallAnswer, type RpcServer } from '../../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;
const KEY = 'fedcba9876543210fedcba9876543210';
const PASSWORD = 'Pw-storage-77x';
const word = (n: number | bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const USAGE_START = '\n\nUsage: chaindeck storage-range --rpc URL --block HASH|NUMBER|latest --address ADDR\n';

let node: RpcServer;
/** Slot number → value of the contract's storage; every other slot reads as zero. */
let slots: Map<bigint, string>;

before(async () => {
  node = await startRpcServer();
});
after(() => node.close());

function block(params: unknown): CallAnswer {
  const [ref] = params as [string];
  return { result: ref === 'latest' || ref === '0x10' || ref === HASH ? { number: '0x10', hash: HASH } : null };
}

beforeEach(() => {
  node.clear();
  slots = new Map([
    [0n, word(0x2a)],
    [2n, word(7)],
    [5n, word(0xff)],
  ]);
  node.methods = {
    eth_getBlockByNumber: block,
    eth_getBlockByHash: block,
    eth_getStorageAt: (params) => {
      const [, slot] = params as [string, string, string];
      return { result: slots.get(BigInt(slot)) ?? word(0) };
    },
  };
});

const storage = (args: string[], env: NodeJS.ProcessEnv = {}) => runMain(['storage-range', ...args], env);
const base = () => ['--rpc', node.url, '--block', 'latest', '--address', ADDRESS];

function assertUsage(run: MainRun, message: string): void {
  assertUsageError(run, { command: 'storage-range', start: USAGE_START }, message, node.requests);
}

/** The one object on stdout, which must be all of stdout, pretty-printed with two spaces. */
function oneObject(run: MainRun): {
  jsonrpc: string;
  id: number;
  result?: { storage: Record<string, { key: string | null; value: string }>; nextKey: string | null };
  error?: { code: number; message: string };
} {
  const value = JSON.parse(run.out);
  assert.equal(run.out, `${JSON.stringify(value, null, 2)}\n`);
  return value;
}

describe('chaindeck storage-range: usage errors (exit 2)', () => {
  test('required options, unknown options, positional arguments, missing values', async () => {
    assertUsage(await storage(['--block', 'latest', '--address', ADDRESS]), '--rpc is required');
    assertUsage(await storage(['--rpc', node.url, '--address', ADDRESS]), '--block is required');
    assertUsage(await storage(['--rpc', node.url, '--block', 'latest']), '--address is required');
    assertUsage(await storage([...base(), '--colour', 'red']), 'unknown option --colour');
    assertUsage(await storage([...base(), ADDRESS]), `unexpected argument '${ADDRESS}': every value follows its option, e.g. --address ${ADDRESS}`);
    assertUsage(await storage([...base(), '--max']), '--max needs a value');
    assertUsage(
      await storage([...base(), '--password', 'x']),
      '--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_PASSWORD and pass --user NAME.',
    );
    assertUsage(await storage([...base(), '--mode', 'fast']), "--mode is auto, native or emulate, not 'fast'");
    assertUsage(await storage([...base(), '--mode=Native']), "--mode is auto, native or emulate, not 'Native'");
  });

  test('--max: 1 to 100000; above it names the maximum and paging, however many digits', async () => {
    const paging = 'read a larger range page by page, starting each page at the previous nextKey';
    for (const big of ['100001', '1000000', '99999999999999999999999']) assertUsage(await storage([...base(), '--max', big]), `--max is at most 100000, not ${big}: ${paging}`);
    for (const bad of ['0', '-1', '1.5', 'ten', '', '0x10', '1e3']) assertUsage(await storage([...base(), `--max=${bad}`]), `--max needs a positive integer, not '${bad}'`);
  });

  test('--tx-index: a non-negative integer, no maximum', async () => {
    for (const bad of ['-1', '1.5', 'x', '', '99999999999999999999']) assertUsage(await storage([...base(), '--tx-index', bad]), `--tx-index needs a non-negative integer, not '${bad}'`);
  });

  test('--timeout and the endpoint are checked the same way as for rpc', async () => {
    assertUsage(await storage([...base(), '--timeout', '0']), "--timeout needs a whole number of milliseconds from 1 to 86400000 (24 h), not '0'");
    assertUsage(
      await storage(['--rpc', 'ftp://example.com/', '--block', 'latest', '--address', ADDRESS]),
      "Unsupported scheme 'ftp' in ftp://example.com/: a node endpoint's scheme is https or wss (http or ws for a local node).",
    );
    assertUsage(await storage([...base(), '--user', 'bob']), '--user needs the password in the environment variable CHAINDECK_PASSWORD');
  });

  test('--help prints the usage on stdout, exit 0', async () => {
    const run = await storage(['--help']);
    assert.equal(run.code, 0);
    assert.ok(run.out.startsWith('Usage: chaindeck storage-range --rpc URL'));
    assert.equal(run.err, '');
  });
});

describe('chaindeck storage-range: results (exit 0)', () => {
  test('auto on a node without debug_storageRangeAt: the emulation, keys as minimal hex, key null, nextKey null when fewer than --max', async () => {
    const run = await storage([...base()]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    assert.deepEqual(oneObject(run), {
      jsonrpc: '2.0',
      id: 1,
      result: {
        storage: { '0x0': { key: null, value: word(0x2a) }, '0x2': { key: null, value: word(7) }, '0x5': { key: null, value: word(0xff) } },
        nextKey: null,
      },
    });
    const methods = node.calls.map((c) => c.method);
    assert.equal(methods[0], 'eth_getBlockByNumber');
    assert.deepEqual(node.calls[0].params, ['latest', false]);
    assert.equal(methods[1], 'debug_storageRangeAt');
    assert.deepEqual(node.calls[1].params, [HASH, 0, ADDRESS, word(0), 10]);
    const reads = node.calls.filter((c) => c.method === 'eth_getStorageAt');
    assert.equal(reads.length, 100, 'ten times --max reads');
    assert.deepEqual(reads[0].params, [ADDRESS, word(0), '0x10']);
  });

  test('emulate with --start, --max, a lower-case address and --url: nextKey is the slot after the last read', async () => {
    const run = await storage(['--url', node.url, '--block', '16', '--address', ADDRESS.toLowerCase(), '--start', '1', '--max', '2', '--mode', 'emulate', '--tx-index', '3']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(oneObject(run).result, { storage: { '0x2': { key: null, value: word(7) }, '0x5': { key: null, value: word(0xff) } }, nextKey: '0x6' });
    assert.ok(!node.calls.some((c) => c.method === 'debug_storageRangeAt'), 'emulate never asks the native method');
    assert.ok(
      node.calls.filter((c) => c.method === 'eth_getStorageAt').every((c) => (c.params as string[])[0] === ADDRESS),
      'the address checksummed',
    );
  });

  test("native: the node's range, sorted by hashed key; --tx-index, --start and --max passed as its parameters", async () => {
    const k1 = `0x${'1'.repeat(64)}`;
    const k2 = `0x${'2'.repeat(64)}`;
    node.methods.debug_storageRangeAt = { result: { storage: { [k2]: { key: word(1), value: word(2) }, [k1]: { key: word(0), value: word(3) } }, nextKey: `0x${'3'.repeat(64)}` } };
    const run = await storage(['--rpc', node.url, '--block', HASH, '--address', ADDRESS, '--mode', 'native', '--tx-index', '4', '--start', 'a', '--max', '2']);
    assert.equal(run.code, 0, run.err);
    const result = oneObject(run).result!;
    assert.deepEqual(Object.keys(result.storage), [k1, k2]);
    assert.equal(result.nextKey, `0x${'3'.repeat(64)}`);
    assert.deepEqual(node.calls[0], { jsonrpc: '2.0', id: node.calls[0].id, method: 'eth_getBlockByHash', params: [HASH, false] });
    assert.deepEqual(node.calls[1].params, [HASH, 4, ADDRESS, word(10), 2]);
    assert.equal(node.calls.length, 2);
  });

  test('native on a node that ignores --max and sends junk: at most --max entries printed, then nextKey; a non-hex key or a null entry is an error', async () => {
    const flood = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [word(i + 1), { key: null, value: word(i) }]));
    node.methods.debug_storageRangeAt = { result: { storage: flood, nextKey: null } };
    const run = await storage([...base(), '--mode', 'native', '--max', '5']);
    assert.equal(run.code, 0, run.err);
    const result = oneObject(run).result!;
    assert.deepEqual(Object.keys(result.storage), [1, 2, 3, 4, 5].map(word));
    assert.equal(result.nextKey, word(6));
    for (const junk of [{ 'not hex': { key: null, value: word(1) } }, { [word(1)]: null }]) {
      node.methods.debug_storageRangeAt = { result: { storage: junk, nextKey: null } };
      const bad = await storage([...base(), '--mode', 'native', '--max', '5']);
      assert.equal(bad.code, 1);
      const message = `debug_storageRangeAt answered an entry that is not a storage entry: ${JSON.stringify(JSON.stringify(junk))}`;
      assert.deepEqual(oneObject(bad).error, { code: -32000, message });
      assert.equal(bad.err, `chaindeck storage-range: ${message}\n`);
    }
  });

  test('--max and --tx-index take surrounding spaces', async () => {
    node.methods.debug_storageRangeAt = { result: { storage: {}, nextKey: null } };
    const run = await storage([...base(), '--max', ' 7 ', '--tx-index', ' 0 ', '--mode', 'native']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(node.calls[1].params, [HASH, 0, ADDRESS, word(0), 7]);
  });

  test('--max 100000 is accepted', async () => {
    node.methods.debug_storageRangeAt = { result: { storage: {}, nextKey: null } };
    const run = await storage([...base(), '--max', '100000', '--mode', 'native']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(oneObject(run).result, { storage: {}, nextKey: null });
    assert.equal((node.calls[1].params as unknown[])[4], 100000);
  });

  test('a slot that cannot be read: skipped, the warning line on stderr, exit 0', async () => {
    node.methods.eth_getStorageAt = (params) => {
      const slot = BigInt((params as string[])[1]);
      return slot === 1n ? { error: { code: -32000, message: 'missing trie node' } } : { result: slots.get(slot) ?? word(0) };
    };
    const run = await storage([...base(), '--mode', 'emulate', '--max', '2']);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(Object.keys(oneObject(run).result!.storage), ['0x0', '0x2']);
    assert.equal(run.err, 'Warning: failed to read slot 0x1: JSON-RPC error -32000: missing trie node; skipped\n');
  });

  test('Basic auth and a key in the path reach the node; nothing printed holds them', async () => {
    const run = await storage(['--rpc', `${node.url}/${KEY}`, '--user', 'bob', '--block', 'latest', '--address', ADDRESS, '--mode', 'emulate', '--max', '1'], {
      CHAINDECK_PASSWORD: PASSWORD,
    });
    assert.equal(run.code, 0, run.err);
    assert.ok(node.requests.every((r) => r.url === `/${KEY}` && r.authorization === `Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`));
  });
});

describe('chaindeck storage-range: errors (exit 1, the JSON error object on stdout, the reason on stderr)', () => {
  const error = (run: MainRun) => {
    assert.equal(run.code, 1);
    const value = oneObject(run);
    assert.equal(value.result, undefined);
    assert.equal(value.jsonrpc, '2.0');
    assert.equal(value.id, 1);
    assert.equal(value.error!.code, -32000);
    return value.error!.message;
  };

  test('bad inputs the command hands on (address, start key, block) fail before anything is sent', async () => {
    const address = await storage(['--rpc', node.url, '--block', 'latest', '--address', '0x1234']);
    assert.match(error(address), /^Invalid address '0x1234': /);
    assert.equal(address.err, `chaindeck storage-range: ${JSON.parse(address.out).error.message}\n`);
    const start = await storage([...base(), '--start', '0xnope']);
    assert.equal(
      error(start),
      "Invalid start key '0xnope': expected hex digits (0-9, a-f), with or without 0x, e.g. 0x0 or 0x0000000000000000000000000000000000000000000000000000000000000000",
    );
    const blockRef = await storage(['--rpc', node.url, '--block', 'yesterday', '--address', ADDRESS]);
    assert.match(error(blockRef), /^Invalid block 'yesterday': expected a block hash/);
    assert.equal(node.requests.length, 0);
  });

  test('a block the node does not have: Failed to get block', async () => {
    const run = await storage(['--rpc', node.url, '--block', '99', '--address', ADDRESS]);
    assert.equal(error(run), 'Failed to get block: block 99 (0x63) not found');
    assert.equal(run.err, 'chaindeck storage-range: Failed to get block: block 99 (0x63) not found\n');
  });

  test('native on a node without the method: the error says to use the emulation', async () => {
    const run = await storage([...base(), '--mode', 'native']);
    assert.equal(error(run), 'debug_storageRangeAt is not available on this node (JSON-RPC error -32601: Method not found); use the emulation (mode emulate)');
    assert.equal(run.err, `chaindeck storage-range: ${JSON.parse(run.out).error.message}\n`, 'the detail is already in the message: not repeated');
  });

  test('a real native error is not hidden behind the emulation in auto mode', async () => {
    node.methods.debug_storageRangeAt = { error: { code: -32000, message: 'historical state not available' } };
    const run = await storage([...base()]);
    assert.equal(error(run), 'debug_storageRangeAt failed: JSON-RPC error -32000: historical state not available');
    assert.ok(!node.calls.some((c) => c.method === 'eth_getStorageAt'));
  });

  test('a node message with URLs followed by a quote or a line break: masked in the JSON error, which still parses', async () => {
    // Masked first, then made one line (the break becomes a backslash and n): the URL ends at the break, so `next` is kept.
    node.methods.debug_storageRangeAt = { error: { code: -32000, message: 'see https://evil.example.com/SECRETPATH" or https://evil.example.com/SECRETPATH\nnext' } };
    const run = await runMain(['storage-range', ...base(), '--mode', 'native'], {}, true);
    assert.equal(error(run), 'debug_storageRangeAt failed: JSON-RPC error -32000: see https://evil.example.com/***" or https://evil.example.com/***\\nnext');
    assert.ok(!run.out.includes('SECRETPATH'), run.out);
  });

  test('--timeout bounds the whole command: a silent node fails at once after it, not by the node', async () => {
    node.reply = () => ({ delayMs: 20_000, body: {} });
    const started = Date.now();
    const run = await storage([...base(), '--timeout', '300']);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(error(run), 'Failed to connect to Ethereum node');
    assert.equal(
      run.err,
      `chaindeck storage-range: Failed to connect to Ethereum node: No answer from ${node.url}/ within 300 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).\n`,
    );
  });

  test("an unreachable node: the spec's connect failure, the reason after it on stderr only; no key shown", async () => {
    node.reply = () => ({ status: 401, body: 'no' });
    const run = await storage(['--rpc', `${node.url}/${KEY}`, '--block', 'latest', '--address', ADDRESS]);
    assert.equal(error(run), 'Failed to connect to Ethereum node');
    assert.equal(
      run.err,
      `chaindeck storage-range: Failed to connect to Ethereum node: The node refused the credentials (HTTP 401 Unauthorized from ${node.url}/***). Credentials used: access key in the URL path. Check that the access key is right and belongs to this node (copy the endpoint again from the console).\n`,
    );
    assert.ok(!run.out.includes(KEY) && !run.err.includes(KEY));
  });
});

describe('storage-range --max and --timeout at their edges', () => {
  test('storage-range --max: only digits (spaces around allowed) are a number; above 100000 names the maximum', async () => {
    const base = ['--rpc', node.url, '--block', 'latest', '--address', ADDRESS];
    for (const bad of ['5e9', '1e5', '0x186a1', '+100001']) {
      const run = await runMain(['storage-range', ...base, '--max', bad]);
      assert.equal(run.code, 2, bad);
      assert.ok(run.err.startsWith(`chaindeck storage-range: --max needs a positive integer, not '${bad}'\n\nUsage: `), run.err);
    }
    const spaced = await runMain(['storage-range', ...base, '--max', ' 100001 ']);
    assert.equal(spaced.code, 2);
    assert.ok(
      spaced.err.startsWith('chaindeck storage-range: --max is at most 100000, not  100001 : read a larger range page by page, starting each page at the previous nextKey\n\nUsage: '),
      spaced.err,
    );
    assert.equal(node.requests.length, 0);
  });

  test('storage-range --timeout is one budget for all its calls: calls that each fit but together do not fail the range', async () => {
    const HASH = `0x${'ab'.repeat(32)}`;
    type Call = { id: number; method: string };
    node.reply = (request) => {
      const parsed = JSON.parse(request.text) as Call | Call[];
      const answer = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: call.method.startsWith('eth_getBlock') ? { number: '0x10', hash: HASH } : `0x${'0'.repeat(63)}1` });
      // Each answer takes 600 ms of the 1,000 ms budget: the first fits with room for a loaded machine, the second does not.
      return { delayMs: 600, body: Array.isArray(parsed) ? parsed.map(answer) : answer(parsed) };
    };
    const run = await runMain(['storage-range', '--rpc', node.url, '--block', 'latest', '--address', ADDRESS, '--mode', 'emulate', '--max', '3', '--timeout', '1000']);
    assert.equal(run.code, 1, run.out);
    const message = `Storage range not finished: No answer from ${node.url}/ within 1000 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`;
    assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, error: { code: -32000, message } });
    assert.equal(run.err, `chaindeck storage-range: ${message}\n`);
    assert.equal(node.requests.length, 2, 'the block, then the slots in one batch');
  });
});
