/**
 * Bounds against hostile peers on loopback: a node that rate-limits with Retry-After: 3600, one
 * that streams 300 MB, one that announces 300 MB, a WebSocket message over the cap, a plain
 * HTTP server behind a ws:// URL, and a deadline shared by retries, calls and pages.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { PlatformClient } from '../../../../src/core/platform/client';
import { PlatformError } from '../../../../src/core/platform/errors';
import { RpcClient } from '../../../../src/core/rpc/client';
import { Deadline, setResponseLimitMB } from '../../../../src/core/rpc/deadline';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { RpcFailure } from '../../../../src/core/rpc/failure';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { WsRpcClient } from '../../../../src/core/rpc/ws';
import { postGraphql } from '../../../../src/core/subgraph/query/client';
import { sampleData, startPlatformServer } from '../../../support/platformServer';
import { failureOf } from '../../../support/rpcNode';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Served {
  url: string;
  wsUrl: string;
  requests: number;
  server: http.Server;
  close(): Promise<void>;
}

/** A loopback HTTP server that hands every request (body read) to `handler`. */
async function serve(handler: Handler): Promise<Served> {
  const served = { requests: 0 } as Served;
  const server = http.createServer((req, res) => {
    served.requests++;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  served.server = server;
  served.url = `http://127.0.0.1:${port}/`;
  served.wsUrl = `ws://127.0.0.1:${port}/`;
  served.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return served;
}

const endpoint = (url: string, wsUrl = url.replace(/^http/, 'ws')): ResolvedEndpoint => ({ httpUrl: url, wsUrl, headers: {}, auth: 'none', secrets: [] });

const servers: Served[] = [];
async function hostile(handler: Handler): Promise<Served> {
  const s = await serve(handler);
  servers.push(s);
  return s;
}

afterEach(async () => {
  closeIdleConnections();
  setResponseLimitMB(64);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const rpcReply = (body: string) => JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: number }).id, result: '0x1' });

