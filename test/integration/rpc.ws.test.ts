/**
 * The WebSocket client against real anvil and ganache: calls, batches, eth_subscribe newHeads
 * notified after evm_mine, and a reconnect after the loopback proxy kills the connection, with
 * the subscription resumed under the node's new id. Basic auth rides on the upgrade request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { WebSocketServer } from 'ws';
import { CLI_HINTS } from '../../src/cli/knobs';
import { parseEndpoint, resolveEndpoint } from '../../src/core/nodes/endpoint';
import type { NodeConfig, NodeSecret } from '../../src/core/nodes/model';
import type { ResolvedEndpoint } from '../../src/core/rpc/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { RpcFailure } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { WsRpcClient, type WsStatus } from '../../src/core/rpc/ws';
import { freePort } from '../support/devnets';
import { startProxy, type Proxy } from '../support/proxy';

const KEY = '7d3f0a9b2c4e6f8a1b3c5d7e9f0a2b4c';
const PASSWORD = 'ws-password-42';

function endpointFor(pasted: string, secret?: NodeSecret): ResolvedEndpoint {
  const p = parseEndpoint(pasted);
  const config: NodeConfig = { id: 't', name: 't', protocol: 'evm', url: p.url, wsUrl: p.wsUrl, auth: secret ? 'basic' : p.auth };
  return resolveEndpoint(config, secret ?? p.secret);
}

/** Resolves when `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Head {
  number: string;
  hash: string;
}

after(() => closeIdleConnections());

/** Over WebSocket anvil answers an unknown method differently from over HTTP (-32601 there). */
const NODES = [
  { name: 'anvil', url: process.env.CHAINDECK_TEST_ANVIL_URL, chainId: '0x7a69', unknown: 'JSON-RPC error -32602: data did not match any variant of untagged enum EthRpcCall' },
  { name: 'ganache', url: process.env.CHAINDECK_TEST_GANACHE_URL, chainId: '0x539', unknown: 'JSON-RPC error -32700: The method foo_bar does not exist/is not available' },
];

for (const node of NODES) {
  describe(`WebSocket JSON-RPC on ${node.name}`, () => {
    let http: RpcClient;
    let ws: WsRpcClient;
    before(() => {
      assert.ok(node.url, `the harness did not start ${node.name}`);
      http = new RpcClient(endpointFor(node.url));
      ws = new WsRpcClient(endpointFor(node.url.replace('http://', 'ws://')));
    });
    after(() => ws.close());

    test('a call and a batch over one connection', async () => {
      assert.equal(await ws.call('eth_chainId'), node.chainId);
      const items = await ws.batch([{ method: 'eth_chainId' }, { method: 'foo_bar' }, { method: 'eth_blockNumber' }]);
      assert.ok('result' in items[0] && items[0].result === node.chainId);
      assert.ok('error' in items[1]);
      assert.equal(items[1].error.message, node.unknown, 'passed through as the node sent it');
      assert.ok('result' in items[2] && /^0x/.test(items[2].result as string));
      assert.equal(ws.status, 'open');
    });

    test('eth_subscribe newHeads notifies the block that evm_mine makes; unsubscribe stops it', async () => {
      const heads: Head[] = [];
      const subscription = await ws.subscribe(['newHeads'], (head) => heads.push(head as Head));
      assert.match(String(subscription.id), /^0x[0-9a-f]+$/);
      await http.call('evm_mine');
      await until(() => heads.length >= 1, 5000, 'a newHeads notification');
      assert.equal(heads[0].number, await http.call('eth_blockNumber'));
      assert.match(heads[0].hash, /^0x[0-9a-f]{64}$/);

      await subscription.unsubscribe();
      const seen = heads.length;
      await http.call('evm_mine');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(heads.length, seen, 'no notification after unsubscribe');
    });

    test('a subscription survives a dropped connection: reconnect, subscribe again, notify again', async () => {
      const proxy: Proxy = await startProxy({ target: node.url! });
      const statuses: WsStatus[] = [];
      const client = new WsRpcClient(endpointFor(proxy.wsUrl), { reconnect: { initialDelayMs: 50 }, onStatus: (s) => statuses.push(s) });
      try {
        const heads: Head[] = [];
        const subscription = await client.subscribe(['newHeads'], (head) => heads.push(head as Head));
        const firstId = subscription.id;
        await http.call('evm_mine');
        await until(() => heads.length === 1, 5000, 'the first notification');

        proxy.dropConnections();
        await until(() => statuses.includes('reconnecting'), 2000, 'the drop to be noticed');
        await until(() => client.status === 'open' && subscription.id !== undefined, 5000, 'the reconnect and the new subscription');
        assert.equal(proxy.upgrades, 2, 'one new WebSocket connection');

        await http.call('evm_mine');
        await until(() => heads.length === 2, 5000, 'a notification after the reconnect');
        assert.equal(heads[1].number, await http.call('eth_blockNumber'));
        assert.notEqual(subscription.id, firstId, 'the node gave a new id, mapped to the same subscription');
        assert.equal(await client.call('eth_chainId'), node.chainId, 'calls work on the new connection');
      } finally {
        await client.close();
        await proxy.close();
      }
    });
  });
}

