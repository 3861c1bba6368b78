/**
 * `storage-diff --tx`'s core on a real anvil: an upgradeable ledger (test/fixtures/solidity/
 * LedgerUpgrade.sol, V2 behind an ERC1967Proxy) credited by TXS transactions mined in one block;
 * the last one is diffed, decoded by its layout and raw, and a plain decode of the same contract
 * at that block is the baseline of the same process. Every request goes through the loopback
 * proxy of test/support/proxy.ts, which counts the HTTP requests and the trace calls in them,
 * directly and adding LATENCY_MS to each request. Fails loudly when a diff makes more than one
 * trace call, or when the last transaction's change is not found.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/txDiff.bench.ts` (starts its own anvil).
 */
import { getAddress, Interface, keccak256, toUtf8Bytes } from 'ethers';
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { decodeStorage } from '../src/core/storage/decode/decode';
import { rawTxDiff, txStorageDiff } from '../src/core/storage/decode/txDiff';
import { parseHardhatBuildInfo } from '../src/core/storage/layout';
import { benchAnvil } from '../test/support/devnets';
import { startProxy, type Proxy } from '../test/support/proxy';
import { compileFixture, deploy } from '../test/support/solidity';

const SOURCE = 'contracts/LedgerUpgrade.sol';
const TXS = 20;
const RUNS = 5;
const LATENCY_MS = 50;

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url, auth: 'none' }, {}));
const holder = (i: number) => getAddress(keccak256(toUtf8Bytes(`holder ${i}`)).slice(0, 42));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Row {
  name: string;
  ms: number;
  roundTrips: number;
  requests: number;
  traces: number;
}

/** Runs `work` RUNS times through `proxy`; the counts are the last run's (the proxy is cleared before each). */
async function measure(name: string, proxy: Proxy, work: (c: RpcClient) => Promise<{ roundTrips: number }>): Promise<Row> {
  const times: number[] = [];
  let roundTrips = 0;
  for (let r = 0; r < RUNS; r++) {
    const c = client(proxy.url);
    proxy.clear();
    const t0 = performance.now();
    roundTrips = (await work(c)).roundTrips;
    times.push(performance.now() - t0);
  }
  const methods = proxy.requests.flatMap((q) => q.methods);
  const traces = methods.filter((m) => /^(debug_trace|trace_)/.test(m)).length;
  return { name, ms: median(times), roundTrips, requests: proxy.requests.length, traces };
}

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const direct = await startProxy({ target: anvil.url });
  const slow = await startProxy({ target: anvil.url, delayMs: LATENCY_MS });
  try {
    const compiled = compileFixture('LedgerUpgrade.sol');
    const layout = parseHardhatBuildInfo({ output: compiled.output }).find((l) => l.contractName === 'LedgerV2')!;
    const c = client(anvil.url);
    const v2 = await deploy(c, compiled, SOURCE, 'LedgerV2');
    const abi = new Interface(compiled.output.contracts[SOURCE].LedgerV2.abi);
    const proxy = await deploy(c, compiled, '@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol', 'ERC1967Proxy', v2.address, abi.encodeFunctionData('initializeV2', [1n]));
    const [from] = await c.call<string[]>('eth_accounts');
    // TXS credits in one block, every other one (the last among them) to the same holder, so the last shares its slots with earlier ones.
    await c.call('evm_setAutomine', [false]);
    const hashes: string[] = [];
    try {
      for (let i = 0; i < TXS; i++) {
        const data = abi.encodeFunctionData('credit', [holder(i % 2 === 1 ? 0 : i + 1), BigInt(i + 1)]);
        hashes.push(await c.call<string>('eth_sendTransaction', [{ from, to: proxy.address, data, gas: '0x1e8480' }]));
      }
      await c.call('evm_mine', []);
    } finally {
      await c.call('evm_setAutomine', [true]);
    }
    const last = hashes.at(-1)!;
    const receipt = await c.call<{ blockNumber: string; status: string }>('eth_getTransactionReceipt', [last]);
    if (receipt.status !== '0x1') throw new Error('the last credit reverted');
    const block = Number(receipt.blockNumber);
    const first = await c.call<{ blockNumber: string }>('eth_getTransactionReceipt', [hashes[0]]);
    if (Number(first.blockNumber) !== block) throw new Error(`the ${TXS} transactions were not mined in one block`);
    const heldBefore = Array.from({ length: TXS - 1 }, (_, i) => i).reduce((s, i) => s + (i % 2 === 1 ? BigInt(i + 1) : 0n), 0n);
    console.log(`ledger V2 behind an ERC1967Proxy; ${TXS} credits in block ${block}; the last one diffed`);

    const rows: string[] = [];
    for (const [label, p] of [
      ['direct', direct],
      [`+${LATENCY_MS} ms per request`, slow],
    ] as const) {
      const base = await measure('decodeStorage at the block (baseline)', p, async (rpc) => (await decodeStorage(rpc, layout, String(block), { address: proxy.address })).stats);
      const decoded = await measure('txStorageDiff (--tx --layout)', p, async (rpc) => {
        const d = await txStorageDiff(rpc, layout, last, { address: proxy.address });
        const change = d.changes.find((x) => x.path === `credits[${holder(0)}]`);
        if (change?.before !== String(heldBefore) || change.after !== String(heldBefore + BigInt(TXS))) throw new Error(`the last credit was not found: ${JSON.stringify(change)}`);
        return d.stats;
      });
      const raw = await measure('rawTxDiff (--tx)', p, async (rpc) => {
        const d = await rawTxDiff(rpc, last, { address: proxy.address });
        if (d.changes.length === 0) throw new Error('the raw diff found no change');
        return d.trace.stats;
      });
      for (const r of [decoded, raw]) if (r.traces !== 1) throw new Error(`${r.name} made ${r.traces} trace calls, not exactly one`);
      for (const r of [base, decoded, raw]) {
        rows.push(`| ${label} | ${r.name} | ${r.ms.toFixed(0)} ms | ${(r.ms / base.ms).toFixed(2)}× | ${r.roundTrips} | ${r.requests} | ${r.traces} |`);
      }
    }
    console.log(`\n| node | what | median of ${RUNS} | × baseline | round trips | HTTP requests | trace calls |\n|---|---|---|---|---|---|---|`);
    for (const r of rows) console.log(r);
  } finally {
    closeIdleConnections();
    await direct.close();
    await slow.close();
    await anvil.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
