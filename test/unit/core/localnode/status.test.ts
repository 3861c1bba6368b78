/** The index node's statuses: chain head, indexed block, health and fatal errors, read with a bounded body and a timeout. */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { fetchStatuses, parseStatuses, STATUSES_MAX_BYTES } from '../../../../src/core/localnode/status';

test('index-node statuses: chain head, indexed block, synced, health, a fatal error with handler and block', () => {
  const statuses = parseStatuses({
    data: {
      indexingStatuses: [
        {
          subgraph: 'QmA',
          synced: true,
          health: 'healthy',
          entityCount: '5',
          fatalError: null,
          chains: [{ network: 'mainnet', chainHeadBlock: { number: '12' }, latestBlock: { number: '12' } }],
        },
        {
          subgraph: 'QmB',
          synced: false,
          health: 'failed',
          entityCount: '0',
          fatalError: { message: 'boom', handler: 'handleTransfer', deterministic: true, block: { number: '7' } },
          chains: [{ network: 'mainnet', chainHeadBlock: { number: '12' }, latestBlock: { number: '6' } }],
        },
      ],
    },
  });
  assert.deepEqual(statuses, [
    { deployment: 'QmA', synced: true, health: 'healthy', network: 'mainnet', chainHead: 12, indexed: 12, entityCount: 5, fatalError: undefined },
    {
      deployment: 'QmB',
      synced: false,
      health: 'failed',
      network: 'mainnet',
      chainHead: 12,
      indexed: 6,
      entityCount: 0,
      fatalError: { message: 'boom', handler: 'handleTransfer', block: 7, deterministic: true },
    },
  ]);
  assert.throws(() => parseStatuses({ errors: [{ message: 'no' }] }), /the index node answered no statuses: no/);
});

test('the statuses are read bounded: an endless body is cut at the cap, a silent port at the timeout', async () => {
  let endless = true;
  const server = http.createServer((_req, res) => {
    if (!endless) return; // never answers
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  try {
    await assert.rejects(fetchStatuses(url), (err: Error) => err.message.includes(`larger than the ${STATUSES_MAX_BYTES / 1024 / 1024} MiB response cap`));
    endless = false;
    const began = Date.now();
    await assert.rejects(fetchStatuses(url), /5000 ms|5 s/);
    assert.ok(Date.now() - began < 8000, 'bounded by its timeout');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
