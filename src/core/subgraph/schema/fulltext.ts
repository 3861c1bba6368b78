/**
 * `@fulltext` on _Schema_, checked as graph-cli does (validateFulltext in validation/schema.js:
 * the arguments and their forms) and as graph-node does when a deployment is created
 * (validate_fulltext_directives in graph/src/schema/input/mod.rs: the included entity and
 * fields exist, the fields are strings, the name is unique and free). Declaring the
 * `fullTextSearch` feature is checked with the manifest (project.ts).
 */
import { Kind, type ConstDirectiveNode, type ConstValueNode, type ObjectTypeDefinitionNode, type TypeNode } from 'graphql/language';
import { closest } from '../text';

/** graph-node's FulltextLanguage and FulltextAlgorithm (graph/src/schema/fulltext.rs); graph-cli lists the same. */
export const FULLTEXT_LANGUAGES = ['simple', 'da', 'nl', 'en', 'fi', 'fr', 'de', 'hu', 'it', 'no', 'pt', 'ro', 'ru', 'es', 'sv', 'tr'];
export const FULLTEXT_ALGORITHMS = ['rank', 'proximityRank'];
const ARGUMENTS = ['name', 'language', 'algorithm', 'include'];

type Span = { start: number; end: number };
type Report = (at: Span, code: string, message: string) => void;

const span = (node: { loc?: { start: number; end: number } } | undefined, fallback: Span): Span => (node?.loc ? { start: node.loc.start, end: node.loc.end } : fallback);

/** The innermost type name of a field: `String` in `[String!]!`. */
function baseType(type: TypeNode): string {
  let t = type;
  while (t.kind !== Kind.NAMED_TYPE) t = t.type;
  return t.name.value;
}

/** The query field names graph-node derives from a field name (camel case, and a plural), for the collision rule. */
function queryNames(name: string): string[] {
  const camel = name.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
  // Only the regular English plural: an irregular one we might get wrong would be a false error.
  const plural = /(s|x|z|ch|sh|y)$/i.test(camel) ? [] : [`${camel}s`];
  return [name, camel, ...plural];
}

export function checkFulltext(directives: readonly ConstDirectiveNode[], entities: ReadonlyMap<string, ObjectTypeDefinitionNode>, report: Report): void {
  const fulltexts = directives.filter((d) => d.name.value === 'fulltext');
  if (!fulltexts.length) return;
  const taken = new Map<string, string>();
  for (const entity of entities.values())
    for (const f of entity.fields ?? []) for (const n of queryNames(f.name.value)) if (!taken.has(n)) taken.set(n, `${entity.name.value}.${f.name.value}`);
  const seen = new Set<string>();
  for (const d of fulltexts) {
    const at = span(d.name, span(d, { start: 0, end: 0 }));
    const arg = (name: string) => d.arguments?.find((a) => a.name.value === name);
    for (const a of d.arguments ?? []) {
      if (!ARGUMENTS.includes(a.name.value)) report(span(a.name, at), 'fulltext-argument', `@fulltext takes only name, language, algorithm and include, not '${a.name.value}'`);
    }
    const name = arg('name');
    if (!name) report(at, 'fulltext-argument', '@fulltext needs a name argument: the query field it creates');
    else if (name.value.kind !== Kind.STRING) report(span(name.value, at), 'fulltext-argument', '@fulltext name must be a string in double quotes');
    else {
      const value = name.value.value;
      const collides = taken.get(value);
      if (seen.has(value)) report(span(name.value, at), 'fulltext-name', `Another @fulltext is named '${value}'; each needs its own name (graph-node rejects the schema)`);
      else if (collides) report(span(name.value, at), 'fulltext-name', `@fulltext name '${value}' collides with the query field of ${collides} (graph-node rejects the schema)`);
      seen.add(value);
    }
    enumArgument(arg('language'), 'language', FULLTEXT_LANGUAGES, at, report);
    enumArgument(arg('algorithm'), 'algorithm', FULLTEXT_ALGORITHMS, at, report);
    include(arg('include')?.value, entities, at, report);
  }
}

