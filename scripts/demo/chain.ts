/**
 * The demo's chain: DemoToken (demo/contracts/DemoToken.sol, an OpenZeppelin 5 ERC-20) compiled
 * with solc from npm, deployed to a JSON-RPC URL from its first unlocked account (anvil's), some
 * Transfer/Approval activity, airdrops of many Transfer events in few transactions, and a copy of
 * demo/subgraph with the token's ABI, address and start block written in.
 *
 * Used by `npm run demo`, the benchmarks and the tests. Every function returns how many events
 * it made, so a caller knows how many records the subgraph must answer.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Contract, ContractFactory, JsonRpcProvider, getAddress, parseUnits, type InterfaceAbi, type JsonRpcSigner, type TransactionReceipt } from 'ethers';
import { demoBuildInfo, demoContract, REPO, type BuildInfo } from './build';

export const DEMO_CONTRACT = path.join(REPO, 'demo/contracts/DemoToken.sol');
export const DEMO_SUBGRAPH = path.join(REPO, 'demo/subgraph');

/** Events of the token a subgraph indexes (each one record of the demo subgraph). */
export interface EventCounts {
  transfers: number;
  approvals: number;
}

export interface CompiledToken {
  abi: InterfaceAbi;
  /** Creation bytecode, 0x-prefixed. */
  bytecode: string;
  solcVersion: string;
}

export interface DeployedToken {
  address: string;
  /** The block of the deploying transaction: the subgraph's startBlock. */
  startBlock: number;
  abi: InterfaceAbi;
  /** The initial mint to the deployer: one Transfer. */
  events: EventCounts;
}

export interface AirdropResult {
  /** One Transfer per recipient. */
  events: EventCounts;
  transactions: number;
  /** The block of the last airdrop transaction. */
  lastBlock: number;
}

export const INITIAL_SUPPLY = parseUnits('1000000000', 18);
/**
 * Recipients per airdrop transaction. A new recipient costs ~30k gas (a fresh balance slot and a
 * log), so 500 take ~15M, half of anvil's default 30M block gas limit.
 */
export const AIRDROP_BATCH = 500;
/** Above what a new recipient costs (25.4k measured with the optimizer). */
const GAS_PER_RECIPIENT = 30_000n;

/** DemoToken's ABI and creation bytecode, from the demo's build (compiled once, then read from demo/build/). */
export function compileDemoToken(info: BuildInfo = demoBuildInfo()): CompiledToken {
  return { ...demoContract(info, 'DemoToken'), solcVersion: info.solcLongVersion };
}

/** A provider that polls fast (a devnet mines at once) and the node's unlocked accounts as signers. */
async function connect(rpcUrl: string): Promise<{ provider: JsonRpcProvider; signers: JsonRpcSigner[] }> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, pollingInterval: 100, batchMaxCount: 1 });
  const accounts = (await provider.send('eth_accounts', [])) as string[];
  if (accounts.length < 5) throw new Error(`the node at ${new URL(rpcUrl).origin} has ${accounts.length} unlocked accounts; the demo needs 5 (anvil's defaults)`);
  return { provider, signers: await Promise.all(accounts.slice(0, 5).map((a) => provider.getSigner(a))) };
}

/**
 * Waits for a transaction's receipt by asking for it. ethers' wait() can miss a devnet's block:
 * anvil mines a moment after it returned the hash, and a block mined between wait()'s first look
 * and its block polling is never seen (it then waits for a next block that never comes).
 */
