/**
 * Real records for the tutorial subgraph (test/fixtures/subgraphs/tutorial: one ApprovalQuery per
 * ERC-20 Approval): an OpenZeppelin ERC-20 compiled and deployed on a local chain, approving
 * `count` spenders in one transaction, and the copied manifest pointed at it. The records a
 * graph-node must then answer are computed from the receipt, not from the subgraph.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { compileSolidity, deployContract } from './contracts';

export interface ApprovalRecord {
  /** `<transaction hash>-<log index>`, as the tutorial's mapping names them. */
  id: string;
  owner: string;
  spender: string;
  /** uint256 as graph-node sends a BigInt: a decimal string. */
  value: string;
}

export interface Approvals {
  address: string;
  /** The block the token was created in: the subgraph's start block. */
  startBlock: number;
  /** The block holding the approvals. */
  block: number;
  /** Sorted by id, the order graph-node lists them in when no orderBy is given. */
  records: ApprovalRecord[];
}

/** The first value is uint256's maximum (it must come back whole, never as a float); the others whole ethers. */
const valueOf = (i: number) => (i === 0 ? 2n ** 256n - 1n : BigInt(i) * 10n ** 18n);
const spenderOf = (i: number) => `0x${(0xb000 + i).toString(16).padStart(40, '0')}`;

/** Deploys the token from `root`/test/fixtures/contracts and sends one approveMany of `count` approvals. */
export async function makeApprovals(rpcUrl: string, root: string, count: number): Promise<Approvals> {
  const source = readFileSync(path.join(root, 'test', 'fixtures', 'contracts', 'ApprovalToken.sol'), 'utf8');
  const deployed = await deployContract(rpcUrl, compileSolidity(source, 'ApprovalToken'));
  try {
    const spenders = Array.from({ length: count }, (_, i) => spenderOf(i));
    const values = spenders.map((_, i) => valueOf(i));
    const tx = (await deployed.contract.getFunction('approveMany')(spenders, values)) as { wait(): Promise<{ hash: string; blockNumber: number; logs: { index: number }[] } | null> };
    const receipt = await tx.wait();
    if (!receipt || receipt.logs.length !== count) throw new Error(`approveMany emitted ${receipt?.logs.length ?? 0} events, not ${count}`);
    const owner = (await deployed.signer.getAddress()).toLowerCase();
    const records = receipt.logs.map((log, i) => ({ id: `${receipt.hash}-${log.index}`, owner, spender: spenders[i], value: valueOf(i).toString() }));
    records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { address: deployed.address, startBlock: deployed.block, block: receipt.blockNumber, records };
  } finally {
    deployed.close();
  }
}

/** Points a copy of the tutorial manifest at the token: its address and start block. */
export function pointManifest(manifest: string, approvals: Approvals): void {
  const text = readFileSync(manifest, 'utf8');
  const pointed = text.replace(/address: "0x[0-9a-fA-F]{40}"/, `address: "${approvals.address}"`).replace(/startBlock: \d+/, `startBlock: ${approvals.startBlock}`);
  if (pointed === text) throw new Error(`${manifest} has no address and start block to point at the token`);
  writeFileSync(manifest, pointed);
}
