/**
 * Compiling our own Solidity test contracts with solc-js (npm `solc`, 0.8.37) and deploying them
 * on a real node: evmVersion shanghai, so ganache 7.9.2 runs the code too; the storage layout is
 * asked for, as a project would. Also the artifact files the four toolchains write, built from
 * that one output: solc's standard-JSON output, a Foundry artifact, a Hardhat 2 build-info and
 * Hardhat 3's split build-info (the input file and its `.output.json`), each with the ASTs
 * (a Foundry artifact has its own source's, as `forge build --ast` writes it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Interface, type InterfaceAbi } from 'ethers';
import type { RpcClient } from '../../src/core/rpc/client';

const solc = require('solc') as { compile(input: string, callbacks?: { import(p: string): { contents: string } | { error: string } }): string; version(): string };

/** test/fixtures/solidity, found from here (test/support) or from the workbench build (out/test/support). */
const FIXTURES = (() => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'fixtures', 'solidity');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '..', 'fixtures', 'solidity');
  }
})();

export interface SolcCompiled {
  input: Record<string, unknown>;
  output: {
    contracts: Record<
      string,
      Record<
        string,
        { abi: InterfaceAbi; metadata: string; storageLayout: unknown; evm: { bytecode: { object: string }; deployedBytecode: { object: string; immutableReferences?: unknown } } }
      >
    >;
    sources: Record<string, unknown>;
    errors?: { severity: string; formattedMessage: string }[];
  };
}

/** Compiles test/fixtures/solidity/<file> as source `contracts/<file>`; fails on any compiler error. */
export function compileFixture(file: string): SolcCompiled {
  return compileSource(`contracts/${file}`, readFileSync(path.join(FIXTURES, file), 'utf8'));
}

/** The node_modules that holds solc: imports such as @openzeppelin/… resolve there. */
const NODE_MODULES = path.dirname(path.dirname(require.resolve('solc/package.json')));

