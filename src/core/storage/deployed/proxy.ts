/**
 * What kind of proxy an address is at a block, and where its logic lives: ERC-1967 (the
 * implementation, admin and beacon slots; a beacon's `implementation()`), ERC-1822 UUPS (the
 * PROXIABLE slot), ERC-1167 minimal clones (the address in the code), OpenZeppelin's pre-1967
 * transparent proxies (the zeppelinos slots) and ERC-2535 diamonds (the loupe's facetAddresses()).
 *
 * One JSON-RPC batch asks for the code, every proxy slot and the loupe; a beacon proxy takes one
 * more round trip, for the beacon's answer.
 */
import { AbiCoder, getAddress, id, keccak256, toUtf8Bytes } from 'ethers';
import type { RpcCall } from '../../rpc/types';
import { minimalHex, word } from '../inputs';
import { EIP1967_ADMIN_SLOT, EIP1967_BEACON_SLOT, EIP1967_IMPLEMENTATION_SLOT, wordAsAddress } from '../slots';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from '../decode/errors';

/** ERC-1822: keccak256("PROXIABLE"), the implementation's address (no −1, unlike ERC-1967). */
export const PROXIABLE_SLOT = keccak256(toUtf8Bytes('PROXIABLE'));
/** OpenZeppelin's proxies before ERC-1967 (zos, OpenZeppelin 2.x): keccak256 of the name, no −1. */
export const ZEPPELINOS_IMPLEMENTATION_SLOT = keccak256(toUtf8Bytes('org.zeppelinos.proxy.implementation'));
export const ZEPPELINOS_ADMIN_SLOT = keccak256(toUtf8Bytes('org.zeppelinos.proxy.admin'));

/** The labels of the three elements an ERC-1967 proxy's decode adds, with their slots. */
export const EIP1967_ELEMENTS = [
  { label: 'eip1967.proxy.implementation', slot: EIP1967_IMPLEMENTATION_SLOT },
  { label: 'eip1967.proxy.admin', slot: EIP1967_ADMIN_SLOT },
  { label: 'eip1967.proxy.beacon', slot: EIP1967_BEACON_SLOT },
] as const;

const selector = (signature: string) => id(signature).slice(0, 10);
const FACET_ADDRESSES = selector('facetAddresses()');
const IMPLEMENTATION = selector('implementation()');
/** More facets than any diamond has: an answer beyond it is not a loupe's. */
const MAX_FACETS = 256;
/** The hex digits of an ABI address[] of MAX_FACETS: offset, length, one word each. */
const MAX_LIST_DIGITS = (2 + MAX_FACETS) * 64;

/** ERC-1167's runtime code around the implementation's 20 bytes; and ERC-7511's, with PUSH0. */
const CLONE_CODES: readonly [string, string][] = [
  ['363d3d373d3d3d363d73', '5af43d82803e903d91602b57fd5bf3'],
  ['365f5f375f5f365f73', '5af43d5f5f3e5f3d91602a57fd5bf3'],
];

export type ProxyKind = 'none' | 'erc1967' | 'beacon' | 'erc1822' | 'zeppelinos' | 'clone' | 'diamond';

export interface ProxyInfo {
  kind: ProxyKind;
  /** The address looked at (checksummed). */
  address: string;
  /** The address's own code at the block. */
  code: string;
  /** Where the logic is (checksummed): the implementation, the beacon's implementation, the clone's target. Not for a diamond. */
  implementation?: string;
  admin?: string;
  beacon?: string;
  /** Why a beacon proxy has no implementation: its beacon's implementation() failed or answered no address. */
  beaconFailure?: string;
  /** A diamond's facets, as the loupe lists them. */
  facets?: string[];
}

/** The implementation an ERC-1167 (or ERC-7511) minimal clone's code delegates to, or undefined. */
export function cloneTarget(code: string): string | undefined {
  const hex = code.replace(/^0x/i, '').toLowerCase();
  for (const [head, tail] of CLONE_CODES) {
    if (hex.length === head.length + 40 + tail.length && hex.startsWith(head) && hex.endsWith(tail)) return getAddress(`0x${hex.slice(head.length, head.length + 40)}`);
  }
  return undefined;
}

/** Whether an eth_getCode answer is code: 0x and hex digits (no repeated group: it may be megabytes). */
const isCode = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v);

/** The addresses an eth_call answered as an ABI-encoded address[], or undefined when it is none. */
export function addressList(result: unknown): string[] | undefined {
  // Length first: a node may answer megabytes, and a repeated group over them overflows the regex engine's stack.
  if (typeof result !== 'string' || result.length > 2 + MAX_LIST_DIGITS || (result.length - 2) % 64 !== 0 || !/^0x[0-9a-fA-F]+$/.test(result)) return undefined;
  try {
    const [list] = AbiCoder.defaultAbiCoder().decode(['address[]'], result) as unknown as [string[]];
    return list.length > 0 && list.length <= MAX_FACETS ? list.map((a) => getAddress(a)) : undefined;
  } catch {
    return undefined; // not an address[]
  }
}

/** An eth_call answer that is one address (a beacon's implementation()), or undefined. */
function addressResult(result: unknown): string | undefined {
  return typeof result === 'string' && /^0x[0-9a-fA-F]{64}$/.test(result) ? wordAsAddress(result) : undefined;
}

