/**
 * `chaindeck rpc` as users run it: the built dist/cli.js in a subprocess, against real anvil,
 * directly and through the loopback proxy (key in the path, Basic auth). Exit codes, the JSON on
 * stdout, and no key or password in anything it prints.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoSecret, buildCli, runCli } from '../support/cli';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy } from '../support/proxy';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const KEY = '5e8c1a7f3b9d2e4c6a8b0d1f3e5a7c9b';
const PASSWORD = 'cli-pass-Zq8!';

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, env);

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil');
  await buildCli();
});

describe('chaindeck rpc against anvil', () => {
  test('a result: exit 0 and the whole response as pretty JSON on stdout', async () => {
    const run = await cli(['rpc', '--url', ANVIL, 'eth_chainId']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { jsonrpc: '2.0', id: 1, result: '0x7a69' });
    assert.ok(run.stdout.startsWith(`{\n  "jsonrpc"`), 'pretty-printed');
    assert.equal(run.stderr, '');
  });

  test('--rpc, the name every command gives the node, and --url are the same', async () => {
    for (const flag of ['--rpc', '--url']) {
      const run = await cli(['rpc', flag, ANVIL, 'eth_chainId']);
      assert.equal(run.code, 0, `${flag}: ${run.stderr}`);
      assert.equal(JSON.parse(run.stdout).result, '0x7a69', flag);
    }
    const ws = await cli(['rpc', '--rpc', ANVIL.replace('http://', 'ws://'), 'eth_chainId']);
    assert.equal(JSON.parse(ws.stdout).result, '0x7a69', ws.stderr);
  });

  test('params are passed as given', async () => {
    const run = await cli(['rpc', '--url', ANVIL, '--timeout', '5000', 'eth_getBalance', '["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "latest"]']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, '0x21e19e0c9bab2400000', 'the first dev account holds 10000 ETH');
  });

  test("a JSON-RPC error: exit 1, the node's response on stdout, its message on stderr", async () => {
    const run = await cli(['rpc', '--url', ANVIL, 'foo_bar', '[]']);
    assert.equal(run.code, 1);
    assert.deepEqual(JSON.parse(run.stdout).error, { code: -32601, message: 'Method not found' });
    assert.equal(run.stderr, 'chaindeck rpc: JSON-RPC error -32601: Method not found\n');
  });

  test('--batch prints the responses in call order; exit 1 when one failed', async () => {
    const run = await cli(['rpc', '--url', ANVIL, '--batch', '[{"method":"eth_chainId"},{"method":"foo_bar","params":[]},{"method":"net_version"}]']);
    assert.equal(run.code, 1);
    const out = JSON.parse(run.stdout) as { id: number; result?: unknown; error?: { code: number } }[];
    assert.deepEqual(
      out.map((r) => r.id),
      [1, 2, 3],
    );
    assert.equal(out[0].result, '0x7a69');
    assert.equal(out[1].error?.code, -32601);
    assert.equal(out[2].result, '31337');
    assert.match(run.stderr, /call 1 \(foo_bar\): JSON-RPC error -32601: Method not found/);
    const ok = await cli(['rpc', '--url', ANVIL, '--batch', '[{"method":"eth_chainId"}]']);
    assert.equal(ok.code, 0);
  });

  test('ws:// works the same way', async () => {
    const run = await cli(['rpc', '--url', ANVIL.replace('http://', 'ws://'), 'eth_chainId']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, '0x7a69');
  });

  test('failures: exit 1 with the reason on stderr', async () => {
    const refused = await cli(['rpc', '--url', `http://127.0.0.1:${await freePort()}`, 'eth_chainId']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /connection refused \(ECONNREFUSED\)/);
  });

  test('usage errors: exit 2 with a message and the usage', async () => {
    const badParams = await cli(['rpc', '--url', ANVIL, 'eth_getBalance', '["0x1",']);
    assert.equal(badParams.code, 2);
    assert.match(badParams.stderr, /Params are not valid JSON: .* at line 1, column 8/);
    const noUrl = await cli(['rpc', 'eth_chainId']);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /--rpc is required[\s\S]*Usage: chaindeck rpc/);
    const scheme = await cli(['rpc', '--url', 'ftp://example.com/', 'eth_chainId']);
    assert.equal(scheme.code, 2);
    assert.match(scheme.stderr, /Unsupported scheme 'ftp'/);
  });

  test('--help prints the usage', async () => {
    const run = await cli(['rpc', '--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^Usage: chaindeck rpc --rpc URL \[--timeout MS\] \[--user NAME\] METHOD \[PARAMS_JSON\]/);
    assert.match(run.stdout, /CHAINDECK_PASSWORD/);
  });
});

describe('chaindeck rpc keeps keys and passwords out of its output', () => {
  let keyed: Proxy;
  let basic: Proxy;
  before(async () => {
    keyed = await startProxy({ target: ANVIL, key: KEY });
    basic = await startProxy({ target: ANVIL, basicAuth: { username: 'alice', password: PASSWORD } });
  });
  beforeEach(() => {
    keyed.clear();
    basic.clear();
  });
  after(async () => {
    await keyed.close();
    await basic.close();
  });

  test('a key in the URL path works and is never printed, even when the node echoes it', async () => {
    const ok = await cli(['rpc', '--url', keyed.url, 'eth_chainId']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).result, '0x7a69');
    assert.equal(keyed.requests[0].path, `/${KEY}`, 'the real key was sent');

    keyed.fail({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: `your key is ${KEY}` }) });
    const echoed = await cli(['rpc', '--url', keyed.url, 'eth_chainId']);
    assert.equal(echoed.code, 0);
    assert.equal(JSON.parse(echoed.stdout).result, 'your key is ***');
    assertNoSecret(echoed, KEY);
  });

  test('a wrong key fails with exit 1 naming the key form; neither key is printed', async () => {
    const wrong = '0f9e8d7c6b5a49382716a5b4c3d2e1f0';
    const run = await cli(['rpc', '--url', keyed.url.replace(KEY, wrong), 'eth_chainId']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /HTTP 401 .*\/\*\*\*.*Credentials used: access key in the URL path/);
    assertNoSecret(run, wrong, KEY);
  });

  test('a timeout message names the URL redacted, the limit and the option', async () => {
    keyed.fail({ delayMs: 3000 });
    const run = await cli(['rpc', '--url', keyed.url, '--timeout', '300', 'eth_chainId']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /No answer from http:\/\/127\.0\.0\.1:\d+\/\*\*\* within 300 ms.*chaindeck\.requestTimeoutMs \(CLI: --timeout MS\)/);
    assertNoSecret(run, KEY);
  });

  test('wss-style /ws/<KEY> URLs work and stay redacted', async () => {
    const run = await cli(['rpc', '--url', keyed.wsUrl, 'eth_chainId']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, '0x7a69');
    const wrong = await cli(['rpc', '--url', keyed.wsUrl.replace(KEY, 'aaaabbbbccccdddd1111222233334444'), 'eth_chainId']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /\/ws\/\*\*\*/);
    assertNoSecret(wrong, 'aaaabbbbccccdddd1111222233334444', KEY);
  });

  test('Basic auth: --user plus CHAINDECK_PASSWORD works; the password is never printed', async () => {
    const ok = await cli(['rpc', '--url', basic.url, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).result, '0x7a69');
    assert.equal(basic.requests[0].authorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);

    // Three failures: the call and its two retries all get a reply that echoes the password.
    const echo = { status: 500, body: `internal error for alice:${PASSWORD}` };
    basic.fail(echo, echo, echo);
    const echoed = await cli(['rpc', '--url', basic.url, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD });
    assert.equal(echoed.code, 1);
    assert.match(echoed.stderr, /The node's server failed \(HTTP 500/);
    assertNoSecret(echoed, PASSWORD);
  });

  test('a wrong password: exit 1, the message names Basic auth and shows no password', async () => {
    const run = await cli(['rpc', '--url', basic.url, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: 'wrong-Pass-123' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /HTTP 401 .*Credentials used: HTTP Basic username and password/);
    assertNoSecret(run, 'wrong-Pass-123', PASSWORD, Buffer.from('alice:wrong-Pass-123').toString('base64'));
  });

  test('passwords are refused anywhere but the environment', async () => {
    const flag = await cli(['rpc', '--url', basic.url, '--user', 'alice', '--password', PASSWORD, 'eth_chainId']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--password is not accepted.*CHAINDECK_PASSWORD/);
    assertNoSecret(flag, PASSWORD);
    assert.equal(basic.requests.length, 0, 'nothing was sent');

    const inUrl = await cli(['rpc', '--url', basic.url.replace('http://', `http://alice:${PASSWORD}@`), 'eth_chainId']);
    assert.equal(inUrl.code, 2);
    assert.match(inUrl.stderr, /password in the environment variable CHAINDECK_PASSWORD, not in the URL/);
    assertNoSecret(inUrl, PASSWORD);

    const missing = await cli(['rpc', '--url', basic.url, '--user', 'alice', 'eth_chainId']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--user needs the password in the environment variable CHAINDECK_PASSWORD/);
  });
});