function importFromNodeModules(p: string): { contents: string } | { error: string } {
  const file = path.join(NODE_MODULES, p);
  return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${p}` };
}

const ALL_OUTPUTS = ['abi', 'metadata', 'storageLayout', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'];

/**
 * Compiles one source text, imports resolved from node_modules (@openzeppelin/contracts and
 * @openzeppelin/contracts-upgradeable); the output carries each source's AST, as a project asks
 * for it. `outputs` narrows what each contract gets (only ['storageLayout'] skips code
 * generation: a layout of hundreds of structs compiles in a second). Fails on any compiler error.
 */
export function compileSource(source: string, content: string, outputs: readonly string[] = ALL_OUTPUTS): SolcCompiled {
  const input = {
    language: 'Solidity',
    sources: { [source]: { content } },
    settings: {
      evmVersion: 'shanghai',
      optimizer: { enabled: false, runs: 200 },
      outputSelection: {
        '*': { '': ['ast'], '*': [...outputs] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: importFromNodeModules })) as SolcCompiled['output'];
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  return { input, output };
}

export function solcLongVersion(): string {
  return solc.version().replace(/\.Emscripten.*$/, '');
}

/** The four kinds of artifact file, written under `dir`; returns their paths. */
export function writeArtifacts(
  dir: string,
  compiled: SolcCompiled,
  source: string,
  name: string,
): { solcOutput: string; foundry: string; hardhat2: string; hardhat3: string; hardhat3Input: string } {
  const long = solcLongVersion();
  const short = long.replace(/\+.*$/, '');
  const c = compiled.output.contracts[source][name];
  mkdirSync(dir, { recursive: true });
  const solcOutput = path.join(dir, 'solc-output.json');
  writeFileSync(solcOutput, JSON.stringify(compiled.output));

  const foundryDir = path.join(dir, 'out', `${path.basename(source)}`);
  mkdirSync(foundryDir, { recursive: true });
  const foundry = path.join(foundryDir, `${name}.json`);
  writeFileSync(
    foundry,
    JSON.stringify({
      abi: c.abi,
      bytecode: { object: `0x${c.evm.bytecode.object}`, sourceMap: '', linkReferences: {} },
      deployedBytecode: { object: `0x${c.evm.deployedBytecode.object}`, sourceMap: '', linkReferences: {}, immutableReferences: c.evm.deployedBytecode.immutableReferences ?? {} },
      methodIdentifiers: {},
      rawMetadata: c.metadata,
      metadata: JSON.parse(c.metadata),
      storageLayout: c.storageLayout,
      ast: (compiled.output.sources[source] as { ast?: unknown } | undefined)?.ast,
      id: 0,
    }),
  );
  // The imported sources' ASTs, as forge --ast writes one artifact per contract of every source:
  // here the first contract of each other source, without a layout (so it adds none to a project's list).
  // Two sources of one file name go where forge puts them: under their whole path.
  const taken = new Set([path.basename(source)]);
  for (const [other, unit] of Object.entries(compiled.output.sources)) {
    const first = Object.keys(compiled.output.contracts[other] ?? {})[0];
    if (other === source || !first) continue;
    const otherDir = path.join(dir, 'out', taken.has(path.basename(other)) ? other : path.basename(other));
    taken.add(path.basename(other));
    mkdirSync(otherDir, { recursive: true });
    writeFileSync(
      path.join(otherDir, `${first}.json`),
      JSON.stringify({ abi: [], bytecode: { object: '0x' }, deployedBytecode: { object: '0x' }, ast: (unit as { ast?: unknown }).ast, id: 0 }),
    );
  }

  const buildInfo = path.join(dir, 'artifacts', 'build-info');
  mkdirSync(buildInfo, { recursive: true });
  const hardhat2 = path.join(buildInfo, '0b7c1a6c6e2f9f7d3c1d2b9a8e7f6a5b.json');
  writeFileSync(
    hardhat2,
    JSON.stringify({ id: '0b7c1a6c6e2f9f7d3c1d2b9a8e7f6a5b', _format: 'hh-sol-build-info-1', solcVersion: short, solcLongVersion: long, input: compiled.input, output: compiled.output }),
  );

  // Hardhat 3: source names under project/, the input and the output in two files.
  const id = `solc-${short.replace(/\./g, '_')}-4f1c2a9e8b7d6c5f4e3d2c1b0a998877`;
  const prefix = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [`project/${k}`, v]));
  const hardhat3Input = path.join(buildInfo, `${id}.json`);
  writeFileSync(
    hardhat3Input,
    JSON.stringify({
      _format: 'hh3-sol-build-info-1',
      id,
      solcVersion: short,
      solcLongVersion: long,
      userSourceNameMap: { [source]: `project/${source}` },
      input: { ...compiled.input, sources: prefix(compiled.input.sources as Record<string, unknown>) },
    }),
  );
  const hardhat3 = path.join(buildInfo, `${id}.output.json`);
  writeFileSync(
    hardhat3,
    JSON.stringify({ _format: 'hh3-sol-build-info-output-1', id, output: { ...compiled.output, contracts: prefix(compiled.output.contracts), sources: prefix(compiled.output.sources) } }),
  );
  return { solcOutput, foundry, hardhat2, hardhat3, hardhat3Input };
}

/** Waits for a transaction's receipt (anvil once answered null right after automining). */
async function receipt(client: RpcClient, hash: string): Promise<{ status: string; contractAddress: string | null; blockNumber: string }> {
  for (let i = 0; i < 200; i++) {
    const r = await client.call<{ status: string; contractAddress: string | null; blockNumber: string } | null>('eth_getTransactionReceipt', [hash]);
    if (r) return r;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no receipt for ${hash}`);
}

/** A deployed contract, and its functions as transactions from the node's first account. */
export interface Deployed {
  address: string;
  /** Sends a call of `fn(args)`; resolves with the block it was mined in. */
  send(fn: string, ...args: unknown[]): Promise<number>;
}

/** Deploys contract `name` of `compiled` with constructor `args` from the node's first account. */
export async function deploy(client: RpcClient, compiled: SolcCompiled, source: string, name: string, ...args: unknown[]): Promise<Deployed> {
  const c = compiled.output.contracts[source][name];
  const [from] = await client.call<string[]>('eth_accounts');
  const iface = new Interface(c.abi);
  const data = `0x${c.evm.bytecode.object}${iface.encodeDeploy(args).slice(2)}`;
  const created = await receipt(client, await client.call<string>('eth_sendTransaction', [{ from, data, gas: '0x1c9c380' }]));
  if (created.status !== '0x1' || !created.contractAddress) throw new Error(`deploying ${name} failed`);
  return attach(client, compiled, source, name, created.contractAddress);
}

/** Contract `name`'s functions sent to `address`: e.g. an implementation's ABI at its proxy. */
export async function attach(client: RpcClient, compiled: SolcCompiled, source: string, name: string, address: string): Promise<Deployed> {
  const [from] = await client.call<string[]>('eth_accounts');
  const iface = new Interface(compiled.output.contracts[source][name].abi);
  return {
    address,
    async send(fn, ...args) {
      const data = iface.encodeFunctionData(fn, args);
      const r = await receipt(client, await client.call<string>('eth_sendTransaction', [{ from, to: address, data, gas: '0x989680' }]));
      if (r.status !== '0x1') throw new Error(`${fn} reverted`);
      return Number(BigInt(r.blockNumber));
    },
  };
}