describe('WebSocket credentials and failures', () => {
  const anvil = process.env.CHAINDECK_TEST_ANVIL_URL!;

  test('the key in the /ws/<KEY> path passes; a wrong one gets 401 naming the key form', async () => {
    const proxy = await startProxy({ target: anvil, key: KEY });
    try {
      const good = new WsRpcClient(endpointFor(proxy.wsUrl));
      assert.equal(await good.call('eth_chainId'), '0x7a69');
      await good.close();
      const wrongKey = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d';
      const bad = new WsRpcClient(endpointFor(proxy.wsUrl.replace(KEY, wrongKey)));
      await assert.rejects(bad.call('eth_chainId'), (err: unknown) => {
        assert.ok(err instanceof RpcFailure && err.kind === 'auth' && err.status === 401, String(err));
        assert.match(err.message, /Credentials used: access key in the URL path/);
        assert.ok(err.message.includes('/ws/***') && !err.message.includes(wrongKey));
        return true;
      });
      await bad.close();
    } finally {
      await proxy.close();
    }
  });

  test('Basic auth travels on the upgrade request; a wrong password is refused without showing it', async () => {
    const proxy = await startProxy({ target: anvil, basicAuth: { username: 'bob', password: PASSWORD } });
    try {
      const good = new WsRpcClient(endpointFor(proxy.wsUrl, { username: 'bob', password: PASSWORD }));
      assert.equal(await good.call('eth_chainId'), '0x7a69');
      await good.close();
      const bad = new WsRpcClient(endpointFor(proxy.wsUrl, { username: 'bob', password: 'not-the-password' }));
      await assert.rejects(bad.call('eth_chainId'), (err: unknown) => {
        assert.ok(err instanceof RpcFailure && err.kind === 'auth', String(err));
        assert.match(err.message, /Credentials used: HTTP Basic username and password/);
        assert.ok(!err.message.includes('not-the-password') && !err.message.includes(PASSWORD));
        return true;
      });
      await bad.close();
    } finally {
      await proxy.close();
    }
  });

  test('a closed port is unreachable', async () => {
    const client = new WsRpcClient(endpointFor(`ws://127.0.0.1:${await freePort()}`));
    await assert.rejects(client.call('eth_chainId'), (err: unknown) => err instanceof RpcFailure && err.kind === 'unreachable' && /ECONNREFUSED/.test(err.message));
    await client.close();
  });

  test('close() during a handshake that never completes ends the call at once', async () => {
    // A TCP server that accepts the connection and never answers the upgrade request.
    const mute = net.createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const client = new WsRpcClient(endpointFor(`ws://127.0.0.1:${(mute.address() as net.AddressInfo).port}`));
    try {
      const pending = assert.rejects(client.call('eth_chainId'), (err: unknown) => err instanceof RpcFailure && err.kind === 'cancelled');
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await client.close();
      await pending;
      assert.ok(Date.now() - started < 500, 'close() did not wait for the 15 s handshake timeout');
    } finally {
      mute.close();
    }
  });

  test('a node that never answers: timeout; an abort: cancelled; close(): calls in flight end', async () => {
    // A real WebSocket server that accepts connections and ignores every message.
    const silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => silent.once('listening', r));
    const port = (silent.address() as { port: number }).port;
    const client = new WsRpcClient(endpointFor(`ws://127.0.0.1:${port}`), { timeoutMs: 250, hints: CLI_HINTS });
    try {
      await assert.rejects(
        client.call('eth_chainId'),
        (err: unknown) => err instanceof RpcFailure && err.kind === 'timeout' && /within 250 ms.*chaindeck\.requestTimeoutMs/.test(err.message),
      );
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(client.call('eth_chainId', [], { signal: controller.signal, timeoutMs: 5000 }), (err: unknown) => err instanceof RpcFailure && err.kind === 'cancelled');
      const pending = assert.rejects(
        client.call('eth_chainId', [], { timeoutMs: 5000 }),
        (err: unknown) => err instanceof RpcFailure && err.kind === 'cancelled' && /closed before the node answered/.test(err.message),
      );
      await new Promise((r) => setTimeout(r, 50));
      await client.close();
      await pending;
    } finally {
      await client.close();
      for (const c of silent.clients) c.terminate();
      await new Promise((r) => silent.close(r));
    }
  });
});
