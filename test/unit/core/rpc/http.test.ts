/**
 * One HTTP exchange (core/rpc/http) against loopback servers: what a reply carries, the request as
 * sent (length of a UTF-8 body, headers), a stale keep-alive connection sent again only for reads
 * (on a new connection), resets that are not stale connections, one TLS connection for several
 * https requests, the deadline's part in a timeout, the cap before and while reading, cancel, and
 * URLs no HTTP request can use. The clients above it are tested in client.test.ts and bounds.test.ts.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { RpcClient } from '../../../../src/core/rpc/client';
import { Deadline } from '../../../../src/core/rpc/deadline';
import { RpcFailure, type FailureContext } from '../../../../src/core/rpc/failure';
import { closeIdleConnections, httpExchange, type HttpRequest } from '../../../../src/core/rpc/http';
import { repoPath } from '../../../support/paths';
import { failureOf } from '../../../support/rpcNode';

const ctx = (url: string): FailureContext => ({ url, auth: 'none', secrets: [], timeoutMs: 1000 });
const request = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({ url, method: 'POST', headers: {}, body: '{}', timeoutMs: 5000, idempotent: true, ...extra });

afterEach(() => closeIdleConnections());

describe('a reply and the request as sent', () => {
  let server: http.Server;
  let url: string;
  const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let answer: (res: http.ServerResponse) => void = (res) => res.end('{}');

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, headers: req.headers, body });
        answer(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/rpc`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('status, reason, flattened headers, content type, text and byte count', async () => {
    answer = (res) => {
      res.statusMessage = 'Teapot Here';
      res.writeHead(418, { 'Content-Type': 'application/json; charset=utf-8', 'Set-Cookie': ['a=1', 'b=2'], 'X-One': 'x' });
      res.end('{"v":"é"}');
    };
    const reply = await httpExchange(request(url), ctx(url));
    assert.equal(reply.status, 418);
    assert.equal(reply.statusText, 'Teapot Here');
    assert.equal(reply.contentType, 'application/json; charset=utf-8');
    assert.equal(reply.headers['set-cookie'], 'a=1, b=2');
    assert.equal(reply.headers['x-one'], 'x');
    assert.equal(reply.text, '{"v":"é"}');
    assert.equal(reply.bytes, 10, 'bytes, not characters');
    assert.ok(reply.timeMs >= 0 && reply.timeMs < 5000, String(reply.timeMs));
  });

  test('the time of a reply is the time from sending to its last byte', async () => {
    answer = (res) => setTimeout(() => res.end('{}'), 100);
    const started = performance.now();
    const reply = await httpExchange(request(url), ctx(url));
    const elapsed = performance.now() - started;
    assert.ok(reply.timeMs >= 90 && reply.timeMs <= elapsed, `${reply.timeMs} ms of ${elapsed} ms`);
  });

  test('the body goes with its length in bytes, the method and headers as given', async () => {
    answer = (res) => res.end('{}');
    seen.length = 0;
    const reply = await httpExchange(request(url, { body: '["é€"]', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' } }), ctx(url));
    assert.equal(reply.contentType, '', 'no content type: empty, not undefined');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].method, 'POST');
    assert.equal(seen[0].headers['content-length'], '9');
    assert.equal(seen[0].body, '["é€"]');
    assert.equal(seen[0].headers.authorization, 'Bearer t');
    seen.length = 0;
    await httpExchange(request(url, { method: 'GET', body: undefined }), ctx(url));
    assert.equal(seen[0].method, 'GET');
    assert.equal(seen[0].headers['content-length'], undefined, 'no body, no length');
  });

  test('a body announced over the cap is refused before it is read; one that grows past it, while it is read', async () => {
    answer = (res) => {
      res.writeHead(200, { 'Content-Length': '2000' });
      res.end('x'.repeat(2000));
    };
    const announced = await failureOf(httpExchange(request(url, { maxBytes: 1000 }), ctx(url)));
    assert.equal(announced.kind, 'too-large');
    assert.match(announced.message, /it announced/);
    assert.equal((await httpExchange(request(url, { maxBytes: 2000 }), ctx(url))).bytes, 2000, 'exactly the cap is read');
    answer = (res) => {
      res.writeHead(200);
      res.write('y'.repeat(600));
      setTimeout(() => res.end('y'.repeat(600)), 20);
    };
    const streamed = await failureOf(httpExchange(request(url, { maxBytes: 1000 }), ctx(url)));
    assert.equal(streamed.kind, 'too-large');
    assert.doesNotMatch(streamed.message, /announced/);
  });

  test('a signal aborted before sending sends nothing; one aborted while waiting ends it as cancelled', async () => {
    seen.length = 0;
    const aborted = AbortSignal.abort();
    assert.equal((await failureOf(httpExchange(request(url, { signal: aborted }), ctx(url)))).kind, 'cancelled');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.length, 0, 'the aborted-before request never arrived');
    answer = (res) => setTimeout(() => res.end('{}'), 2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    assert.equal((await failureOf(httpExchange(request(url, { signal: controller.signal }), ctx(url)))).kind, 'cancelled');
    assert.ok(performance.now() - started < 1500, 'ended by the abort, not the reply');
  });

  test('an exchange leaves no listener on its signal, however it ends', async () => {
    // One signal often spans a whole command: listeners left behind would pile up, and past 10
    // Node prints a leak warning.
    const controller = new AbortController();
    answer = (res) => res.end('{}');
    await httpExchange(request(url, { signal: controller.signal }), ctx(url));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'after a reply');
    answer = (res) => setTimeout(() => res.end('{}'), 1000);
    await failureOf(httpExchange(request(url, { signal: controller.signal, timeoutMs: 50 }), ctx(url)));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'after a timeout');
  });

  test('a spent deadline fails at once, saying whether the operation is over', async () => {
    seen.length = 0;
    const shared = await failureOf(httpExchange(request(url, { deadline: new Deadline(0) }), ctx(url)));
    assert.deepEqual([shared.kind, shared.outOfTime], ['timeout', true]);
    const own = await failureOf(httpExchange(request(url, { deadline: new Deadline(0, false) }), ctx(url)));
    assert.deepEqual([own.kind, own.outOfTime], ['timeout', false]);
    const none = await failureOf(httpExchange(request(url, { timeoutMs: 0 }), ctx(url)));
    assert.deepEqual([none.kind, none.outOfTime], ['timeout', false], "a zero timeout and no deadline: the request's own");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.length, 0, 'nothing was sent');
  });

  test("a timeout cut short by a shared deadline ends the operation; the request's own timeout does not", async () => {
    answer = (res) => setTimeout(() => res.end('{}'), 1500);
    const byDeadline = await failureOf(httpExchange(request(url, { timeoutMs: 5000, deadline: new Deadline(100) }), ctx(url)));
    assert.deepEqual([byDeadline.kind, byDeadline.outOfTime], ['timeout', true]);
    const byOwn = await failureOf(httpExchange(request(url, { timeoutMs: 100, deadline: new Deadline(5000) }), ctx(url)));
    assert.deepEqual([byOwn.kind, byOwn.outOfTime], ['timeout', false]);
    const perCall = await failureOf(httpExchange(request(url, { timeoutMs: 5000, deadline: new Deadline(100, false) }), ctx(url)));
    assert.deepEqual([perCall.kind, perCall.outOfTime], ['timeout', false], "a per-call budget is not the operation's");
  });
});

describe('a keep-alive connection the server drops as it is reused', () => {
  let server: net.Server;
  let url: string;
  let connections = 0;

  before(async () => {
    // Answers the first request of each connection and keeps it open; resets the connection when
    // a second request arrives on it, as a server closing an idle connection at that moment does.
    server = net.createServer((socket) => {
      connections++;
      let answered = false;
      socket.on('data', () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}');
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('a read is sent again once, on a new connection', async () => {
    connections = 0;
    assert.equal((await httpExchange(request(url), ctx(url))).text, '{}');
    assert.equal((await httpExchange(request(url), ctx(url))).text, '{}');
    assert.equal(connections, 2, 'the second request went out again on a fresh connection');
  });

  test('a write is not sent again: it fails as a reset connection', async () => {
    closeIdleConnections();
    connections = 0;
    await httpExchange(request(url, { idempotent: false }), ctx(url));
    const problem = await failureOf(httpExchange(request(url, { idempotent: false }), ctx(url)));
    assert.ok(problem instanceof RpcFailure);
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.errno, 'ECONNRESET');
    assert.equal(connections, 1, 'not sent a second time');
  });

  test('a raw exchange of the RPC client (what Call Method and request files send) is never sent twice either', async () => {
    closeIdleConnections();
    connections = 0;
    const client = new RpcClient({ httpUrl: url, wsUrl: url.replace(/^http/, 'ws'), headers: {}, auth: 'none', secrets: [] }, { timeoutMs: 3000 });
    assert.equal((await client.exchange('{}')).text, '{}');
    const problem = await failureOf(client.exchange('{}'));
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.errno, 'ECONNRESET');
    assert.equal(connections, 1, 'not sent again on a new connection');
  });

  test('a read is sent again on a new connection even when the pool holds another stale one', async () => {
    closeIdleConnections();
    connections = 0;
    // Two requests at once open two connections; both are idle and stale when the third comes.
    await Promise.all([httpExchange(request(url), ctx(url)), httpExchange(request(url), ctx(url))]);
    assert.equal(connections, 2);
    assert.equal((await httpExchange(request(url), ctx(url))).text, '{}');
    assert.equal(connections, 3, 'the second try opened a connection of its own');
  });
});

describe('a connection that breaks, and is not a stale keep-alive one', () => {
  let server: net.Server;
  let url: string;
  let requests = 0;
  let connections = 0;
  /** What the server does with the request that is the `nth` (from 1) of its connection. */
  let behave: (socket: net.Socket, nth: number) => void = () => undefined;

  before(async () => {
    server = net.createServer((socket) => {
      connections++;
      let nth = 0;
      socket.on('data', () => {
        requests++;
        behave(socket, ++nth);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('a reset on a new connection: a read fails as unreachable, sent once', async () => {
    behave = (socket) => socket.resetAndDestroy();
    requests = 0;
    connections = 0;
    const problem = await failureOf(httpExchange(request(url), ctx(url)));
    assert.deepEqual([problem.kind, problem.errno], ['unreachable', 'ECONNRESET']);
    assert.deepEqual([requests, connections], [1, 1], 'not sent again');
  });

  test('a reset on a reused connection after the reply began: a read fails, not sent again', async () => {
    behave = (socket, nth) => {
      if (nth === 1) return void socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"half":');
      setTimeout(() => socket.resetAndDestroy(), 20);
    };
    requests = 0;
    connections = 0;
    assert.equal((await httpExchange(request(url), ctx(url))).text, '{}');
    const problem = await failureOf(httpExchange(request(url), ctx(url)));
    assert.deepEqual([problem.kind, problem.errno], ['unreachable', 'ECONNRESET']);
    assert.deepEqual([requests, connections], [2, 1], 'the cut-off reply was not asked for again');
  });

  test('a reply cut off by the server closing the connection: unreachable at once, not a timeout', async () => {
    behave = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"half":');
      setTimeout(() => socket.end(), 20);
    };
    const started = performance.now();
    const problem = await failureOf(httpExchange(request(url, { timeoutMs: 1000 }), ctx(url)));
    assert.deepEqual([problem.kind, problem.errno], ['unreachable', 'ECONNRESET']);
    assert.ok(performance.now() - started < 900, 'it did not wait for the timeout');
  });

  test('a read whose second try also fails: the failure of the second try', async () => {
    // Answers only the first request of the first connection: the second request meets it
    // stale, and its second try is reset on a new connection.
    behave = (socket, nth) => {
      if (connections === 1 && nth === 1) return void socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
      socket.resetAndDestroy();
    };
    closeIdleConnections();
    requests = 0;
    connections = 0;
    assert.equal((await httpExchange(request(url), ctx(url))).text, '{}');
    const problem = await failureOf(httpExchange(request(url), ctx(url)));
    assert.deepEqual([problem.kind, problem.errno], ['unreachable', 'ECONNRESET']);
    assert.deepEqual([requests, connections], [3, 2], 'sent again once, on a new connection');
  });
});

describe('https over a keep-alive connection', () => {
  let server: https.Server;
  let url: string;
  let connections = 0;

  before(async () => {
    const fixture = (name: string) => readFileSync(repoPath('test/fixtures/tls', name));
    server = https.createServer({ key: fixture('loopback.key'), cert: fixture('loopback.crt') }, (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end('{"tls":true}');
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  test('two requests in a row share one TLS connection', async () => {
    // The fixture certificate is self-signed; the client's own agents trust only the system's CAs.
    const saved = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      connections = 0;
      assert.equal((await httpExchange(request(url), ctx(url))).text, '{"tls":true}');
      assert.equal((await httpExchange(request(url), ctx(url))).text, '{"tls":true}');
      assert.equal(connections, 1);
    } finally {
      if (saved === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = saved;
    }
  });
});

describe('URLs no HTTP request can use', () => {
  test('not a URL, or not http(s): unreachable, saying why, nothing sent', async () => {
    const bad = await failureOf(httpExchange(request('not a url'), ctx('not a url')));
    assert.equal(bad.kind, 'unreachable');
    assert.match(bad.message, /the URL is not valid/);
    const ftp = await failureOf(httpExchange(request('ftp://127.0.0.1/'), ctx('ftp://127.0.0.1/')));
    assert.equal(ftp.kind, 'unreachable');
    assert.match(ftp.message, /HTTP requests need an http or https URL, not ftp/);
  });
});
