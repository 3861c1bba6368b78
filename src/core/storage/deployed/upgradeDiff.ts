/**
 * A diff across an upgrade: when the implementation behind an ERC-1967 proxy differs between the
 * two blocks, each side is decoded with the layout of the implementation live there (picked by
 * its deployed code among the layouts at hand) and leaves are compared by path; a leaf that one
 * layout has and the other not (a member V2 appends) shows null on the side without it.
 */
import type { BlockInfo } from '../block';
import { codeMatches } from '../deployedCode';
import { leaves, readStorage, resolveBlocks, type LeafChange, type StorageReadOptions, type StorageReading } from '../decode/decode';
import { StorageDecodeError } from '../decode/errors';
import type { ReadStats } from '../decode/read';
import { minimalHex, normaliseAddress, word } from '../inputs';
import type { ContractLayout } from '../layout';
import { EIP1967_BEACON_SLOT, EIP1967_IMPLEMENTATION_SLOT } from '../slots';
import type { StorageRpc } from '../types';
import { upgradeHistory, type Upgrade } from './upgrades';

/** The selector of `implementation()`, which a beacon answers. */
const IMPLEMENTATION_SELECTOR = '0x5c60da1b';
const ZERO = `0x${'0'.repeat(40)}`;

/** What the proxy ran at one side of a diff. */
export interface Side {
  block: BlockInfo;
  /** EIP-55; the zero address when the proxy slot is empty. */
  implementation: string;
  beacon?: string;
  /** The layout whose deployed code is the implementation's, when one at hand is. */
  layout?: ContractLayout;
}

export interface ImplementationChange {
  proxy: string;
  before: Side;
  after: Side;
  /** The upgrade events between the two blocks (after the earlier, up to the later), in chain order. */
  upgrades: Upgrade[];
  warnings: string[];
}

const addressOf = (value: unknown) =>
  typeof value === 'string' && /^0x[0-9a-f]{0,64}$/i.test(value) ? normaliseAddress(`0x${word(BigInt(value === '0x' ? 0 : value)).slice(-40)}`) : undefined;

function answer(item: { result: unknown } | { error: { message: string } }, what: string): unknown {
  if ('error' in item) throw new StorageDecodeError(`${what} failed: ${item.error.message}`, 'read');
  return item.result;
}

/**
 * The implementation behind `proxy` at blocks `from` and `to` (the ERC-1967 slot, or its beacon's
 * `implementation()`); undefined when it is the same at both (or the address is no ERC-1967
 * proxy). When it differs: each side's layout among `layouts` by code, and the upgrades between.
 */
export async function implementationChange(
  rpc: StorageRpc,
  proxy: string,
  from: string,
  to: string,
  layouts: readonly ContractLayout[],
  options: { contract?: (l: ContractLayout) => boolean; signal?: AbortSignal; stats?: ReadStats } = {},
): Promise<ImplementationChange | undefined> {
  const address = normaliseAddress(proxy);
  const { signal } = options;
  const stats = options.stats ?? { roundTrips: 0, requests: 0, reads: 0 };
  const blocks = await resolveBlocks(rpc, [from, to], stats, signal);
  const at = (b: BlockInfo) => minimalHex(BigInt(b.number));
  const slots = await rpc.batch(
    blocks.flatMap((b) => [EIP1967_IMPLEMENTATION_SLOT, EIP1967_BEACON_SLOT].map((slot) => ({ method: 'eth_getStorageAt', params: [address, slot, at(b)] }))),
    { signal },
  );
  stats.roundTrips++;
  stats.requests++;
  stats.reads += slots.length;
  const sides = blocks.map((block, i) => {
    const implementation = addressOf(answer(slots[2 * i], `reading the ERC-1967 implementation slot of ${address} at block ${block.number}`)) ?? ZERO;
    const beacon = addressOf(answer(slots[2 * i + 1], `reading the ERC-1967 beacon slot of ${address} at block ${block.number}`)) ?? ZERO;
    return { block, implementation, beacon: beacon === ZERO ? undefined : beacon } as Side;
  });
  // A beacon proxy runs what its beacon answers.
  const asked = sides.filter((s) => s.beacon && s.implementation === ZERO);
  if (asked.length) {
    const items = await rpc.batch(
      asked.map((s) => ({ method: 'eth_call', params: [{ to: s.beacon, data: IMPLEMENTATION_SELECTOR }, at(s.block)] })),
      { signal },
    );
    stats.roundTrips++;
    stats.requests++;
    asked.forEach((s, i) => (s.implementation = addressOf(answer(items[i], `asking beacon ${s.beacon} for its implementation at block ${s.block.number}`)) ?? ZERO));
  }
  const [before, after] = sides;
  if (before.implementation === after.implementation) return undefined;
  const live = sides.filter((s) => s.implementation !== ZERO);
  const codes = await rpc.batch(
    live.map((s) => ({ method: 'eth_getCode', params: [s.implementation, at(s.block)] })),
    { signal },
  );
  stats.roundTrips++;
  stats.requests++;
  live.forEach((s, i) => {
    const code = answer(codes[i], `eth_getCode of ${s.implementation} at block ${s.block.number}`);
    const matches = typeof code === 'string' ? layouts.filter((l) => codeMatches(code, l)) : [];
    s.layout = matches.find((l) => options.contract?.(l)) ?? matches[0];
  });
  const low = Math.min(before.block.number, after.block.number);
  const high = Math.max(before.block.number, after.block.number);
  const history = await upgradeHistory(rpc, address, high, signal);
  stats.requests += history.requests;
  return { proxy: address, before, after, upgrades: history.upgrades.filter((u) => u.block > low && u.block <= high), warnings: history.warnings };
}

