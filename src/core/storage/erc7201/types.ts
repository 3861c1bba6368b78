/**
 * solc's storage types for the type names of an AST, laid out by solc's own rules, for structs
 * solc does not lay out itself (ERC-7201 namespaces): value types packed from the right in
 * declaration order, a value that does not fit in what is left of a slot starting the next one,
 * structs and arrays (and what follows them) starting a slot of their own. Type ids and labels
 * follow solc's storageLayout (`t_struct(Name)12_storage`, `t_mapping(t_address,t_uint256)`, …) so
 * the decoder, diffs and slot names read them as they read solc's.
 */
import type { SolcStorageItem, SolcType } from '../layoutTypes';
import { AstIndex, type AstNode } from './ast';

/** A laid-out type: its id in `types`, its label, storage bytes (32 for anything not a value type) and whole size. */
export interface LaidType {
  id: string;
  label: string;
  /** solc's storageBytes: the bytes a value type takes, 32 for the others. */
  bytes: number;
  /** solc's numberOfBytes (storageBytes × storageSize). */
  size: bigint;
}

/** A type name the layout cannot be computed for; the message names the type. */
export class NamespaceTypeError extends Error {
  override readonly name = 'NamespaceTypeError';
}

/** solc escapes `$` in user identifiers inside type ids. */
const idName = (name: string) => name.replaceAll('$', () => '$$$');
const slotsOf = (t: LaidType) => (t.size + 31n) / 32n;
/** solc's bytesRequired: the bytes an enum of `members` values takes. */
const enumBytes = (members: number) => {
  let bytes = 1;
  for (let max = 256; members - 1 >= max; max *= 256) bytes++;
  return bytes;
};
const lastName = (canonical: string) => canonical.slice(canonical.lastIndexOf('.') + 1);
/** Type names nested deeper than this are refused (as the decoder refuses such layouts): a hostile AST may nest 100,000 deep. */
const MAX_DEPTH = 64;

/** Builds the types of one contract's namespaces into `types`; a struct is laid out once however often it is used. */
export class TypeBuilder {
  readonly types: Record<string, SolcType> = {};
  /** Structs laid out, or being laid out: then how many mappings and dynamic arrays were entered when it began. */
  private readonly structs = new Map<number, LaidType | { busyAt: number }>();
  /** Mappings and dynamic arrays entered: a struct met again behind more of them than when it began holds itself by reference, as solc allows. */
  private indirection = 0;
  private depth = 0;

  /** `contract` is solc's "source:Name" of the contract laid out, written into each member as solc does. */
  constructor(
    private readonly index: AstIndex,
    private readonly contract: string,
  ) {}

  private put(t: LaidType, type: Omit<SolcType, 'label' | 'numberOfBytes'>): LaidType {
    if (!Object.hasOwn(this.types, t.id)) this.types[t.id] = { ...type, label: t.label, numberOfBytes: t.size.toString(10) };
    return t;
  }

  /** The type of an AST type name; `key` for a mapping's key (string and bytes keys are memory types there). */
  of(node: AstNode | undefined, key = false): LaidType {
    if (this.depth >= MAX_DEPTH) throw new NamespaceTypeError(`its types nest more than ${MAX_DEPTH} deep`);
    this.depth++;
    try {
      return this.typeOf(node, key);
    } finally {
      this.depth--;
    }
  }

  /** The type of `node` behind a mapping or a dynamic array, where a struct may hold itself. */
  private behind(node: AstNode | undefined): LaidType {
    this.indirection++;
    try {
      return this.of(node);
    } finally {
      this.indirection--;
    }
  }

  private typeOf(node: AstNode | undefined, key: boolean): LaidType {
    switch (node?.nodeType) {
      case 'ElementaryTypeName':
        return this.elementary(node.typeDescriptions?.typeString ?? node.name ?? '', key);
      case 'UserDefinedTypeName':
        return this.userDefined(node);
      case 'ArrayTypeName':
        return this.array(node);
      case 'Mapping': {
        const k = this.of(node.keyType, true);
        const v = this.behind(node.valueType);
        const t = { id: `t_mapping(${k.id},${v.id})`, label: `mapping(${k.label} => ${v.label})`, bytes: 32, size: 32n };
        return this.put(t, { encoding: 'mapping', key: k.id, value: v.id });
      }
      case 'FunctionTypeName':
        return this.functionType(node);
      default:
        throw new NamespaceTypeError(`type ${node?.typeDescriptions?.typeString ?? node?.nodeType ?? 'unknown'} has no storage layout Chaindeck knows`);
    }
  }

  private elementary(label: string, key: boolean): LaidType {
    if (label === 'string' || label === 'bytes') {
      return this.put({ id: `t_${label}_${key ? 'memory_ptr' : 'storage'}`, label, bytes: 32, size: 32n }, { encoding: 'bytes' });
    }
    let m: RegExpExecArray | null;
    let bytes: number | undefined;
    if (label === 'bool') bytes = 1;
    else if (label === 'address' || label === 'address payable') bytes = 20;
    else if ((m = /^u?int(\d+)$/.exec(label)) || (m = /^u?fixed(\d+)x\d+$/.exec(label))) bytes = Number(m[1]) / 8;
    else if ((m = /^bytes(\d+)$/.exec(label))) bytes = Number(m[1]);
    if (bytes === undefined || !Number.isInteger(bytes) || bytes < 1 || bytes > 32) throw new NamespaceTypeError(`type ${label} has no storage layout Chaindeck knows`);
    return this.put({ id: `t_${label.replace(' ', '_')}`, label, bytes, size: BigInt(bytes) }, { encoding: 'inplace' });
  }

