/**
 * The WebSocket JSON-RPC client (src/core/rpc/ws.ts) against a loopback server that answers a
 * call only with messages that are not JSON: the call still ends at its timeout, and its failure
 * names what the node sent instead (quoted, masked, on one line) rather than only "no answer".
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { endpointFromUrl } from '../../../../src/core/nodes/endpoint';
import { WsRpcClient } from '../../../../src/core/rpc/ws';
import { failureOf } from '../../../support/rpcNode';

const KEY = 'Kk3y-ws-path-0123456789';

test('a node that sends only non-JSON messages: the timeout says it sent one, quoted and masked', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (socket, request) => socket.on('message', () => socket.send(`Bad gateway\n\x1b[31m for ${request.url}`)));
  const { port } = wss.address() as AddressInfo;
  const url = `ws://127.0.0.1:${port}/${KEY}`;
  const client = new WsRpcClient(endpointFromUrl(url), { timeoutMs: 300, pingIntervalMs: 0 });
  try {
    const problem = await failureOf(client.call('eth_blockNumber'));
    assert.equal(problem.kind, 'timeout');
    assert.equal(problem.message, `No answer from ws://127.0.0.1:${port}/*** within 300 ms; it sent a message that is not JSON: "Bad gateway \\u001b[31m for /***".`);
  } finally {
    await client.close();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

test('messages that are not JSON before the call began are not its cause: a plain timeout', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  let first = true;
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      const { id } = JSON.parse(String(data)) as { id: number };
      if (first) socket.send('hello, not JSON');
      if (first) socket.send(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }));
      first = false;
    }),
  );
  const { port } = wss.address() as AddressInfo;
  const client = new WsRpcClient(endpointFromUrl(`ws://127.0.0.1:${port}/`), { timeoutMs: 300, pingIntervalMs: 0 });
  try {
    assert.equal(await client.call('eth_blockNumber'), '0x1');
    const problem = await failureOf(client.call('eth_blockNumber'));
    assert.equal(problem.message, `No answer from ws://127.0.0.1:${port}/ within 300 ms.`);
  } finally {
    await client.close();
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});
