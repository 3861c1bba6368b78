/**
 * `chaindeck storage-range` as users run it: the built dist/cli.js in a subprocess against real
 * anvil (emulation) and ganache (native), directly and through the loopback proxy (failing
 * reads, an access key in the path, Basic auth). stdout is exactly one JSON object in the spec's
 * form; exit 0 with a result, 1 with an error, 2 on usage errors; warnings on stderr; no key or
 * password in anything printed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { getAddress, keccak256 } from 'ethers';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { word } from '../../src/core/storage/inputs';
import { assertNoSecret, buildCli, runCli, type CliRun } from '../support/cli';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy } from '../support/proxy';

const root = path.resolve(__dirname, '..', '..');
const CLI = path.join(root, 'dist', 'cli.js');
const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const GANACHE = process.env.CHAINDECK_TEST_GANACHE_URL!;
const KEY = '7d3f9a1c5e8b2d4f6a0c1e3b5d7f9a2c';
const PASSWORD = 'storage-Pass-9x!';
const ADDRESS = getAddress(`0x${'cafe'.padEnd(40, '1')}`);

type Run = CliRun;

const cli = (args: string[], env: Record<string, string> = {}) => runCli(['storage-range', ...args], env);

/** stdout must be one JSON object and nothing else; returns it. */
function oneObject(run: Run): {
  jsonrpc: string;
  id: number;
  result?: { storage: Record<string, { key: string | null; value: string }>; nextKey: string | null };
  error?: { code: number; message: string };
} {
  const text = run.stdout.trim();
  assert.ok(text.startsWith('{') && text.endsWith('}'), `stdout is not one JSON object:\n${run.stdout}`);
  const parsed = JSON.parse(text);
  assert.equal(typeof parsed, 'object');
  assert.deepEqual(Object.keys(parsed), ['jsonrpc', 'id', parsed.result ? 'result' : 'error']);
  assert.equal(parsed.jsonrpc, '2.0');
  assert.equal(parsed.id, 1);
  if (parsed.result) assert.deepEqual(Object.keys(parsed.result), ['storage', 'nextKey']);
  else assert.deepEqual(Object.keys(parsed.error), ['code', 'message']);
  return parsed;
}

const anvil = () => new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: ANVIL, auth: 'none' }, {}));
let anvilBlock: number;

before(async () => {
  assert.ok(ANVIL && GANACHE, 'the harness did not start the nodes');
  await buildCli();
  // Slots 0, 2, 3 and 40 hold values; then an empty block, so the state of the first is fixed.
  const client = anvil();
  for (const s of [0n, 2n, 3n, 40n]) await client.call('anvil_setStorageAt', [ADDRESS, word(s), word(s + 0x100n)]);
  await client.call('evm_mine');
  anvilBlock = Number(BigInt(await client.call<string>('eth_blockNumber')));
  await client.call('evm_mine');
});

after(() => closeIdleConnections());

