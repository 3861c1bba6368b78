/**
 * A diff across an upgrade: when the implementation behind a proxy (ERC-1967, a beacon's, UUPS,
 * a clone's target) differs between the two blocks, each side is decoded with the layout of the implementation live there (picked by
 * its deployed code among the layouts at hand) and leaves are compared by path; a leaf that one
 * layout has and the other not (a member V2 appends) shows null on the side without it.
 */
import type { BlockInfo } from '../block';
import { leaves, readStorage, resolveBlocks, type LeafChange, type StorageReadOptions, type StorageReading } from '../decode/decode';
import { StorageDecodeError } from '../decode/errors';
import type { ReadStats } from '../decode/read';
import { normaliseAddress } from '../inputs';
import type { ContractLayout } from '../layout';
import type { StorageRpc } from '../types';
import { deployedLayout, matchLogic } from './pick';
import { detectProxy } from './proxy';
import { upgradeHistory, type Upgrade } from './upgrades';

/** What the proxy ran at one side of a diff. */
export interface Side {
  block: BlockInfo;
  /** EIP-55: the implementation (a beacon proxy's: its beacon's). */
  implementation: string;
  beacon?: string;
  /** The contract among the layouts at hand whose deployed code is the implementation's, when one is. */
  picked?: ContractLayout;
  /** What decodes this side: the picked contract's layout with the proxy's eip1967.proxy.* elements. */
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

/**
 * The implementation behind `proxy` at blocks `from` and `to` (detectProxy at each); undefined
 * when it is the same at both, or the address is no proxy with one implementation at both (a plain
 * contract, a diamond). When it differs: each side's contract among `layouts` by code (`chosen`
 * first, when its code is that side's), and the upgrades between.
 */
export async function implementationChange(
  rpc: StorageRpc,
  proxy: string,
  from: string,
  to: string,
  layouts: readonly ContractLayout[],
  options: { chosen?: ContractLayout; signal?: AbortSignal; stats?: ReadStats } = {},
): Promise<ImplementationChange | undefined> {
  const address = normaliseAddress(proxy);
  const { signal } = options;
  const stats = options.stats ?? { roundTrips: 0, requests: 0, reads: 0 };
  const blocks = await resolveBlocks(rpc, [from, to], stats, signal);
  const infos = await Promise.all(blocks.map((b) => detectProxy(rpc, address, b.number, signal)));
  const [a, b] = infos;
  if (!a.implementation || !b.implementation || a.implementation === b.implementation) return undefined;
  const matched = await Promise.all(infos.map((info, i) => matchLogic(rpc, info, layouts, blocks[i].number, signal)));
  const sides = infos.map((info, i): Side => {
    const matches = matched[i][0] ?? [];
    const picked = matches.find((l) => l === options.chosen) ?? matches[0];
    return { block: blocks[i], implementation: info.implementation!, beacon: info.beacon, picked, layout: picked && deployedLayout(info, [picked]).layout };
  });
  const low = Math.min(blocks[0].number, blocks[1].number);
  const high = Math.max(blocks[0].number, blocks[1].number);
  const history = await upgradeHistory(rpc, address, high, signal);
  stats.requests += history.requests;
  return { proxy: address, before: sides[0], after: sides[1], upgrades: history.upgrades.filter((u) => u.block > low && u.block <= high), warnings: history.warnings };
}

/** A side's implementation as a message names it: the address, and the contract whose code it is. */
function named(side: Side): string {
  return side.picked ? `${side.implementation} (${side.picked.contractName})` : side.implementation;
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
