/**
 * Which layout decodes the storage at an address: at a proxy or clone, the contract whose deployed
 * code is the implementation's (the proxy's own contract is never it); at a diamond, every facet's
 * (their layouts merged, each variable and namespace once); elsewhere, the one whose code is the
 * address's. Code is compared without its metadata hash and immutables (deployedCode.ts). On an
 * ERC-1967 proxy the layout gains the three `eip1967.proxy.*` address elements, last.
 */
import { minimalHex } from '../inputs';
import { matchLayouts } from '../deployedCode';
import { layoutName, LayoutFileError, type ContractLayout, type LayoutVariable } from '../layout';
import type { StorageRpc } from '../types';
import { StorageDecodeError } from '../decode/errors';
import { describeProxy, EIP1967_ELEMENTS, hasEip1967Slots, type ProxyInfo } from './proxy';

/** The layouts a pick chooses among: those with state (interfaces and libraries have none), or all when none has. */
export function candidates(layouts: readonly ContractLayout[]): ContractLayout[] {
  const withState = layouts.filter((l) => l.storage.length > 0 || Object.keys(l.types).length > 0);
  return withState.length ? withState : [...layouts];
}

/** Where the logic of `info` is: the addresses whose code a layout must have (the implementation, or a diamond's facets); the address itself when no proxy. */
export function logicAddresses(info: ProxyInfo): string[] {
  if (info.kind === 'diamond') return info.facets ?? [];
  return info.implementation ? [info.implementation] : [];
}

/** The code of each logic address (the implementation, or every facet), asked in one round trip. */
async function logicCodes(rpc: StorageRpc, info: ProxyInfo, block: number, signal?: AbortSignal): Promise<string[]> {
  const addresses = logicAddresses(info);
  if (addresses.length === 0) return [];
  const items = await rpc.batch(
    addresses.map((a) => ({ method: 'eth_getCode', params: [a, minimalHex(BigInt(block))] })),
    { signal },
  );
  return addresses.map((a, i) => {
    const item = items[i];
    if (!item || 'error' in item)
      throw new StorageDecodeError(`eth_getCode of ${a}, the logic of the ${info.kind} proxy, failed${item && 'error' in item ? `: ${item.error.message}` : ''}`, 'read');
    return typeof item.result === 'string' ? item.result : '0x';
  });
}

/** The layouts whose code is in `codes` (logicCodes), one list per code; never the proxy's own contract. */
function matchCodes(info: ProxyInfo, layouts: readonly ContractLayout[], codes: readonly string[]): ContractLayout[][] {
  // The proxy's own contract keeps no state of the logic's: never a pick at a proxy, even where the
  // logic's code is the proxy's (a proxy pointing at itself). A diamond's own address as a facet is
  // EIP-2535's immutable functions: matched as any facet.
  const own = new Set(info.kind === 'diamond' ? [] : matchLayouts(layouts, info.code));
  const pool = layouts.filter((l) => !own.has(l));
  return codes.map((code) => matchLayouts(pool, code));
}

/**
 * The layouts whose code is the logic's, one list per logic address (one for a plain contract or a
 * proxy, one per facet for a diamond). Asks for the implementation's or the facets' code in one
 * round trip; a plain contract's code is already at hand.
 */
export async function matchLogic(rpc: StorageRpc, info: ProxyInfo, layouts: readonly ContractLayout[], block: number, signal?: AbortSignal): Promise<ContractLayout[][]> {
  if (info.kind === 'none') return [matchLayouts(layouts, info.code)];
  return matchCodes(info, layouts, await logicCodes(rpc, info, block, signal));
}

/** The contracts a match picks: the first whose code each logic address has (a diamond: one per facet), each once. */
export function pickedOf(matched: readonly ContractLayout[][]): ContractLayout[] {
  return [...new Set(matched.flatMap((m) => m.slice(0, 1)))];
}

/** Layouts merged into one (a diamond's facets): every variable and namespace once, by label and slot; the types of all. */
export function mergeLayouts(layouts: readonly ContractLayout[]): ContractLayout {
  if (layouts.length === 1) return layouts[0];
  const seen = new Set<string>();
  const storage: LayoutVariable[] = [];
  for (const l of layouts)
    for (const v of l.storage) {
      const key = `${v.label}@${v.slot}`;
      if (seen.has(key)) continue;
      seen.add(key);
      storage.push(v);
    }
  return {
    contractName: layouts.map((l) => l.contractName).join(' + '),
    source: [...new Set(layouts.map((l) => l.source))].join(', '),
    storage,
    types: Object.assign({}, ...layouts.map((l) => l.types)) as ContractLayout['types'],
    variableRanges: [],
    notes: [...new Set(layouts.flatMap((l) => l.notes ?? []))],
  };
}

