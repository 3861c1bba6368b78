/**
 * A contract's ERC-7201 namespaces as storage entries: for the contract and every base (base-most
 * first, as solc linearizes them), each struct tagged `@custom:storage-location erc7201:<id>`
 * becomes one entry labelled `erc7201:<id>` at the namespace root, typed by the struct, so every
 * reader of a layout (decoder, diff, slot names, editor) sees it as one more state variable.
 */
import type { LayoutVariable, SolcType } from '../layoutTypes';
import { docText, type AstIndex, type AstNode } from './ast';
import { namespaceRoot, storageLocations } from './root';
import { NamespaceTypeError, TypeBuilder } from './types';

export interface Namespaces {
  storage: LayoutVariable[];
  types: Record<string, SolcType>;
  /** What could not be laid out, one line each. */
  notes: string[];
}

/** A struct's members as the storage sees them: name, slot, offset and type, never the AST ids. */
function shape(types: Record<string, SolcType>, id: string): string {
  return JSON.stringify((types[id]?.members ?? []).map((m) => [m.label, m.slot, m.offset, types[m.type]?.label]));
}

/** The namespaces of contract definition `contract`; `contractKey` is solc's "source:Name". */
export function namespacesOf(contract: AstNode, index: AstIndex, contractKey: string): Namespaces {
  const builder = new TypeBuilder(index, contractKey);
  const storage: LayoutVariable[] = [];
  const notes: string[] = [];
  // Each base once: a hostile file may list one 200,000 times, or give no list at all.
  const listed = Array.isArray(contract.linearizedBaseContracts) ? contract.linearizedBaseContracts : [contract.id!];
  const bases = [...new Set(listed)].reverse();
  const missing: number[] = [];
  for (const baseId of bases) {
    const base = baseId === contract.id ? contract : index.get(baseId);
    if (!base) {
      missing.push(baseId);
      continue;
    }
    for (const struct of base.nodes ?? []) {
      if (struct.nodeType !== 'StructDefinition') continue;
      for (const { formula, id } of storageLocations(docText(struct))) {
        const label = `${formula}:${id}`;
        if (formula !== 'erc7201') {
          notes.push(`${label} (struct ${struct.canonicalName}) is not decoded: its formula is not ERC-7201's`);
          continue;
        }
        if (id === '') {
          notes.push(`${label} (struct ${struct.canonicalName}) is not decoded: the tag names no namespace id`);
          continue;
        }
        try {
          const t = builder.struct(struct);
          const first = storage.find((v) => v.label === label);
          if (first) {
            // Two structs at one root (two bases declare the id): one element per label, the base-most's; a different shape is said.
            if (shape(builder.types, first.typeId) !== shape(builder.types, t.id))
              notes.push(`${label} is declared by ${first.type} and by ${t.label}, laid out differently: decoded as ${first.type}`);
            continue;
          }
          storage.push({ label, slot: namespaceRoot(id).toString(10), offset: 0, type: t.label, typeId: t.id, numberOfBytes: Number(t.size) });
        } catch (err) {
          if (!(err instanceof NamespaceTypeError)) throw err;
          notes.push(`${label} (struct ${struct.canonicalName}) is not decoded: ${err.message}`);
        }
      }
    }
  }
  missing.reverse(); // as solc lists them, the contract's nearest base first
  if (missing.length === 1) notes.unshift(`${contractKey}: a base contract (AST id ${missing[0]}) is not in the AST at hand; its ERC-7201 namespaces, if any, are not decoded`);
  else if (missing.length > 1) {
    const ids = `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`;
    notes.unshift(`${contractKey}: ${missing.length} base contracts (AST ids ${ids}) are not in the AST at hand; their ERC-7201 namespaces, if any, are not decoded`);
  }
  return { storage, types: builder.types, notes };
}
