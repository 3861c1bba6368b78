/**
 * Deeply nested input gets a clear message at its place, never a stack overflow: 5,000-deep JSON
 * params (typed, in a request file, on the CLI), 5,000-deep answers from a loopback server that
 * is the hostile node (HTTP and WebSocket), 5,000-deep YAML and GraphQL list types.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { MAX_JSON_DEPTH, tooDeepAt } from '../../src/core/json';
import { PlatformClient } from '../../src/core/platform/client';
import { PlatformError } from '../../src/core/platform/errors';
import { parseEndpoint, resolveEndpoint } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { RpcFailure } from '../../src/core/rpc/failure';
import { parseParams } from '../../src/core/rpc/params';
import { parseRequestFile } from '../../src/core/rpc/requestFile';
import { WsRpcClient } from '../../src/core/rpc/ws';
import { graphqlTooDeepAt } from '../../src/core/subgraph/schema/schema';
import { memoryFileSource } from '../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../src/core/subgraph/rules/validate';
import { tutorialFiles } from '../fixtures/subgraphs/corpus';
import { buildCli, runCli } from '../support/cli';

const N = 5000;
const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('deep JSON params', () => {
  test('5,000-deep params: a clear message with the line and column, no stack overflow', () => {
    const text = `[\n  {"a": ${deepArray(N)}}]`;
    assert.throws(
      () => parseParams(text),
      (err: unknown) =>
        err instanceof RpcFailure &&
        err.kind === 'invalid-request' &&
        err.message === `Params are nested more than 64 levels deep at line 2, column ${9 + 62} (position ${2 + 8 + 62}): no JSON-RPC method takes that.`,
    );
  });

  test('64 levels are fine, and brackets inside strings do not count', () => {
    assert.doesNotThrow(() => parseParams(`[${deepArray(63)}]`));
    assert.deepEqual(parseParams(`["${'['.repeat(N)}"]`), ['['.repeat(N)]);
    assert.equal(tooDeepAt(`["\\"${'{'.repeat(100)}"]`, 2), -1);
  });

  test('closing brackets and braces both end a level', () => {
    assert.equal(tooDeepAt('[][][]{}{}[', 1), -1);
    assert.equal(tooDeepAt('[{}][{}]', 2), -1);
    assert.equal(tooDeepAt('[{]}[{[', 2), 6);
    assert.equal(tooDeepAt('[[[', 2), 2);
    assert.equal(tooDeepAt('"\\\\"[[[', 2), 6, 'an escaped backslash, then the string ends');
  });

  test('a 5,000-deep request in a .jsonrpc file: a parse error at the bracket', () => {
    const file = parseRequestFile(`### deep\n{"method": "eth_call", "params": ${deepArray(N)}}\n`);
    const [request] = file.requests;
    assert.equal(request.payload, undefined);
    assert.equal(request.parseError?.message, 'The request is nested more than 64 levels deep');
    assert.deepEqual(request.parseError?.position, { line: 1, character: 33 + 63 });
  });
});

describe('deep answers from a node', () => {
  const deepAnswer = `{"jsonrpc":"2.0","id":1,"result":${deepArray(N)}}`;
  let server: http.Server;
  let wss: WebSocketServer;
  let url = '';
  let wsUrl = '';
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(deepAnswer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    wss.on('connection', (socket) => socket.on('message', () => socket.send(deepAnswer)));
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
  });
  after(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const endpoint = (u: string) => {
    const p = parseEndpoint(u);
    return resolveEndpoint({ id: 't', name: 't', protocol: 'evm', url: p.url, wsUrl: p.wsUrl, auth: p.auth }, p.secret);
  };

  test('over HTTP: refused with a message, not a crash later in whoever prints it', async () => {
    const client = new RpcClient(endpoint(url), { timeoutMs: 5000 });
    await assert.rejects(client.call('eth_chainId'), (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch' && /nested more than 512 levels deep/.test(err.message));
    const raw = await client.exchange({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    assert.equal(raw.body, undefined, 'the raw exchange keeps the text but no tree to walk');
    assert.equal(raw.text, deepAnswer);
  });

  test('over WebSocket: the waiting call fails with the reason instead of timing out', async () => {
    const client = new WsRpcClient(endpoint(wsUrl), { timeoutMs: 5000, pingIntervalMs: 0 });
    try {
      const started = Date.now();
      await assert.rejects(client.call('eth_chainId'), (err: unknown) => err instanceof RpcFailure && /nested more than 512 levels deep/.test(err.message));
      assert.ok(Date.now() - started < 4000, 'failed at once, not by the timeout');
    } finally {
      client.close();
    }
  });

  test('from the platform API: a bad reply, not a stack overflow in the secret scrubbing', async () => {
    const client = new PlatformClient({ apiKey: 'k'.repeat(32), apiUrl: url.replace(/\/$/, ''), timeoutMs: 5000 });
    await assert.rejects(client.organization(), (err: unknown) => err instanceof PlatformError && err.kind === 'bad-reply' && /nests more than 512 levels deep/.test(err.message));
  });

  test('the bound is below what JSON.stringify survives', () => {
    assert.doesNotThrow(() => JSON.stringify(JSON.parse(deepArray(MAX_JSON_DEPTH.response)), null, 2));
  });
});

describe('chaindeck rpc with 5,000-deep params', () => {
  before(buildCli);
  test('a usage error (exit 2) naming the depth, before any request', async () => {
    const run = await runCli(['rpc', '--url', 'http://127.0.0.1:9/', 'eth_call', deepArray(N)]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^chaindeck rpc: Params are nested more than 64 levels deep at line 1, column 65/);
    assert.doesNotMatch(run.stderr, /Maximum call stack/);
  });
});

describe('deep YAML and GraphQL', () => {
  const validate = (edit: (files: Record<string, string>) => void) => {
    const files = tutorialFiles();
    edit(files);
    return validateSubgraph('subgraph.yaml', memoryFileSource(files)).findings;
  };

  for (const [name, yaml, line, character] of [
    ['flow sequences', `x: ${deepArray(N)}\n`, 25, 3 + 63],
    ['block maps', `${Array.from({ length: N }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')}\n`, 25 + 64, 64],
    ['items of items', `x:\n${'- '.repeat(N)}a\n`, 26, 2 * 63],
  ] as const) {
    test(`5,000-deep YAML (${name}): one error at the level past 64`, () => {
      const findings = validate((f) => void (f['subgraph.yaml'] += yaml));
      assert.equal(findings.length, 1, JSON.stringify(findings));
      assert.equal(findings[0].code, 'nesting-too-deep');
      assert.match(findings[0].message, /^The manifest nests more than 64 levels deep here/);
      assert.deepEqual(findings[0].range.start, { line, character });
    });
  }

  test('5,000-deep GraphQL list type: one error at the bracket past 32, nothing else', () => {
    const schema = `type Deep @entity(immutable: true) {\n  id: ID!\n  f: ${'['.repeat(N)}String${'!]'.repeat(N)}!\n}\n`;
    const findings = validate((f) => void (f['schema.graphql'] += schema)).filter((f) => f.file.endsWith('schema.graphql'));
    assert.equal(findings.length, 1, JSON.stringify(findings));
    assert.equal(findings[0].code, 'graphql-too-deep');
    assert.equal(findings[0].severity, 'error');
    const lines = tutorialFiles()['schema.graphql'].split('\n').length - 1;
    assert.deepEqual(findings[0].range.start, { line: lines + 2, character: 5 + 31 });
  });

  test('an ABI with tuples nested 20,000 deep: an error at the ABI in our words, not a stack overflow', () => {
    let param = '{"name":"x","type":"uint256"}';
    for (let i = 0; i < 20_000; i++) param = `{"name":"t","type":"tuple","components":[${param}]}`;
    const findings = validate((f) => void (f['abis/ERC20.json'] = `[{"type":"event","name":"Approval","inputs":[${param}]}]`));
    assert.ok(findings.length >= 1, JSON.stringify(findings));
    assert.ok(
      findings.every((f) => !/call stack|could not finish/i.test(f.message)),
      JSON.stringify(findings),
    );
    assert.ok(
      findings.some((f) => /The ABI nests tuples more than 32 levels deep \(in event Approval\)/.test(f.message)),
      JSON.stringify(findings),
    );
    // 32 levels still read.
    let ok = '{"name":"x","type":"uint256"}';
    for (let i = 0; i < 32; i++) ok = `{"name":"t","type":"tuple","components":[${ok}]}`;
    assert.ok(validate((f) => void (f['abis/ERC20.json'] = `[{"type":"event","name":"Deep","inputs":[${ok}]}]`)).every((f) => !/levels deep/.test(f.message)));
  });

  test('brackets in GraphQL strings and comments do not count; a real list of lists passes', () => {
    assert.equal(graphqlTooDeepAt(`# ${'['.repeat(100)}\n"""${'['.repeat(100)}"""\n"${'{'.repeat(100)}"\ntype A { f: [[Int!]!]! }`, 4), -1);
  });
});
