/**
 * What the commands register for redaction. In-process, io.out receives the text as the command
 * wrote it; the process's own stdout and stderr then mask every registered secret (and URLs by
 * the rule, public paths excepted). So each command must register the secrets it was handed: the
 * key in the URL and the password (rpc, storage-range), the API key and, unless --show-secrets,
 * the node credentials it received (platform); and the path of a URL declared public. Runs in
 * its own process, so the registry starts empty; the order of the tests matters.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { redactKnownSecrets, redactText } from '../../../src/core/redact';
import { runMain } from '../../support/cli';
import { sampleKey, startPlatformServer, type PlatformServer } from '../../support/platformServer';
import { startRpcServer, type RpcServer } from '../../support/rpcNode';

const KEY = '5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e';
const PASSWORD = 'Pw-registered-4411';
const STORAGE_PASSWORD = 'Pw-storage-registered-2';
const API_KEY_SHOWN = 'cdk-live-show-secrets-0001';
const API_KEY = 'cdk-live-default-0002';

let node: RpcServer;
let api: PlatformServer;
before(async () => {
  node = await startRpcServer({ eth_chainId: { result: '0x1' }, eth_getBlockByNumber: { result: null } });
  api = await startPlatformServer({ apiKey: API_KEY, forbiddenKey: API_KEY_SHOWN });
});
after(async () => {
  await node.close();
  await api.close();
});

const registered = (secret: string) => redactKnownSecrets(`<${secret}>`) === '<***>';

test('rpc registers the key in the URL and the password', async () => {
  assert.ok(!registered(KEY) && !registered(PASSWORD), 'the registry starts without them');
  const run = await runMain(['rpc', '--url', `${node.url}/${KEY}`, '--user', 'alice', 'eth_chainId'], { CHAINDECK_PASSWORD: PASSWORD });
  assert.equal(run.code, 0, run.err);
  assert.ok(registered(KEY));
  assert.ok(registered(PASSWORD));
});

test('storage-range registers the password from the environment', async () => {
  assert.ok(!registered(STORAGE_PASSWORD));
  const run = await runMain(['storage-range', '--rpc', node.url, '--user', 'bob', '--block', 'latest', '--address', '0x5FbDB2315678afecb367f032d93F642f64180aa3'], {
    CHAINDECK_PASSWORD: STORAGE_PASSWORD,
  });
  assert.equal(run.code, 1, 'the node has no such block');
  assert.ok(registered(STORAGE_PASSWORD));
});

test("CHAINDECK_PUBLIC_PATH=1 makes the URL's path public for the process's output", async () => {
  const url = `${node.url}/public-rpc`;
  assert.equal(redactText(`at ${url} now`), `at ${node.url}/*** now`);
  const run = await runMain(['rpc', '--url', url, 'eth_chainId'], { CHAINDECK_PUBLIC_PATH: '1' });
  assert.equal(run.code, 0, run.err);
  assert.equal(redactText(`at ${url} now`), `at ${url} now`);
});

test('platform --show-secrets registers the API key but not the node credentials it was asked to show', async () => {
  // This key may read only the organization: the credentials come from a node of another run below.
  const run = await runMain(['platform', 'organization', '--show-secrets', '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY_SHOWN });
  assert.equal(run.code, 0, run.err);
  assert.ok(registered(API_KEY_SHOWN));
  const shown = await runMain(['platform', 'nodes', '--show-secrets', '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });
  assert.equal(shown.code, 0, shown.err);
  assert.ok(shown.revealed.includes(sampleKey(0)));
  assert.ok(!registered(sampleKey(0)), 'asked to be shown: not masked');
  assert.ok(!registered('pass-0-Xy7!q'));
});

test('platform without --show-secrets registers the node credentials it received', async () => {
  const run = await runMain(['platform', 'nodes', '--api-url', api.url], { CHAINDECK_API_KEY: API_KEY });
  assert.equal(run.code, 0, run.err);
  assert.ok(registered(API_KEY));
  for (const i of [0, 1, 2, 3, 4]) {
    assert.ok(registered(sampleKey(i)), `key of node ${i}`);
    assert.ok(registered(`pass-${i}-Xy7!q`), `password of node ${i}`);
  }
});