describe('chaindeck storage-range on anvil (emulation)', () => {
  test('a result: exit 0, one JSON object in the spec form, nothing on stderr', async () => {
    const run = await cli(['--rpc', ANVIL, '--block', String(anvilBlock), '--address', ADDRESS.toLowerCase(), '--max', '2', '--mode', 'emulate']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(oneObject(run).result, {
      storage: { '0x0': { key: null, value: word(0x100n) }, '0x2': { key: null, value: word(0x102n) } },
      nextKey: '0x3',
    });
    assert.ok(run.stdout.startsWith('{\n  "jsonrpc": "2.0",\n  "id": 1,'), 'pretty-printed, two spaces');
    assert.equal(run.stderr, '');
  });

  test('defaults: auto mode (anvil has no native method), start 0, max 10, tx index 0; the cap ends the page', async () => {
    const run = await cli(['--rpc', ANVIL, '--block', String(anvilBlock), '--address', ADDRESS]);
    assert.equal(run.code, 0, run.stderr);
    const out = oneObject(run).result!;
    assert.deepEqual(Object.keys(out.storage), ['0x0', '0x2', '0x3', '0x28'], '40 is within 100 reads');
    assert.equal(out.nextKey, null, '4 of 10 found');
  });

  test('--start without 0x, --block latest and by hash', async () => {
    const hash = (await anvil().call<{ hash: string }>('eth_getBlockByNumber', [`0x${anvilBlock.toString(16)}`, false])).hash;
    const a = await cli(['--rpc', ANVIL, '--block', hash, '--address', ADDRESS, '--start', '3', '--max', '1']);
    const b = await cli(['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--start', '0x3', '--max', '1', '--tx-index', '5']);
    for (const run of [a, b]) {
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(oneObject(run).result, { storage: { '0x3': { key: null, value: word(0x103n) } }, nextKey: '0x4' });
    }
  });

  test('a failed read: the result on stdout (exit 0), the warning line on stderr', async () => {
    const proxy = await startProxy({ target: ANVIL });
    try {
      proxy.failCalls((call) => (call.method === 'eth_getStorageAt' && BigInt((call.params as string[])[1]) === 2n ? { code: -32000, message: 'state unavailable' } : undefined));
      const run = await cli(['--rpc', proxy.url, '--block', String(anvilBlock), '--address', ADDRESS, '--max', '2']);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(Object.keys(oneObject(run).result!.storage), ['0x0', '0x3']);
      assert.equal(run.stderr, 'Warning: failed to read slot 0x2: JSON-RPC error -32000: state unavailable; skipped\n');
    } finally {
      await proxy.close();
    }
  });

  test('errors: exit 1, the JSON error object on stdout, the reason on stderr', async () => {
    const unknown = `0x${'ef'.repeat(32)}`;
    const block = await cli(['--rpc', ANVIL, '--block', unknown, '--address', ADDRESS]);
    assert.equal(block.code, 1);
    assert.deepEqual(oneObject(block).error, { code: -32000, message: `Failed to get block: block ${unknown} not found` });
    assert.equal(block.stderr, `chaindeck storage-range: Failed to get block: block ${unknown} not found\n`);

    const refused = await cli(['--rpc', `http://127.0.0.1:${await freePort()}`, '--block', 'latest', '--address', ADDRESS]);
    assert.equal(refused.code, 1);
    assert.deepEqual(oneObject(refused).error, { code: -32000, message: 'Failed to connect to Ethereum node' });
    assert.match(refused.stderr, /^chaindeck storage-range: Failed to connect to Ethereum node: Cannot reach the node at .*ECONNREFUSED/);

    const address = await cli(['--rpc', ANVIL, '--block', 'latest', '--address', '0x1234']);
    assert.equal(address.code, 1);
    assert.match(oneObject(address).error!.message, /^Invalid address '0x1234'/);

    const start = await cli(['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--start', '0xnope']);
    assert.equal(start.code, 1);
    assert.match(oneObject(start).error!.message, /^Invalid start key '0xnope'/);

    const native = await cli(['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--mode', 'native']);
    assert.equal(native.code, 1);
    assert.match(oneObject(native).error!.message, /^debug_storageRangeAt is not available on this node \(JSON-RPC error -32601: Method not found\)/);
  });

  test('usage errors: exit 2, nothing on stdout, the message and usage on stderr', async () => {
    const cases: [string[], RegExp][] = [
      [['--block', 'latest', '--address', ADDRESS], /--rpc is required/],
      [['--rpc', ANVIL, '--address', ADDRESS], /--block is required/],
      [['--rpc', ANVIL, '--block', 'latest'], /--address is required/],
      [['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--max', '0'], /--max needs a positive integer, not '0'/],
      [['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--tx-index', '-1'], /--tx-index needs a non-negative integer/],
      [['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--mode', 'fast'], /--mode is auto, native or emulate, not 'fast'/],
      [['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--colour'], /unknown option --colour/],
      [['--rpc', ANVIL, '--block', 'latest', ADDRESS], /unexpected argument/],
      [['--rpc', ANVIL, '--block', 'latest', '--address', ADDRESS, '--password', 'x'], /--password is not accepted/],
      [['--rpc', 'ftp://example.com/', '--block', 'latest', '--address', ADDRESS], /Unsupported scheme 'ftp'/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, message);
      assert.match(run.stderr, /Usage: chaindeck storage-range --rpc URL/);
    }
  });

  test('--help prints the usage; the command is listed', async () => {
    const run = await cli(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: chaindeck storage-range --rpc URL --block HASH\|NUMBER\|latest --address ADDR/);
    const list = await new Promise<string>((resolve) => execFile(process.execPath, [CLI, '--help'], (_e, stdout) => resolve(stdout)));
    assert.match(list, /storage-range\s+Print a contract's storage/);
  });
});

describe('chaindeck storage-range on ganache (native)', () => {
  test('auto and native print the hashed-key form; emulate the slot form', async () => {
    const client = new RpcClient(resolveEndpoint({ id: 'g', name: 'g', protocol: 'evm', url: GANACHE, auth: 'none' }, {}));
    const from = (await client.call<string[]>('eth_accounts'))[8]; // an account no other test sends from
    // Creation code: SSTORE 0x2a at slot 1, return a one-byte runtime; then one more transaction.
    const tx = await client.call<string>('eth_sendTransaction', [{ from, data: `0x602a600155600160` + '00f3', gas: '0x100000' }]);
    const contract = (await client.call<{ contractAddress: string }>('eth_getTransactionReceipt', [tx])).contractAddress;
    const next = await client.call<string>('eth_sendTransaction', [{ from, to: from, value: '0x1' }]);
    const { blockHash } = await client.call<{ blockHash: string }>('eth_getTransactionReceipt', [next]);
    const hashed = keccak256(word(1n));
    for (const mode of ['auto', 'native']) {
      const run = await cli(['--rpc', GANACHE, '--block', blockHash, '--address', contract, '--mode', mode]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(oneObject(run).result, { storage: { [hashed]: { key: word(1n), value: word(0x2an) } }, nextKey: null });
      assert.equal(run.stderr, '');
    }
    const emulated = await cli(['--rpc', GANACHE, '--block', blockHash, '--address', contract, '--mode', 'emulate', '--max', '1']);
    assert.equal(emulated.code, 0, emulated.stderr);
    assert.deepEqual(oneObject(emulated).result, { storage: { '0x1': { key: null, value: word(0x2an) } }, nextKey: '0x2' });
  });
});

describe('chaindeck storage-range --mode emulate: HTTP requests per page, counted at the proxy', () => {
  test('anvil: one request by number and by hash; ganache: one by number, two by hash (it takes no EIP-1898 block object)', async () => {
    const ganache = new RpcClient(resolveEndpoint({ id: 'g', name: 'g', protocol: 'evm', url: GANACHE, auth: 'none' }, {}));
    const from = (await ganache.call<string[]>('eth_accounts'))[9]; // an account no other test sends from
    // Creation code: SSTORE 0x2a at slot 3 and 0x2b at slot 40, return a one-byte runtime.
    const tx = await ganache.call<string>('eth_sendTransaction', [{ from, data: `0x602a600355602b602855600160` + '00f3', gas: '0x100000' }]);
    const receipt = await ganache.call<{ contractAddress: string; blockNumber: string; blockHash: string }>('eth_getTransactionReceipt', [tx]);
    const anvilHash = (await anvil().call<{ hash: string }>('eth_getBlockByNumber', [`0x${anvilBlock.toString(16)}`, false])).hash;
    const cases = [
      { target: ANVIL, address: ADDRESS, block: String(anvilBlock), requests: 1, storage: ['0x0', '0x2', '0x3', '0x28'] },
      { target: ANVIL, address: ADDRESS, block: anvilHash, requests: 1, storage: ['0x0', '0x2', '0x3', '0x28'] },
      { target: GANACHE, address: receipt.contractAddress, block: String(Number(BigInt(receipt.blockNumber))), requests: 1, storage: ['0x3', '0x28'] },
      { target: GANACHE, address: receipt.contractAddress, block: receipt.blockHash, requests: 2, storage: ['0x3', '0x28'] },
    ];
    for (const c of cases) {
      const proxy = await startProxy({ target: c.target });
      try {
        const run = await cli(['--rpc', proxy.url, '--block', c.block, '--address', c.address, '--mode', 'emulate']);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(Object.keys(oneObject(run).result!.storage), c.storage);
        assert.equal(proxy.requests.length, c.requests, `${c.target === ANVIL ? 'anvil' : 'ganache'}, block ${c.block}: ${proxy.requests.map((q) => q.methods.length).join(', ')} calls`);
      } finally {
        await proxy.close();
      }
    }
  });
});

describe('chaindeck storage-range keeps keys and passwords out of its output', () => {
  let keyed: Proxy;
  let basic: Proxy;
  before(async () => {
    keyed = await startProxy({ target: ANVIL, key: KEY });
    basic = await startProxy({ target: ANVIL, basicAuth: { username: 'bob', password: PASSWORD } });
  });
  after(async () => {
    await keyed.close();
    await basic.close();
  });

  test('a key in the path: used, and never printed (result, warnings, errors)', async () => {
    keyed.failCalls((call) => (call.method === 'eth_getStorageAt' && BigInt((call.params as string[])[1]) === 1n ? { code: -32000, message: `bad read via ${keyed.url}` } : undefined));
    const ok = await cli(['--rpc', keyed.url, '--block', String(anvilBlock), '--address', ADDRESS, '--max', '1']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(Object.keys(oneObject(ok).result!.storage), ['0x0']);
    const warned = await cli(['--rpc', keyed.url, '--block', String(anvilBlock), '--address', ADDRESS, '--start', '1', '--max', '1']);
    assert.equal(warned.code, 0);
    assert.match(warned.stderr, /Warning: failed to read slot 0x1: .*bad read via http:\/\/127\.0\.0\.1:\d+\/\*\*\*; skipped/);
    const wrong = await cli(['--rpc', keyed.url.replace(KEY, KEY.split('').reverse().join('')), '--block', 'latest', '--address', ADDRESS]);
    assert.equal(wrong.code, 1);
    assert.equal(oneObject(wrong).error!.message, 'Failed to connect to Ethereum node');
    assert.match(wrong.stderr, /refused the credentials/);
    const down = await cli(['--rpc', `http://127.0.0.1:${await freePort()}/${KEY}`, '--block', 'latest', '--address', ADDRESS]);
    assert.equal(down.code, 1);
    for (const run of [ok, warned, wrong, down]) assertNoSecret(run, KEY, KEY.split('').reverse().join(''));
  });

  test('--user with CHAINDECK_PASSWORD: Basic auth, password never printed', async () => {
    const run = await cli(['--rpc', basic.url, '--user', 'bob', '--block', String(anvilBlock), '--address', ADDRESS, '--max', '1'], { CHAINDECK_PASSWORD: PASSWORD });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(oneObject(run).result!.storage), ['0x0']);
    const wrong = await cli(['--rpc', basic.url, '--user', 'bob', '--block', 'latest', '--address', ADDRESS], { CHAINDECK_PASSWORD: 'not-the-password' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /refused the credentials/);
    const missing = await cli(['--rpc', basic.url, '--user', 'bob', '--block', 'latest', '--address', ADDRESS]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--user needs the password in the environment variable CHAINDECK_PASSWORD/);
    for (const r of [run, wrong, missing]) assertNoSecret(r, PASSWORD, 'not-the-password');
  });
});
