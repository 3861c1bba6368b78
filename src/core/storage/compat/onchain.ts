/**
 * The on-chain half of an upgrade check: the storage the new layout adds (appended variables,
 * struct members, namespaces) must be zero at the contract (the proxy, whose storage the
 * implementation runs on), or the new code would start from data it never wrote.
 */
import { lookupBlock } from '../block';
import { SlotReader } from '../decode/read';
import { StorageDecodeError } from '../decode/errors';
import { minimalHex, parseBlockRef } from '../inputs';
import { sliceWord } from '../slots';
import type { StorageRpc } from '../types';
import type { AddedStorage, CompatFinding } from './rules';
import { slotText } from './shape';

/** The most slots one check reads: a huge appended array is said to be unchecked instead. */
export const MAX_CHECKED_SLOTS = 10_000;

/** One finding per added variable that already holds data at `address` (or too large to read), at the latest block. */
export async function checkAddedStorage(rpc: StorageRpc, address: string, added: readonly AddedStorage[], signal?: AbortSignal): Promise<CompatFinding[]> {
  const findings: CompatFinding[] = [];
  const wanted = new Set<bigint>();
  const checked: AddedStorage[] = [];
  for (const a of added) {
    if (a.slots > BigInt(MAX_CHECKED_SLOTS) - BigInt(wanted.size)) {
      findings.push({ kind: 'unchecked-slots', path: a.path, before: null, after: a.description, severity: 'warning' });
      continue;
    }
    for (let i = 0n; i < a.slots; i++) wanted.add(a.slot + i);
    checked.push(a);
  }
  const block = await lookupBlock(rpc, parseBlockRef('latest'), signal);
  const reader = new SlotReader(rpc, address, [block], { signal });
  const [code] = await reader.round([...wanted], [{ method: 'eth_getCode', params: [address, minimalHex(BigInt(block.number))] }]);
  if (typeof code === 'string' && /^0x0*$/.test(code)) throw new StorageDecodeError(`no contract at ${address} at block ${block.number}: its storage cannot be checked`, 'no-code');
  const at = (slot: bigint) => `0x${(reader.known.get(slot)?.[0] ?? 0n).toString(16).padStart(64, '0')}`;
  for (const a of checked) {
    const within = a.slots === 1n && a.offset + a.numberOfBytes <= 32;
    const held: string[] = [];
    for (let i = 0n; i < a.slots; i++) {
      const value = within ? sliceWord(at(a.slot), a.offset, a.numberOfBytes) : at(a.slot + i);
      if (BigInt(value) !== 0n) held.push(`slot ${slotText(a.slot + i)} holds 0x${BigInt(value).toString(16)}`);
    }
    if (held.length) {
      const more = held.length > 1 ? ` (and ${held.length - 1} more)` : '';
      findings.push({ kind: 'nonzero-slot', path: a.path, before: `${held[0]}${more} at block ${block.number}`, after: a.description, severity: 'error' });
    }
  }
  return findings;
}
