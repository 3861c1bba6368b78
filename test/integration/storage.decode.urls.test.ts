/**
 * Storage values that hold URLs (a base URI, a gateway link, a URL as a mapping key) are the
 * contract's data: `storage-decode` and `storage-diff` print them whole, in JSON and in tables,
 * while the key in the --rpc URL stays masked. The contract is compiled here with solc-js and
 * deployed on real anvil behind a proxy that demands the key in its path.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { assertNoSecret, buildCli, runCli } from '../support/cli';
import { startProxy, type Proxy } from '../support/proxy';
import { compileSource, deploy, writeArtifacts, type Deployed } from '../support/solidity';

const ANVIL = process.env.CHAINDECK_TEST_ANVIL_URL!;
const SOURCE = 'contracts/Links.sol';
const KEY = '5e3c7a91d04b2f68e1a9c3b7d5f20846';
const BASE = 'https://api.example.com/token/';
const LONG = 'https://gateway.example.org/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/meta.json?v=2';
const KEYED = 'https://example.net/a/b';

const CONTRACT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Links {
    string public baseUri;
    string public longUri;
    mapping(string => uint256) public hits;
    event Hit(string url);
    function set(string calldata b, string calldata l) external { baseUri = b; longUri = l; }
    function hit(string calldata url) external { hits[url] += 1; emit Hit(url); }
}
`;

let dir: string;
let layoutFile: string;
let links: Deployed;
let proxy: Proxy;
let before0: number;

before(async () => {
  assert.ok(ANVIL, 'the harness did not start anvil');
  await buildCli();
  const compiled = compileSource(SOURCE, CONTRACT);
  dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-links-'));
  layoutFile = writeArtifacts(dir, compiled, SOURCE, 'Links').foundry;
  const client = new RpcClient(resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: ANVIL, auth: 'none' }, {}));
  links = await deploy(client, compiled, SOURCE, 'Links');
  before0 = Number(BigInt(await client.call<string>('eth_blockNumber')));
  await links.send('set', BASE, LONG);
  await links.send('hit', KEYED);
  proxy = await startProxy({ target: ANVIL, key: KEY });
});

after(async () => {
  await proxy?.close();
  closeIdleConnections();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rpc = () => proxy.url;

test('storage-decode: URLs in strings and in mapping keys printed whole (JSON and table); the key of --rpc never', async () => {
  const run = await runCli(['storage-decode', '--rpc', rpc(), '--address', links.address, '--layout', layoutFile]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    (JSON.parse(run.stdout) as { label: string; value: unknown }[]).map((v) => [v.label, v.value]),
    [
      ['baseUri', BASE],
      ['longUri', LONG],
      ['hits', { [KEYED]: '1' }],
    ],
  );
  const table = await runCli(['storage-decode', '--rpc', rpc(), '--address', links.address, '--layout', layoutFile, '--format', 'table']);
  assert.equal(table.code, 0, table.stderr);
  assert.ok(table.stdout.includes(JSON.stringify(BASE)) && table.stdout.includes(`hits[${KEYED}]`), table.stdout);
  assertNoSecret(run, KEY);
  assertNoSecret(table, KEY);
});

test('storage-diff with a layout: the URLs before and after, whole', async () => {
  const run = await runCli(['storage-diff', '--rpc', rpc(), '--address', links.address, '--layout', layoutFile, '--from', String(before0), '--to', 'latest']);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    (JSON.parse(run.stdout) as { path: string; before: unknown; after: unknown }[]).map((c) => [c.path, c.before, c.after]),
    [
      ['baseUri', '', BASE],
      ['longUri', '', LONG],
      [`hits[${KEYED}]`, '0', '1'],
    ],
  );
  assertNoSecret(run, KEY);
});
