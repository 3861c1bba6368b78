/**
 * A storage range as the panel's table: one row per entry, sorted by key, each value decoded the
 * ways core knows (decimal, address, short text) and labelled with its variable when a storage
 * layout matched. Also the banner's plain-words caveats of the mode used.
 */
import { inertText } from '../inert';
import type { TableColumn, TableData } from '../table/table';
import type { StorageRangeResult } from './range';
import { decodeWord } from './slots';
import type { StorageEntry } from './types';

export interface RangeView {
  mode: 'native' | 'emulate';
  storage: Record<string, StorageEntry>;
}

const COLUMNS: Record<string, TableColumn> = {
  slot: { id: 'slot', title: 'Slot', width: 130, description: 'The slot number (emulation reads plain slots)' },
  hashedSlot: { id: 'slot', title: 'Slot (hashed)', width: 260, description: 'keccak256 of the slot: the key debug_storageRangeAt returns' },
  preimage: { id: 'preimage', title: 'Preimage', width: 200, truncate: 'start', description: 'The plain slot, when the node knows it' },
  variable: { id: 'variable', title: 'Variable', width: 180, description: 'From the storage layout of the matched contract' },
  value: { id: 'value', title: 'Value', width: 260, truncate: 'start', description: '32-byte value, hex (click to copy it whole)' },
  decimal: { id: 'decimal', title: 'Decimal', width: 180, description: 'The value as an unsigned integer' },
  address: { id: 'address', title: 'Address', width: 330, description: 'The value as an address, when it looks like one' },
  text: { id: 'text', title: 'Text', width: 180, description: 'The value as a short string, when it reads as one' },
};

/**
 * The table of a range. `label` names the variable at a plain slot (from a storage layout); a
 * native entry is labelled through its preimage, when the node knows it.
 */
export function rangeTable(range: RangeView, label?: (slot: string) => string | undefined): TableData {
  const native = range.mode === 'native';
  const entries = Object.entries(range.storage).sort(([a], [b]) => compareHex(a, b));
  const labelOf = (slot: string, entry: StorageEntry) => {
    const plain = native ? entry.key : slot;
    return (plain && label?.(plain)) ?? '';
  };
  const columns = [
    native ? COLUMNS.hashedSlot : COLUMNS.slot,
    ...(native ? [COLUMNS.preimage] : []),
    ...(label ? [COLUMNS.variable] : []),
    COLUMNS.value,
    COLUMNS.decimal,
    COLUMNS.address,
    COLUMNS.text,
  ];
  const rows = entries.map(([slot, entry]) => {
    const decoded = decodeWord(entry.value);
    return [
      slot,
      ...(native ? [entry.key ?? ''] : []),
      ...(label ? [labelOf(slot, entry)] : []),
      decoded.hex,
      decoded.decimal,
      decoded.address ?? '',
      decoded.text ?? '',
      // Keys and values come from the node: whatever it sent, the cells hold no control sequences.
    ].map(inertText);
  });
  return { columns, rows };
}

/** The caveats of the mode used, in plain words, for the banner; `txIndex` as the user gave it (undefined: none). */
export function modeNotes(result: Pick<StorageRangeResult, 'mode' | 'nativeUnavailable' | 'emulation'>, txIndex: number | undefined): string[] {
  if (result.mode === 'native') {
    return [
      `Slots are hashed keys (keccak256 of the slot), in ascending order; the preimage is the plain slot when the node knows it.`,
      `State before transaction ${txIndex ?? 0} of the block.`,
    ];
  }
  return [
    ...(result.nativeUnavailable !== undefined ? [`debug_storageRangeAt is not available on this node (${result.nativeUnavailable}), so the range was emulated.`] : []),
    txIndex === undefined ? 'Reads show end-of-block state.' : `Tx index ${txIndex} ignored: reads show end-of-block state.`,
    'Mapping and dynamic-array slots are invisible unless you compute them — use the slot tools (Chaindeck: Compute Mapping Slot…, Compute Array Element Slot…).',
    `Slower: ${result.emulation?.reads ?? 'many'} reads (eth_getStorageAt, one per slot) for this page, where the native method needs one call.`,
  ];
}

function compareHex(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
