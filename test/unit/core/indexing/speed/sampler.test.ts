/**
 * The sampler against a loopback server posing as graph-node's metrics endpoint: one read at a
 * time, also when it is stopped and started again while a read is under way (the Subgraphs view
 * hidden and shown again).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { SpeedSampler } from '../../../../../src/core/indexing/speed/sampler';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('stopped and started again during a read, the sampler still reads one at a time, and stop() ends every read', async () => {
  let open = 0;
  let most = 0;
  let reads = 0;
  const server = http.createServer((_req, res) => {
    open++;
    reads++;
    most = Math.max(most, open);
    res.on('close', () => open--);
    // A slow node: each answer takes 150 ms.
    setTimeout(() => res.end('deployment_head{deployment="Q",network="mainnet"} 5\n'), 150);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  const sampler = new SpeedSampler({ kind: 'metrics', url }, { intervalMs: 20, timeoutMs: 2000 });
  try {
    sampler.start(() => true);
    await sleep(50);
    sampler.stop();
    sampler.start(() => true);
    // The read stop() aborted is closed by then; from there on, reads of two loops would overlap.
    await sleep(300);
    most = open;
    await sleep(1000);
    assert.equal(most, 1, 'never two reads of the node at once');
    sampler.stop();
    await sleep(400);
    const after = reads;
    await sleep(400);
    assert.equal(reads, after, 'no read after stop()');
  } finally {
    sampler.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('a read asked for while one is under way (a Profile panel opening mid-sample) joins it: the node is asked once, the rates kept', async () => {
  let reads = 0;
  let block = 0;
  const server = http.createServer((_req, res) => {
    reads++;
    block += 10;
    const text = `deployment_head{deployment="Q",network="mainnet"} ${block}\ndeployment_synced{deployment="Q"} 0\nethereum_chain_head_number{network="mainnet"} 1000\n`;
    setTimeout(() => res.end(text), 50);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  let now = 0;
  const sampler = new SpeedSampler({ kind: 'metrics', url }, { now: () => (now += 2000) });
  try {
    await sampler.sample();
    await Promise.all([sampler.sample(), sampler.sample()]);
    assert.equal(reads, 2, 'the second and third asks made one read');
    assert.equal(sampler.tracker.speed('Q')?.blocksPerSecond, 5, 'the rate over both reads, not wiped');
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