/** The layout with the three eip1967.proxy.* address elements appended, at their ERC-1967 slots. */
export function withEip1967Elements(layout: ContractLayout): ContractLayout {
  const storage: LayoutVariable[] = EIP1967_ELEMENTS.map((e) => ({ label: e.label, slot: BigInt(e.slot).toString(10), offset: 0, type: 'address', typeId: 't_address', numberOfBytes: 20 }));
  return {
    ...layout,
    storage: [...layout.storage, ...storage],
    types: { ...layout.types, t_address: layout.types.t_address ?? { encoding: 'inplace', label: 'address', numberOfBytes: '20' } },
  };
}

export interface DeployedLayout {
  proxy: ProxyInfo;
  /** The contracts chosen: one, or a diamond's facets. */
  picked: ContractLayout[];
  /** What to decode with: the picked layouts merged, with the eip1967 elements on an ERC-1967 proxy. */
  layout: ContractLayout;
  /** "ERC-1967 proxy → implementation 0x… (Points)"; undefined for a plain contract. */
  description?: string;
  /** A diamond's facets whose code no layout has: their state is not decoded. */
  unmatched: string[];
}

/** The decode's layout from what was picked: merged, with the eip1967 elements when the proxy keeps them. */
export function deployedLayout(proxy: ProxyInfo, picked: ContractLayout[], unmatched: string[] = []): DeployedLayout {
  const merged = mergeLayouts(picked);
  const layout = hasEip1967Slots(proxy) ? withEip1967Elements(merged) : merged;
  return {
    proxy,
    picked,
    layout,
    description: describeProxy(
      proxy,
      picked.map((l) => l.contractName),
    ),
    unmatched,
  };
}

/**
 * For a front end that may ask: the pick when the code decides (one contract, or a diamond's
 * facets), else the choices with the contracts whose code matches first, then the rest with state.
 */
export function choicesByCode(
  proxy: ProxyInfo,
  pool: readonly ContractLayout[],
  matched: readonly ContractLayout[][],
): { picked?: ContractLayout[]; matching: ContractLayout[]; others: ContractLayout[] } {
  const matching = [...new Set(matched.flat())];
  const firsts = pickedOf(matched);
  const decided = (proxy.kind === 'diamond' && firsts.length > 0) || (matched.length === 1 && matched[0].length === 1);
  return { picked: decided ? firsts : undefined, matching, others: pool.filter((l) => !matching.includes(l) && l.storage.length > 0) };
}

/**
 * The layout of `layouts` for the proxy or contract `proxy` describes: `chosen` when the user named
 * one, the only candidate when there is one, else by code. None by code is a LayoutFileError
 * 'ambiguous' (a usage error: --contract is missing) listing the candidates.
 */
export async function pickLayout(
  rpc: StorageRpc,
  proxy: ProxyInfo,
  layouts: readonly ContractLayout[],
  block: number,
  options: { chosen?: ContractLayout; file?: string; signal?: AbortSignal } = {},
): Promise<DeployedLayout> {
  if (options.chosen) return deployedLayout(proxy, [options.chosen]);
  const pool = candidates(layouts);
  if (pool.length === 1) return deployedLayout(proxy, pool);
  if (/^0x0*$/.test(proxy.code)) throw new StorageDecodeError(`${proxy.address} has no code at block ${block}: no contract there to decode`, 'no-code');
  if (proxy.beaconFailure) throw new StorageDecodeError(`${proxy.address} is a beacon proxy, but ${proxy.beaconFailure}: name its contract with --contract`, 'read');
  const codes = proxy.kind === 'none' ? [proxy.code] : await logicCodes(rpc, proxy, block, options.signal);
  const matched = proxy.kind === 'none' ? [matchLayouts(layouts, proxy.code)] : matchCodes(proxy, layouts, codes);
  const picked = pickedOf(matched);
  const unmatched = logicAddresses(proxy).filter((_, i) => matched[i].length === 0);
  if (picked.length > 0) return deployedLayout(proxy, picked, unmatched);
  const empty = logicAddresses(proxy).filter((_, i) => /^0x0*$/.test(codes[i]));
  const why = [
    ...(empty.length ? [`${empty.join(', ')} has no code at block ${block}`] : []),
    ...(proxy.kind !== 'diamond' && logicAddresses(proxy).includes(proxy.address) ? ['the implementation is the proxy itself'] : []),
  ];
  const logic = proxy.kind === 'none' ? `deployed at ${proxy.address}` : `of ${logicAddresses(proxy).join(', ')} (${[describeProxy(proxy), ...why].join('; ')})`;
  const where = options.file ?? 'the layouts given';
  throw new LayoutFileError(`no contract in ${where} has the code ${logic}: choose one with --contract NAME or PATH:NAME (${pool.map(layoutName).join(', ')})`, 'ambiguous');
}