function enumArgument(a: { value: ConstValueNode } | undefined, what: string, allowed: string[], at: Span, report: Report): void {
  if (!a) return report(at, 'fulltext-argument', `@fulltext needs ${what === 'algorithm' ? 'an' : 'a'} ${what} argument: one of ${allowed.join(', ')}`);
  const v = a.value;
  if (v.kind === Kind.ENUM && allowed.includes(v.value)) return;
  const written = v.kind === Kind.ENUM || v.kind === Kind.STRING ? v.value : undefined;
  const near = written === undefined ? undefined : closest(written, allowed);
  const hint = v.kind === Kind.STRING && allowed.includes(v.value) ? `; write it without quotes: ${v.value}` : near ? `; did you mean ${near}?` : '';
  report(span(v, at), `fulltext-${what}`, `@fulltext ${what} must be one of ${allowed.join(', ')} (unquoted)${hint}`);
}

function include(value: ConstValueNode | undefined, entities: ReadonlyMap<string, ObjectTypeDefinitionNode>, at: Span, report: Report): void {
  const form = 'include: [{entity: "Name", fields: [{name: "field"}]}]';
  if (!value) return report(at, 'fulltext-argument', `@fulltext needs an include argument: ${form}`);
  if (value.kind !== Kind.LIST || value.values.length === 0) return report(span(value, at), 'fulltext-include', `@fulltext include must be a non-empty list: ${form}`);
  for (const item of value.values) {
    const where = span(item, at);
    if (item.kind !== Kind.OBJECT) return report(where, 'fulltext-include', `@fulltext include items must have the form {entity: "Name", fields: [{name: "field"}]}`);
    const extra = item.fields.find((f) => f.name.value !== 'entity' && f.name.value !== 'fields');
    const entityNode = item.fields.find((f) => f.name.value === 'entity')?.value;
    const fieldsNode = item.fields.find((f) => f.name.value === 'fields')?.value;
    if (extra || item.fields.length !== 2 || entityNode?.kind !== Kind.STRING || fieldsNode?.kind !== Kind.LIST) {
      return report(where, 'fulltext-include', `@fulltext include items take exactly entity (a string) and fields (a list): {entity: "Name", fields: [{name: "field"}]}`);
    }
    const entity = entities.get(entityNode.value);
    if (!entity) {
      const near = closest(entityNode.value, entities.keys());
      report(
        span(entityNode, where),
        'fulltext-entity',
        `@fulltext includes '${entityNode.value}', which is not an @entity type of the schema${near ? `; did you mean '${near}'?` : ''} (graph-node rejects the schema)`,
      );
      continue;
    }
    for (const f of fieldsNode.values) {
      const name = f.kind === Kind.OBJECT && f.fields.length === 1 && f.fields[0].name.value === 'name' ? f.fields[0].value : undefined;
      if (name?.kind !== Kind.STRING) {
        report(span(f, where), 'fulltext-include', '@fulltext fields items must have the form {name: "field"}');
        continue;
      }
      const field = entity.fields?.find((x) => x.name.value === name.value);
      if (!field) {
        const near = closest(
          name.value,
          (entity.fields ?? []).map((x) => x.name.value),
        );
        report(
          span(name, where),
          'fulltext-field',
          `@fulltext field '${name.value}' does not exist on '${entity.name.value}'${near ? `; did you mean '${near}'?` : ''} (graph-node rejects the schema)`,
        );
      } else if (!['String', 'ID'].includes(baseType(field.type))) {
        report(
          span(name, where),
          'fulltext-field',
          `@fulltext field '${name.value}' of '${entity.name.value}' is ${baseType(field.type)}; only String fields can be searched (graph-node rejects the schema)`,
        );
      }
    }
  }
}
