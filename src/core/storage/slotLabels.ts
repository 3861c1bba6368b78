/**
 * Names for plain slot numbers from a storage layout: packed variables sharing a slot
 * ("owner, paused"), elements of fixed arrays and struct fields ("data[1]", "s.field"), a dynamic
 * array's length slot ("items.length"), and, above keccak256(slot), dynamic array elements
 * ("items[3]") and long string data ("name (data 0)"). Mapping entries cannot be named: their keys
 * are not stored.
 */
import { keccak256 } from 'ethers';
import { word } from './inputs';
import { bytesOf, slotsOf, staticLength, typeOf, type ContractLayout, type SolcStorageItem, type SolcType } from './layout';
import { toSlot, type SlotLike } from './slots';

const MAX_EXPANDED = 256;
/** How far above keccak256(slot) a slot still counts as an element of that dynamic array. */
const DYNAMIC_SPAN = 1n << 48n;

/** Names of the element(s) at relative slot `rel` of an array whose elements are of type `base`. */
function elementLabels(types: Record<string, SolcType>, name: string, base: string, rel: bigint, length: bigint | undefined): string[] {
  const b = bytesOf(types, base);
  if (b <= 16) {
    // Small elements pack several to a slot.
    const perSlot = BigInt(Math.floor(32 / b));
    const first = rel * perSlot;
    let last = first + perSlot - 1n;
    if (length !== undefined) {
      if (first >= length) return [];
      if (last >= length) last = length - 1n;
    }
    return [first === last ? `${name}[${first}]` : `${name}[${first}..${last}]`];
  }
  const per = slotsOf(types, base);
  const index = rel / per;
  if (length !== undefined && index >= length) return [];
  return labelsWithin(types, `${name}[${index}]`, base, rel % per);
}

/** Names of what lies at relative slot `rel` inside a value of type `id` named `name`. */
function labelsWithin(types: Record<string, SolcType>, name: string, id: string, rel: bigint): string[] {
  const t = typeOf(types, id);
  if (!t) return [name];
  if (t.encoding === 'inplace' && t.members) return labelsAt(types, t.members, rel, `${name}.`);
  if (t.encoding === 'inplace' && t.base) return elementLabels(types, name, t.base, rel, staticLength(id));
  if (t.encoding === 'dynamic_array') return [`${name}.length`];
  return [name];
}

/** Names of the items (top-level variables or struct members) that occupy slot `slot`. */
function labelsAt(types: Record<string, SolcType>, items: readonly SolcStorageItem[], slot: bigint, prefix = ''): string[] {
  const out: string[] = [];
  for (const item of [...items].sort((a, b) => (BigInt(a.slot) === BigInt(b.slot) ? a.offset - b.offset : BigInt(a.slot) < BigInt(b.slot) ? -1 : 1))) {
    const start = BigInt(item.slot);
    if (slot < start || slot >= start + slotsOf(types, item.type)) continue;
    out.push(...labelsWithin(types, `${prefix}${item.label}`, item.type, slot - start));
  }
  return out;
}

/** Data regions of dynamic arrays and long strings: they start at keccak256(their slot). */
interface DynamicRegion {
  base: bigint;
  name: string;
  /** Element type of an array; undefined for bytes/string data. */
  element?: string;
}

function collectRegions(types: Record<string, SolcType>, items: readonly SolcStorageItem[], baseSlot: bigint, prefix: string, out: DynamicRegion[]): void {
  for (const item of items) {
    if (out.length > MAX_EXPANDED) return;
    const slot = baseSlot + BigInt(item.slot);
    const name = `${prefix}${item.label}`;
    walkType(types, item.type, slot, name, out);
  }
}

function walkType(types: Record<string, SolcType>, id: string, slot: bigint, name: string, out: DynamicRegion[]): void {
  const t = typeOf(types, id);
  if (!t) return;
  const data = () => BigInt(keccak256(word(slot)));
  if (t.encoding === 'dynamic_array') out.push({ base: data(), name, element: t.base });
  else if (t.encoding === 'bytes') out.push({ base: data(), name });
  else if (t.encoding === 'inplace' && t.members) collectRegions(types, t.members, slot, `${name}.`, out);
  else if (t.encoding === 'inplace' && t.base && bytesOf(types, t.base) > 16) {
    const per = slotsOf(types, t.base);
    const n = Math.min(Number(staticLength(id)), MAX_EXPANDED);
    for (let i = 0; i < n && out.length <= MAX_EXPANDED; i++) walkType(types, t.base, slot + BigInt(i) * per, `${name}[${i}]`, out);
  }
}

/** A function naming slots of one layout; build it once per layout, call it per slot. */
export function slotLabeller(layout: Pick<ContractLayout, 'storage' | 'types'>): (slot: SlotLike) => string | undefined {
  const items: SolcStorageItem[] = layout.storage.map((v) => ({ label: v.label, slot: v.slot, offset: v.offset, type: v.typeId }));
  const regions: DynamicRegion[] = [];
  collectRegions(layout.types, items, 0n, '', regions);
  return (slotLike) => {
    const slot = toSlot(slotLike);
    const plain = labelsAt(layout.types, items, slot);
    if (plain.length) return plain.join(', ');
    for (const r of regions) {
      const d = slot - r.base;
      if (d < 0n || d >= DYNAMIC_SPAN) continue;
      const names = r.element ? elementLabels(layout.types, r.name, r.element, d, undefined) : [`${r.name} (data ${d})`];
      if (names.length) return names.join(', ');
    }
    return undefined;
  };
}

/**
 * A label per slot (keys: the slots in minimal hex, as the emulation writes them); slots the
 * layout does not name are left out.
 */
export function labelSlots(layout: Pick<ContractLayout, 'storage' | 'types'>, slots: Iterable<SlotLike>): Map<string, string> {
  const label = slotLabeller(layout);
  const out = new Map<string, string>();
  for (const s of slots) {
    const name = label(s);
    if (name !== undefined) out.set(`0x${toSlot(s).toString(16)}`, name);
  }
  return out;
}
