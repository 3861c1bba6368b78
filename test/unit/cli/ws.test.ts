/**
 * `chaindeck rpc` and `chaindeck storage-range` over ws:// in-process, against a loopback
 * WebSocket JSON-RPC node (the `ws` package): the WebSocket client is chosen by the URL's scheme,
 * the key in the path reaches the node, and the connection is closed when the command returns.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { runMain } from '../../support/cli';

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
