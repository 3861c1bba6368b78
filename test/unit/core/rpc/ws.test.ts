/**
 * The WebSocket JSON-RPC client against scripted loopback WebSocket servers: the upgrade request
 * (headers, path), calls, batches, subscriptions and their notifications in order, unsubscribing,
 * reconnecting with the subscriptions bound again, and the failures: a drop mid-call, non-JSON
 * messages (a timeout quotes what the node sent instead of an answer), HTTP answers to the upgrade,
 * silent servers and connects that never finish, close().
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { afterEach, describe, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { CLI_HINTS } from '../../../../src/cli/knobs';
import { endpointFromUrl, resolveEndpoint } from '../../../../src/core/nodes/endpoint';
import { Deadline } from '../../../../src/core/rpc/deadline';
import type { ResolvedEndpoint } from '../../../../src/core/rpc/endpoint';
import { WsRpcClient, type WsStatus } from '../../../../src/core/rpc/ws';
import { failureOf, startScriptedNode, type ScriptedNode } from '../../../support/rpcNode';

interface Request {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown;
}
type OnMessage = (socket: WebSocket, message: Request | Request[], raw: string) => void;

interface WsNode {
  url: string;
  wss: WebSocketServer;
  upgrades: IncomingMessage[];
  received: (Request | Request[])[];
  onMessage: OnMessage;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function wsNode(onMessage: OnMessage, path = '/'): Promise<WsNode> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const node: WsNode = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}${path}`,
    wss,
    upgrades: [],
    received: [],
    onMessage,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
  wss.on('connection', (socket, req) => {
    node.upgrades.push(req);
    socket.on('message', (data) => {
      const raw = String(data);
      const message = JSON.parse(raw) as Request | Request[];
      node.received.push(message);
      node.onMessage(socket, message, raw);
    });
  });
  cleanups.push(node.close);
  return node;
}

const echoResult = (socket: WebSocket, m: Request | Request[]) => {
  if (!Array.isArray(m)) socket.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: m.method }));
};
const open = (url: string): ResolvedEndpoint => ({ httpUrl: url.replace(/^ws/, 'http'), wsUrl: url, headers: {}, auth: 'none', secrets: [] });
function client(endpoint: ResolvedEndpoint, options: ConstructorParameters<typeof WsRpcClient>[1] = {}): WsRpcClient {
  const c = new WsRpcClient(endpoint, { timeoutMs: 3000, pingIntervalMs: 0, hints: CLI_HINTS, ...options });
  cleanups.push(() => c.close());
  return c;
}
const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `timed out waiting for ${what}`);
};

describe('WsRpcClient: calls', () => {
  test('connects once, sends JSON-RPC 2.0 requests with counting ids, and reports its status', async () => {
    const node = await wsNode(echoResult, '/ws/');
    const statuses: WsStatus[] = [];
    const c = client(open(node.url), { onStatus: (s) => statuses.push(s) });
    assert.equal(c.status, 'closed');
    const [a, b] = await Promise.all([c.call('eth_chainId'), c.call('net_version', { x: 1 })]);
    assert.equal(a, 'eth_chainId');
    assert.equal(b, 'net_version');
    assert.equal(await c.call('eth_blockNumber'), 'eth_blockNumber');
    assert.equal(node.upgrades.length, 1, 'one connection shared by concurrent and later calls');
    assert.equal(node.upgrades[0].url, '/ws/');
    assert.deepEqual(node.received, [
      { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 },
      { jsonrpc: '2.0', method: 'net_version', params: { x: 1 }, id: 2 },
      { jsonrpc: '2.0', method: 'eth_blockNumber', params: [], id: 3 },
    ]);
    assert.equal(c.status, 'open');
    await c.close();
    assert.deepEqual(statuses, ['connecting', 'open', 'closed']);
    await until(() => node.wss.clients.size === 0, 'the server to see the socket close');
    const after = await failureOf(c.call('eth_chainId'));
    assert.equal(after.kind, 'cancelled');
    assert.equal(after.message, 'The WebSocket client is closed.');
  });

  test('Basic credentials go on the upgrade request exactly; the key is in the path', async () => {
    const node = await wsNode(echoResult);
    const basic = resolveEndpoint({ id: 'b', name: 'b', protocol: 'evm', url: node.url.replace('ws', 'http'), wsUrl: node.url, auth: 'basic' }, { username: 'bob', password: 'p@ss:1' });
    assert.equal(await client(basic).call('eth_chainId'), 'eth_chainId');
    assert.equal(node.upgrades[0].headers.authorization, `Basic ${Buffer.from('bob:p@ss:1').toString('base64')}`);
    const KEY = '0123456789abcdef0123456789abcdef';
    const keyed = resolveEndpoint({ id: 'k', name: 'k', protocol: 'evm', url: `${node.url.replace('ws', 'http')}{key}`, wsUrl: `${node.url}ws/{key}`, auth: 'key' }, { tail: KEY });
    assert.equal(await client(keyed).call('eth_chainId'), 'eth_chainId');
    assert.equal(node.upgrades[1].url, `/ws/${KEY}`);
    assert.equal(node.upgrades[1].headers.authorization, undefined);
  });

  test('a key in the WebSocket path is *** in every failure text: a drop, a timeout, a refused upgrade', async () => {
    const KEY = 'feedfacecafebeef0123456789abcdef';
    let mode: 'drop' | 'silent' = 'drop';
    const node = await wsNode((socket) => (mode === 'drop' ? socket.terminate() : undefined));
    const keyed = resolveEndpoint({ id: 'k', name: 'k', protocol: 'evm', url: `${node.url.replace('ws', 'http')}{key}`, wsUrl: `${node.url}ws/{key}`, auth: 'key' }, { tail: KEY });
    const shown = `${node.url}ws/***`;
    const dropped = await failureOf(client(keyed).call('eth_chainId'));
    assert.equal(node.upgrades[0].url, `/ws/${KEY}`);
    assert.equal(dropped.message, `The WebSocket connection to ${shown} dropped before the node answered.`);
    mode = 'silent';
    const late = await failureOf(client(keyed, { timeoutMs: 100 }).call('eth_chainId'));
    assert.equal(late.message, `No answer from ${shown} within 100 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`);
    const plain = await startScriptedNode(() => ({ status: 403 }));
    cleanups.push(plain.close);
    const refusedAt = resolveEndpoint({ id: 'k', name: 'k', protocol: 'evm', url: `${plain.url}{key}`, wsUrl: `${plain.url.replace('http', 'ws')}ws/{key}`, auth: 'key' }, { tail: KEY });
    const refused = await failureOf(client(refusedAt).call('eth_chainId'));
    assert.equal(refused.kind, 'auth');
    assert.equal(plain.seen[0].path, `/ws/${KEY}`);
    assert.ok(
      refused.message.startsWith(`The node refused the credentials (HTTP 403 Forbidden from ${plain.url.replace('http', 'ws')}ws/***). Credentials used: access key in the URL path.`),
      refused.message,
    );
    for (const problem of [dropped, late, refused]) assert.ok(!problem.message.includes(KEY));
  });

  test('a JSON-RPC error keeps code, message and data; a batch comes back in call order whatever the reply order', async () => {
    const node = await wsNode((socket, m) => {
      if (Array.isArray(m)) {
        const answers = m
          .filter((q) => q.method !== 'skip')
          .map((q) => (q.method === 'bad' ? { jsonrpc: '2.0', id: q.id, error: { code: -32601, message: 'no such method' } } : { jsonrpc: '2.0', id: q.id, result: q.id * 10 }));
        socket.send(JSON.stringify(answers.reverse()));
      } else {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: 'reverted', data: '0xdead' } }));
      }
    });
    const c = client(open(node.url));
    const problem = await failureOf(c.call('eth_call', [{}]));
    assert.equal(problem.kind, 'rpc');
    assert.equal(problem.code, -32000);
    assert.equal(problem.data, '0xdead');
    assert.equal(problem.message, 'JSON-RPC error -32000: reverted');
    const items = await c.batch([{ method: 'a' }, { method: 'skip' }, { method: 'bad' }, { method: 'b' }]);
    assert.deepEqual(
      (node.received[1] as Request[]).map((r) => r.id),
      [2, 3, 4, 5],
    );
    assert.ok('result' in items[0] && items[0].result === 20);
    assert.ok('error' in items[1] && items[1].error.kind === 'mismatch');
    assert.equal('error' in items[1] && items[1].error.message, "The node's batch reply has no answer for request id 3 (skip).");
    assert.ok('error' in items[2] && items[2].error.kind === 'rpc' && items[2].error.code === -32601);
    assert.ok('result' in items[3] && items[3].result === 50);
    assert.equal((await failureOf(c.batch([]))).message, 'A batch needs at least one call.');
  });

  test('non-JSON messages and answers to nobody are ignored: the call gets its own answer', async () => {
    const node = await wsNode((socket, m) => {
      const { id } = m as Request;
      socket.send('not json at all');
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: id + 100, result: 'stray' }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0xnobody', result: 1 } }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, result: 'mine' }));
    });
    assert.equal(await client(open(node.url)).call('eth_blockNumber'), 'mine');
  });

  test('the server dropping the connection mid-call fails the call (not a hang); the next call connects again', async () => {
    let drop = true;
    const node = await wsNode((socket, m) => (drop ? socket.terminate() : echoResult(socket, m)));
    const c = client(open(node.url), { timeoutMs: 5000 });
    const started = performance.now();
    const problem = await failureOf(c.call('eth_blockNumber'));
    assert.ok(performance.now() - started < 4000, 'failed at once, not by the timeout');
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.message, `The WebSocket connection to ${node.url} dropped before the node answered.`);
    assert.equal(c.status, 'closed');
    drop = false;
    assert.equal(await c.call('eth_chainId'), 'eth_chainId');
    assert.equal(node.upgrades.length, 2);
  });

  test('a silent server: the call times out with the exact words; close() then leaves no socket open', async () => {
    const node = await wsNode(() => undefined);
    const c = client(open(node.url), { timeoutMs: 200 });
    const problem = await failureOf(c.call('eth_blockNumber'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.outOfTime, false);
    assert.equal(problem.message, `No answer from ${node.url} within 200 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`);
    const shared = await failureOf(client(open(node.url), { deadline: new Deadline(150), timeoutMs: 5000 }).call('eth_blockNumber'));
    assert.equal(shared.kind, 'timeout');
    assert.equal(shared.outOfTime, true);
    assert.match(shared.message, /within 150 ms\./);
    await c.close();
    assert.equal(c.status, 'closed');
    await until(() => node.wss.clients.size === 1, "the first client's socket to close");
  });

  test('close() during a call cancels it', async () => {
    const node = await wsNode(() => undefined);
    const c = client(open(node.url), { timeoutMs: 5000 });
    const pending = failureOf(c.call('eth_blockNumber'));
    await until(() => node.received.length === 1, 'the request');
    await c.close();
    const problem = await pending;
    assert.equal(problem.kind, 'cancelled');
    assert.equal(problem.message, 'The WebSocket client was closed before the node answered.');
    await until(() => node.wss.clients.size === 0, 'the socket to close');
  });

  test('an aborted signal cancels the call', async () => {
    const node = await wsNode(() => undefined);
    const c = client(open(node.url), { timeoutMs: 5000 });
    const controller = new AbortController();
    const pending = failureOf(c.call('eth_blockNumber', [], { signal: controller.signal }));
    await until(() => node.received.length === 1, 'the request');
    controller.abort();
    const problem = await pending;
    assert.equal(problem.kind, 'cancelled');
    assert.equal(problem.message, `The request to ${node.url} was cancelled.`);
  });
});

test('after close() no socket or timer of the client is left: the process resources are back to where they were', async () => {
  const count = () => {
    const counts: Record<string, number> = {};
    for (const r of process.getActiveResourcesInfo()) if (r === 'TCPSocketWrap' || r === 'Timeout') counts[r] = (counts[r] ?? 0) + 1;
    return counts;
  };
  const node = await wsNode((socket, m) => {
    const r = m as Request;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: r.method === 'eth_subscribe' ? '0xa' : 'ok' }));
  });
  const before = count();
  const c = new WsRpcClient(open(node.url), { timeoutMs: 3000, pingIntervalMs: 50, reconnect: { initialDelayMs: 5 } });
  await c.subscribe(['newHeads'], () => undefined);
  assert.equal(await c.call('eth_chainId'), 'ok');
  await c.close();
  await until(() => node.wss.clients.size === 0, 'the server side to close');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(count(), before);
  assert.equal(c.status, 'closed');
});

test('the heartbeat: a server that stops answering pings is dropped, failing the call in flight long before its timeout', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise((resolve) => wss.once('listening', resolve));
  cleanups.push(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
  const c = client(open(url), { timeoutMs: 10_000, pingIntervalMs: 40 });
  const started = performance.now();
  const problem = await failureOf(c.call('eth_blockNumber'));
  assert.ok(performance.now() - started < 5000, 'dropped by the heartbeat, not by the timeout');
  assert.equal(problem.kind, 'unreachable');
  assert.equal(problem.message, `The WebSocket connection to ${url} dropped before the node answered.`);
  // A server that answers pings keeps the connection through many periods.
  const alive = await wsNode((socket, m) => setTimeout(() => echoResult(socket, m), 200));
  assert.equal(await client(open(alive.url), { timeoutMs: 5000, pingIntervalMs: 20 }).call('eth_chainId'), 'eth_chainId');
});

describe('WsRpcClient: subscriptions', () => {
  test('notifications right behind the answer are delivered in order; unsubscribe stops them and tells the node', async () => {
    let subs = 0;
    const node = await wsNode((socket, m) => {
      const r = m as Request;
      if (r.method === 'eth_subscribe') {
        const id = `0xs${++subs}`;
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: id }));
        // A message with an id is a request or an answer, never a notification.
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'eth_subscription', params: { subscription: id, result: { n: -1 } } }));
        for (let n = 1; n <= 5; n++) socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: { n } } }));
      } else if (r.method === 'eth_unsubscribe') {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: true }));
        socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: (r.params as string[])[0], result: { n: 99 } } }));
      }
    });
    const c = client(open(node.url));
    const heads: unknown[] = [];
    const logs: unknown[] = [];
    const sub = await c.subscribe(['newHeads'], (result) => heads.push(result));
    const other = await c.subscribe(['logs', { address: '0x1' }], (result) => logs.push(result));
    assert.equal(sub.id, '0xs1');
    assert.deepEqual(sub.params, ['newHeads']);
    assert.deepEqual(node.received[0], { jsonrpc: '2.0', method: 'eth_subscribe', params: ['newHeads'], id: 1 });
    await until(() => heads.length === 5 && logs.length === 5, 'the notifications');
    assert.deepEqual(
      heads.map((h) => (h as { n: number }).n),
      [1, 2, 3, 4, 5],
    );
    await sub.unsubscribe();
    assert.deepEqual(node.received[2], { jsonrpc: '2.0', method: 'eth_unsubscribe', params: ['0xs1'], id: 3 });
    await other.unsubscribe();
    await other.unsubscribe(); // a second time sends nothing
    await until(() => node.received.length === 4, 'the second unsubscribe');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(node.received.length, 4);
    assert.equal(heads.length, 5, 'no notification after unsubscribe');
    assert.equal(logs.length, 5);
  });

  test('a custom subscribe method, and a listener that throws does not stop the others', async () => {
    const node = await wsNode((socket, m) => {
      const r = m as Request;
      if (r.method === 'logsSubscribe') {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: 7 }));
        socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'logsNotification', params: { subscription: 7, result: 'a' } }));
        socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'logsNotification', params: { subscription: 7, result: 'b' } }));
      } else echoResult(socket, r);
    });
    const c = client(open(node.url));
    const seen: unknown[] = [];
    const sub = await c.subscribe(
      ['all'],
      (result) => {
        seen.push(result);
        throw new Error('listener bug');
      },
      { method: 'logsSubscribe', unsubscribeMethod: 'logsUnsubscribe' },
    );
    assert.equal(sub.id, 7);
    await until(() => seen.length === 2, 'both notifications');
    assert.deepEqual(seen, ['a', 'b']);
    assert.equal(await c.call('eth_chainId'), 'eth_chainId', 'the connection still works');
    await sub.unsubscribe();
    assert.deepEqual(node.received.at(-1), { jsonrpc: '2.0', method: 'logsUnsubscribe', params: [7], id: 3 });
  });

  test('a subscribe refused by the node, or answered without an id, rejects', async () => {
    const node = await wsNode((socket, m) => {
      const r = m as Request;
      const answer = (r.params as string[])[0] === 'bad' ? { error: { code: -32602, message: 'unknown topic' } } : { result: null };
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, ...answer }));
    });
    const c = client(open(node.url));
    const refused = await failureOf(c.subscribe(['bad'], () => undefined));
    assert.equal(refused.kind, 'rpc');
    assert.equal(refused.code, -32602);
    assert.equal(refused.message, 'JSON-RPC error -32602: unknown topic');
    const noId = await failureOf(c.subscribe(['ok'], () => undefined));
    assert.equal(noId.kind, 'rpc');
    assert.equal(noId.message, 'The node answered eth_subscribe without a subscription id: null');
  });

  test("after a drop the client reconnects, subscribes again, and the same listener gets the new id's notifications", async () => {
    let connection = 0;
    const node = await wsNode((socket, m) => {
      const r = m as Request;
      if (r.method !== 'eth_subscribe') return echoResult(socket, r);
      const id = `0xconn${connection}`;
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: id }));
      socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result: connection } }));
    });
    node.wss.on('connection', () => connection++);
    const statuses: WsStatus[] = [];
    const c = client(open(node.url), { reconnect: { initialDelayMs: 10, maxDelayMs: 20 }, onStatus: (s) => statuses.push(s) });
    const got: unknown[] = [];
    const sub = await c.subscribe(['newHeads'], (result) => got.push(result));
    await until(() => got.length === 1, 'the first notification');
    assert.equal(sub.id, '0xconn1');
    for (const s of node.wss.clients) s.terminate();
    await until(() => got.length === 2, 'the notification after the reconnect');
    assert.deepEqual(got, [1, 2]);
    assert.equal(sub.id, '0xconn2');
    assert.deepEqual(statuses.slice(0, 4), ['connecting', 'open', 'reconnecting', 'open']);
  });

  test('reconnecting gives up after exactly maxAttempts refused attempts and tells the subscription', async () => {
    let upgrades = 0;
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: (_info, done) => done(++upgrades === 1, 503) });
    await new Promise((resolve) => wss.once('listening', resolve));
    cleanups.push(async () => {
      for (const s of wss.clients) s.terminate();
      await new Promise((resolve) => wss.close(resolve));
    });
    wss.on('connection', (socket) => socket.on('message', (data) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(String(data)) as Request).id, result: '0x1' }))));
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
    const problems: string[] = [];
    const statuses: [WsStatus, string | undefined][] = [];
    const c = client(open(url), { reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 }, onStatus: (s, p) => statuses.push([s, p?.kind]) });
    await c.subscribe(['newHeads'], () => undefined, { onError: (p) => problems.push(p.message) });
    for (const s of wss.clients) s.terminate();
    await until(() => problems.length === 1, 'onError');
    assert.deepEqual(problems, [`Gave up reconnecting to ${url} after 2 attempts.`]);
    assert.equal(upgrades, 3, 'the first connection, then two refused attempts');
    assert.equal(c.status, 'closed');
    assert.deepEqual(statuses.at(-1), ['closed', 'unreachable']);
    assert.ok(
      statuses.some(([s, kind]) => s === 'reconnecting' && kind === 'server'),
      'each refused attempt is reported with its failure',
    );
  });
});

describe('WsRpcClient: servers that are not WebSocket nodes', () => {
  let plain: ScriptedNode | undefined;
  afterEach(async () => {
    await plain?.close();
    plain = undefined;
  });

  for (const [status, kind, words] of [
    [401, 'auth', 'The node refused the credentials (HTTP 401 Unauthorized from URL). Credentials used: no credentials.'],
    [429, 'rate-limited', 'Rate limited by the node (HTTP 429 Too Many Requests from URL). The node asks to wait 5 s (Retry-After).'],
    [503, 'server', "The node's server failed (HTTP 503 Service Unavailable from URL). Try again later"],
    [404, 'http', "URL answered HTTP 404 Not Found instead of upgrading to WebSocket: is this the node's WebSocket endpoint? (It often differs from the HTTPS endpoint by port or path.)"],
  ] as const) {
    test(`ws:// to a plain HTTP server answering ${status}: kind ${kind}, in plain words`, async () => {
      plain = await startScriptedNode(() => ({ status, headers: { 'Retry-After': '5', 'Content-Type': 'text/html' }, body: '<html>x</html>' }));
      const url = plain.url.replace('http', 'ws');
      const problem = await failureOf(client(open(url)).call('eth_blockNumber'));
      assert.equal(problem.kind, kind);
      assert.equal(problem.status, status);
      assert.ok(problem.message.startsWith(words.replace('URL', url)), problem.message);
    });
  }

  /** A TCP server that accepts connections and never answers (the upgrade hangs): its ws:// URL and open sockets. */
  async function silentServer(): Promise<{ url: string; sockets: Set<net.Socket> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, sockets };
  }

  test('a server that accepts the connection but never answers the upgrade: timeout at the limit', async () => {
    const { url } = await silentServer();
    const started = performance.now();
    const problem = await failureOf(client(open(url), { timeoutMs: 250 }).call('eth_blockNumber'));
    assert.ok(performance.now() - started < 2500);
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.message, `No answer from ${url} within 250 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`);
  });

  test("the handshake is bounded by the client's timeout even when the call allows longer; close() while connecting ends it at once", async () => {
    const { url, sockets } = await silentServer();
    const problem = await failureOf(client(open(url), { timeoutMs: 200 }).call('eth_blockNumber', [], { timeoutMs: 8000 }));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.message, `No answer from ${url} within 200 ms. Raise the limit with the setting chaindeck.requestTimeoutMs (CLI: --timeout MS).`);
    const c = client(open(url), { timeoutMs: 8000 });
    const pending = failureOf(c.call('eth_blockNumber'));
    await until(() => sockets.size === 2, 'the second connection');
    const started = performance.now();
    await c.close();
    const cancelled = await pending;
    assert.ok(performance.now() - started < 5000, 'closed at once, not at the handshake timeout');
    assert.equal(cancelled.kind, 'cancelled');
    assert.equal(cancelled.message, 'The WebSocket client was closed while connecting.');
  });

  test('connection refused on ws:// is unreachable with ECONNREFUSED', async () => {
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const problem = await failureOf(client(open(`ws://127.0.0.1:${port}/`)).call('eth_blockNumber'));
    assert.equal(problem.kind, 'unreachable');
    assert.equal(problem.errno, 'ECONNREFUSED');
    assert.equal(problem.message, `Cannot reach the node at ws://127.0.0.1:${port}/: connection refused (ECONNREFUSED). Is the node running, and are the host and port right?`);
  });

  test('a URL with a fragment, or no URL at all, is refused as unusable (the fragment masked)', async () => {
    const problem = await failureOf(client(open('ws://127.0.0.1:1/#frag')).call('eth_blockNumber'));
    assert.equal(problem.kind, 'invalid-request');
    assert.equal(problem.message, 'ws://127.0.0.1:1/#*** is not a usable WebSocket URL: it needs the scheme ws or wss, a host, and no fragment.');
    assert.equal((await failureOf(client(open('not a url')).call('eth_blockNumber'))).kind, 'invalid-request');
  });
});

