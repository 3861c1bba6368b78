/**
 * The WebSocket JSON-RPC client's edges, against loopback servers (the ws package, or a raw TCP
 * server speaking the upgrade by hand): what the upgrade offers, broken upgrades and frames, a 500
 * on the upgrade, messages nobody waits for, over-deep messages, calls cancelled before the socket
 * opens, abort listeners left behind, resubscribe failures, giving up, unsubscribing while the
 * client reconnects, the reconnect delay, and the heartbeat counting any message as a sign of life.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { afterEach, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { Deadline } from '../../../../src/core/rpc/deadline';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { WsRpcClient, type WsStatus } from '../../../../src/core/rpc/ws';
import { failureOf, startScriptedNode } from '../../../support/rpcNode';

interface Request {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown;
}
type OnMessage = (socket: WebSocket, message: Request | Request[]) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function wsNode(onMessage: OnMessage, options: { verifyClient?: (info: unknown, done: (ok: boolean, code?: number) => void) => void; autoPong?: boolean } = {}) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, ...options });
  await new Promise((resolve) => wss.once('listening', resolve));
  const node = { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`, wss, upgrades: [] as IncomingMessage[], received: [] as (Request | Request[])[] };
  wss.on('connection', (socket, req) => {
    node.upgrades.push(req);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Request | Request[];
      node.received.push(message);
      onMessage(socket, message);
    });
  });
  cleanups.push(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  return node;
}

/** A TCP server answering the upgrade by hand: `accept` decides the Sec-WebSocket-Accept it sends; `afterOpen` gets the socket and each later chunk. */
async function rawNode(accept: (key: string) => string, afterOpen: (socket: net.Socket, chunk: Buffer) => void = () => undefined): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    let upgraded = false;
    s.on('data', (chunk) => {
      if (upgraded) return afterOpen(s, chunk);
      upgraded = true;
      const key = /sec-websocket-key: *(\S+)/i.exec(String(chunk))?.[1] ?? '';
      s.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept(key)}\r\n\r\n`);
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}
const rightAccept = (key: string) => createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');

const answer = (socket: WebSocket, m: Request | Request[], result: unknown = (m as Request).method) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: (m as Request).id, result }));
const open = (url: string): ResolvedEndpoint => ({ httpUrl: url.replace(/^ws/, 'http'), wsUrl: url, headers: {}, auth: 'none', secrets: [] });
function client(url: string, options: ConstructorParameters<typeof WsRpcClient>[1] = {}): WsRpcClient {
  const c = new WsRpcClient(open(url), { timeoutMs: 3000, pingIntervalMs: 0, ...options });
  cleanups.push(() => c.close());
  return c;
}
const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `timed out waiting for ${what}`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the upgrade offers no permessage-deflate (no compression for maxPayload to be fooled by); an empty batch is refused in plain words', async () => {
  const node = await wsNode((s, m) => answer(s, m));
  const c = client(node.url);
  assert.equal(await c.call('eth_chainId'), 'eth_chainId');
  assert.equal(node.upgrades[0].headers['sec-websocket-extensions'], undefined);
  const empty = await failureOf(c.batch([]));
  assert.equal(empty.kind, 'invalid-request');
  assert.equal(empty.message, 'A batch needs at least one call.');
});

test('an upgrade answered 101 with a wrong Sec-WebSocket-Accept is unreachable with the words naming the endpoint', async () => {
  const url = await rawNode(() => 'not-the-right-accept');
  const problem = await failureOf(client(url).call('eth_chainId'));
  assert.equal(problem.kind, 'unreachable');
  assert.equal(problem.message, `The WebSocket handshake with ${url} failed: the server's answer is not a valid WebSocket upgrade. Is this the node's WebSocket endpoint?`);
});

test('HTTP 500 on the upgrade is a server failure, not "no WebSocket endpoint"', async () => {
  const plain = await startScriptedNode(() => ({ status: 500, body: 'boom' }));
  cleanups.push(plain.close);
  const problem = await failureOf(client(plain.url.replace('http', 'ws')).call('eth_chainId'));
  assert.equal(problem.kind, 'server');
  assert.equal(problem.status, 500);
});

test('an invalid frame after the upgrade drops the connection: the call fails as a drop, not as too large', async () => {
  // 0x83: FIN + reserved opcode 3, which the client must refuse (WS_ERR_INVALID_OPCODE).
  const url = await rawNode(rightAccept, (s) => s.write(Buffer.from([0x83, 0x00])));
  const problem = await failureOf(client(url).call('eth_chainId'));
  assert.equal(problem.kind, 'unreachable');
  assert.equal(problem.message, `The WebSocket connection to ${url} dropped before the node answered.`);
});

test('a message nested deeper than 512 levels fails the waiting call with the exact words', async () => {
  const node = await wsNode((s) => s.send(`${'['.repeat(600)}${']'.repeat(600)}`));
  const problem = await failureOf(client(node.url).call('eth_chainId'));
  assert.equal(problem.kind, 'mismatch');
  assert.equal(problem.message, 'The node sent a message nested more than 512 levels deep: refused, no JSON-RPC result needs that.');
});

test('a JSON array that answers nobody is ignored; the call gets its own answer', async () => {
  const node = await wsNode((s, m) => {
    s.send(JSON.stringify([{ jsonrpc: '2.0', id: 999, result: 'stray' }, 5]));
    answer(s, m, 'mine');
  });
  assert.equal(await client(node.url).call('eth_chainId'), 'mine');
});

test('a batch answered with one object instead of an array fails at once as a mismatch (no wait for the timeout)', async () => {
  const node = await wsNode((s, m) => s.send(JSON.stringify({ jsonrpc: '2.0', id: (m as Request[])[0].id, result: 'x' })));
  const problem = await failureOf(client(node.url, { timeoutMs: 2000 }).batch([{ method: 'a' }, { method: 'b' }]));
  assert.equal(problem.kind, 'mismatch');
  assert.equal(problem.message, 'The node answered a batch of 2 calls with something other than a JSON array: {"jsonrpc":"2.0","id":1,"result":"x"}');
});

test('a call whose signal is already aborted, or aborted before the socket opens, is cancelled and never sent', async () => {
  const node = await wsNode((s, m) => answer(s, m));
  const c = client(node.url);
  assert.equal((await failureOf(c.call('first', [], { signal: AbortSignal.abort() }))).kind, 'cancelled');
  const controller = new AbortController();
  const pending = failureOf(c.call('second', [], { signal: controller.signal }));
  controller.abort();
  assert.equal((await pending).kind, 'cancelled');
  assert.equal(await c.call('third'), 'third');
  await sleep(20);
  assert.deepEqual(
    node.received.map((r) => (r as Request).method),
    ['third'],
  );
});

test('a signal shared by many calls keeps no abort listener once each call is answered', async () => {
  const node = await wsNode((s, m) => answer(s, m));
  const c = client(node.url);
  const controller = new AbortController();
  for (let i = 0; i < 3; i++) await c.call('eth_chainId', [], { signal: controller.signal });
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
});

test('unsubscribe after close() resolves quietly', async () => {
  const node = await wsNode((s, m) => answer(s, m, '0xa'));
  const c = client(node.url);
  const sub = await c.subscribe(['newHeads'], () => undefined);
  await c.close();
  await sub.unsubscribe();
});

test('a subscribe refused after a reconnect is told to onError; without onError nothing crashes', async () => {
  let connection = 0;
  const node = await wsNode((s, m) => {
    if (connection === 1) return answer(s, m, `0xs${(m as Request).id}`);
    s.send(JSON.stringify({ jsonrpc: '2.0', id: (m as Request).id, error: { code: -32000, message: 'too many subscriptions' } }));
  });
  node.wss.on('connection', () => connection++);
  const c = client(node.url, { reconnect: { initialDelayMs: 5, maxDelayMs: 10 } });
  const problems: string[] = [];
  await c.subscribe(['newHeads'], () => undefined, { onError: (p) => problems.push(p.message) });
  await c.subscribe(['logs'], () => undefined);
  for (const s of node.wss.clients) s.terminate();
  await until(() => problems.length === 1, 'onError');
  assert.deepEqual(problems, ['JSON-RPC error -32000: too many subscriptions']);
  await until(() => node.received.length === 4, 'both subscribes sent again');
  await sleep(20);
});

test('maxAttempts 0: a drop gives up at once, status closed with the reason, even for a subscription without onError', async () => {
  const node = await wsNode((s, m) => answer(s, m, '0xa'));
  const statuses: [WsStatus, string | undefined][] = [];
  const c = client(node.url, { reconnect: { maxAttempts: 0 }, onStatus: (s, p) => statuses.push([s, p?.message]) });
  await c.subscribe(['newHeads'], () => undefined);
  for (const s of node.wss.clients) s.terminate();
  await until(() => c.status === 'closed', 'closed');
  assert.deepEqual(statuses.at(-1), ['closed', `Gave up reconnecting to ${node.url} after 0 attempts.`]);
  assert.equal(node.upgrades.length, 1);
});

test('unsubscribing the last subscription while reconnecting stops the attempts', async () => {
  let upgrades = 0;
  const node = await wsNode((s, m) => answer(s, m, '0xa'), { verifyClient: (_info, done) => done(++upgrades === 1, 503) });
  const c = client(node.url, { reconnect: { initialDelayMs: 5, maxDelayMs: 10 } });
  const sub = await c.subscribe(['newHeads'], () => undefined);
  for (const s of node.wss.clients) s.terminate();
  await until(() => upgrades >= 3, 'two refused attempts');
  await sub.unsubscribe();
  await sleep(30);
  const after = upgrades;
  await sleep(80);
  assert.equal(upgrades, after, 'no attempt after the last subscription ended');
  assert.equal(c.status, 'closed', 'not left showing reconnecting');
});

test('the reconnect waits about initialDelayMs (half to all of it) before its first attempt', async () => {
  const node = await wsNode((s, m) => answer(s, m, '0xa'));
  const c = client(node.url, { reconnect: { initialDelayMs: 600, maxDelayMs: 1000 } });
  await c.subscribe(['newHeads'], () => undefined);
  for (const s of node.wss.clients) s.terminate();
  await until(() => c.status === 'reconnecting', 'reconnecting');
  await sleep(150);
  assert.equal(node.upgrades.length, 1, 'no attempt before half the initial delay');
});

test('unsubscribing while the resubscribe after a reconnect is pending: no notification reaches the listener, no unsubscribe without an id', async () => {
  let connection = 0;
  let release: (() => void) | undefined;
  const node = await wsNode((s, m) => {
    const r = m as Request;
    if (r.method !== 'eth_subscribe') return answer(s, r, true);
    const id = `0xc${connection}`;
    const respond = () => {
      answer(s, r, id);
      s.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: connection } }));
    };
    if (connection === 1) respond();
    else release = respond;
  });
  node.wss.on('connection', () => connection++);
  const c = client(node.url, { reconnect: { initialDelayMs: 5, maxDelayMs: 10 } });
  const got: unknown[] = [];
  const sub = await c.subscribe(['newHeads'], (result) => got.push(result));
  await until(() => got.length === 1, 'the first notification');
  for (const s of node.wss.clients) s.terminate();
  await until(() => release !== undefined, 'the second subscribe');
  await sub.unsubscribe();
  release!();
  await sleep(50);
  assert.deepEqual(got, [1]);
  assert.equal(sub.id, undefined);
  for (const r of node.received) if ((r as Request).method === 'eth_unsubscribe') assert.notDeepEqual((r as Request).params, [null]);
});

test('the heartbeat counts any message as a sign of life: a server that never pongs but keeps talking stays connected', async () => {
  const node = await wsNode(
    (s, m) => {
      const talk = setInterval(() => s.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xnone', result: 1 } })), 10);
      setTimeout(() => {
        clearInterval(talk);
        answer(s, m, 'late');
      }, 200);
    },
    { autoPong: false },
  );
  assert.equal(await client(node.url, { pingIntervalMs: 30 }).call('eth_chainId'), 'late');
});

test("a call's own deadline is cut to the call's timeout when that is shorter", async () => {
  const node = await wsNode(() => undefined);
  const c = client(node.url);
  const started = performance.now();
  const problem = await failureOf(c.call('eth_chainId', [], { deadline: new Deadline(4000), timeoutMs: 150 }));
  assert.equal(problem.kind, 'timeout');
  assert.ok(performance.now() - started < 1500, 'ended at the 150 ms timeout, not at the 4 s deadline');
});