  private userDefined(node: AstNode): LaidType {
    const ref = node.referencedDeclaration;
    const typeString = node.typeDescriptions?.typeString ?? '';
    const def = ref === undefined ? undefined : this.index.get(ref);
    const kind = def?.nodeType ?? /^t_(contract|enum|struct|userDefinedValueType)\$/.exec(node.typeDescriptions?.typeIdentifier ?? '')?.[1];
    switch (kind) {
      case 'ContractDefinition':
      case 'contract': {
        const name = def?.name ?? typeString.replace(/^contract /, '');
        return this.put({ id: `t_contract(${idName(name)})${ref}`, label: `contract ${name}`, bytes: 20, size: 20n }, { encoding: 'inplace' });
      }
      case 'EnumDefinition':
      case 'enum': {
        // Without its definition (a Foundry file not at hand) an enum is taken to have at most 256 members: one byte.
        const canonical = def?.canonicalName ?? typeString.replace(/^enum /, '');
        const bytes = enumBytes(def?.members?.length ?? 1);
        return this.put({ id: `t_enum(${idName(def?.name ?? lastName(canonical))})${ref}`, label: `enum ${canonical}`, bytes, size: BigInt(bytes) }, { encoding: 'inplace' });
      }
      case 'UserDefinedValueTypeDefinition': {
        const under = this.of(def!.underlyingType);
        const label = def!.canonicalName ?? def!.name ?? typeString;
        return this.put({ id: `t_userDefinedValueType(${idName(def!.name ?? label)})${ref}`, label, bytes: under.bytes, size: under.size }, { encoding: 'inplace' });
      }
      case 'StructDefinition':
        return this.struct(def!);
      default:
        throw new NamespaceTypeError(`type ${typeString || 'unknown'}: its definition is not in the AST at hand`);
    }
  }

  private array(node: AstNode): LaidType {
    const length = /\[(\d*)\]$/.exec(node.typeDescriptions?.typeString ?? '')?.[1];
    if (length === undefined) throw new NamespaceTypeError(`array type ${node.typeDescriptions?.typeString ?? ''} has no length in the AST`);
    const base = length === '' ? this.behind(node.baseType) : this.of(node.baseType);
    if (length === '') {
      return this.put({ id: `t_array(${base.id})dyn_storage`, label: `${base.label}[]`, bytes: 32, size: 32n }, { encoding: 'dynamic_array', base: base.id });
    }
    const n = BigInt(length);
    const slots = base.bytes < 32 ? (n + BigInt(Math.floor(32 / base.bytes)) - 1n) / BigInt(Math.floor(32 / base.bytes)) : n * slotsOf(base);
    return this.put({ id: `t_array(${base.id})${length}_storage`, label: `${base.label}[${length}]`, bytes: 32, size: slots * 32n }, { encoding: 'inplace', base: base.id });
  }

  private functionType(node: AstNode): LaidType {
    const ids = (list?: { parameters?: AstNode[] }) => (list?.parameters ?? []).map((p) => p.typeDescriptions?.typeIdentifier ?? '').join(',');
    const external = node.visibility === 'external';
    const id = `t_function_${node.visibility}_${node.stateMutability}(${ids(node.parameterTypes)})returns(${ids(node.returnParameterTypes)})`;
    const bytes = external ? 24 : 8;
    return this.put({ id, label: node.typeDescriptions?.typeString ?? 'function', bytes, size: BigInt(bytes) }, { encoding: 'inplace' });
  }

  /** A struct laid out by solc's packing; a struct reached again inside itself through a mapping or a dynamic array is named, not laid out twice. */
  struct(def: AstNode): LaidType {
    const known = this.structs.get(def.id!);
    const id = `t_struct(${idName(def.name ?? '')})${def.id}_storage`;
    const label = `struct ${def.canonicalName ?? def.name}`;
    if (known && 'busyAt' in known) {
      if (this.indirection > known.busyAt) return { id, label, bytes: 32, size: 32n };
      throw new NamespaceTypeError(`${label} holds itself, not through a mapping or a dynamic array`);
    }
    if (known) return known;
    this.structs.set(def.id!, { busyAt: this.indirection });
    try {
      const members: SolcStorageItem[] = [];
      let slot = 0n;
      let offset = 0;
      for (const m of def.members ?? []) {
        const t = this.of(m.typeName);
        if (offset + t.bytes > 32) {
          slot++;
          offset = 0;
        }
        members.push({ astId: m.id, contract: this.contract, label: m.name ?? '', offset, slot: slot.toString(10), type: t.id });
        if (slotsOf(t) === 1n && offset + t.bytes <= 32) offset += t.bytes;
        else {
          slot += slotsOf(t);
          offset = 0;
        }
      }
      if (offset > 0) slot++;
      const laid = this.put({ id, label, bytes: 32, size: slot * 32n }, { encoding: 'inplace', members });
      this.structs.set(def.id!, laid);
      return laid;
    } catch (err) {
      this.structs.delete(def.id!); // laid out afresh when another namespace meets it
      throw err;
    }
  }
}
