/**
 * The node URL of every command that reaches a node (rpc, storage-range, storage-decode,
 * storage-diff, graph-node), in-process: one flag name, --rpc, with --url as another name for it;
 * the same credential rules under either name (no password in the URL or on the command line, a
 * usable --user with its password from the environment, CHAINDECK_PUBLIC_PATH 0 or 1), each a
 * usage error (exit 2) that shows no secret and sends nothing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { runMain } from '../../support/cli';
import { startRpcServer, type RpcServer } from '../../support/rpcNode';

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PASSWORD = 'pa55Secret-Zq9';
const KEY = 'k3yPathSecret0123';

/** Each command with the words it needs besides its node, so its check reaches the node's rules. */
const COMMANDS: [name: string, rest: string[]][] = [
  ['rpc', ['eth_chainId']],
  ['storage-range', ['--block', 'latest', '--address', ADDRESS]],
  ['storage-decode', ['--address', ADDRESS, '--layout', 'layout.json']],
  ['storage-diff', ['--address', ADDRESS, '--from', '1', '--to', '2']],
  // Only command lines that fail their check: a valid one would start gnd.
  ['graph-node', ['start']],
];

const REFUSED_PASSWORD =
  '--password is not accepted: a password on the command line shows in the process list and the shell history. Set the environment variable CHAINDECK_PASSWORD and pass --user NAME.';
const NOT_IN_URL = 'put the username in --user and the password in the environment variable CHAINDECK_PASSWORD, not in the URL';

let node: RpcServer;
before(async () => {
  node = await startRpcServer();
});
after(() => node.close());
beforeEach(() => {
  node.clear();
  node.methods = { eth_chainId: { result: '0x539' }, eth_getBlockByNumber: { result: { number: '0x10', hash: `0x${'ab'.repeat(32)}` } } };
});

for (const [name, rest] of COMMANDS) {
  describe(`chaindeck ${name}: the node's URL`, () => {
    /** Exit 2, nothing on stdout, `chaindeck NAME: MESSAGE` then the usage on stderr, no secret anywhere, nothing sent. */
    async function assertUsage(words: string[], message: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
      const run = await runMain([name, ...words, ...rest], env, true);
      assert.equal(run.code, 2, run.err);
      assert.equal(run.out, '');
      assert.ok(run.err.startsWith(`chaindeck ${name}: ${message}\n\nUsage: chaindeck ${name} `), run.err);
      for (const secret of [PASSWORD, KEY]) assert.ok(!run.err.includes(secret), run.err);
      assert.equal(node.requests.length, 0, 'nothing was sent');
    }

    test('--help lists --rpc URL, says --url is the same, and lists no --url of its own', async () => {
      const run = await runMain([name, '--help']);
      assert.equal(run.code, 0);
      assert.match(run.out, /^Usage: chaindeck \S+ (start )?--rpc URL/);
      assert.match(run.out, /^ {2}--rpc URL {2,}[^\n]*(\n {3,}[^\n]*)*--url is the same/m);
      assert.doesNotMatch(run.out, /^ {2}--url/m);
    });

    for (const flag of ['--rpc', '--url']) {
      test(`${flag}: a password in the URL is refused`, () => assertUsage([flag, `http://me:${PASSWORD}@127.0.0.1:1/${KEY}`], NOT_IN_URL));

      test(`${flag}: a password in the URL is refused with where it goes instead, --user given or not`, async () => {
        const inUrl = `http://me:${PASSWORD}@127.0.0.1:1/${KEY}`;
        await assertUsage([flag, inUrl, '--user', 'alice'], NOT_IN_URL, { CHAINDECK_PASSWORD: PASSWORD });
        await assertUsage([flag, inUrl, '--user', 'alice'], NOT_IN_URL);
      });

      test(`${flag}: --user needs a usable username and its password in CHAINDECK_PASSWORD`, async () => {
        await assertUsage([flag, `${node.url}/${KEY}`, '--user', 'a:b'], "--user: A username cannot contain ':': HTTP Basic sends username:password, so the server would split it there.", {
          CHAINDECK_PASSWORD: PASSWORD,
        });
        await assertUsage([flag, `${node.url}/${KEY}`, '--user', 'alice'], '--user needs the password in the environment variable CHAINDECK_PASSWORD');
      });

      test(`${flag}: CHAINDECK_PUBLIC_PATH is 0 or 1`, () =>
        assertUsage([flag, `${node.url}/${KEY}`], "CHAINDECK_PUBLIC_PATH is 1 (the path of the URL holds no secret) or 0, not 'yes'", { CHAINDECK_PUBLIC_PATH: 'yes' }));
    }

    test('--password is refused with the reason, whatever follows it', async () => {
      await assertUsage(['--rpc', `${node.url}/${KEY}`, '--password', PASSWORD], REFUSED_PASSWORD);
      await assertUsage(['--url', `${node.url}/${KEY}`, `--password=${PASSWORD}`], REFUSED_PASSWORD);
    });

    test('no node: --rpc is named', async () => {
      const required = name === 'graph-node' ? '--rpc URL is required: the JSON-RPC URL of the chain to index' : '--rpc is required';
      await assertUsage([], required);
      await assertUsage(['--rpc='], required);
      await assertUsage(['--url='], required);
    });
  });
}

describe('--rpc and --url reach the same node', () => {
  test('rpc: either name calls the node; given both, the last one wins', async () => {
    for (const words of [['--rpc', node.url], [`--url=${node.url}`], ['--url', 'http://127.0.0.1:1/', '--rpc', node.url], ['--rpc', 'http://127.0.0.1:1/', '--url', node.url]]) {
      node.clear();
      const run = await runMain(['rpc', ...words, 'eth_chainId']);
      assert.equal(run.code, 0, `${words.join(' ')}: ${run.err}`);
      assert.equal((JSON.parse(run.out) as { result: string }).result, '0x539');
      assert.equal(node.requests.length, 1);
    }
  });

  test('rpc --rpc with --user: the key in the path and HTTP Basic go together', async () => {
    const run = await runMain(['rpc', '--rpc', `${node.url}/${KEY}`, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD });
    assert.equal(run.code, 0, run.err);
    assert.equal(node.requests[0].url, `/${KEY}`);
    assert.equal(node.requests[0].authorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);
  });

  test('storage-range: --rpc and --url both read the storage', async () => {
    node.methods.eth_getStorageAt = { result: `0x${'0'.repeat(64)}` };
    node.methods.eth_getCode = { result: '0x6001' };
    for (const flag of ['--rpc', '--url']) {
      node.clear();
      const run = await runMain(['storage-range', flag, node.url, '--block', 'latest', '--address', ADDRESS, '--mode', 'emulate', '--max', '1']);
      assert.equal(run.code, 0, `${flag}: ${run.err}`);
      assert.ok(node.requests.length > 0, flag);
    }
  });
});
