/**
 * Where Solidity keeps things in storage, and what a 32-byte storage word may mean:
 *  - mapping values: keccak256(h(key) ‖ slot), h = the key ABI-encoded to 32 bytes for value
 *    types (addresses and integers left-padded, intN sign-extended, bytesN right-padded), the raw
 *    bytes for string and bytes keys (spec emulation step 9);
 *  - nested mappings: the same, key after key;
 *  - dynamic arrays (and long bytes/string data): keccak256(slot) + index × slots per element;
 *  - EIP-1967 proxy slots: keccak256(label) − 1;
 *  - decodeWord: a word as hex, uint256, address and short string, for the storage table.
 * All hashing and encoding is ethers'.
 */
import { AbiCoder, concat, getAddress, getBytes, keccak256, toUtf8Bytes } from 'ethers';
import { MAX_SLOT, minimalHex, word } from './inputs';

export { minimalHex, word };

/** A slot as a bigint, a JS number, or a hex (0x…) or decimal string. */
export type SlotLike = bigint | number | string;

/** Key types of a mapping: value types (uintN, intN, bytesN 1–32, address, bool) and the dynamic string and bytes. */
export type MappingKeyType = 'address' | 'bool' | 'string' | 'bytes' | 'uint' | 'int' | `uint${number}` | `int${number}` | `bytes${number}`;

export function toSlot(slot: SlotLike): bigint {
  let value: bigint;
  if (typeof slot === 'bigint') value = slot;
  else if (typeof slot === 'number') {
    if (!Number.isSafeInteger(slot)) throw new RangeError(`Not a slot number: ${slot}`);
    value = BigInt(slot);
  } else {
    const text = slot.trim();
    if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) throw new RangeError(`Not a slot (hex with 0x, or decimal): '${slot}'`);
    value = BigInt(text);
  }
  if (value < 0n || value > MAX_SLOT) throw new RangeError(`A slot is between 0 and 2^256 − 1: ${slot}`);
  return value;
}

const VALUE_KEY = /^(address|bool|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|bytes([1-9]|[12]\d|3[0-2]))$/;

/** The key as the bytes hashed before the slot: 32 ABI-encoded bytes, or the raw bytes of a string/bytes key. */
export function mappingKeyBytes(key: unknown, keyType: MappingKeyType): Uint8Array {
  if (keyType === 'string') {
    if (typeof key !== 'string') throw new TypeError(`A string key must be a string, not ${typeof key}`);
    return toUtf8Bytes(key);
  }
  if (keyType === 'bytes') return getBytes(key as string | Uint8Array);
  if (!VALUE_KEY.test(keyType)) throw new TypeError(`Unsupported mapping key type '${keyType}': use address, bool, uintN, intN, bytesN, string or bytes`);
  const type = (keyType as string) === 'uint' ? 'uint256' : (keyType as string) === 'int' ? 'int256' : keyType;
  return getBytes(AbiCoder.defaultAbiCoder().encode([type], [key]));
}

/** The slot of `mapping[key]` for a mapping declared at `slot`, as 32-byte hex. */
export function mappingSlot(slot: SlotLike, key: unknown, keyType: MappingKeyType): string {
  return keccak256(concat([mappingKeyBytes(key, keyType), word(toSlot(slot))]));
}

/** The slot of `mapping[k1][k2]…` for nested mappings: each key applied to the previous slot. */
export function nestedMappingSlot(slot: SlotLike, keys: readonly { key: unknown; type: MappingKeyType }[]): string {
  let current: SlotLike = slot;
  for (const k of keys) current = mappingSlot(current, k.key, k.type);
  return word(toSlot(current));
}

/** A mapping key as typed (its text) and the type it is read as. */
export interface MappingKey {
  key: string;
  type: MappingKeyType;
}

/** The key types offered when computing a mapping slot, the common ones first, with what each is for. */
export const MAPPING_KEY_TYPES: readonly { type: MappingKeyType; detail: string }[] = [
  { type: 'address', detail: 'mapping(address => …), e.g. balances' },
  { type: 'uint256', detail: 'mapping(uint256 => …), e.g. token ids' },
  { type: 'bytes32', detail: 'mapping(bytes32 => …), e.g. role ids, hashes' },
  { type: 'string', detail: 'mapping(string => …): the key’s UTF-8 bytes are hashed, unpadded' },
  { type: 'bytes', detail: 'mapping(bytes => …): the key’s bytes are hashed, unpadded' },
  { type: 'bool', detail: 'mapping(bool => …)' },
  { type: 'int256', detail: 'mapping(int256 => …)' },
  ...(['uint8', 'uint16', 'uint32', 'uint64', 'uint128', 'int8', 'int32', 'int64', 'int128', 'bytes4', 'bytes20'] as MappingKeyType[]).map((type) => ({ type, detail: '' })),
];

/** A typed key as ABI-encoding takes it: only bool needs converting from its text. */
export function typedKeyValue(key: string, type: MappingKeyType): unknown {
  if (type !== 'bool') return key;
  if (/^(true|1)$/i.test(key.trim())) return true;
  if (/^(false|0)$/i.test(key.trim())) return false;
  throw new TypeError('A bool key is true or false.');
}

/** The mapping slot of typed `keys` applied in turn to the mapping at `slot`. */
export function computeMappingSlot(slot: SlotLike, keys: readonly MappingKey[]): string {
  return nestedMappingSlot(
    slot,
    keys.map((k) => ({ key: typedKeyValue(k.key, k.type), type: k.type })),
  );
}