describe('one timeout covers retries and Retry-After', () => {
  test('429 with Retry-After: 3600 and a 2 s timeout fails within 2 s, saying it was rate-limited', async () => {
    const node = await hostile((_req, res) => {
      res.writeHead(429, { 'Retry-After': '3600', 'Content-Type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"too many requests"}}');
    });
    const started = performance.now();
    const problem = await failureOf(new RpcClient(endpoint(node.url), { timeoutMs: 2000 }).call('eth_blockNumber'));
    const elapsed = performance.now() - started;
    assert.equal(problem.kind, 'rate-limited');
    assert.match(problem.message, /Rate limited/);
    assert.match(problem.message, /3600 s \(Retry-After\)/);
    assert.doesNotMatch(problem.message, /timeout/, 'a longer timeout would not help: the wait is past what Chaindeck waits at all');
    assert.ok(elapsed < 2200, `took ${elapsed} ms`);
  });

  test('retries after short Retry-After waits stop at the timeout, not after every retry', async () => {
    const node = await hostile((_req, res) => {
      res.writeHead(503, { 'Retry-After': '1' });
      res.end('busy');
    });
    const started = performance.now();
    const problem = await failureOf(new RpcClient(endpoint(node.url), { timeoutMs: 2500, retry: { retries: 10 } }).call('eth_blockNumber'));
    const elapsed = performance.now() - started;
    assert.equal(problem.kind, 'server');
    assert.ok(elapsed < 2700, `took ${elapsed} ms`);
    assert.ok(node.requests >= 2 && node.requests <= 3, `${node.requests} requests`);
  });

  test('a deadline shared by a client ends a run of slow calls, each within its own timeout', async () => {
    const node = await hostile((_req, res, body) => setTimeout(() => res.end(rpcReply(body)), 300));
    const client = new RpcClient(endpoint(node.url), { timeoutMs: 1000, deadline: new Deadline(1000) });
    const started = performance.now();
    let answered = 0;
    const problem = await failureOf(
      (async () => {
        for (let i = 0; i < 10; i++) {
          await client.call('eth_blockNumber');
          answered++;
        }
      })(),
    );
    const elapsed = performance.now() - started;
    assert.equal(problem.kind, 'timeout');
    assert.match(problem.message, /within 1000 ms/);
    assert.ok(answered >= 2 && answered <= 3, `${answered} calls answered`);
    assert.ok(elapsed < 1300, `took ${elapsed} ms`);
  });

  test('platform pages count against one timeout: slow pages, each quick enough alone, end the list', async () => {
    const api = await startPlatformServer({ apiKey: 'pk_bounds_0123456789abcdef', pageSize: 1, data: sampleData({ nodes: 12 }) });
    try {
      api.fail({ path: '/v1/nodes/', fault: { delayMs: 250 } });
      const client = new PlatformClient({ apiKey: 'pk_bounds_0123456789abcdef', apiUrl: api.url, timeoutMs: 1000 });
      const started = performance.now();
      await assert.rejects(client.listNodes(), (err: unknown) => err instanceof PlatformError && err.kind === 'timeout' && /page \d/.test(err.message));
      assert.ok(performance.now() - started < 1300);
      assert.ok(api.requests.length < 6, `${api.requests.length} pages requested`);
    } finally {
      await api.close();
    }
  });
});

/** The growth of this process's RSS while `work` runs, sampled every 5 ms. */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ outcome: T | unknown; growthMB: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  let outcome: T | unknown;
  try {
    outcome = await work();
  } catch (err) {
    outcome = err;
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return { outcome, growthMB: (peak - base) / 2 ** 20 };
}

/** A server streaming `totalMB` of JSON-looking bytes without Content-Length; counts what it wrote. */
async function streamingNode(totalMB: number) {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const sent = { bytes: 0 };
  const node = await hostile((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":1,"result":"');
    const total = totalMB * 2 ** 20;
    let written = 0;
    const pump = () => {
      while (written < total) {
        written += chunk.length;
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('"}');
    };
    res.on('error', () => undefined);
    res.socket?.on('error', () => undefined);
    pump();
  });
  return { node, sent };
}

describe('a reply over the response cap is refused while memory stays flat', () => {
  test('300 MB streamed without Content-Length: refused at 64 MiB, RSS grows far less than 300 MB', async () => {
    const { node, sent } = await streamingNode(300);
    const { outcome, growthMB } = await rssGrowth(() => new RpcClient(endpoint(node.url), { timeoutMs: 60_000, hints: CLI_HINTS }).call('eth_blockNumber'));
    assert.ok(outcome instanceof RpcFailure, String(outcome));
    assert.equal(outcome.kind, 'too-large');
    assert.match(outcome.message, /larger than the 64 MiB response cap/);
    assert.match(outcome.message, /chaindeck\.maxResponseMB/);
    assert.ok(growthMB < 160, `RSS grew ${growthMB.toFixed(0)} MB`);
    // The request was aborted at the cap: the server could not send the rest.
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(sent.bytes < 150 * 2 ** 20, `the server sent ${(sent.bytes / 2 ** 20).toFixed(0)} MB`);
  });

  test('a Content-Length over the cap is refused before any of the body is read', async () => {
    const node = await hostile((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(300 * 2 ** 20) });
      res.write('{"jsonrpc"'); // and then nothing: a client waiting for the body would time out
    });
    const started = performance.now();
    const problem = await failureOf(new RpcClient(endpoint(node.url), { timeoutMs: 10_000 }).call('eth_blockNumber'));
    assert.equal(problem.kind, 'too-large');
    assert.match(problem.message, /it announced 300 MiB/);
    assert.ok(performance.now() - started < 2000);
  });

  test('the cap is configurable: 1 MiB refuses a 2 MiB reply and accepts a 0.5 MiB one', async () => {
    assert.match(setResponseLimitMB(0) ?? '', /whole number of MiB from 1 to 4096/);
    assert.equal(setResponseLimitMB(1), undefined);
    const big = await streamingNode(2);
    assert.equal((await failureOf(new RpcClient(endpoint(big.node.url)).call('eth_blockNumber'))).kind, 'too-large');
    const small = await streamingNode(0.5);
    const result = await new RpcClient(endpoint(small.node.url)).call<string>('eth_blockNumber');
    assert.equal(result.length, 0.5 * 2 ** 20);
  });

  test('GraphQL and platform API replies go through the same bounded reader', async () => {
    setResponseLimitMB(1);
    const { node } = await streamingNode(3);
    const graphql = await failureOf(postGraphql(node.url, { query: '{ _meta { block { number } } }' }, { timeoutMs: 10_000 }));
    assert.equal(graphql.kind, 'too-large');
    assert.match(graphql.message, /ask the subgraph query endpoint for less/i);
    const platform = new PlatformClient({ apiKey: 'pk_bounds_0123456789abcdef', apiUrl: node.url.replace(/\/$/, ''), timeoutMs: 10_000 });
    await assert.rejects(platform.organization(), (err: unknown) => err instanceof PlatformError && err.kind === 'too-large');
  });

  test('a WebSocket message over the cap fails the call with the cap named, not a bare drop', async () => {
    setResponseLimitMB(1);
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    wss.on('connection', (socket) => socket.on('message', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'x'.repeat(2 * 2 ** 20) }))));
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
    const client = new WsRpcClient(endpoint(url, url), { timeoutMs: 5000, pingIntervalMs: 0 });
    try {
      const problem = await failureOf(client.call('eth_blockNumber'));
      assert.equal(problem.kind, 'too-large');
      assert.match(problem.message, /larger than the 1 MiB response cap/);
    } finally {
      await client.close();
      for (const c of wss.clients) c.terminate();
      await new Promise((r) => wss.close(r));
    }
  });
});

