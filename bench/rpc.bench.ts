/**
 * 1,000 eth_getStorageAt reads against anvil behind the loopback proxy, which adds 20 ms to every
 * HTTP request (a stand-in for a network round trip): one at a time, in batches, and with several
 * in flight. Prints each time and its speed-up over the sequential run of the same process.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/rpc.bench.ts` (starts its own anvil).
 */
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { benchAnvil } from '../test/support/devnets';
import { startProxy } from '../test/support/proxy';

const READS = 1000;
const BATCH = 100;
const IN_FLIGHT = 16;
const LATENCY_MS = 20;
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const slot = (i: number) => `0x${i.toString(16)}`;
const value = (i: number) => `0x${(i * 7 + 1).toString(16).padStart(64, '0')}`;

/** Each strategy returns the values read, in slot order, so all three can be checked equal. */
type Strategy = (client: RpcClient) => Promise<unknown[]>;

const sequential: Strategy = async (client) => {
  const out: unknown[] = [];
  for (let i = 0; i < READS; i++) out.push(await client.call('eth_getStorageAt', [CONTRACT, slot(i), 'latest']));
  return out;
};

const batched: Strategy = async (client) => {
  const out: unknown[] = [];
  for (let start = 0; start < READS; start += BATCH) {
    const calls = Array.from({ length: Math.min(BATCH, READS - start) }, (_, k) => ({ method: 'eth_getStorageAt', params: [CONTRACT, slot(start + k), 'latest'] }));
    for (const item of await client.batch(calls)) {
      if ('error' in item) throw item.error;
      out.push(item.result);
    }
  }
  return out;
};

const concurrent: Strategy = async (client) => {
  const out: unknown[] = new Array(READS);
  let next = 0;
  const worker = async () => {
    while (next < READS) {
      const i = next++;
      out[i] = await client.call('eth_getStorageAt', [CONTRACT, slot(i), 'latest']);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return out;
};

async function time(name: string, strategy: Strategy, client: RpcClient, expected: unknown[]): Promise<number> {
  const started = performance.now();
  const values = await strategy(client);
  const ms = performance.now() - started;
  if (JSON.stringify(values) !== JSON.stringify(expected)) throw new Error(`${name} read different values`);
  return ms;
}

async function main(): Promise<void> {
  const devnet = await benchAnvil();
  const anvil = devnet.url;
  const proxy = await startProxy({ target: anvil, delayMs: LATENCY_MS });
  try {
    const direct = new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url: anvil, auth: 'none' }, {}));
    // Non-zero values in every slot, so the reads return real data.
    for (let i = 0; i < READS; i++) await direct.call('anvil_setStorageAt', [CONTRACT, slot(i), value(i)]);
    await direct.call('evm_mine');
    const expected = Array.from({ length: READS }, (_, i) => value(i));

    const client = new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url: proxy.url, auth: 'none' }, {}));
    const rows: [string, Strategy][] = [
      ['sequential', sequential],
      [`${READS / BATCH} batches × ${BATCH}`, batched],
      [`${IN_FLIGHT} concurrent`, concurrent],
    ];
    console.log(`rpc: ${READS} × eth_getStorageAt on anvil through a loopback proxy adding ${LATENCY_MS} ms per HTTP request`);
    let baseline = 0;
    for (const [name, strategy] of rows) {
      proxy.clear();
      const ms = await time(name, strategy, client, expected);
      baseline ||= ms;
      const ratio = baseline / ms;
      console.log(
        `  ${name.padEnd(18)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${ratio.toFixed(1).padStart(6)}× vs sequential  (${proxy.requests.length} HTTP requests, ${proxy.connections} new connections)`,
      );
    }

    console.log(`rpc: the same, direct to anvil (no added latency)`);
    baseline = 0;
    for (const [name, strategy] of rows) {
      const ms = await time(name, strategy, direct, expected);
      baseline ||= ms;
      console.log(`  ${name.padEnd(18)} ${ms.toFixed(0).padStart(7)} ms ${(baseline / ms).toFixed(1).padStart(6)}× vs sequential`);
    }
  } finally {
    closeIdleConnections();
    await proxy.close();
    await devnet.stop();
  }
}

main().catch((err: unknown) => {
  console.error(`rpc bench failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
