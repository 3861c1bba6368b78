/**
 * The arguments of a storage-range run, checked and put in the forms the nodes take: a checksum
 * address (emulation step 3), a start key read as an integer with its 0x prefix added when
 * missing (steps 3–4), a block as a hash, a number or a tag, and the hex spellings of slots.
 * Every refusal is a StorageRangeError of reason 'input', raised before anything is sent.
 */
import { getAddress } from 'ethers';
import { StorageRangeError } from './errors';

/** The largest storage slot: keys are 32 bytes. */
export const MAX_SLOT = (1n << 256n) - 1n;

/** 32 zero bytes: the default start key. */
export const ZERO_WORD = `0x${'0'.repeat(64)}`;

/** A slot as the emulation's output writes it: minimal lower-case hex, e.g. 0x0, 0xb. */
export function minimalHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** A value as 32 bytes of lower-case hex, 0x-prefixed (64 digits). */
export function word(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}

const HEX_DIGITS = /^[0-9a-fA-F]+$/;

/**
 * The contract address in checksum form. Any case is accepted; a mixed-case address must carry a
 * valid checksum (EIP-55), since a wrong one usually means a mistyped address.
 */
export function normaliseAddress(input: string): string {
  const text = String(input).trim();
  const prefixed = /^0x/i.test(text) ? `0x${text.slice(2)}` : `0x${text}`;
  try {
    return getAddress(prefixed);
  } catch (err) {
    const why = /checksum/i.test(String((err as Error).message))
      ? 'its mixed upper and lower case is not a valid EIP-55 checksum (write it all lower case to skip the check)'
      : 'an address is 0x followed by 40 hex digits';
    throw new StorageRangeError(`Invalid address '${text}': ${why}`, 'input');
  }
}

/**
 * The start key as an integer. The key is hex, with or without its 0x prefix (added when
 * missing), up to 32 bytes; an empty key after the prefix is refused rather than read as 0.
 */
export function parseStartKey(input: string | undefined): bigint {
  if (input === undefined) return 0n;
  const text = String(input).trim();
  const digits = /^0x/i.test(text) ? text.slice(2) : text;
  if (!HEX_DIGITS.test(digits)) {
    throw new StorageRangeError(`Invalid start key '${text}': expected hex digits (0-9, a-f), with or without 0x, e.g. 0x0 or ${ZERO_WORD}`, 'input');
  }
  const value = BigInt(`0x${digits}`);
  if (value > MAX_SLOT) throw new StorageRangeError(`Invalid start key '${text}': a storage key is at most 32 bytes (64 hex digits)`, 'input');
  return value;
}

/** Max results: a positive integer (the emulation reads at most ten times as many slots). */
/**
 * The most entries one storage range may ask for: the emulation reads up to 10 × as many slots,
 * so this keeps one page at a million reads (minutes, cancellable in the editor). Larger ranges
 * are read page by page (nextKey).
 */
export const MAX_RESULTS_LIMIT = 100_000;

export function checkMaxResults(input: number | undefined): number {
  const value = input ?? 10;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_RESULTS_LIMIT) {
    throw new StorageRangeError(`Invalid max results '${String(input)}': expected an integer from 1 to ${MAX_RESULTS_LIMIT}, e.g. 10`, 'input');
  }
  return value;
}

/** Transaction index: a non-negative integer (used by the native method only). */
export function checkTxIndex(input: number | undefined): number {
  const value = input ?? 0;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StorageRangeError(`Invalid transaction index '${String(input)}': expected a non-negative integer, e.g. 0`, 'input');
  }
  return value;
}

export const BLOCK_TAGS = ['latest', 'earliest', 'safe', 'finalized'] as const;
export type BlockTag = (typeof BLOCK_TAGS)[number];

/** A block as the user named it. */
export type BlockRef = { kind: 'hash'; hash: string } | { kind: 'number'; number: bigint } | { kind: 'tag'; tag: BlockTag };

/**
 * A block hash (0x + 64 hex digits), a number (decimal, or 0x-hex shorter than a hash), or a tag
 * (latest, earliest, safe, finalized).
 */
export function parseBlockRef(input: string | number | bigint): BlockRef {
  if (typeof input === 'bigint' || typeof input === 'number') {
    if (typeof input === 'number' && !Number.isSafeInteger(input)) throw badBlock(String(input));
    if (BigInt(input) < 0n) throw badBlock(String(input));
    return { kind: 'number', number: BigInt(input) };
  }
  const text = String(input).trim();
  const lower = text.toLowerCase();
  if ((BLOCK_TAGS as readonly string[]).includes(lower)) return { kind: 'tag', tag: lower as BlockTag };
  if (/^0x[0-9a-f]{64}$/.test(lower)) return { kind: 'hash', hash: lower };
  if (/^0x[0-9a-f]{1,63}$/.test(lower)) return { kind: 'number', number: BigInt(lower) };
  if (/^\d+$/.test(text)) return { kind: 'number', number: BigInt(text) };
  throw badBlock(text);
}

function badBlock(text: string): StorageRangeError {
  return new StorageRangeError(
    `Invalid block '${text}': expected a block hash (0x followed by 64 hex digits), a block number (decimal or 0x-hex) or one of ${BLOCK_TAGS.join(', ')}`,
    'input',
  );
}

/** How a BlockRef reads in messages. */
export function describeBlock(ref: BlockRef): string {
  if (ref.kind === 'hash') return ref.hash;
  if (ref.kind === 'tag') return ref.tag;
  return `${ref.number} (${minimalHex(ref.number)})`;
}
