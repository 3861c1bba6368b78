/**
 * The entities of a schema.graphql as queries see them: which fields are scalars, enums or
 * references to other entities, which are lists, which are @derivedFrom. (Schema checking with
 * positions is schema.ts's job; this reads a schema that may still have mistakes, best effort.)
 */
import { Kind, parse, print, type DocumentNode, type FieldDefinitionNode, type TypeNode } from 'graphql';

export type FieldKind = 'scalar' | 'enum' | 'entity';

export interface QueryField {
  name: string;
  /** The innermost named type: Bytes in [Bytes!]!. */
  type: string;
  /** The whole type as written, e.g. [Bytes!]!. */
  typeText: string;
  kind: FieldKind;
  list: boolean;
  nonNull: boolean;
  /** The field named by @derivedFrom(field: …): such fields are not stored. */
  derivedFrom?: string;
}

export interface QueryEntity {
  name: string;
  /** Interfaces of entities are queryable too (across their implementers). */
  kind: 'object' | 'interface';
  /** For objects: the interfaces it implements. */
  implements: string[];
  immutable: boolean;
  fields: QueryField[];
}

export interface EntityModel {
  entities: QueryEntity[];
  /** Enum types and their values, as declared. */
  enums: Map<string, string[]>;
}

function unwrap(type: TypeNode): { name: string; list: boolean; nonNull: boolean } {
  const nonNull = type.kind === Kind.NON_NULL_TYPE;
  let t = type;
  let list = false;
  while (t.kind !== Kind.NAMED_TYPE) {
    if (t.kind === Kind.LIST_TYPE) list = true;
    t = t.type;
  }
  return { name: t.name.value, list, nonNull };
}

function derivedFrom(field: FieldDefinitionNode): string | undefined {
  const directive = field.directives?.find((d) => d.name.value === 'derivedFrom');
  const arg = directive?.arguments?.find((a) => a.name.value === 'field');
  return arg?.value.kind === Kind.STRING ? arg.value.value : directive ? '' : undefined;
}

/**
 * Reads the entity types (objects with @entity, and interfaces) of a schema. Throws the
 * parser's GraphQLError (with its location) when the text is not GraphQL. Aggregations
 * (@aggregation) are left out: their queries need an interval and are not listed by default.
 */
export function entityModel(schemaText: string | DocumentNode): EntityModel {
  const doc = typeof schemaText === 'string' ? parse(schemaText) : schemaText;
  const enums = new Map<string, string[]>();
  const typeNames = new Set<string>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.ENUM_TYPE_DEFINITION)
      enums.set(
        def.name.value,
        (def.values ?? []).map((v) => v.name.value),
      );
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION && def.directives?.some((d) => d.name.value === 'entity')) typeNames.add(def.name.value);
    if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) typeNames.add(def.name.value);
  }
  const entities: QueryEntity[] = [];
  for (const def of doc.definitions) {
    const isEntity = def.kind === Kind.OBJECT_TYPE_DEFINITION && def.directives?.some((d) => d.name.value === 'entity');
    if (!isEntity && def.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    const entityDirective = def.directives?.find((d) => d.name.value === 'entity');
    const immutableArg = entityDirective?.arguments?.find((a) => a.name.value === 'immutable');
    const fields = (def.fields ?? []).map((f): QueryField => {
      const { name, list, nonNull } = unwrap(f.type);
      // Anything not an enum or an entity is taken as one of graph-node's scalars (schema.ts checks that).
      const kind: FieldKind = enums.has(name) ? 'enum' : typeNames.has(name) ? 'entity' : 'scalar';
      const derived = derivedFrom(f);
      return { name: f.name.value, type: name, typeText: print(f.type), kind, list, nonNull, ...(derived !== undefined ? { derivedFrom: derived } : {}) };
    });
    entities.push({
      name: def.name.value,
      kind: def.kind === Kind.INTERFACE_TYPE_DEFINITION ? 'interface' : 'object',
      implements: (def.interfaces ?? []).map((i) => i.name.value),
      immutable: immutableArg?.value.kind === Kind.BOOLEAN ? immutableArg.value.value : false,
      fields,
    });
  }
  return { entities, enums };
}
