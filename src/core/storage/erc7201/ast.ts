/**
 * The parts of solc's AST that namespaces need: contract definitions (their linearized bases),
 * struct, enum and user-defined value type definitions, by id across every source unit of one
 * compilation. Source units may be handed over lazily (Foundry keeps one per artifact file):
 * a definition not found yet pulls in the next source unit from `more` until it turns up.
 */

/** Any AST node: only the fields read here are typed. */
export interface AstNode {
  id?: number;
  nodeType?: string;
  name?: string;
  canonicalName?: string;
  nodes?: AstNode[];
  members?: AstNode[];
  documentation?: { text?: string } | string | null;
  linearizedBaseContracts?: number[];
  contractKind?: string;
  typeName?: AstNode;
  typeDescriptions?: { typeIdentifier?: string; typeString?: string };
  referencedDeclaration?: number;
  baseType?: AstNode;
  keyType?: AstNode;
  valueType?: AstNode;
  underlyingType?: AstNode;
  parameterTypes?: { parameters?: AstNode[] };
  returnParameterTypes?: { parameters?: AstNode[] };
  visibility?: string;
  stateMutability?: string;
  absolutePath?: string;
}

const DEFINITIONS = new Set(['ContractDefinition', 'StructDefinition', 'EnumDefinition', 'UserDefinedValueTypeDefinition']);

/** The text of a node's documentation (a StructuredDocumentation node, or a string in old solc). */
export function docText(node: AstNode): string {
  const d = node.documentation;
  return typeof d === 'string' ? d : typeof d?.text === 'string' ? d.text : '';
}

export function isSourceUnit(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && (v as AstNode).nodeType === 'SourceUnit' && Array.isArray((v as AstNode).nodes);
}

export class AstIndex {
  private readonly byId = new Map<number, AstNode>();
  private readonly seen = new Set<string>();

  /** `more` yields further source units, asked only when a definition is missing. */
  constructor(
    units: Iterable<AstNode>,
    private readonly more?: Iterator<AstNode>,
  ) {
    for (const u of units) this.add(u);
  }

  add(unit: AstNode): void {
    const key = unit.absolutePath ?? `#${unit.id}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    for (const node of unit.nodes ?? []) {
      this.define(node);
      if (node.nodeType === 'ContractDefinition') for (const inner of node.nodes ?? []) this.define(inner);
    }
  }

  private define(node: AstNode): void {
    if (typeof node.id === 'number' && DEFINITIONS.has(node.nodeType ?? '')) this.byId.set(node.id, node);
  }

  /** The definition with this id, loading more source units while it is missing. */
  get(id: number): AstNode | undefined {
    for (;;) {
      const found = this.byId.get(id);
      if (found || !this.more) return found;
      const next = this.more.next();
      if (next.done) return undefined;
      this.add(next.value);
    }
  }
}

/** The contract definition `name` in a source unit. */
export function contractIn(unit: AstNode, name: string): AstNode | undefined {
  return unit.nodes?.find((n) => n.nodeType === 'ContractDefinition' && n.name === name);
}
