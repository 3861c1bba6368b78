/**
 * Rules of the HTTP JSON-RPC client, Copy as curl, slot and storage inputs, export file names and
 * redaction that the other tests left unpinned (found by mutation testing): the HTTP method of
 * batches and raw exchanges, 3xx replies, a shared deadline and cancellation during a retry wait,
 * raw exchanges never sent twice, Basic credentials in curl (never leaked), header lines, block
 * numbers beyond 2^53, bytesN mapping keys, file-name cleaning, and look-alike public hosts.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import type { ResolvedEndpoint } from '../../src/core/rpc/endpoint';
import { redactUrl, registerPublicUrl } from '../../src/core/redact';
import { checkParams, joinPath, RpcClient } from '../../src/core/rpc/client';
import { basicCredentials, toCurl } from '../../src/core/rpc/curl';
import { Deadline } from '../../src/core/rpc/deadline';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { storageExportName } from '../../src/core/storage/exportName';
import { parseBlockRef } from '../../src/core/storage/inputs';
import { mappingKeyBytes, type MappingKeyType } from '../../src/core/storage/slots';
import { failureOf, reply, startScriptedNode, type ScriptedNode } from '../support/rpcNode';

const open = (url: string): ResolvedEndpoint => ({ httpUrl: url, wsUrl: url.replace(/^http/, 'ws'), headers: {}, auth: 'none', secrets: [] });
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('RpcClient: what goes on the wire and how replies are read', () => {
  let node: ScriptedNode;
  const client = (options: ConstructorParameters<typeof RpcClient>[1] = { timeoutMs: 3000, retry: { retries: 0 } }) => new RpcClient(open(node.url), options);

  before(async () => {
    node = await startScriptedNode();
  });
  afterEach(() => {
    node.seen.length = 0;
    node.script = (r) => ({ body: reply(r, { result: '0x1' }) });
    closeIdleConnections();
  });
  after(async () => {
    closeIdleConnections();
    await node.close();
  });

  test('a batch goes out as one POST', async () => {
    node.script = (r) => ({ body: (JSON.parse(r.body) as { id: number }[]).map((q) => ({ jsonrpc: '2.0', id: q.id, result: '0x1' })) });
    const items = await client().batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }]);
    assert.equal(items.length, 2);
    assert.equal(node.seen.length, 1);
    assert.equal(node.seen[0].method, 'POST');
  });

  test('a raw exchange is a POST of the payload by default', async () => {
    const got = await client().exchange({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' });
    assert.equal(got.status, 200);
    assert.equal(node.seen[0].method, 'POST');
    assert.equal(node.seen[0].body, '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}');
  });

  test('a 300 reply is an HTTP failure even with a JSON-RPC result in its body', async () => {
    node.script = (r) => ({ status: 300, body: reply(r, { result: '0x1' }) });
    const problem = await failureOf(client().call('eth_chainId'));
    assert.equal(problem.kind, 'http');
    assert.equal(problem.status, 300);
  });

  test('a raw exchange obeys the deadline the client shares with the whole command', async () => {
    node.script = () => ({ delayMs: 3000, body: '{}' });
    const started = Date.now();
    const problem = await failureOf(client({ timeoutMs: 5000, deadline: new Deadline(60) }).exchange('{}'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.outOfTime, true);
    assert.ok(Date.now() - started < 2000, 'cut by the 60 ms deadline, not the 3 s answer');
  });

  test('cancelling during the wait before a retry rejects at once as cancelled', async () => {
    const controller = new AbortController();
    // Cancelled once the first answer is out, i.e. during the 2 s wait before the retry (however slow the machine).
    node.script = () => {
      setTimeout(() => controller.abort(), 30);
      return { status: 503, headers: { 'Retry-After': '2' }, body: '' };
    };
    const started = Date.now();
    const problem = await failureOf(client({ timeoutMs: 5000, retry: { retries: 2 } }).call('eth_chainId', [], { signal: controller.signal }));
    assert.equal(problem.kind, 'cancelled');
    assert.equal(problem.message, `The request to ${node.url} was cancelled.`);
    assert.ok(Date.now() - started < 1500, 'not after the 2 s wait');
    assert.equal(node.seen.length, 1);
  });
});

describe('RpcClient against a server that answers with a status below 200', () => {
  test('status 099 is not success: the call fails as HTTP even with a JSON-RPC result in the body', async () => {
    const server = net.createServer((socket) => {
      socket.on('data', () => socket.end('HTTP/1.1 099 Odd\r\nContent-Type: application/json\r\nContent-Length: 37\r\n\r\n{"jsonrpc":"2.0","id":1,"result":"1"}'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
      const problem = await failureOf(new RpcClient(open(url), { timeoutMs: 3000, retry: { retries: 0 } }).call('eth_chainId'));
      assert.equal(problem.kind, 'http');
      assert.equal(problem.status, 99);
    } finally {
      closeIdleConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('checkParams and joinPath', () => {
  test('params that are neither array nor object are refused with a message naming their type', () => {
    assert.deepEqual(checkParams(undefined), []);
    assert.throws(() => checkParams(42), { message: 'Params must be a JSON array (positional) or a JSON object (named), not number.' });
    assert.throws(() => checkParams(null), { message: 'Params must be a JSON array (positional) or a JSON object (named), not null.' });
  });

  test('only the leading slashes of a REST path are dropped; a double slash inside it stays', () => {
    assert.equal(joinPath('http://h.test/KEY/', '//eth/v1//node'), 'http://h.test/KEY/eth/v1//node');
    assert.equal(joinPath('http://h.test/KEY', 'eth//v1?x=1'), 'http://h.test/KEY/eth//v1?x=1');
  });
});

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

describe('storage inputs, slots and export names', () => {
  test('a block number beyond 2^53 given as a number is refused (it cannot be exact)', () => {
    assert.throws(() => parseBlockRef(2 ** 53), {
      message: "Invalid block '9007199254740992': expected a block hash (0x followed by 64 hex digits), a block number (decimal or 0x-hex) or one of latest, earliest, safe, finalized",
    });
    assert.deepEqual(parseBlockRef(2 ** 53 - 1), { kind: 'number', number: 2n ** 53n - 1n });
    assert.deepEqual(parseBlockRef(12n), { kind: 'number', number: 12n });
  });

  test('bytes10 to bytes29 are mapping key types; bytes1x is not', () => {
    const key = `0x${'ab'.repeat(16)}`;
    assert.equal(Buffer.from(mappingKeyBytes(key, 'bytes16')).toString('hex'), `${'ab'.repeat(16)}${'00'.repeat(16)}`);
    assert.throws(() => mappingKeyBytes(key, 'bytes1x' as MappingKeyType), {
      message: "Unsupported mapping key type 'bytes1x': use address, bool, uintN, intN, bytesN, string or bytes",
    });
  });

  test("an export name keeps the contract's first word cleaned: runs of unsafe characters become one _, none at the ends, at most 64 characters", () => {
    const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    assert.equal(storageExportName({ address, contract: 'My  Token_! (src/T.sol)', block: 123, format: 'csv' }), 'storage-My_Token-0x5fbdb231-block-123.csv');
    assert.equal(storageExportName({ address, contract: 'A'.repeat(80), block: 1, page: 2, format: 'json' }), `storage-${'A'.repeat(64)}-0x5fbdb231-block-1-page-2.json`);
    assert.equal(storageExportName({ address, block: '12 345', format: 'csv' }), 'storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-12345.csv');
  });
});

describe('redaction of public URLs', () => {
  test('a host that only looks like a registered public one (Unicode case folding) keeps its path masked', () => {
    registerPublicUrl('http://node.internal/rpc');
    assert.equal(redactUrl('http://node.internal/rpc'), 'http://node.internal/rpc');
    assert.equal(redactUrl('http://NODE.internal/rpc'), 'http://NODE.internal/rpc');
    assert.equal(redactUrl('http://node.ınternal/rpc'), 'http://node.ınternal/***');
  });
});
