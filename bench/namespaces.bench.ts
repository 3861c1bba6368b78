/**
 * ERC-7201 namespaces: what reading them costs. (1) The layout: a contract with one namespaced
 * struct of M members and B bases with a namespace each, compiled with solc-js (layout and AST
 * only), read by parseHardhatBuildInfo — time per member and per base must stay flat as M and B
 * grow fourfold (nothing quadratic). (2) The decode: the same 64-member struct as an ERC-7201
 * namespace and as a plain state variable, deployed on anvil and filled alike, decoded at the
 * same block (median of RUNS): the ratio of the two times and their round trips and reads.
 *
 * Run through `npm run bench` (scripts/bench.mjs starts anvil), or alone with
 * `node --import tsx bench/namespaces.bench.ts` (starts its own anvil).
 */
import { resolveEndpoint } from '../src/core/nodes/endpoint';
import { RpcClient } from '../src/core/rpc/client';
import { closeIdleConnections } from '../src/core/rpc/http';
import { decodeStorage, decodedJson, type StorageReading } from '../src/core/storage/decode/decode';
import { parseHardhatBuildInfo, type ContractLayout } from '../src/core/storage/layout';
import { benchAnvil } from '../test/support/devnets';
import { compileSource, deploy } from '../test/support/solidity';

const RUNS = 9;
const DECODE_MEMBERS = 64;
const KINDS = ['uint256', 'uint8', 'address', 'bool', 'string', 'uint128', 'int64', 'bytes4'];

const client = (url: string) => new RpcClient(resolveEndpoint({ id: 'b', name: 'bench', protocol: 'evm', url, auth: 'none' }, {}));

function members(m: number): { decl: string; set: string } {
  const decl: string[] = [];
  const set: string[] = [];
  for (let i = 0; i < m; i++) {
    const t = KINDS[i % KINDS.length];
    decl.push(`${t} m${i};`);
    const v =
      t === 'bool'
        ? 'true'
        : t === 'address'
          ? `address(uint160(${i + 1}))`
          : t === 'string'
            ? `"s${i}"`
            : t === 'bytes4'
              ? `bytes4(uint32(${i + 1}))`
              : t === 'int64'
                ? `-${i}`
                : `${(i % 100) + 1}`;
    set.push(`$.m${i} = ${v};`);
  }
  return { decl: decl.join(' '), set: set.join(' ') };
}

/** Contract `N` with the namespaced struct of `m` members and `b` bases with one namespace each; `plain` puts the struct in a state variable instead. */
function source(m: number, b: number, plain: boolean): string {
  const { decl, set } = members(m);
  const bases = Array.from(
    { length: b },
    (_, i) => `abstract contract B${i} {\n  /// @custom:storage-location erc7201:bench.base.${i}\n  struct S${i} { uint64 a; address b; uint256 c; }\n}`,
  );
  const is = b ? ` is ${bases.map((_, i) => `B${i}`).join(', ')}` : '';
  const main = plain
    ? `struct Main { ${decl} }\n  Main s;\n  function set() external { Main storage $ = s; ${set} }`
    : `/// @custom:storage-location erc7201:bench.main\n  struct Main { ${decl} }\n  function set() external { Main storage $; bytes32 root = keccak256(abi.encode(uint256(keccak256("bench.main")) - 1)) & ~bytes32(uint256(0xff)); assembly { $.slot := root } ${set} }`;
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n${bases.join('\n')}\ncontract N${is} {\n  ${main}\n}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, c) => a - c);
  return s[Math.floor(s.length / 2)];
}

function layoutScaling(): void {
  console.log(`| members | bases | layout read, median of ${RUNS} | per member + base |\n|---|---|---|---|`);
  for (const [m, b] of [
    [100, 8],
    [400, 32],
    [1600, 128],
  ]) {
    const compiled = compileSource('contracts/N.sol', source(m, b, false), ['storageLayout']);
    let layout: ContractLayout | undefined;
    const times: number[] = [];
    for (let r = -1; r < RUNS; r++) {
      // run -1 warms the code up and is not counted
      const output = structuredClone(compiled.output);
      const t0 = performance.now();
      layout = parseHardhatBuildInfo({ output }).find((l) => l.contractName === 'N');
      if (r >= 0) times.push(performance.now() - t0);
    }
    if (layout?.storage.length !== b + 1) throw new Error(`${layout?.storage.length} namespaces, not ${b + 1}`);
    const t = median(times);
    console.log(`| ${m} | ${b} | ${t.toFixed(1)} ms | ${((t * 1000) / (m + b)).toFixed(1)} µs |`);
  }
}

async function decodeComparison(url: string): Promise<void> {
  const subjects = [];
  for (const plain of [true, false]) {
    const compiled = compileSource('contracts/N.sol', source(DECODE_MEMBERS, 0, plain));
    const layout = parseHardhatBuildInfo({ output: compiled.output }).find((l) => l.contractName === 'N')!;
    const contract = await deploy(client(url), compiled, 'contracts/N.sol', 'N');
    const block = await contract.send('set');
    subjects.push({
      name: plain ? 'plain state variable' : 'ERC-7201 namespace',
      layout,
      address: contract.address,
      block,
      times: [] as number[],
      last: undefined as StorageReading | undefined,
    });
  }
  // The two alternate, so warming up and the machine's load weigh on both alike; run -1 is not counted.
  for (let r = -1; r < RUNS; r++) {
    for (const s of subjects) {
      const t0 = performance.now();
      s.last = await decodeStorage(client(url), s.layout, String(s.block), { address: s.address });
      if (r >= 0) s.times.push(performance.now() - t0);
    }
  }
  console.log(`\n| ${DECODE_MEMBERS} members as | decode, median of ${RUNS} | round trips | slot reads |\n|---|---|---|---|`);
  for (const s of subjects) {
    const value = decodedJson(s.last!)[0].value as Record<string, unknown>;
    if (value.m1 !== '2' || value.m4 !== 's4' || Object.keys(value).length !== DECODE_MEMBERS) throw new Error(`${s.name}: decoded ${JSON.stringify(value).slice(0, 80)}`);
    console.log(`| ${s.name} | ${median(s.times).toFixed(1)} ms | ${s.last!.stats.roundTrips} | ${s.last!.stats.reads} |`);
  }
  console.log(`\nnamespace / plain: ${(median(subjects[1].times) / median(subjects[0].times)).toFixed(2)}×`);
}

async function main(): Promise<void> {
  layoutScaling();
  const anvil = await benchAnvil();
  try {
    await decodeComparison(anvil.url);
  } finally {
    closeIdleConnections();
    await anvil.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
