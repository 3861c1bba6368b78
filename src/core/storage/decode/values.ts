/**
 * Storage words as the values they hold, by solc's type (pure; no node). Packed value types sit
 * `offset` bytes from the word's right end; integers are decimal strings (signed ones read in
 * two's complement within their own width), bool true/false, addresses EIP-55, bytesN and bytes
 * lowercase 0x-hex, enums decimal, contracts and external functions as their addresses; strings
 * and bytes follow solc's short (in the slot, length × 2 in the lowest byte) and long (length ×
 * 2 + 1, data from keccak256(slot)) forms.
 */
import { getAddress, toUtf8String, Utf8ErrorFuncs } from 'ethers';
import type { SolcType } from '../layout';

/** A decoded value as JSON: strings, booleans, arrays and objects. */
export type DecodedValue = string | boolean | null | DecodedValue[] | { [key: string]: DecodedValue };

/** What a value type is, read from solc's type label. */
export type ValueKind =
  | { kind: 'uint'; bits: number }
  | { kind: 'int'; bits: number }
  | { kind: 'bool' }
  | { kind: 'address' }
  | { kind: 'bytesN'; size: number }
  | { kind: 'enum' }
  | { kind: 'function'; external: boolean }
  /** A user-defined value type or anything else solc lays out in place: its bytes as hex. */
  | { kind: 'raw'; size: number };

export function valueKind(type: Pick<SolcType, 'label' | 'numberOfBytes'>): ValueKind {
  const label = type.label;
  const size = Number(type.numberOfBytes);
  let m: RegExpExecArray | null;
  if ((m = /^uint(\d*)$/.exec(label))) return { kind: 'uint', bits: Number(m[1] || 256) };
  if ((m = /^int(\d*)$/.exec(label))) return { kind: 'int', bits: Number(m[1] || 256) };
  if (label === 'bool') return { kind: 'bool' };
  if (label === 'address' || label === 'address payable' || label.startsWith('contract ')) return { kind: 'address' };
  if ((m = /^bytes(\d+)$/.exec(label))) return { kind: 'bytesN', size: Number(m[1]) };
  if (label.startsWith('enum ')) return { kind: 'enum' };
  if (label.startsWith('function ')) return { kind: 'function', external: / external\b/.test(label) || size === 24 };
  return { kind: 'raw', size };
}

const mask = (bytes: number) => (1n << BigInt(bytes * 8)) - 1n;

/** The `size` bytes at `offset` (from the right) of a word, as an unsigned integer. */
export function sliceBits(word: bigint, offset: number, size: number): bigint {
  return (word >> BigInt(offset * 8)) & mask(size);
}

const hexOf = (value: bigint, bytes: number) => `0x${value.toString(16).padStart(bytes * 2, '0')}`;

export function addressText(value: bigint): string {
  return getAddress(hexOf(value & mask(20), 20));
}

/** Two's complement of `bits` bits. */
export function signed(value: bigint, bits: number): bigint {
  const top = 1n << BigInt(bits - 1);
  return value >= top ? value - (1n << BigInt(bits)) : value;
}

/** A value type's own bits (already sliced out of its word) as its decoded value. */
export function decodeValueBits(kind: ValueKind, bits: bigint, size: number): DecodedValue {
  switch (kind.kind) {
    case 'uint':
    case 'enum':
      return bits.toString(10);
    case 'int':
      return signed(bits, kind.bits).toString(10);
    case 'bool':
      return bits !== 0n;
    case 'address':
      return addressText(bits);
    case 'bytesN':
      return hexOf(bits, kind.size);
    case 'function':
      // An external function is its contract's address and its selector (the lowest 4 bytes).
      return kind.external ? addressText(bits >> 32n) : hexOf(bits, size);
    case 'raw':
      return hexOf(bits, size);
  }
}

/** A packed value of `type` at `offset` of `word`. */
export function decodeValue(type: Pick<SolcType, 'label' | 'numberOfBytes'>, word: bigint, offset: number): DecodedValue {
  const size = Number(type.numberOfBytes);
  return decodeValueBits(valueKind(type), sliceBits(word, offset, size), size);
}

/** The largest string or bytes value read: longer ones are cut, with a warning. */
export const MAX_BYTES_LENGTH = 256 * 1024;

/** What the slot of a string or bytes says: short (its bytes inside) or long (its length; data elsewhere). */
export function bytesHead(word: bigint): { long: false; length: number } | { long: true; length: bigint } {
  if ((word & 1n) === 0n) return { long: false, length: Number((word & 0xffn) / 2n) };
  return { long: true, length: (word - 1n) / 2n };
}

/** The data of a short string or bytes: left-aligned in its slot. */
export function shortBytes(word: bigint, length: number): Uint8Array {
  const all = wordBytes(word);
  return all.subarray(0, Math.min(length, 31));
}

export function wordBytes(word: bigint): Uint8Array {
  const hex = word.toString(16).padStart(64, '0');
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The data of a long string or bytes: `length` bytes from its data words, in order. */
export function longBytes(words: readonly bigint[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < words.length && i * 32 < length; i++) out.set(wordBytes(words[i]).subarray(0, Math.min(32, length - i * 32)), i * 32);
  return out;
}

/** A string's bytes as text (invalid UTF-8 replaced, as solc does not check it), bytes as 0x-hex. */
export function bytesValue(isString: boolean, data: Uint8Array): string {
  if (isString) return toUtf8String(data, Utf8ErrorFuncs.replace);
  return `0x${Buffer.from(data).toString('hex')}`;
}

/** A type's zero value: "0", false, the zero address, zero bytes, "", "0x". */
export function zeroValue(type: SolcType): DecodedValue {
  if (type.encoding === 'bytes') return type.label === 'string' ? '' : '0x';
  return decodeValue(type, 0n, 0);
}
