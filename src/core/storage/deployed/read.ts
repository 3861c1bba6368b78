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
import { pickLayout, type DeployedLayout } from './pick';
import { detectProxy } from './proxy';

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
  const ref = parseBlockRef(refs[last]);
  let hash: string | undefined;
  let number: number;
  if (ref.kind === 'number' && ref.number <= BigInt(Number.MAX_SAFE_INTEGER)) number = Number(ref.number);
  else {
    const [block] = await resolveBlocks(rpc, [refs[last]], { roundTrips: 0, requests: 0, reads: 0 }, options.signal);
    ({ number, hash } = block);
    refs[last] = String(number);
  }
  const proxy = await detectProxy(rpc, address, number, options.signal);
  const deployed = await pickLayout(rpc, proxy, layouts, number, { chosen: options.chosen, file: options.file, signal: options.signal });
  for (const facet of deployed.unmatched) options.onWarning?.(`facet ${facet} of the diamond has the code of no contract given: its state is not decoded`);
  const reading = await readStorage(rpc, deployed.layout, refs, { ...options, address });
  const read = reading.blocks[last];
  if (hash !== undefined && read.hash !== hash) {
    throw new StorageDecodeError(`block ${number} changed while it was read (now ${read.hash}, was ${hash}): a reorganisation; run again`, 'reorg');
  }
  return { deployed, reading };
}
