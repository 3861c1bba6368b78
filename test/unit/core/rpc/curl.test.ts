import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { KEY_PLACEHOLDER } from '../../../../src/core/nodes/model';
import { basicCredentials, shellQuote, toCurl } from '../../../../src/core/rpc/curl';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';

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

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('Copy as curl: Basic credentials and headers', () => {
  const endpoint = (headers: Record<string, string>, secrets: string[]): ResolvedEndpoint => ({
    httpUrl: 'https://rpc.example/KEY1234',
    wsUrl: 'wss://rpc.example/KEY1234',
    headers,
    auth: 'basic',
    secrets: ['KEY1234', ...secrets],
  });

  test('Basic credentials become -u user:*** and other headers each get their own -H line, their secrets masked', () => {
    const e = endpoint({ Accept: 'application/json', Authorization: `Basic ${b64('alice:s3cret!')}`, 'X-Api-Key': 'tok-9999' }, ['s3cret!', 'tok-9999']);
    assert.equal(
      toCurl(e, { id: 1 }),
      `curl -sS -X POST 'https://rpc.example/***' -H 'Content-Type: application/json' -u 'alice:***' -H 'Accept: application/json' -H 'X-Api-Key: ***' --data '{"id":1}'`,
    );
    assert.equal(
      toCurl(e, { id: 1 }, { revealSecrets: true }),
      `curl -sS -X POST 'https://rpc.example/KEY1234' -H 'Content-Type: application/json' -u 'alice:s3cret!' -H 'Accept: application/json' -H 'X-Api-Key: tok-9999' --data '{"id":1}'`,
    );
  });

  test('a Bearer Authorization header is kept as a header, its token masked', () => {
    const e = endpoint({ Authorization: 'Bearer tok-abcdef' }, ['tok-abcdef']);
    assert.equal(toCurl(e, '{}'), `curl -sS -X POST 'https://rpc.example/***' -H 'Content-Type: application/json' -H 'Authorization: Bearer ***' --data '{}'`);
  });

  test('credentials without a colon are a user name with an empty password; an empty user name keeps the whole password secret', () => {
    assert.deepEqual(basicCredentials({ authorization: `Basic ${b64('justuser')}` }), { username: 'justuser', password: '' });
    assert.deepEqual(basicCredentials({ Authorization: `Basic ${b64(':only-pass')}` }), { username: '', password: 'only-pass' });
    const e = endpoint({ Authorization: `Basic ${b64(':only-pass')}` }, ['only-pass']);
    const shown = toCurl(e, '{}');
    assert.ok(shown.includes(`-u ':***'`), shown);
    assert.ok(!shown.includes('only-pass'), shown);
    assert.ok(toCurl(endpoint({ Authorization: `Basic ${b64('justuser')}` }, []), '{}').includes(`-u 'justuser:***'`));
  });

  test('the Authorization header is found whatever its position, and read only when it is exactly Basic and one token', () => {
    assert.deepEqual(basicCredentials({ Accept: 'Basic Zm9vOmJhcg==', AUTHORIZATION: `basic  ${b64('u:p')}` }), { username: 'u', password: 'p' });
    assert.equal(basicCredentials({ Authorization: `NotBasic ${b64('u:p')}` }), undefined);
    assert.equal(basicCredentials({ Authorization: `Basic ${b64('u:p')} extra` }), undefined);
    const e = endpoint({ Accept: 'application/json', Authorization: `Basic ${b64('alice:pw-12345')}` }, ['pw-12345']);
    const shown = toCurl(e, '{}');
    assert.ok(shown.includes(`-u 'alice:***'`), shown);
    assert.ok(!shown.includes(b64('alice:pw-12345')), 'the encoded credentials never appear');
  });
});
