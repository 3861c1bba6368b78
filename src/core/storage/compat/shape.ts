/**
 * What a storage type means for the layout, apart from the compiler's ids (which carry AST
 * numbers that change with every edit): a struct by its members (name, type, place), a mapping
 * by its key and value, an array by its base and length, a value type by what it stores.
 */
import { staticLength, typeOf, type SolcType } from '../layout';

/** Type nesting followed at most (solc's own types nest a few levels). */
const MAX_DEPTH = 64;

/** A type of one layout: its id and the layout's types. */
export interface TypeRef {
  types: Record<string, SolcType>;
  id: string;
}

/**
 * The layout meaning of a type as text: equal texts lay out equally. An address and a contract
 * type store the same 20 bytes; string and bytes the same encoding; an enum its members (from the
 * AST, enums.ts), or its size when they are unknown; a user-defined value type its size (solc's
 * layout does not name the underlying type).
 */
export function typeShape(ref: TypeRef): string {
  return shapeOf(ref.types, ref.id, []);
}

function shapeOf(types: Record<string, SolcType>, id: string, open: string[]): string {
  const t = typeOf(types, id);
  if (!t) return id.replace(/\)\d+/g, ')');
  if (open.includes(id)) return `recursive ${t.label}`; // a struct that holds itself through a mapping or array
  if (open.length > MAX_DEPTH) return `deep ${id}`; // a file written to nest without end: compared by id below this
  const inner = (child: string | undefined) => shapeOf(types, child ?? '', [...open, id]);
  switch (t.encoding) {
    case 'mapping':
      return `mapping(${inner(t.key)} => ${inner(t.value)})`;
    case 'dynamic_array':
      return `${inner(t.base)}[]`;
    case 'bytes':
      return 'bytes';
    default:
      if (t.members) return `struct{${t.members.map((m) => `${m.label}: ${inner(m.type)} @${m.slot}/${m.offset}`).join('; ')}}`;
      if (t.base !== undefined) return `${inner(t.base)}[${staticLength(id)}]`;
      if (t.label === 'address payable' || t.label.startsWith('contract ')) return 'address';
      if (t.label.startsWith('enum ')) return t.enumMembers ? `enum{${t.enumMembers.join(', ')}}` : `enum(${t.numberOfBytes} bytes)`;
      if (id.startsWith('t_userDefinedValueType')) return `value(${t.numberOfBytes} bytes)`;
      return t.label;
  }
}

/** The struct a type is, if it is one. */
export function structOf(ref: TypeRef): SolcType | undefined {
  const t = typeOf(ref.types, ref.id);
  return t?.members ? t : undefined;
}

/** The enum a type is, if it is one. */
export function enumOf(ref: TypeRef): SolcType | undefined {
  const t = typeOf(ref.types, ref.id);
  return t?.label.startsWith('enum ') && t.encoding === 'inplace' ? t : undefined;
}

/** A storage gap by OpenZeppelin's convention: `__gap` (or `__gap_…`), a static array. */
export function isGap(label: string, ref: TypeRef): boolean {
  const t = typeOf(ref.types, ref.id);
  return /^__gap/.test(label) && t?.encoding === 'inplace' && t.base !== undefined;
}

/** A slot as a finding shows it: decimal while short, else minimal hex (a namespace's root). */
export function slotText(slot: bigint): string {
  return slot < 1n << 64n ? slot.toString(10) : `0x${slot.toString(16)}`;
}

/** "uint256 total at slot 3", "uint64 season at slot 0x… offset 8"; inside a mapping's value or an array's element "at slot +1" (from its start). */
export function describe(ref: TypeRef, label: string, slot: bigint, offset: number, relative = false): string {
  const type = typeOf(ref.types, ref.id)?.label ?? ref.id;
  return `${type} ${label} at slot ${relative ? '+' : ''}${slotText(slot)}${offset ? ` offset ${offset}` : ''}`;
}
