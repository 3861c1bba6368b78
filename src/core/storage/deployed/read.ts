/**
 * Decoding storage as deployed: the address is looked at first (detectProxy: one round trip),
 * the layout picked for what is there (pickLayout: one more at a proxy whose implementation's
 * code must be matched), then the storage read with it (readStorage). The detection happens at
 * the last block asked for, as a number, so that every read is of one state.
 */
import { normaliseAddress, parseBlockRef } from '../inputs';
import type { ContractLayout } from '../layout';
import type { StorageRpc } from '../types';
import { readStorage, resolveBlocks, type StorageReadOptions, type StorageReading } from '../decode/decode';
import { StorageDecodeError } from '../decode/errors';
import { matchLogic, pickLayout, type DeployedLayout } from './pick';
import { detectProxy, type ProxyInfo } from './proxy';

export interface DeployedReading {
  deployed: DeployedLayout;
  reading: StorageReading;
}

export interface DeployedOptions extends StorageReadOptions {
  /** The layout the user named (--contract); without it, picked by code among `layouts`. */
  chosen?: ContractLayout;
  /** Where the layouts came from, for the message when none matches. */
  file?: string;
}

/**
 * The proxy (or plain contract) at the last of `blockRefs`, the layout for it, and its storage
 * decoded at every block. A block given by tag or hash is looked up first, and the reads pinned
 * to its number (a hash checked against the reading's).
 */
export async function readDeployed(rpc: StorageRpc, layouts: readonly ContractLayout[], blockRefs: readonly string[], options: DeployedOptions): Promise<DeployedReading> {
  const address = normaliseAddress(options.address);
  const refs = [...blockRefs];
  const last = refs.length - 1;
  const { proxy, block } = await detectAt(rpc, address, refs[last], options.signal);
  refs[last] = String(block.number);
  const deployed = await pickLayout(rpc, proxy, layouts, block.number, { chosen: options.chosen, file: options.file, signal: options.signal });
  for (const facet of deployed.unmatched) options.onWarning?.(`facet ${facet} of the diamond has the code of no contract given: its state is not decoded`);
  const reading = await readStorage(rpc, deployed.layout, refs, { ...options, address });
  const read = reading.blocks[last];
  if (block.hash !== undefined && read.hash !== block.hash) {
    throw new StorageDecodeError(`block ${block.number} changed while it was read (now ${read.hash}, was ${block.hash}): a reorganisation; run again`, 'reorg');
  }
  return { deployed, reading };
}

/**
 * What is at `address` at block `ref`: the block's number (looked up first unless given as a
 * number; its hash then too) and the proxy detection there.
 */
export async function detectAt(rpc: StorageRpc, address: string, ref: string, signal?: AbortSignal): Promise<{ proxy: ProxyInfo; block: { number: number; hash?: string } }> {
  const parsed = parseBlockRef(ref);
  const block =
    parsed.kind === 'number' && parsed.number <= BigInt(Number.MAX_SAFE_INTEGER)
      ? { number: Number(parsed.number) }
      : (await resolveBlocks(rpc, [ref], { roundTrips: 0, requests: 0, reads: 0 }, signal))[0];
  return { proxy: await detectProxy(rpc, normaliseAddress(address), block.number, signal), block };
}

/**
 * For a front end that lets the user choose: what is at `address` and, per logic address (the
 * implementation, each facet, or the address itself), the layouts whose code it has.
 */
export async function matchDeployed(
  rpc: StorageRpc,
  address: string,
  layouts: readonly ContractLayout[],
  ref = 'latest',
  signal?: AbortSignal,
): Promise<{ proxy: ProxyInfo; matched: ContractLayout[][] }> {
  const { proxy, block } = await detectAt(rpc, address, ref, signal);
  return { proxy, matched: await matchLogic(rpc, proxy, layouts, block.number, signal) };
}