describe('messages that are not JSON, as the cause of a timeout', () => {
  const KEY = 'Kk3y-ws-path-0123456789';
  /** A loopback WebSocket server calling `onMessage` for each message, and a client of it at `path` (timeout 300 ms); both closed after the test. */
  async function clientOf(onMessage: (socket: WebSocket, data: string, request: IncomingMessage) => void, path = '/'): Promise<{ client: WsRpcClient; port: number }> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (socket, request) => socket.on('message', (data) => onMessage(socket, String(data), request)));
    const { port } = wss.address() as AddressInfo;
    const client = new WsRpcClient(endpointFromUrl(`ws://127.0.0.1:${port}${path}`), { timeoutMs: 300, pingIntervalMs: 0 });
    cleanups.push(async () => {
      await client.close();
      for (const socket of wss.clients) socket.terminate();
      await new Promise((resolve) => wss.close(resolve));
    });
    return { client, port };
  }

  test('a node that sends only non-JSON messages: the timeout says it sent one, quoted and masked', async () => {
    const { client, port } = await clientOf((socket, _data, request) => socket.send(`Bad gateway\n\x1b[31m for ${request.url}`), `/${KEY}`);
    const problem = await failureOf(client.call('eth_blockNumber'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.message, `No answer from ws://127.0.0.1:${port}/*** within 300 ms; it sent a message that is not JSON: "Bad gateway \\u001b[31m for /***".`);
  });

  test('messages that are not JSON before the call began are not its cause: a plain timeout', async () => {
    let first = true;
    const { client, port } = await clientOf((socket, data) => {
      if (first) socket.send('hello, not JSON');
      if (first) socket.send(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(data) as { id: number }).id, result: '0x1' }));
      first = false;
    });
    assert.equal(await client.call('eth_blockNumber'), '0x1');
    const problem = await failureOf(client.call('eth_blockNumber'));
    assert.equal(problem.message, `No answer from ws://127.0.0.1:${port}/ within 300 ms.`);
  });
});
