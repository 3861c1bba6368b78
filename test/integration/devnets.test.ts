import { test } from 'node:test';
import assert from 'node:assert/strict';

/** The harness's nodes are real and answering: the ground every integration test stands on. */
for (const [name, url] of [
  ['anvil', process.env.CHAINDECK_TEST_ANVIL_URL],
  ['ganache', process.env.CHAINDECK_TEST_GANACHE_URL],
] as const) {
  test(`${name} answers eth_blockNumber with a hex quantity`, async () => {
    assert.ok(url, `the harness did not start ${name}`);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] }),
    });
    const body = (await res.json()) as { jsonrpc: string; id: number; result: string };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, 7);
    assert.match(body.result, /^0x(0|[1-9a-f][0-9a-f]*)$/);
  });
}