export async function mined(provider: JsonRpcProvider, hash: string, timeoutMs = 60_000): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) {
      if (receipt.status !== 1) throw new Error(`transaction ${hash} reverted`);
      return receipt;
    }
    if (Date.now() > deadline) throw new Error(`transaction ${hash} was not mined within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function withChain<T>(rpcUrl: string, work: (chain: { provider: JsonRpcProvider; signers: JsonRpcSigner[] }) => Promise<T>): Promise<T> {
  const chain = await connect(rpcUrl);
  try {
    return await work(chain);
  } finally {
    chain.provider.destroy();
  }
}

/** Deploys DemoToken from the node's first unlocked account, which receives the initial supply. */
export async function deployDemoToken(rpcUrl: string, compiled: CompiledToken = compileDemoToken()): Promise<DeployedToken> {
  return withChain(rpcUrl, async ({ provider, signers }) => {
    const factory = new ContractFactory(compiled.abi, compiled.bytecode, signers[0]);
    const token = await factory.deploy(INITIAL_SUPPLY);
    const receipt = await mined(provider, token.deploymentTransaction()!.hash);
    return { address: await token.getAddress(), startBlock: receipt.blockNumber, abi: compiled.abi, events: { transfers: 1, approvals: 0 } };
  });
}

/** Everyday use of the token between the node's first five accounts: transfers, approvals and a transferFrom. */
export async function makeActivity(rpcUrl: string, address: string, abi: InterfaceAbi = compileDemoToken().abi): Promise<EventCounts> {
  return withChain(rpcUrl, async ({ provider, signers }) => {
    const [owner, alice, bob, carol, dave] = signers;
    const as = (signer: JsonRpcSigner) => new Contract(address, abi, signer);
    const units = (n: number) => parseUnits(String(n), 18);
    const steps: [JsonRpcSigner, string, unknown[]][] = [
      [owner, 'transfer', [alice.address, units(1000)]],
      [owner, 'transfer', [bob.address, units(500)]],
      [owner, 'transfer', [carol.address, units(250)]],
      [alice, 'approve', [bob.address, units(100)]],
      [carol, 'approve', [owner.address, units(50)]],
      [bob, 'transferFrom', [alice.address, dave.address, units(40)]],
      [alice, 'transfer', [carol.address, units(10)]],
    ];
    for (const [signer, method, args] of steps) {
      const tx = await as(signer)
        .getFunction(method)
        .send(...args);
      await mined(provider, tx.hash);
    }
    return { transfers: 5, approvals: 2 };
  });
}

/** `count` new random addresses (checksummed): an airdrop to them writes a fresh balance each. */
export function newAddresses(count: number): string[] {
  return Array.from({ length: count }, () => getAddress(`0x${randomBytes(20).toString('hex')}`));
}

/**
 * Sends `amount` (in the token's smallest unit) from the node's first account to `recipients`
 * (default: `count` new addresses), in transactions of `batch` recipients: one Transfer each.
 * The transactions are sent one after another, each mined before the next.
 */
export async function airdrop(
  rpcUrl: string,
  address: string,
  count: number,
  options: { recipients?: string[]; amount?: bigint; batch?: number; abi?: InterfaceAbi } = {},
): Promise<AirdropResult> {
  const recipients = options.recipients ?? newAddresses(count);
  if (recipients.length !== count) throw new Error(`airdrop: ${recipients.length} recipients given for a count of ${count}`);
  const batch = options.batch ?? AIRDROP_BATCH;
  return withChain(rpcUrl, async ({ provider, signers }) => {
    const token = new Contract(address, options.abi ?? compileDemoToken().abi, signers[0]);
    let lastBlock = 0;
    let transactions = 0;
    for (let i = 0; i < recipients.length; i += batch) {
      const slice = recipients.slice(i, i + batch);
      // The gas is given, not estimated: an estimate runs the whole batch once more.
      const tx = await token.getFunction('airdrop').send(slice, options.amount ?? 1n, { gasLimit: GAS_PER_RECIPIENT * BigInt(slice.length) + 100_000n });
      const receipt = await mined(provider, tx.hash);
      lastBlock = receipt.blockNumber;
      transactions++;
    }
    return { events: { transfers: count, approvals: 0 }, transactions, lastBlock };
  });
}

/** What `npm run demo` puts on a fresh chain: the token, everyday activity and an airdrop of `airdropCount`. */
export async function setUpDemoChain(rpcUrl: string, airdropCount = 0): Promise<DeployedToken & { lastBlock: number }> {
  const compiled = compileDemoToken();
  const token = await deployDemoToken(rpcUrl, compiled);
  const activity = await makeActivity(rpcUrl, token.address, compiled.abi);
  const dropped = airdropCount > 0 ? await airdrop(rpcUrl, token.address, airdropCount, { abi: compiled.abi }) : undefined;
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true });
  const lastBlock = await provider.getBlockNumber().finally(() => provider.destroy());
  return {
    ...token,
    events: {
      transfers: token.events.transfers + activity.transfers + (dropped?.events.transfers ?? 0),
      approvals: token.events.approvals + activity.approvals,
    },
    lastBlock,
  };
}

/**
 * Copies demo/subgraph (without anything built) into `target` and writes the token into it:
 * abis/DemoToken.json, and the data source's address and startBlock in subgraph.yaml.
 * `network` replaces the manifest's network (mainnet) when given. Returns the manifest's path.
 */
export function writeDemoSubgraph(target: string, token: Pick<DeployedToken, 'address' | 'startBlock' | 'abi'>, network?: string): string {
  cpSync(DEMO_SUBGRAPH, target, {
    recursive: true,
    filter: (from) => !['build', 'generated', 'node_modules'].includes(path.relative(DEMO_SUBGRAPH, from).split(path.sep)[0]),
  });
  mkdirSync(path.join(target, 'abis'), { recursive: true });
  writeFileSync(path.join(target, 'abis', 'DemoToken.json'), `${JSON.stringify(token.abi, null, 2)}\n`);
  const manifest = path.join(target, 'subgraph.yaml');
  const text = readFileSync(manifest, 'utf8');
  const filled = text
    .replace(/address: (["'])0x[0-9a-fA-F]{40}\1/, `address: '${getAddress(token.address)}'`)
    .replace(/startBlock: \d+/, `startBlock: ${token.startBlock}`)
    .replace(/network: mainnet/, `network: ${network ?? 'mainnet'}`);
  if (!filled.includes(getAddress(token.address)) || !filled.includes(`startBlock: ${token.startBlock}`)) throw new Error(`${manifest}: no address or startBlock to fill in`);
  writeFileSync(manifest, filled);
  return manifest;
}
