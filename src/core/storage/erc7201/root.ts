/**
 * EIP-7201's namespace root and the NatSpec tag that names a namespace:
 * `@custom:storage-location erc7201:<id>` on a struct definition.
 */
import { keccak256, toUtf8Bytes } from 'ethers';

const MOD = 1n << 256n;
const LOW_BYTE = 0xffn;

/** keccak256(abi.encode(uint256(keccak256(bytes(id))) - 1)) & ~bytes32(uint256(0xff)). */
export function namespaceRoot(id: string): bigint {
  const inner = (BigInt(keccak256(toUtf8Bytes(id))) - 1n + MOD) % MOD;
  return BigInt(keccak256(`0x${inner.toString(16).padStart(64, '0')}`)) & ~LOW_BYTE;
}

/** The storage locations a documentation text names, e.g. [{formula: 'erc7201', id: 'openzeppelin.storage.ERC20'}]. */
export function storageLocations(text: string): { formula: string; id: string }[] {
  return [...text.matchAll(/@custom:storage-location\s+([A-Za-z0-9_]+):(\S*)/g)].map((m) => ({ formula: m[1], id: m[2] }));
}

/** Whether source text uses the tag at all (a file without an AST is searched for it). */
export const TAG = '@custom:storage-location';