/** Where a dynamic array's elements (or long bytes/string data) start: keccak256(slot). */
export function dynamicDataSlot(slot: SlotLike): string {
  return keccak256(word(toSlot(slot)));
}

/**
 * The first slot of element `index` of a dynamic array declared at `slot`, whose elements take
 * `elementSlots` slots each (1 for a uint256; a struct's slot count otherwise). Wraps modulo
 * 2^256 as the EVM's arithmetic does.
 */
export function arrayElementSlot(slot: SlotLike, index: SlotLike, elementSlots: number = 1): string {
  if (!Number.isSafeInteger(elementSlots) || elementSlots < 1) throw new RangeError(`elementSlots must be a positive integer, not ${elementSlots}`);
  const base = BigInt(dynamicDataSlot(slot));
  return word((base + toSlot(index) * BigInt(elementSlots)) & MAX_SLOT);
}

/** An EIP-1967 slot: keccak256(label) − 1, so no known preimage maps to it. */
export function eip1967Slot(label: string): string {
  return word(BigInt(keccak256(toUtf8Bytes(label))) - 1n);
}

/** EIP-1967: where a proxy keeps its implementation's address. */
export const EIP1967_IMPLEMENTATION_SLOT = eip1967Slot('eip1967.proxy.implementation');
/** EIP-1967: where a proxy keeps its admin's address. */
export const EIP1967_ADMIN_SLOT = eip1967Slot('eip1967.proxy.admin');
/** EIP-1967: where a beacon proxy keeps its beacon's address. */
export const EIP1967_BEACON_SLOT = eip1967Slot('eip1967.proxy.beacon');

/** What a storage word may mean, for the table. */
export interface DecodedWord {
  /** 32 bytes, lower-case, 0x-prefixed. */
  hex: string;
  /** As uint256, in decimal. */
  decimal: string;
  /** Checksum address, when the upper 12 bytes are zero and the value is no small integer (looksLikeAddress). */
  address?: string;
  /** Text, when the word is a Solidity short string or plain printable ASCII. */
  text?: string;
}

const PRINTABLE = /^[\x20-\x7e]+$/;

function ascii(bytes: Uint8Array): string | undefined {
  const text = String.fromCharCode(...bytes);
  return PRINTABLE.test(text) ? text : undefined;
}

/**
 * Values below this are read as integers, not addresses: counters, decimals, balances up to 79
 * billion ether in wei. A real address has 8 zero leading bytes (of its 20) with odds of 2^-64;
 * vanity addresses with a few zero bytes (0x00000000219a…) stay above it. Precompiles (0x…01 to
 * 0x…0a) are the known exception, and read as the small integers they are.
 */
export const MIN_ADDRESS_VALUE = 1n << 96n;

/** True when a storage word reads as an address: 20 significant bytes, not a small integer. */
export function looksLikeAddress(value: bigint): boolean {
  return value >= MIN_ADDRESS_VALUE && value < 1n << 160n;
}

/**
 * The address in a slot known to hold one (an EIP-1967 slot): any non-zero word whose upper 12
 * bytes are zero, small values included; undefined otherwise.
 */
export function wordAsAddress(hex: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{0,64}$/.test(hex)) return undefined;
  const value = BigInt(hex === '0x' ? 0 : hex);
  return value !== 0n && value < 1n << 160n ? getAddress(`0x${value.toString(16).padStart(40, '0')}`) : undefined;
}

/** A storage value (any 0x-hex of at most 32 bytes; short values are left-padded). */
export function decodeWord(hex: string): DecodedWord {
  if (!/^0x[0-9a-fA-F]{0,64}$/.test(hex)) throw new TypeError(`Not a storage word (0x and up to 64 hex digits): '${hex}'`);
  const full = `0x${hex.slice(2).toLowerCase().padStart(64, '0')}`;
  const value = BigInt(full);
  const decoded: DecodedWord = { hex: full, decimal: value.toString(10) };
  if (looksLikeAddress(value)) decoded.address = getAddress(`0x${full.slice(-40)}`);
  const bytes = getBytes(full);
  const last = bytes[31];
  // Solidity short string/bytes (< 32 bytes): data left-aligned, the last byte is 2 × length.
  if (last !== 0 && last % 2 === 0 && last / 2 <= 31 && bytes.subarray(last / 2, 31).every((b) => b === 0)) {
    const text = ascii(bytes.subarray(0, last / 2));
    if (text !== undefined) decoded.text = text;
  }
  if (decoded.text === undefined && value !== 0n) {
    // Plain ASCII left-aligned and zero-padded on the right, as a bytes32 "name" is.
    let end = 32;
    while (end > 0 && bytes[end - 1] === 0) end--;
    const text = ascii(bytes.subarray(0, end));
    if (text !== undefined) decoded.text = text;
  }
  return decoded;
}

/**
 * The `numberOfBytes` bytes at `offset` (counted from the right, as solc's storage layout counts
 * them) of a word: a packed variable's own value, as 0x-hex.
 */
export function sliceWord(hex: string, offset: number, numberOfBytes: number): string {
  const full = decodeWord(hex).hex.slice(2);
  if (!Number.isInteger(offset) || !Number.isInteger(numberOfBytes) || offset < 0 || numberOfBytes < 1 || offset + numberOfBytes > 32) {
    throw new RangeError(`A packed field lies within 32 bytes: offset ${offset}, ${numberOfBytes} bytes`);
  }
  const end = 64 - offset * 2;
  return `0x${full.slice(end - numberOfBytes * 2, end)}`;
}
