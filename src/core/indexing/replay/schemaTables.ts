/**
 * A subgraph schema as graph-node lays it out in Postgres: one table per entity type, one column
 * per stored field (not `@derivedFrom`), each with its column type, list-ness and nullability.
 * What the graft check compares and what the entity diff selects.
 */
import { Kind, parse, type FieldDefinitionNode, type TypeNode } from 'graphql';

export interface Column {
  name: string;
  /** The column's type as graph-node stores it: a scalar's name (ID is String), `enum:<Name>`, or the referenced entity's id type. */
  type: string;
  list: boolean;
  nullable: boolean;
  /** The field refers to another entity (selected as `{ id }`). */
  reference: boolean;
}

export interface Table {
  entity: string;
  immutable: boolean;
  columns: Map<string, Column>;
}

export interface SchemaTables {
  tables: Map<string, Table>;
  /** The schema declares timeseries or aggregations (graph-node lays those out otherwise). */
  aggregations: boolean;
}

const unwrap = (t: TypeNode): { name: string; list: boolean; nullable: boolean } => {
  const nullable = t.kind !== Kind.NON_NULL_TYPE;
  const inner = t.kind === Kind.NON_NULL_TYPE ? t.type : t;
  if (inner.kind === Kind.LIST_TYPE) return { ...unwrap(inner.type), list: true, nullable };
  return { name: inner.name.value, list: false, nullable };
};

const directive = (node: { directives?: readonly { name: { value: string }; arguments?: readonly { name: { value: string }; value: { kind: string } }[] }[] }, name: string) =>
  node.directives?.find((d) => d.name.value === name);

/** The schema's tables; throws the GraphQL parser's error for a schema that does not parse. */
export function schemaTables(text: string): SchemaTables {
  const doc = parse(text, { noLocation: true });
  const enums = new Set<string>();
  const entities = new Map<string, { fields: readonly FieldDefinitionNode[]; immutable: boolean }>();
  let aggregations = false;
  for (const def of doc.definitions) {
    if (def.kind === Kind.ENUM_TYPE_DEFINITION) enums.add(def.name.value);
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    if (directive(def, 'aggregation')) aggregations = true;
    const entity = directive(def, 'entity');
    if (!entity) continue;
    const arg = (name: string) => entity.arguments?.find((a) => a.name.value === name)?.value;
    const flag = (name: string) => {
      const v = arg(name);
      return v?.kind === Kind.BOOLEAN && (v as unknown as { value: boolean }).value;
    };
    if (flag('timeseries')) aggregations = true;
    entities.set(def.name.value, { fields: def.fields ?? [], immutable: flag('immutable') || flag('timeseries') });
  }
  const idType = (entity: string) => {
    const id = entities.get(entity)?.fields.find((f) => f.name.value === 'id');
    const name = id ? unwrap(id.type).name : 'ID';
    return name === 'ID' ? 'String' : name;
  };
  const tables = new Map<string, Table>();
  for (const [name, { fields, immutable }] of entities) {
    const columns = new Map<string, Column>();
    for (const field of fields) {
      if (directive(field, 'derivedFrom')) continue;
      const t = unwrap(field.type);
      const reference = entities.has(t.name);
      const type = reference ? idType(t.name) : enums.has(t.name) ? `enum:${t.name}` : t.name === 'ID' ? 'String' : t.name;
      columns.set(field.name.value, { name: field.name.value, type, list: t.list, nullable: t.nullable, reference });
    }
    tables.set(name, { entity: name, immutable, columns });
  }
  return { tables, aggregations };
}
