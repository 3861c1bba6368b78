/**
 * storage-decode's core on a contract of 50 state variables (packed integers, addresses, bools,
 * strings short and long, a struct, arrays) and a mapping(address => uint256) whose 1,000 keys
 * only the contract's Transfer events carry: the contract is generated here, compiled with
 * solc-js and filled on anvil. Prints the decode time (median of RUNS) directly and behind the
 * loopback proxy adding LATENCY_MS to every HTTP request, with the round trips, HTTP requests and
 * slot reads each decode took, and checks every key was found with its value.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/decode.bench.ts` (starts its own anvil).
 */
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { decodeStorage, decodedJson, type StorageReading } from '../src/core/storage/decode/decode';
import { parseHardhatBuildInfo } from '../src/core/storage/layout';
import { benchAnvil } from '../test/support/devnets';
import { startProxy } from '../test/support/proxy';
import { compileSource, deploy } from '../test/support/solidity';

const KEYS = 1000;
const PER_TX = 250;
const RUNS = 5;
const LATENCY_MS = 50;

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url, auth: 'none' }, {}));

/** 49 variables of mixed types plus the mapping: 50 in all. */
function source(): string {
  const kinds = ['uint256', 'uint8', 'int64', 'bool', 'address', 'bytes4', 'string', 'uint128'];
  const vars: string[] = [];
  const sets: string[] = [];
  for (let i = 0; i < 45; i++) {
    const t = kinds[i % kinds.length];
    vars.push(`${t} public v${i};`);
    const value =
      t === 'bool'
        ? 'true'
        : t === 'address'
          ? `address(uint160(${i + 1}))`
          : t === 'bytes4'
            ? `bytes4(uint32(${i + 1}))`
            : t === 'string'
              ? `"${i % 16 === 6 ? 'a long string value, longer than the thirty-one bytes of a short one' : `s${i}`}"`
              : t === 'int64'
                ? `-${i}`
                : `${i + 1}`;
    sets.push(`v${i} = ${value};`);
  }
  vars.push('struct P { uint128 a; uint64 b; bool c; address d; }', 'P public p;', 'uint32[] public list;', 'uint8[10] public small;', 'bytes public blob;');
  sets.push('p = P(1, 2, true, msg.sender);', 'list.push(1); list.push(2); list.push(3);', 'small[3] = 7;', 'blob = hex"c0ffee";');
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Fifty {
  event Transfer(address indexed from, address indexed to, uint256 value);
  ${vars.join('\n  ')}
  mapping(address => uint256) public balances;
  function setAll() external { ${sets.join(' ')} }
  function fill(uint256 from, uint256 to) external {
    for (uint256 i = from; i < to; i++) {
      address a = address(uint160(uint256(keccak256(abi.encode(i)))));
      balances[a] = i + 1;
      emit Transfer(address(0), a, i + 1);
    }
  }
}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const anvil = await benchAnvil();
  const proxy = await startProxy({ target: anvil.url, delayMs: LATENCY_MS });
  try {
    const compiled = compileSource('contracts/Fifty.sol', source());
    const layout = parseHardhatBuildInfo({ output: compiled.output }).find((l) => l.contractName === 'Fifty')!;
    const direct = client(anvil.url);
    const fifty = await deploy(direct, compiled, 'contracts/Fifty.sol', 'Fifty');
    await fifty.send('setAll');
    let block = 0;
    for (let i = 0; i < KEYS; i += PER_TX) block = await fifty.send('fill', i, Math.min(KEYS, i + PER_TX));
    console.log(`contract: ${layout.storage.length} state variables, ${KEYS} mapping keys in ${Math.ceil(KEYS / PER_TX)} transactions, decoded at block ${block}`);

    const rows: string[] = [];
    for (const [name, url] of [
      ['direct', anvil.url],
      [`+${LATENCY_MS} ms per request`, proxy.url],
    ] as const) {
      const times: number[] = [];
      let last: StorageReading | undefined;
      for (let r = 0; r < RUNS; r++) {
        const c = client(url);
        const t0 = performance.now();
        last = await decodeStorage(c, layout, String(block), { address: fifty.address });
        times.push(performance.now() - t0);
      }
      const balances = decodedJson(last!).find((v) => v.label === 'balances')!.value as Record<string, string>;
      if (Object.keys(balances).length !== KEYS) throw new Error(`found ${Object.keys(balances).length} keys, not ${KEYS}`);
      const values = new Set(Object.values(balances));
      for (let i = 1; i <= KEYS; i++) if (!values.has(String(i))) throw new Error(`value ${i} missing`);
      const s = last!.stats;
      rows.push(`| ${name} | ${median(times).toFixed(0)} ms (best ${Math.min(...times).toFixed(0)}) | ${s.roundTrips} | ${s.requests} | ${s.reads} |`);
    }
    console.log('\n| node | decode, median of 5 | round trips | HTTP requests | slot reads |\n|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    closeIdleConnections();
    await proxy.close();
    await anvil.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
