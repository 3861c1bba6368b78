/**
 * The chain of the capture fixture subgraph (test/fixtures/subgraphs/factory): a Factory
 * (test/fixtures/solidity/CaptureFactory.sol, compiled with solc) on a devnet, children created
 * through it and bumped, and a copy of the subgraph with the factory's address and start block.
 * One block holds a log of a factory the subgraph does not watch before a watched one, so the
 * watched log's index is not its place among the subgraph's events.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Interface } from 'ethers';
import { endpointFromUrl } from '../../src/core/nodes/endpoint';
import { RpcClient } from '../../src/core/rpc/client';
import { compileFixture, deploy, type SolcCompiled } from './solidity';
import { copyProject } from './localGraph';

export const FACTORY_SUBGRAPH = path.resolve(__dirname, '..', 'fixtures', 'subgraphs', 'factory');
const SOURCE = 'contracts/CaptureFactory.sol';

export interface FactoryChain {
  factory: string;
  /** The factory's deploy block: the subgraph's start block. */
  startBlock: number;
  /** The blocks of the activity, first and last. */
  first: number;
  last: number;
  /** The block where an unwatched factory's log comes before the watched one's. */
  sharedBlock: number;
  children: string[];
}

async function mined(client: RpcClient, hash: string): Promise<{ blockNumber: string; logs: { address: string; topics: string[] }[] }> {
  for (let i = 0; i < 400; i++) {
    const r = await client.call<{ blockNumber: string; status: string; logs: { address: string; topics: string[] }[] } | null>('eth_getTransactionReceipt', [hash]);
    if (r) {
      if (r.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
      return r;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no receipt for ${hash}`);
}

/** Deploys the factory and makes its activity: children created (one in a block shared with an unwatched factory) and bumped. */
export async function setUpFactoryChain(rpcUrl: string): Promise<FactoryChain> {
  const client = new RpcClient(endpointFromUrl(rpcUrl));
  const compiled: SolcCompiled = compileFixture('CaptureFactory.sol');
  const [from] = await client.call<string[]>('eth_accounts');
  const factoryAbi = new Interface(compiled.output.contracts[SOURCE].Factory.abi);
  const childAbi = new Interface(compiled.output.contracts[SOURCE].Child.abi);
  const factory = await deploy(client, compiled, SOURCE, 'Factory');
  const other = await deploy(client, compiled, SOURCE, 'Factory');
  const startBlock = Number(BigInt(await client.call<string>('eth_blockNumber')));
  const send = (to: string, data: string) => client.call<string>('eth_sendTransaction', [{ from, to, data, gas: '0x989680' }]);
  const children: string[] = [];
  const created = async (hash: string) => {
    const r = await mined(client, hash);
    const log = r.logs.find((l) => l.address.toLowerCase() === factory.address.toLowerCase());
    if (log) children.push(`0x${log.topics[1].slice(26)}`);
    return Number(BigInt(r.blockNumber));
  };
  const first = await created(await send(factory.address, factoryAbi.encodeFunctionData('create', ['alpha'])));
  // One block, two transactions: the unwatched factory's log first (log index 0), the watched one's second.
  await client.call('evm_setAutomine', [false]);
  const hashes = [await send(other.address, factoryAbi.encodeFunctionData('create', ['ignored'])), await send(factory.address, factoryAbi.encodeFunctionData('create', ['beta']))];
  await client.call('evm_mine', []);
  await client.call('evm_setAutomine', [true]);
  await mined(client, hashes[0]);
  const sharedBlock = await created(hashes[1]);
  let last = sharedBlock;
  for (const [i, amount] of [5n, 7n, 11n].entries()) last = Number(BigInt((await mined(client, await send(children[i % 2], childAbi.encodeFunctionData('bump', [amount])))).blockNumber));
  return { factory: factory.address.toLowerCase(), startBlock, first, last, sharedBlock, children };
}

/** A copy of the fixture subgraph in `scratch` indexing `factory` from `startBlock`. */
export function factoryProject(scratch: string, factory: string, startBlock: number): string {
  const dir = copyProject(FACTORY_SUBGRAPH, scratch, 'factory');
  const manifest = path.join(dir, 'subgraph.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace("'0x0000000000000000000000000000000000000000'", `'${factory}'`).replace('startBlock: 0', `startBlock: ${startBlock}`));
  return dir;
}
