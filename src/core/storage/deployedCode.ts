/**
 * Which layout a deployed contract has: its eth_getCode compared with each artifact's
 * deployedBytecode, ignoring the CBOR metadata tail, immutables and library links.
 */
import type { CodeRange, ContractLayout } from './layout';
import type { StorageRpc } from './types';

/**
 * Code without its CBOR metadata tail: solc appends a CBOR map and its length as the last two
 * bytes. Left as is when the tail does not look like one.
 */
export function stripMetadata(hex: string): string {
  const code = hex.replace(/^0x/i, '').toLowerCase();
  if (code.length < 4) return code;
  const length = parseInt(code.slice(-4), 16);
  const start = code.length - 4 - length * 2;
  if (length === 0 || start < 0) return code;
  const head = parseInt(code.slice(start, start + 2), 16);
  return head >= 0xa1 && head <= 0xb7 ? code.slice(0, start) : code;
}

/**
 * Hex code with the byte ranges zeroed, in one pass: the ranges come from a file, so only whole
 * non-negative ones count, clipped to the code (a length of 10^9 would otherwise build a string
 * past JavaScript's limit, and 100,000 ranges copy the code 100,000 times).
 */
function zeroRanges(code: string, ranges: readonly CodeRange[]): string {
  const bytes = Math.floor(code.length / 2);
  const valid = ranges.filter((r) => Number.isSafeInteger(r.start) && Number.isSafeInteger(r.length) && r.start >= 0 && r.length > 0 && r.start < bytes);
  const parts: string[] = [];
  let at = 0;
  for (const r of [...valid].sort((a, b) => a.start - b.start)) {
    const start = Math.max(r.start, at);
    const end = Math.min(r.start + r.length, bytes);
    if (end <= start) continue;
    parts.push(code.slice(at * 2, start * 2), '0'.repeat((end - start) * 2));
    at = end;
  }
  parts.push(code.slice(at * 2));
  return parts.join('');
}

/** Whether deployed code (eth_getCode) is an artifact's deployedBytecode, immutables, links and metadata aside. */
export function codeMatches(onchain: string, layout: Pick<ContractLayout, 'deployedBytecode' | 'variableRanges'>): boolean {
  if (!layout.deployedBytecode) return false;
  const mask = (hex: string) => {
    const code = zeroRanges(hex.replace(/^0x/i, '').toLowerCase(), layout.variableRanges);
    // Unlinked library placeholders __$<34 hex>$__ (20 bytes), in case linkReferences were not given.
    return code.replace(/__\$[0-9a-f]{34}\$__/g, '0'.repeat(40));
  };
  const artifact = stripMetadata(mask(layout.deployedBytecode));
  const deployed = stripMetadata(mask(onchain));
  return artifact.length > 0 && artifact === deployed;
}

/** The layouts whose deployed bytecode is the code given. */
export function matchLayouts<T extends Pick<ContractLayout, 'deployedBytecode' | 'variableRanges'>>(layouts: readonly T[], code: string): T[] {
  return layouts.filter((l) => codeMatches(code, l));
}

/** Fetches the code at `address` (eth_getCode) and returns the matching layouts. */
export async function layoutsForAddress<T extends Pick<ContractLayout, 'deployedBytecode' | 'variableRanges'>>(
  rpc: Pick<StorageRpc, 'call'>,
  address: string,
  layouts: readonly T[],
  block: string = 'latest',
  signal?: AbortSignal,
): Promise<T[]> {
  const code = await rpc.call<string>('eth_getCode', [address, block], { signal });
  return typeof code === 'string' ? matchLayouts(layouts, code) : [];
}
