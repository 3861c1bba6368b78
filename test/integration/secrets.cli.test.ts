/**
 * `chaindeck rpc` and `storage-range` with keys that the old 16-character rule let through (short,
 * letters only, + and =, in the query under any name): the built CLI in a subprocess, against
 * real anvil behind the loopback key-in-path proxy. Nothing printed may hold the key.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoSecret, buildCli, runCli } from '../support/cli';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy } from '../support/proxy';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const SHORT_KEY = 'abc123key';
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil');
  await buildCli();
});

describe('a short key in the path', () => {
  let keyed: Proxy;
  before(async () => {
    keyed = await startProxy({ target: ANVIL, key: SHORT_KEY });
  });
  beforeEach(() => keyed.clear());
  after(() => keyed.close());

  test('is used, and masked where the node echoes it', async () => {
    const ok = await runCli(['rpc', '--url', keyed.url, 'eth_chainId']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(keyed.requests[0].path, `/${SHORT_KEY}`, 'the real key was sent');
    keyed.fail({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: `bad call on ${keyed.url}` }) });
    const echoed = await runCli(['rpc', '--url', keyed.url, 'eth_chainId']);
    assert.equal(echoed.code, 0, echoed.stderr);
    assert.match(JSON.parse(echoed.stdout).result, /^bad call on http:\/\/127\.0\.0\.1:\d+\/\*\*\*$/);
    assertNoSecret(echoed, SHORT_KEY);
  });

  test('a wrong short key: exit 1, the URL named as /***, neither key printed (rpc and storage-range)', async () => {
    const wrong = keyed.url.replace(SHORT_KEY, 'zz9key');
    const rpc = await runCli(['rpc', '--url', wrong, 'eth_chainId']);
    assert.equal(rpc.code, 1);
    assert.match(rpc.stderr, /HTTP 401 .*127\.0\.0\.1:\d+\/\*\*\*/);
    assertNoSecret(rpc, 'zz9key', SHORT_KEY);
    const storage = await runCli(['storage-range', '--rpc', wrong, '--block', 'latest', '--address', ADDRESS]);
    assert.equal(storage.code, 1, storage.stdout);
    assertNoSecret(storage, 'zz9key', SHORT_KEY);
  });
});

describe('keys no rule could recognise, in a URL that fails', () => {
  let closed: string;
  before(async () => {
    closed = `http://127.0.0.1:${await freePort()}`;
  });

  test('letter-only, + and =, percent-encoded and query keys under any name are never printed', async () => {
    const cases: [string, string[]][] = [
      [`${closed}/OnlyLettersKeyHere`, ['OnlyLettersKeyHere']],
      [`${closed}/AbCd+eFg/hI==`, ['AbCd+eFg', 'hI==']],
      [`${closed}/a%2Bsecret%3D`, ['a%2Bsecret%3D', 'a+secret=']],
      [`${closed}/?apikey=qk-one-1`, ['qk-one-1']],
      [`${closed}/?token=qk-two-2`, ['qk-two-2']],
      [`${closed}/v1?access_key=qk-three-3&x=qk-four-4`, ['qk-three-3', 'qk-four-4']],
      [`${closed.replace('http', 'ws')}/ws/wskey1`, ['wskey1']],
    ];
    for (const [url, secrets] of cases) {
      const run = await runCli(['rpc', '--url', url, '--timeout', '2000', 'eth_chainId']);
      assert.equal(run.code, 1, `${url}: ${run.stderr}`);
      assert.match(run.stderr, /127\.0\.0\.1:\d+/, 'the message names the node');
      assertNoSecret(run, ...secrets);
    }
  });

  test('CHAINDECK_PUBLIC_PATH=1 shows the path, never the query; anything but 0 or 1 is a usage error', async () => {
    const url = `${closed}/rpc?token=qk-public-1`;
    const hidden = await runCli(['rpc', '--url', url, '--timeout', '2000', 'eth_chainId']);
    assert.match(hidden.stderr, /127\.0\.0\.1:\d+\/\*\*\*\?\*\*\*/);
    const shown = await runCli(['rpc', '--url', url, '--timeout', '2000', 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: '1' });
    assert.equal(shown.code, 1);
    assert.match(shown.stderr, /127\.0\.0\.1:\d+\/rpc\?\*\*\*/);
    assertNoSecret(shown, 'qk-public-1');
    const bad = await runCli(['rpc', '--url', url, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: 'yes' });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /CHAINDECK_PUBLIC_PATH is 1 .* or 0, not 'yes'/);
  });
});

describe('Basic credentials on the command line', () => {
  test("a username with ':' or an empty one is a usage error", async () => {
    for (const user of ['al:ice', '']) {
      const run = await runCli(['rpc', '--url', ANVIL, '--user', user, 'eth_chainId'], { CHAINDECK_PASSWORD: 'pw-cli-1234' });
      assert.equal(run.code, 2, `--user '${user}': ${run.stderr}`);
      assert.match(run.stderr, user ? /--user: A username cannot contain ':'/ : /--user: A username is needed/);
      assertNoSecret(run, 'pw-cli-1234');
    }
  });

  test('a password without a username in the URL is refused, and not echoed', async () => {
    const run = await runCli(['rpc', '--url', 'https://:pw-in-url-99@127.0.0.1:1/', 'eth_chainId']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /has a password but no username/);
    assertNoSecret(run, 'pw-in-url-99');
  });

  test('a refused scheme echoes the URL only redacted', async () => {
    const run = await runCli(['rpc', '--url', `ftp://127.0.0.1/${SHORT_KEY}?token=qk-ftp-1`, 'eth_chainId']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Unsupported scheme 'ftp'/);
    assertNoSecret(run, SHORT_KEY, 'qk-ftp-1');
  });
});