/** A side's implementation as a message names it: the address, and the contract whose code it is. */
function named(side: Side): string {
  return side.layout ? `${side.implementation} (${side.layout.contractName})` : side.implementation;
}

/** "The implementation of 0x… changed from 0x… (V1) to 0x… (V2) at block N": one line, for stderr and the editor's log. */
export function changeLine(change: ImplementationChange): string {
  const { before, after, upgrades } = change;
  const last = upgrades.at(-1);
  const when = !last
    ? `between blocks ${before.block.number} and ${after.block.number} (no Upgraded event was found)`
    : upgrades.length === 1
      ? `at block ${last.block}${last.tx ? ` (transaction ${last.tx})` : ''}`
      : `in ${upgrades.length} upgrades between blocks ${before.block.number} and ${after.block.number}, the last at block ${last.block}`;
  return `the implementation of ${change.proxy} changed from ${named(before)} to ${named(after)} ${when}`;
}

export interface UpgradeDiff {
  from: BlockInfo;
  to: BlockInfo;
  changes: LeafChange[];
  /** Paths of changed leaves only the earlier layout has (after is null), and only the later one (before is null). */
  onlyBefore: string[];
  onlyAfter: string[];
  warnings: string[];
  stats: ReadStats;
}

/**
 * Decodes each side with its own layout, both at both blocks (so a mapping entry or an array
 * element present at one block only is compared with its zero or absence at the other, as a plain
 * diff does), and compares the earlier side's values with the later side's, leaf by path.
 */
export async function diffAcrossUpgrade(rpc: StorageRpc, change: ImplementationChange, options: StorageReadOptions): Promise<UpgradeDiff> {
  const { before, after } = change;
  if (!before.layout || !after.layout) throw new StorageDecodeError(`${changeLine(change)}; the layouts to decode both sides are not at hand`, 'read');
  const blocks = [String(before.block.number), String(after.block.number)];
  const [early, late] = await Promise.all([readStorage(rpc, before.layout, blocks, options), readStorage(rpc, after.layout, blocks, options)]);
  const merged = mergeLeaves(early, late);
  const stats = { roundTrips: Math.max(early.stats.roundTrips, late.stats.roundTrips), requests: early.stats.requests + late.stats.requests, reads: early.stats.reads + late.stats.reads };
  return { from: early.blocks[0], to: late.blocks[1], ...merged, warnings: [...new Set([...early.warnings, ...late.warnings])], stats };
}

/** The changed leaves between the earlier reading's first state and the later reading's second, by path, in the later layout's order (leaves only the earlier has where they stood). */
export function mergeLeaves(early: Pick<StorageReading, 'variables'>, late: Pick<StorageReading, 'variables'>): Pick<UpgradeDiff, 'changes' | 'onlyBefore' | 'onlyAfter'> {
  const flat = (r: Pick<StorageReading, 'variables'>) => r.variables.flatMap((v) => leaves(v.node, v.label, 2));
  const a = flat(early);
  const b = flat(late);
  const inA = new Map(a.map((l, i) => [l.path, i]));
  const inB = new Set(b.map((l) => l.path));
  const changes: LeafChange[] = [];
  const onlyBefore: string[] = [];
  const onlyAfter: string[] = [];
  const push = (c: LeafChange) => {
    if (JSON.stringify(c.before) !== JSON.stringify(c.after)) changes.push(c);
  };
  let next = 0;
  const flushBefore = (upTo: number) => {
    for (; next < upTo; next++) {
      const l = a[next];
      if (inB.has(l.path)) continue;
      const c = { path: l.path, slot: l.slot, before: l.values[0], after: null };
      if (c.before !== null) onlyBefore.push(l.path);
      push(c);
    }
  };
  for (const l of b) {
    const j = inA.get(l.path);
    if (j === undefined) {
      const c = { path: l.path, slot: l.slot, before: null, after: l.values[1] };
      if (c.after !== null) onlyAfter.push(l.path);
      push(c);
      continue;
    }
    flushBefore(j);
    next = Math.max(next, j + 1);
    push({ path: l.path, slot: l.slot, before: a[j].values[0], after: l.values[1] });
  }
  flushBefore(a.length);
  return { changes, onlyBefore, onlyAfter };
}
