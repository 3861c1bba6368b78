/**
 * The Profiled test contract (test/fixtures/subgraphs/profiled/Profiled.sol) on a chain, and its
 * subgraph copied into a scratch folder pointing at it: `tick(count)` emits cheap Ticks,
 * `weigh(count)` Weighs whose handler (handleWeigh) makes 20 eth_calls each, the slow handler.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { compileSolidity, deployContract, type Deployment } from './contracts';
import { copyProject, repoRoot } from './localGraph';

export const profiledFixture = () => path.join(repoRoot(), 'test', 'fixtures', 'subgraphs', 'profiled');

export interface Profiled extends Deployment {
  /** Sends `transactions` transactions of `fn(perTransaction)` without waiting on receipts (anvil mines each in its own block); resolves with the chain head. */
  send(fn: 'tick' | 'weigh', transactions: number, perTransaction: number): Promise<number>;
}

export async function deployProfiled(rpcUrl: string): Promise<Profiled> {
  const compiled = compileSolidity(readFileSync(path.join(profiledFixture(), 'Profiled.sol'), 'utf8'), 'Profiled');
  const deployment = await deployContract(rpcUrl, compiled);
  const { contract, provider } = deployment;
  return {
    ...deployment,
    async send(fn, transactions, perTransaction) {
      const from = await deployment.signer.getAddress();
      const data = contract.interface.encodeFunctionData(fn, [perTransaction]);
      for (let i = 0; i < transactions; i++) await provider.send('eth_sendTransaction', [{ from, to: deployment.address, data, gas: '0x1c9c380' }]);
      return provider.getBlockNumber();
    },
  };
}

/** The profiled subgraph copied into `scratch` (as `name`), indexing `address` from `startBlock`. */
export function profiledProject(scratch: string, address: string, startBlock: number, name = 'profiled'): string {
  const dir = copyProject(profiledFixture(), scratch, name);
  const manifest = path.join(dir, 'subgraph.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('0x0000000000000000000000000000000000000000', address).replace('startBlock: 0', `startBlock: ${startBlock}`));
  return dir;
}
