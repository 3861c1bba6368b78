/**
 * `chaindeck rpc` and `chaindeck storage-range` over ws:// in-process, against a loopback
 * WebSocket JSON-RPC node (the `ws` package): the WebSocket client is chosen by the URL's scheme,
 * the key in the path reaches the node, and the connection is closed when the command returns.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { runMain, type MainRun } from '../../support/cli';

const KEY = '0123456789abcdef0123456789abcdef';
const HASH = `0x${'cd'.repeat(32)}`;
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

let server: WebSocketServer;
let url: string;
const paths: string[] = [];
const open = new Set<WebSocket>();
const methods: string[] = [];

type Call = { id: number; method: string; params: unknown[] };
function answer(call: Call): unknown {
  methods.push(call.method);
  const reply = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
  switch (call.method) {
    case 'eth_chainId':
      return reply('0x7a69');
    case 'eth_getBlockByNumber':
      return reply({ number: '0x5', hash: HASH });
    case 'eth_getStorageAt':
      return reply(BigInt(call.params[1] as string) === 1n ? word(9) : word(0));
    default:
      return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } };
  }
}

before(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', (socket, req) => {
    paths.push(req.url ?? '');
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('message', (data) => {
      const parsed = JSON.parse(String(data)) as Call | Call[];
      socket.send(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
});
after(async () => {
  for (const s of open) s.terminate();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  paths.length = 0;
  methods.length = 0;
});

/** The server sees the client's close shortly after the command returns. */
async function closedSoon(): Promise<void> {
  for (let i = 0; i < 100 && open.size; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(open.size, 0, 'the command closed its WebSocket');
}

test('rpc over ws://KEY: the response printed, exit 0, the key in the path, the socket closed', async () => {
  const run = await runMain(['rpc', '--url', `${url}/${KEY}`, 'eth_chainId']);
  assert.deepEqual(run, { code: 0, out: `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x7a69' }, null, 2)}\n`, revealed: '', err: '' });
  assert.deepEqual(paths, [`/${KEY}`]);
  await closedSoon();
});

test('rpc over ws: a JSON-RPC error is exit 1; a batch travels as one message', async () => {
  const failed = await runMain(['rpc', '--url', url, 'eth_nothing']);
  assert.equal(failed.code, 1);
  assert.equal(failed.err, 'chaindeck rpc: JSON-RPC error -32601: Method not found\n');
  const batch = await runMain(['rpc', '--url', url, '--batch', '[{"method":"eth_chainId"},{"method":"eth_chainId"}]']);
  assert.equal(batch.code, 0, batch.err);
  assert.deepEqual(
    (JSON.parse(batch.out) as { result: string }[]).map((r) => r.result),
    ['0x7a69', '0x7a69'],
  );
  await closedSoon();
});

test('storage-range over ws: the emulation through the WebSocket client, the socket closed', async () => {
  const run = await runMain(['storage-range', '--rpc', url, '--block', 'latest', '--address', ADDRESS, '--mode', 'emulate', '--max', '1']);
  assert.equal(run.code, 0, run.err);
  assert.deepEqual(JSON.parse(run.out), { jsonrpc: '2.0', id: 1, result: { storage: { '0x1': { key: null, value: word(9) } }, nextKey: '0x2' } });
  assert.equal(methods[0], 'eth_getBlockByNumber');
  assert.ok(methods.includes('eth_getStorageAt'));
  await closedSoon();
});

describe('--timeout over ws:// (a node that accepts the connection and never answers)', () => {
  let silent: WebSocketServer;
  let wsUrl: string;
  before(async () => {
    silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => silent.once('listening', () => resolve()));
    wsUrl = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const client of silent.clients) client.terminate();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  /** The command's result, or a failure when it is still running long after its --timeout. */
  async function within(ms: number, run: Promise<MainRun>): Promise<MainRun> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)));
    try {
      return await Promise.race([run, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  test('rpc: exit 1 naming the timeout', async () => {
    const run = await within(3000, runMain(['rpc', '--url', wsUrl, '--timeout', '200', 'eth_chainId']));
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.match(run.err, /^chaindeck rpc: No answer from ws:\/\/127\.0\.0\.1:\d+\/ within 200 ms/);
  });

  test('storage-range: exit 1, the connect failure naming the timeout', async () => {
    const run = await within(3000, runMain(['storage-range', '--rpc', wsUrl, '--block', 'latest', '--address', ADDRESS, '--timeout', '200']));
    assert.equal(run.code, 1);
    assert.equal(JSON.parse(run.out).error.message, 'Failed to connect to Ethereum node');
    assert.match(run.err, /^chaindeck storage-range: Failed to connect to Ethereum node: No answer from ws:\/\/127\.0\.0\.1:\d+\/ within 200 ms/);
  });
});
