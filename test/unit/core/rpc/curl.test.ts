import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER } from '../../../../src/core/nodes/model';
import { basicCredentials, shellQuote, toCurl } from '../../../../src/core/rpc/curl';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const payload = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };
const keyed = resolveEndpoint({ id: 'a', name: 'a', protocol: 'evm', url: `https://ethereum-mainnet.core.chainstack.com/${KEY_PLACEHOLDER}`, auth: 'key' }, { key: KEY });
const basic = resolveEndpoint({ id: 'b', name: 'b', protocol: 'evm', url: 'https://nd-1.p2pify.com/', auth: 'basic' }, { username: 'alice', password: "it's-secret" });

test('copy as curl hides the key by default and shows it when asked', () => {
  const hidden = toCurl(keyed, payload);
  assert.equal(
    hidden,
    `curl -sS -X POST 'https://ethereum-mainnet.core.chainstack.com/***' -H 'Content-Type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'`,
  );
  const shown = toCurl(keyed, payload, { revealSecrets: true });
  assert.ok(shown.includes(`'https://ethereum-mainnet.core.chainstack.com/${KEY}'`));
});

test('copy as curl gives Basic as -u user:*** by default, the real password when asked', () => {
  const hidden = toCurl(basic, payload);
  assert.ok(hidden.includes(`-u 'alice:***'`));
  assert.ok(!hidden.includes('secret') && !hidden.includes('Authorization'), 'no password and no encoded header');
  const shown = toCurl(basic, payload, { revealSecrets: true });
  assert.ok(shown.includes(`-u 'alice:it'\\''s-secret'`), shown);
});

test('the command survives a real shell: sh reads back the exact URL, credentials and body', () => {
  // Replace curl with printf so sh itself shows how it split and unquoted the words.
  const body = `{"method":"eth_call","params":[{"data":"0x'quoted'"}]}`;
  const line = toCurl(basic, body, { revealSecrets: true }).replace(/^curl /, "printf '%s\\n' ");
  const words = execFileSync('sh', ['-c', line], { encoding: 'utf8' }).trimEnd().split('\n');
  assert.deepEqual(words, ['-sS', '-X', 'POST', 'https://nd-1.p2pify.com/', '-H', 'Content-Type: application/json', '-u', "alice:it's-secret", '--data', body]);
});

test('basicCredentials reads the header back; shellQuote quotes single quotes', () => {
  assert.deepEqual(basicCredentials(basic.headers), { username: 'alice', password: "it's-secret" });
  assert.equal(basicCredentials({}), undefined);
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
});