const SLOTS = [EIP1967_IMPLEMENTATION_SLOT, EIP1967_ADMIN_SLOT, EIP1967_BEACON_SLOT, PROXIABLE_SLOT, ZEPPELINOS_IMPLEMENTATION_SLOT, ZEPPELINOS_ADMIN_SLOT];

/** Sends calls as one batch; each answer its result, or undefined where the node answered an error. */
async function answers(rpc: StorageRpc, calls: RpcCall[], signal?: AbortSignal): Promise<{ ok: boolean; result: unknown; error?: string }[]> {
  const items = await rpc.batch(calls, { signal });
  return calls.map((_, i) => {
    const item = items[i];
    if (item && !('error' in item)) return { ok: true, result: item.result };
    return { ok: false, result: undefined, error: item && 'error' in item ? item.error.message : 'no answer' };
  });
}

/** What the address is at block `block` (a number): its code, and where its logic is when it is a proxy. */
export async function detectProxy(rpc: StorageRpc, address: string, block: number, signal?: AbortSignal): Promise<ProxyInfo> {
  const at = minimalHex(BigInt(block));
  const calls: RpcCall[] = [
    { method: 'eth_getCode', params: [address, at] },
    ...SLOTS.map((slot) => ({ method: 'eth_getStorageAt', params: [address, word(BigInt(slot)), at] })),
    { method: 'eth_call', params: [{ to: address, data: FACET_ADDRESSES }, at] },
  ];
  const [code, ...rest] = await answers(rpc, calls, signal);
  if (!code.ok || !isCode(code.result)) throw new StorageDecodeError(`eth_getCode of ${address} at block ${block} failed: ${code.error ?? 'not code'}`, 'read');
  // A slot the node did not read is no reason to take a proxy for a plain contract: say so.
  rest.slice(0, SLOTS.length).forEach((a, i) => {
    if (!a.ok || typeof a.result !== 'string' || !/^0x[0-9a-fA-F]{0,64}$/.test(a.result))
      throw new StorageDecodeError(`eth_getStorageAt of ${getAddress(address)}'s proxy slot ${SLOTS[i]} at block ${block} failed: ${a.error ?? 'not a storage word'}`, 'read');
  });
  const [impl, admin, beacon, proxiable, zosImpl, zosAdmin, loupe] = rest;
  const slot = (a: { result: unknown }) => wordAsAddress(a.result as string);
  const info: ProxyInfo = { kind: 'none', address: getAddress(address), code: code.result };
  if (/^0x0*$/.test(code.result)) return info;
  const erc1967 = { implementation: slot(impl), admin: slot(admin), beacon: slot(beacon) };
  if (erc1967.beacon) {
    const [answer] = await answers(rpc, [{ method: 'eth_call', params: [{ to: erc1967.beacon, data: IMPLEMENTATION }, at] }], signal);
    const implementation = addressResult(answer.result);
    // Still a beacon proxy: its own slots decode with a layout the user names; only a pick by code needs the implementation.
    if (!implementation)
      return {
        ...info,
        kind: 'beacon',
        admin: erc1967.admin,
        beacon: erc1967.beacon,
        beaconFailure: `its beacon ${erc1967.beacon} answered no implementation() at block ${block}${answer.error ? ` (${answer.error})` : ''}`,
      };
    return { ...info, kind: 'beacon', implementation, admin: erc1967.admin, beacon: erc1967.beacon };
  }
  if (erc1967.implementation) return { ...info, kind: 'erc1967', ...erc1967 };
  const uups = slot(proxiable);
  if (uups) return { ...info, kind: 'erc1822', implementation: uups };
  const zos = slot(zosImpl);
  if (zos) return { ...info, kind: 'zeppelinos', implementation: zos, admin: slot(zosAdmin) };
  // After the slots: a clone of a proxy runs the proxy's code over the clone's own storage, so its slots say where the logic is.
  const target = cloneTarget(code.result);
  if (target) return { ...info, kind: 'clone', implementation: target };
  const facets = loupe.ok ? addressList(loupe.result) : undefined;
  if (facets) return { ...info, kind: 'diamond', facets };
  return info;
}

/** Whether the decode shows the three eip1967.proxy.* elements: on a proxy that keeps its logic in the ERC-1967 slots. */
export function hasEip1967Slots(info: Pick<ProxyInfo, 'kind'>): boolean {
  return info.kind === 'erc1967' || info.kind === 'beacon';
}

/** The proxy as the user reads it: "ERC-1967 proxy → implementation 0x… (Points)", with the names of the layouts picked. */
export function describeProxy(info: ProxyInfo, names: readonly string[] = []): string | undefined {
  const named = names.length ? ` (${names.join(', ')})` : '';
  switch (info.kind) {
    case 'none':
      return undefined;
    case 'erc1967':
      return `ERC-1967 proxy → implementation ${info.implementation}${named}`;
    case 'beacon':
      return `beacon proxy → beacon ${info.beacon} → ${info.implementation ? `implementation ${info.implementation}` : 'no implementation'}${named}`;
    case 'erc1822':
      return `ERC-1822 (UUPS) proxy → implementation ${info.implementation}${named}`;
    case 'zeppelinos':
      return `zeppelinos proxy → implementation ${info.implementation}${named}`;
    case 'clone':
      return `ERC-1167 clone → ${info.implementation}${named}`;
    case 'diamond':
      return `diamond with ${info.facets!.length} facet${info.facets!.length === 1 ? '' : 's'}${named}`;
  }
}
