/**
 * The WebSocket JSON-RPC client (src/core/rpc/ws.ts) against a loopback server that answers a
 * call only with messages that are not JSON: the call still ends at its timeout, and its failure
 * names what the node sent instead (quoted, masked, on one line) rather than only "no answer".
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { endpointFromUrl } from '../../../../src/core/nodes/endpoint';
import { WsRpcClient } from '../../../../src/core/rpc/ws';
import { failureOf } from '../../../support/rpcNode';

const KEY = 'Kk3y-ws-path-0123456789';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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
