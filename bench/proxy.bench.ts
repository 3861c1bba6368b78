/**
 * Decoding through an ERC-1967 proxy against decoding the same contract deployed plainly: the
 * same Ledger (test/fixtures/solidity/ProxyKinds.sol: plain variables and a mapping filled
 * through events) once on its own and once behind OpenZeppelin's TransparentUpgradeableProxy,
 * both with the same state, both decoded from the whole compile with no contract named (the pick
 * by code). A counting wrapper around the JSON-RPC client counts HTTP requests and round trips
 * (requests sent while none was in flight) on a real anvil. Fails when the proxy costs more than
 * one round trip more than the plain contract, or when the two decodes differ.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/proxy.bench.ts` (starts its own anvil).
 */
import { getAddress, Interface, keccak256, toUtf8Bytes, type InterfaceAbi } from 'ethers';
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { decodedJson } from '../src/core/storage/decode/decode';
import { readDeployed } from '../src/core/storage/deployed/read';
import { parseHardhatBuildInfo } from '../src/core/storage/layout';
import type { StorageRpc } from '../src/core/storage/types';
import { benchAnvil } from '../test/support/devnets';
import { attach, compileFixture, deploy } from '../test/support/solidity';

const KINDS = 'contracts/ProxyKinds.sol';
const TRANSPARENT = '@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol';
const CREDITS = 20;
const RUNS = 5;

/** The client's calls and batches (one HTTP request each), counted; a round trip is a request sent while none was in flight. */
function counting(inner: StorageRpc): { rpc: StorageRpc; counts: { requests: number; roundTrips: number } } {
  const counts = { requests: 0, roundTrips: 0 };
  let inFlight = 0;
  const count = async <T>(send: () => Promise<T>): Promise<T> => {
    counts.requests++;
    if (inFlight++ === 0) counts.roundTrips++;
    try {
      return await send();
    } finally {
      inFlight--;
    }
  };
  return { counts, rpc: { call: (method, params, options) => count(() => inner.call(method, params, options)), batch: (calls, options) => count(() => inner.batch(calls, options)) } };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  try {
    const compiled = compileFixture('ProxyKinds.sol');
    const layouts = parseHardhatBuildInfo({ output: compiled.output });
    const client = new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url: anvil.url, auth: 'none' }, {}));
    const [owner] = await client.call<string[]>('eth_accounts');
    const init = new Interface(compiled.output.contracts[KINDS].Ledger.abi as InterfaceAbi).encodeFunctionData('init', [getAddress(owner), 'the same note']);
    const implementation = await deploy(client, compiled, KINDS, 'Ledger');
    const plain = await deploy(client, compiled, KINDS, 'Ledger');
    await plain.send('init', getAddress(owner), 'the same note');
    const proxy = await attach(
      client,
      compiled,
      KINDS,
      'Ledger',
      (await deploy(client, compiled, TRANSPARENT, 'TransparentUpgradeableProxy', implementation.address, getAddress(owner), init)).address,
    );
    let block = 0;
    for (const ledger of [plain, proxy]) {
      await ledger.send('bump', 42);
      for (let i = 0; i < CREDITS; i++) block = await ledger.send('give', getAddress(keccak256(toUtf8Bytes(`holder ${i}`)).slice(0, 42)), i + 1);
    }
    console.log(
      `Ledger with ${CREDITS} mapping entries, plain at ${plain.address} and behind a TransparentUpgradeableProxy at ${proxy.address}; decoded at block ${block} with no contract named among ${layouts.length} layouts`,
    );

    const results: Record<string, { requests: number; roundTrips: number; ms: number; labels: string[]; values: unknown[] }> = {};
    for (const [name, address] of [
      ['plain', plain.address],
      ['ERC-1967 proxy', proxy.address],
    ] as const) {
      const times: number[] = [];
      let last;
      for (let r = 0; r < RUNS; r++) {
        const { rpc, counts } = counting(client);
        const t0 = performance.now();
        const { reading, deployed } = await readDeployed(rpc, layouts, [String(block)], { address });
        times.push(performance.now() - t0);
        if (deployed.picked[0]?.contractName !== 'Ledger') throw new Error(`${name}: picked ${deployed.picked.map((l) => l.contractName).join(', ')}, not Ledger`);
        const json = decodedJson(reading);
        last = { ...counts, ms: median(times), labels: json.map((v) => v.label), values: json.map((v) => v.value) };
      }
      results[name] = last!;
    }
    const p = results.plain;
    const x = results['ERC-1967 proxy'];
    console.log('\n| contract | round trips | HTTP requests | decode, median of 5 |\n|---|---|---|---|');
    for (const [name, r] of Object.entries(results)) console.log(`| ${name} | ${r.roundTrips} | ${r.requests} | ${r.ms.toFixed(1)} ms |`);
    console.log(`\nratio proxy / plain: ${(x.roundTrips / p.roundTrips).toFixed(2)}× round trips, ${(x.requests / p.requests).toFixed(2)}× HTTP requests, ${(x.ms / p.ms).toFixed(2)}× time`);
    if (JSON.stringify(x.values.slice(0, p.values.length)) !== JSON.stringify(p.values)) throw new Error('FAILED: the proxy decodes to other values than the plain contract');
    if (x.labels.slice(p.labels.length).join() !== 'eip1967.proxy.implementation,eip1967.proxy.admin,eip1967.proxy.beacon')
      throw new Error(`FAILED: the proxy's decode ends with ${x.labels.slice(p.labels.length).join()}`);
    if (x.roundTrips > p.roundTrips + 1) throw new Error(`FAILED: decoding through the proxy took ${x.roundTrips} round trips, more than one over the plain contract's ${p.roundTrips}`);
    if (x.requests > p.requests + 1) throw new Error(`FAILED: decoding through the proxy took ${x.requests} HTTP requests, more than one over the plain contract's ${p.requests}`);
    console.log('ok: at most one round trip more through the proxy');
  } finally {
    closeIdleConnections();
    await anvil.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
