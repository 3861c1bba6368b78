/**
 * Real contracts for tests: Solidity compiled with solc from npm (imports such as
 * @openzeppelin/contracts resolved from node_modules) and deployed with ethers from the chain's
 * first unlocked account (anvil's default). Tests then send their own transactions.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ContractFactory, JsonRpcProvider, type Contract, type JsonFragment, type JsonRpcSigner } from 'ethers';

export interface CompiledContract {
  name: string;
  abi: JsonFragment[];
  bytecode: string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: JsonFragment[]; evm: { bytecode: { object: string } } }>>;
}

/** The first node_modules above this file (test/support or, bundled, out/test/support). */
function nodeModules(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', 'solc'))) return path.join(dir, 'node_modules');
    if (path.dirname(dir) === dir) throw new Error(`no node_modules/solc above ${__dirname}`);
  }
}

const compiled = new Map<string, CompiledContract>();

/** Compiles `source` (Solidity) and returns the contract `name`; errors throw with solc's messages. Cached per source and name. */
export function compileSolidity(source: string, name: string): CompiledContract {
  const key = `${name}\n${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  // solc is CommonJS and slow to load: only when compiling.
  const solc = require('solc') as { compile(input: string, callbacks: { import(p: string): { contents: string } | { error: string } }): string };
  const modules = nodeModules();
  const input = {
    language: 'Solidity',
    sources: { [`${name}.sol`]: { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (p) => {
        const file = path.join(modules, p);
        return existsSync(file) ? { contents: readFileSync(file, 'utf8') } : { error: `not found: ${p}` };
      },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.[`${name}.sol`]?.[name];
  if (!contract) throw new Error(`solc produced no contract ${name}`);
  const result = { name, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  compiled.set(key, result);
  return result;
}

export interface Deployment {
  contract: Contract;
  address: string;
  /** The block the contract was created in. */
  block: number;
  signer: JsonRpcSigner;
  provider: JsonRpcProvider;
  /** Ends the provider's timers. */
  close(): void;
}

/** A provider for a local chain that polls fast and does not cache the block number. */
export function localProvider(rpcUrl: string): JsonRpcProvider {
  return new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 });
}

/** Deploys `compiled` with `args` from the chain's first account and waits for its receipt. */
export async function deployContract(rpcUrl: string, compiledContract: CompiledContract, ...args: unknown[]): Promise<Deployment> {
  const provider = localProvider(rpcUrl);
  try {
    const signer = await provider.getSigner(0);
    const factory = new ContractFactory(compiledContract.abi, compiledContract.bytecode, signer);
    const contract = (await factory.deploy(...args)) as Contract;
    const receipt = await contract.deploymentTransaction()!.wait();
    if (!receipt) throw new Error(`the deployment of ${compiledContract.name} has no receipt`);
    return { contract, address: await contract.getAddress(), block: receipt.blockNumber, signer, provider, close: () => provider.destroy() };
  } catch (err) {
    provider.destroy();
    throw err;
  }
}
