/**
 * The Emitter test contract (test/fixtures/subgraphs/emitter/Emitter.sol) on a chain, and its
 * subgraph copied into a scratch folder pointing at it: `ping(count)` emits `count` Ping events in
 * one transaction, `pingWith(n)` one of value n, `boom()` the event whose handler aborts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Log } from 'ethers';
import { compileSolidity, deployContract, type Deployment } from './contracts';
import { copyProject, repoRoot, type LocalGraph } from './localGraph';

export const emitterFixture = () => path.join(repoRoot(), 'test', 'fixtures', 'subgraphs', 'emitter');

export interface Emitter extends Deployment {
  /** Sends ping(count) and resolves with the block it was mined in. */
  ping(count: number): Promise<number>;
  /** Sends `transactions` ping(perTransaction) (anvil mines each in its own block); resolves with the last block. */
  pingMany(transactions: number, perTransaction: number): Promise<number>;
  /** Sends pingWith(n): one Ping of value n. */
  pingWith(n: bigint): Promise<number>;
  /** Sends boom() and resolves with the block it was mined in. */
  boom(): Promise<number>;
  /** Every Ping log of the contract, as eth_getLogs returns them, named `<txhash>-<logIndex>` as the mapping names its entities. */
  pingLogIds(toBlock?: number): Promise<string[]>;
}

export async function deployEmitter(rpcUrl: string): Promise<Emitter> {
  const compiled = compileSolidity(readFileSync(path.join(emitterFixture(), 'Emitter.sol'), 'utf8'), 'Emitter');
  const deployment = await deployContract(rpcUrl, compiled);
  const { contract, provider } = deployment;
  const mined = async (sent: Promise<{ wait(): Promise<{ blockNumber: number } | null> }>) => (await (await sent).wait())!.blockNumber;
  return {
    ...deployment,
    ping: (count) => mined(contract.ping(count, { gasLimit: 30_000_000 })),
    async pingMany(transactions, perTransaction) {
      // Raw sends, one after another without waiting on receipts: the chain grows faster than an indexer follows.
      const from = await deployment.signer.getAddress();
      const data = contract.interface.encodeFunctionData('ping', [perTransaction]);
      for (let i = 0; i < transactions; i++) await provider.send('eth_sendTransaction', [{ from, to: deployment.address, data, gas: '0x1c9c380' }]);
      return provider.getBlockNumber();
    },
    pingWith: (n) => mined(contract.pingWith(n)),
    boom: () => mined(contract.boom()),
    async pingLogIds(toBlock) {
      const logs: Log[] = await provider.getLogs({
        address: deployment.address,
        topics: [contract.interface.getEvent('Ping')!.topicHash],
        fromBlock: deployment.block,
        toBlock: toBlock ?? 'latest',
      });
      return logs.map((l) => `${l.transactionHash}-${l.index}`);
    },
  };
}

/** The emitter subgraph copied into `scratch` (as `name`), indexing `address` from `startBlock`. */
export function emitterProject(scratch: string, address: string, startBlock: number, name = 'emitter'): string {
  const dir = copyProject(emitterFixture(), scratch, name);
  const manifest = path.join(dir, 'subgraph.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('0x0000000000000000000000000000000000000000', address).replace('startBlock: 0', `startBlock: ${startBlock}`));
  return dir;
}

/** Every Ping id the subgraph `name` answers, in id order, paged by id (any number of records). */
export async function indexedPingIds(graph: LocalGraph, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const { pings } = await graph.query<{ pings: { id: string }[] }>(name, 'query ($after: String!) { pings(first: 1000, orderBy: id, where: { id_gt: $after }) { id } }', {
      after: ids.at(-1) ?? '',
    });
    ids.push(...pings.map((p) => p.id));
    if (pings.length < 1000) return ids;
  }
}