describe('ws:// to a server that does not speak WebSocket', () => {
  for (const status of [404, 200]) {
    test(`an HTTP ${status} to the upgrade says it is not a WebSocket endpoint`, async () => {
      const plain = await hostile((_req, res) => {
        res.writeHead(status, { 'Content-Type': 'text/html' });
        res.end('<html>hello</html>');
      });
      const client = new WsRpcClient(endpoint(plain.url, plain.wsUrl), { timeoutMs: 3000, pingIntervalMs: 0 });
      try {
        const problem = await failureOf(client.call('eth_blockNumber'));
        assert.match(problem.message, new RegExp(`answered HTTP ${status} \\w[\\w ]* instead of upgrading to WebSocket: is this the node's WebSocket endpoint\\?`));
      } finally {
        await client.close();
      }
    });
  }
});

describe('a server that does not speak HTTP at all', () => {
  for (const scheme of ['ws', 'http'] as const) {
    test(`${scheme}:// to it says its answer is not HTTP, not just that the connection failed`, async () => {
      const server = net.createServer((socket) => socket.once('data', () => socket.end('\x1b]0;title\x07SSH-2.0-not-http\r\n\r\n')));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/`;
      const client = scheme === 'ws' ? new WsRpcClient(endpoint(url), { timeoutMs: 3000, pingIntervalMs: 0 }) : new RpcClient(endpoint(url), { timeoutMs: 3000 });
      try {
        const problem = await failureOf(client.call('eth_blockNumber'));
        assert.match(problem.message, /the server's answer is not valid HTTP \(HPE_\w+\): is this the node's endpoint, with the right port and scheme/);
        assert.equal(/does it speak WebSocket/.test(problem.message), scheme === 'ws');
      } finally {
        if (client instanceof WsRpcClient) await client.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }
});

describe('platform ids stay in their route, and the Bearer key goes nowhere else', () => {
  let api: Awaited<ReturnType<typeof startPlatformServer>>;
  before(async () => {
    api = await startPlatformServer({ apiKey: 'pk_bounds_0123456789abcdef' });
  });
  after(() => api.close());

  for (const id of ['../organization', '..', 'ND-1/../../v1/organization', '%2e%2e', 'ND 1', 'a'.repeat(65), '']) {
    test(`id ${JSON.stringify(id.slice(0, 20))} is refused before anything is sent`, async () => {
      api.clear();
      const client = new PlatformClient({ apiKey: 'pk_bounds_0123456789abcdef', apiUrl: api.url });
      await assert.rejects(client.getNode(id), (err: unknown) => err instanceof PlatformError && err.kind === 'invalid-request' && /letters, digits, - and _/.test(err.message));
      assert.equal(api.requests.length, 0);
    });
  }

  test("a next link that leaves the list's path (../organization/) is refused, not followed", async () => {
    const base = await hostile((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url === '/v1/nodes/') return res.end(JSON.stringify({ count: 2, next: '/v1/nodes/../organization/?page=2', previous: null, results: [] }));
      res.end('{}');
    });
    const client = new PlatformClient({ apiKey: 'pk_bounds_0123456789abcdef', apiUrl: base.url.replace(/\/$/, '') });
    await assert.rejects(client.listNodes(), (err: unknown) => err instanceof PlatformError && err.kind === 'bad-reply' && /leaves the list's path \/v1\/nodes\//.test(err.message));
    assert.equal(base.requests, 1);
  });

  test('a redirect to another origin is not followed: the other server never sees the key', async () => {
    const elsewhere = await hostile((_req, res) => res.end('{}'));
    const redirecting = await hostile((_req, res) => {
      res.writeHead(302, { Location: `${elsewhere.url}v1/organization/` });
      res.end();
    });
    const client = new PlatformClient({ apiKey: 'pk_bounds_0123456789abcdef', apiUrl: redirecting.url.replace(/\/$/, '') });
    await assert.rejects(client.organization(), (err: unknown) => err instanceof PlatformError && err.status === 302);
    assert.equal(elsewhere.requests, 0);
  });
});

describe('a call that runs out of its own time is not the end of the operation', () => {
  test("a per-call timeout is not marked out of time (the emulation skips that slot); a shared deadline's end is", async () => {
    const node = await hostile(() => undefined); // never answers
    const own = await failureOf(new RpcClient(endpoint(node.url), { timeoutMs: 200 }).call('eth_getStorageAt', ['0x0000000000000000000000000000000000000001', '0x0', 'latest']));
    assert.equal(own.kind, 'timeout');
    assert.equal(own.outOfTime, false);
    const shared = await failureOf(new RpcClient(endpoint(node.url), { timeoutMs: 5000, deadline: new Deadline(200) }).call('eth_blockNumber'));
    assert.equal(shared.kind, 'timeout');
    assert.equal(shared.outOfTime, true);
  });
});
