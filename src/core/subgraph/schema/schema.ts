/**
 * schema.graphql, checked with the `graphql` parser the way graph-cli and graph-node read it:
 * entity directives, id types, field types, lists, @derivedFrom, duplicate types. Also collects
 * what the manifest rules need: entity names, fulltext use, Int8 ids, aggregations.
 */
// From graphql's language and error modules, not its index, which would bundle all of graphql.
import { GraphQLError } from 'graphql/error/GraphQLError';
import {
  Kind,
  Lexer,
  parse,
  Source,
  TokenKind,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InterfaceTypeDefinitionNode,
  type ObjectTypeDefinitionNode,
  type TypeNode,
} from 'graphql/language';
import { checkFulltext } from './fulltext';
import { closest, LineIndex } from '../text';
import type { Finding, Fix, Severity } from '../types';

/** Scalars graph-node knows. */
export const BUILTIN_SCALARS = ['ID', 'String', 'Bytes', 'BigInt', 'BigDecimal', 'Int', 'Int8', 'Boolean', 'Timestamp'] as const;

/** The intervals graph-node aggregates by (AggregationInterval, graph/src/schema/input/mod.rs). */
const AGGREGATION_INTERVALS = ['hour', 'day'] as const;

/** Scalars graph-cli's codegen maps to AssemblyScript primitives (i32, i64, boolean), which cannot be null. */
const ASC_PRIMITIVES = new Set(['Int', 'Int8', 'Boolean', 'Timestamp']);

/** What graph-node's schema validation rejects by name (graph/src/schema/input/mod.rs). */
const RESERVED_BY_GRAPH_NODE = new Set(['Boolean', 'ID', 'Int', 'BigDecimal', 'String', 'Bytes', 'BigInt', 'Query', 'Subscription']);

/** Other types of graph-node's API schema (graph/src/schema/meta.graphql). */
const API_SCALARS = new Set(['Float', 'Int8', 'Timestamp']);
const API_SCHEMA_NAMES = new Set(['_Meta_', '_Block_', '_SubgraphErrorPolicy_', 'BlockChangedFilter', 'Block_height', 'OrderDirection', 'Aggregation_interval', 'Aggregation_current']);

/** Solidity and common spellings of types, with the graph-node scalar to use instead. */
const TYPE_HINTS: [RegExp, string][] = [
  [/^address$/i, 'Bytes'],
  [/^bytes\d*$/i, 'Bytes'],
  [/^u?int(8|16|24|32)$/i, 'Int'],
  [/^(long|i64|int64)$/i, 'Int8'], // before BigInt: a signed 64-bit integer fits Int8; uint64 does not
  [/^u?int(\d*)$/i, 'BigInt'],
  [/^(bool|boolean)$/i, 'Boolean'],
  [/^(float|double|decimal|number)$/i, 'BigDecimal'],
  [/^(string|text)$/i, 'String'],
  [/^(timestamp|date|datetime)$/i, 'Timestamp'],
];

export interface EntityField {
  name: string;
  /** The innermost named type: `Bytes` in `[Bytes!]!`. */
  type: string;
  list: boolean;
  start: number;
  end: number;
}

export interface EntityType {
  name: string;
  nameStart: number;
  nameEnd: number;
  fields: Map<string, EntityField>;
  immutable: boolean;
  timeseries: boolean;
}

export interface SchemaInfo {
  /** Object types with @entity (timeseries included). */
  entities: Map<string, EntityType>;
  /** Every name a field may refer to: scalars, objects, interfaces, enums, imports. */
  typeNames: Set<string>;
  /** Offsets of what needs a manifest feature or specVersion. */
  fulltext?: { start: number; end: number };
  aggregation?: { start: number; end: number };
  int8Id?: { start: number; end: number };
  findings: Finding[];
  lines: LineIndex;
  /** Parsed without a syntax error. */
  parsed: boolean;
}

export function analyzeSchema(text: string, file: string): SchemaInfo {
  const lines = new LineIndex(text);
  const info: SchemaInfo = { entities: new Map(), typeNames: new Set(BUILTIN_SCALARS), findings: [], lines, parsed: false };
  const flag = (start: number, end: number, severity: Severity, code: string, message: string, fix?: Fix) => {
    info.findings.push({ file, range: lines.range(start, end), severity, code, message, ...(fix ? { fix } : {}) });
  };
  const deep = graphqlTooDeepAt(text, MAX_SCHEMA_DEPTH);
  if (deep !== -1) {
    flag(deep, deep + 1, 'error', 'graphql-too-deep', `The schema nests brackets more than ${MAX_SCHEMA_DEPTH} levels deep here (real schemas need three or four); it is not read further`);
    return info;
  }
  let doc: DocumentNode;
  try {
    doc = parse(text);
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    const stop = Math.min(err.positions?.[0] ?? 0, text.length);
    const start = schemaStart(text);
    // graphql quotes the token it stopped at: a typo in a schema, but the first bytes of any other file (a key, /etc/passwd).
    const inSchema = start.definition && stop > start.at;
    const at = inSchema ? stop : start.at;
    const word = /^[_A-Za-z0-9]+/.exec(text.slice(at))?.[0].length ?? 1;
    const message = inSchema ? err.message : `the file is not a GraphQL schema (${start.empty ? 'it holds no definition' : 'it does not start with a definition'})`;
    flag(at, Math.min(at + word, text.length), 'error', 'graphql-syntax', message);
    return info;
  }
  info.parsed = true;
  new SchemaChecker(doc, info, flag, file).run();
  return info;
}

/** The words a type-system definition starts with (after an optional description string). */
const DEFINITION_WORDS = new Set(['schema', 'scalar', 'type', 'interface', 'union', 'enum', 'input', 'directive', 'extend']);

/** Where the file's first token is, and whether it can start a schema definition (a keyword or a description). */
function schemaStart(text: string): { at: number; definition: boolean; empty: boolean } {
  try {
    const token = new Lexer(new Source(text)).advance();
    const definition = token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING || (token.kind === TokenKind.NAME && DEFINITION_WORDS.has(token.value));
    return { at: token.start, definition, empty: token.kind === TokenKind.EOF };
  } catch {
    return { at: 0, definition: false, empty: false }; // no token at all: a character GraphQL does not have
  }
}

/**
 * graphql's parser recurses once per nesting level and overflows the stack near 10,000; real
 * schemas nest `{` and `[` three or four levels (a type, a list of lists, a directive argument).
 */
export const MAX_SCHEMA_DEPTH = 32;

/** The offset of the `[`, `{` or `(` opening level `max + 1` (strings and comments skipped), or -1. */
export function graphqlTooDeepAt(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      // A comment ends at \n or \r, as graphql's lexer reads it.
      while (i + 1 < text.length && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        // A block string ends at the first """ that is not escaped as \""".
        let close = text.indexOf('"""', i + 3);
        while (close !== -1 && text[close - 1] === '\\') close = text.indexOf('"""', close + 1);
        i = close === -1 ? text.length : close + 2;
      } else {
        for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      }
    } else if (c === '[' || c === '{' || c === '(') {
      if (++depth > max) return i;
    } else if (c === ']' || c === '}' || c === ')') {
      depth--;
    }
  }
  return -1;
}

type Flag = (start: number, end: number, severity: Severity, code: string, message: string, fix?: Fix) => void;

const loc = (node: { loc?: { start: number; end: number } }) => ({ start: node.loc?.start ?? 0, end: node.loc?.end ?? 0 });

function innerType(type: TypeNode): { name: string; list: boolean } {
  let t = type;
  let list = false;
  while (t.kind !== Kind.NAMED_TYPE) {
    if (t.kind === Kind.LIST_TYPE) list = true;
    t = t.type;
  }
  return { name: t.name.value, list };
}

function booleanArgument(directive: ConstDirectiveNode, name: string): { present: boolean; value?: boolean; node?: { start: number; end: number } } {
  const arg = directive.arguments?.find((a) => a.name.value === name);
  if (!arg) return { present: false };
  return { present: true, value: arg.value.kind === Kind.BOOLEAN ? arg.value.value : undefined, node: loc(arg.value) };
}

class SchemaChecker {
  private readonly objects: ObjectTypeDefinitionNode[] = [];
  /** By name, and type names by lower case: one lookup per field, not a scan of the schema. */
  private readonly objectsByName = new Map<string, ObjectTypeDefinitionNode>();
  private lowerNames: Map<string, string> | undefined;
  private readonly interfaces = new Map<string, InterfaceTypeDefinitionNode>();
  private readonly enums = new Set<string>();

  constructor(
    private readonly doc: DocumentNode,
    private readonly info: SchemaInfo,
    private readonly flag: Flag,
    private readonly file: string,
  ) {}

  run(): void {
    this.collect();
    for (const def of this.objects) {
      if (def.name.value === '_Schema_') this.checkSchemaType(def);
      else this.checkObject(def);
    }
    for (const def of this.interfaces.values()) for (const f of def.fields ?? []) this.checkFieldType(f, true); // interfaces get no setters
  }

  /** Names first: fields may refer to types defined further down. */
  private collect(): void {
    const seen = new Set<string>();
    this.reservedNames();
    for (const def of this.doc.definitions) {
      if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.INTERFACE_TYPE_DEFINITION && def.kind !== Kind.ENUM_TYPE_DEFINITION) continue;
      const name = def.name.value;
      if (seen.has(name)) this.flag(def.name.loc!.start, def.name.loc!.end, 'error', 'duplicate-type', `Type '${name}' is defined more than once`);
      seen.add(name);
      this.info.typeNames.add(name);
      if (def.kind === Kind.OBJECT_TYPE_DEFINITION) {
        this.objects.push(def);
        if (!this.objectsByName.has(name)) this.objectsByName.set(name, def);
      }
      if (def.kind === Kind.INTERFACE_TYPE_DEFINITION) this.interfaces.set(name, def);
      if (def.kind === Kind.ENUM_TYPE_DEFINITION) this.enums.add(name);
    }
    for (const def of this.objects) {
      if (def.name.value !== '_Schema_') continue;
      // `@import(types: ["A", {name: "B", as: "C"}])` on _Schema_ brings names from other subgraphs.
      for (const d of def.directives ?? []) {
        if (d.name.value !== 'import') continue;
        const types = d.arguments?.find((a) => a.name.value === 'types')?.value;
        if (types?.kind !== Kind.LIST) continue;
        for (const v of types.values) {
          if (v.kind === Kind.STRING) this.info.typeNames.add(v.value);
          if (v.kind === Kind.OBJECT) {
            const as = v.fields.find((f) => f.name.value === 'as')?.value;
            if (as?.kind === Kind.STRING) this.info.typeNames.add(as.value);
          }
        }
      }
    }
  }

  /**
   * Type names graph-node rejects or builds itself: its validate_reserved_types_usage refuses the
   * built-in scalars, Query, Subscription and `<T>_filter` / `<T>_orderBy` for a type T of the
   * schema; the other names of its API schema (meta.graphql) would clash in the generated API;
   * `__` starts GraphQL's introspection names.
   */
  private reservedNames(): void {
    const named = this.doc.definitions.filter(
      (d): d is Extract<typeof d, { name: unknown }> & { name: { value: string } } => 'name' in d && d.name !== undefined && d.kind !== Kind.DIRECTIVE_DEFINITION,
    );
    const types = new Set(named.filter((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION).map((d) => d.name.value));
    for (const def of named) {
      const name = def.name.value;
      const at = loc(def.name);
      const reserved = (why: string, severity: Severity = 'error') => this.flag(at.start, at.end, severity, 'reserved-type-name', `Type name '${name}' is reserved: ${why}; rename it`);
      const suffix = /_(filter|orderBy)$/.exec(name);
      if (RESERVED_BY_GRAPH_NODE.has(name) || API_SCALARS.has(name)) {
        reserved(['Query', 'Subscription'].includes(name) ? `graph-node generates the ${name} type of the subgraph's API` : `${name} is a built-in scalar of graph-node`);
      } else if (API_SCHEMA_NAMES.has(name)) {
        reserved("graph-node's generated API defines it");
      } else if (name.startsWith('__')) {
        reserved('names starting with __ belong to GraphQL introspection');
      } else if (suffix) {
        const base = name.slice(0, -suffix[0].length);
        if (types.has(base)) reserved(`graph-node generates ${name} for type '${base}'`);
        else reserved(`graph-node generates <Type>_${suffix[1]} types, and would for a type '${base}'`, 'warning');
      }
    }
  }

  private checkSchemaType(def: ObjectTypeDefinitionNode): void {
    for (const d of def.directives ?? []) {
      if (d.name.value === 'fulltext') this.info.fulltext ??= loc(d);
      else if (d.name.value !== 'import') this.flag(d.loc!.start, d.loc!.end, 'error', 'schema-type-directive', `_Schema_ only takes @import and @fulltext directives, not @${d.name.value}`);
    }
    if (def.fields?.length) this.flag(def.name.loc!.start, def.name.loc!.end, 'error', 'schema-type-fields', '_Schema_ must not have fields');
    const entities = new Map(this.objects.filter((o) => o.directives?.some((d) => d.name.value === 'entity')).map((o) => [o.name.value, o] as const));
    checkFulltext(def.directives ?? [], entities, (at, code, message) => this.flag(at.start, at.end, 'error', code, message));
  }

  private checkObject(def: ObjectTypeDefinitionNode): void {
    const name = def.name.value;
    const nameLoc = loc(def.name);
    const entity = def.directives?.find((d) => d.name.value === 'entity');
    for (const d of def.directives ?? []) {
      // graph-cli's validateNoFulltext and validateNoImportDirective.
      if (d.name.value === 'fulltext' || d.name.value === 'import')
        this.flag(loc(d).start, loc(d).end, 'error', 'schema-type-directive', `@${d.name.value} belongs on the _Schema_ type, not on '${name}' (graph build fails)`);
    }
    const aggregation = def.directives?.find((d) => d.name.value === 'aggregation');
    if (!entity && !aggregation) {
      const after = def.interfaces?.length ? loc(def.interfaces[def.interfaces.length - 1]).end : nameLoc.end;
      this.flag(
        nameLoc.start,
        nameLoc.end,
        'error',
        'missing-entity-directive',
        `Type '${name}' is defined without @entity or @aggregation`,
        this.replace(after, after, ' @entity(immutable: true)', `Add @entity(immutable: true) to ${name}`),
      );
    }
    let immutable = false;
    let timeseries = false;
    if (entity) {
      const imm = booleanArgument(entity, 'immutable');
      const ts = booleanArgument(entity, 'timeseries');
      for (const [arg, a] of [
        ['immutable', imm],
        ['timeseries', ts],
      ] as const) {
        if (a.present && a.value === undefined) this.flag(a.node!.start, a.node!.end, 'error', 'entity-argument-not-boolean', `@entity(${arg}:) takes true or false`);
      }
      immutable = imm.value === true;
      timeseries = ts.value === true;
      if (!imm.present && !ts.present) {
        // graph-cli 0.98 rejects an @entity without it (graph-node would default to mutable).
        const d = loc(entity);
        this.flag(
          d.start,
          d.end,
          'error',
          'entity-immutable-missing',
          `@entity on '${name}' needs an immutable argument: @entity(immutable: true) for records never updated, false otherwise`,
          this.replace(d.start, d.end, '@entity(immutable: true)', 'Write @entity(immutable: true)'),
        );
      }
    }
    if (aggregation) {
      this.info.aggregation ??= loc(aggregation);
      this.checkAggregation(name, aggregation);
    }
    this.checkImplements(def);
    this.checkId(def, nameLoc);
    const fields = new Map<string, EntityField>();
    for (const field of def.fields ?? []) {
      const { name: type, list } = innerType(field.type);
      fields.set(field.name.value, { name: field.name.value, type, list, ...loc(field) });
      const derived = field.directives?.find((d) => d.name.value === 'derivedFrom');
      this.checkFieldType(field, derived !== undefined);
      if (field.arguments?.length) this.flag(loc(field).start, loc(field).end, 'error', 'field-arguments', `Field '${field.name.value}': field arguments are not supported`);
      if (derived) this.checkDerivedFrom(def, field, derived);
    }
    if (entity) this.info.entities.set(name, { name, nameStart: nameLoc.start, nameEnd: nameLoc.end, fields, immutable, timeseries });
  }

  /**
   * @aggregation's arguments as graph-node's validate_aggregations reads them
   * (graph/src/schema/input/mod.rs): `source` a string naming a type (AggregationMissingSource,
   * AggregationInvalidSource, AggregationUnknownSource) and `intervals` a non-empty list of
   * "hour" or "day" (AggregationMissingIntervals, AggregationWrongIntervals,
   * AggregationInvalidInterval). A missing argument marks `@aggregation`, a wrong one its value.
   */
  private checkAggregation(name: string, directive: ConstDirectiveNode): void {
    const at = { start: loc(directive).start, end: loc(directive.name).end };
    const source = directive.arguments?.find((a) => a.name.value === 'source')?.value;
    if (!source) {
      this.flag(
        at.start,
        at.end,
        'error',
        'aggregation-source-argument',
        `@aggregation on '${name}' has no source argument; add source: "<Timeseries>", naming the @entity(timeseries: true) type it aggregates (graph-node rejects the schema)`,
      );
    } else if (source.kind !== Kind.STRING) {
      const written = source.kind === Kind.ENUM ? `; write source: "${source.value}"` : '';
      this.flag(
        loc(source).start,
        loc(source).end,
        'error',
        'aggregation-source-argument',
        `@aggregation source on '${name}' must be a string naming a timeseries type${written} (graph-node rejects the schema)`,
      );
    } else if (!this.objectsByName.has(source.value)) {
      this.flag(loc(source).start, loc(source).end, 'error', 'aggregation-source-missing', `@aggregation source '${source.value}' is not a type of this schema`);
    }
    const intervals = directive.arguments?.find((a) => a.name.value === 'intervals')?.value;
    const supported = `"${AGGREGATION_INTERVALS.join('", "')}"`;
    if (!intervals) {
      this.flag(
        at.start,
        at.end,
        'error',
        'aggregation-intervals-argument',
        `@aggregation on '${name}' has no intervals argument; add intervals: [${supported}] or a part of it (graph-node rejects the schema)`,
      );
    } else if (intervals.kind !== Kind.LIST || intervals.values.length === 0) {
      this.flag(
        loc(intervals).start,
        loc(intervals).end,
        'error',
        'aggregation-intervals-argument',
        `@aggregation intervals on '${name}' must be a non-empty list of strings, such as ["hour"] (graph-node rejects the schema)`,
      );
    } else {
      for (const v of intervals.values) {
        if (v.kind !== Kind.STRING) {
          this.flag(
            loc(v).start,
            loc(v).end,
            'error',
            'aggregation-intervals-argument',
            `@aggregation intervals on '${name}' must be strings: write each interval in quotes, one of ${supported} (graph-node rejects the schema)`,
          );
        } else if (!(AGGREGATION_INTERVALS as readonly string[]).includes(v.value)) {
          this.flag(
            loc(v).start,
            loc(v).end,
            'error',
            'aggregation-interval-unsupported',
            `@aggregation interval '${v.value}' on '${name}' is not supported; use ${AGGREGATION_INTERVALS.map((i) => `"${i}"`).join(' or ')} (graph-node rejects the schema)`,
          );
        }
      }
    }
  }

  /**
   * `implements` names must be interfaces of this schema: graph-node's Schema::collect_interfaces
   * (graph/src/schema/mod.rs) looks each name up among the interface definitions only and refuses
   * the schema with InterfaceUndefined otherwise (an object type, an enum, a scalar, an imported or
   * unknown name). graphql's validateSchema agrees ("must only implement Interface types").
   */
  private checkImplements(def: ObjectTypeDefinitionNode): void {
    const self = def.name.value;
    for (const named of def.interfaces ?? []) {
      const name = named.name.value;
      if (this.interfaces.has(name)) continue;
      const at = loc(named.name);
      const drop = `or remove it from the implements list of '${self}' (graph-node rejects the schema)`;
      const what = this.objectsByName.has(name)
        ? `an object type, not an interface; only interfaces can be implemented: declare 'interface ${name}' instead, ${drop}`
        : this.enums.has(name)
          ? `an enum, not an interface; implement an interface ${drop}`
          : (BUILTIN_SCALARS as readonly string[]).includes(name)
            ? `a scalar, not an interface; implement an interface ${drop}`
            : this.info.typeNames.has(name)
              ? `imported from another subgraph, not an interface of this schema; define the interface here ${drop}`
              : undefined;
      if (what) {
        this.flag(at.start, at.end, 'error', 'implements-not-interface', `Type '${self}' implements '${name}', which is ${what}`);
        continue;
      }
      const near = closest(name, this.interfaces.keys());
      const help = near ? `did you mean '${near}'? (graph-node rejects the schema)` : `define 'interface ${name}' ${drop}`;
      const fix = near ? this.replace(at.start, at.end, near, `Implement '${near}'`) : undefined;
      this.flag(at.start, at.end, 'error', 'implements-not-interface', `Type '${self}' implements '${name}', which is not defined in this schema; ${help}`, fix);
    }
  }

  private checkId(def: ObjectTypeDefinitionNode, nameLoc: { start: number; end: number }): void {
    const id = def.fields?.find((f) => f.name.value === 'id');
    if (!id) {
      this.flag(nameLoc.start, nameLoc.end, 'error', 'entity-missing-id', `Type '${def.name.value}' has no id field (add id: Bytes!, or ID!, String!, Int8!)`);
      return;
    }
    const t = id.type;
    const named = t.kind === Kind.NON_NULL_TYPE && t.type.kind === Kind.NAMED_TYPE ? t.type.name.value : undefined;
    if (named === 'Int8') this.info.int8Id ??= loc(id.type);
    if (!named || !['ID', 'Bytes', 'String', 'Int8'].includes(named)) {
      this.flag(loc(id.type).start, loc(id.type).end, 'error', 'entity-id-type', "Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)");
    }
  }

  private checkFieldType(field: FieldDefinitionNode, derived: boolean): void {
    const { name } = innerType(field.type);
    const where = loc(field.type);
    if (!this.info.typeNames.has(name)) {
      const hint = this.sameButCase(name) ?? TYPE_HINTS.find(([re]) => re.test(name))?.[1] ?? closest(name, this.info.typeNames);
      const fix = hint ? this.replaceName(field.type, hint) : undefined;
      this.flag(where.start, where.end, 'error', 'unknown-field-type', `Field '${field.name.value}': unknown type '${name}'${hint ? `; did you mean '${hint}'?` : ''}`, fix);
    }
    // Lists must not hold nulls, as graph-cli checks it: `[X]` anywhere (validation/schema.js,
    // validateListFieldType); `[X]!` only where codegen writes a setter, i.e. on stored fields of
    // a type that is not an AssemblyScript primitive (codegen/schema.js, _generateEntityFieldSetter).
    // So `mints: [Mint]! @derivedFrom(field: "pool")` builds.
    const t: TypeNode = field.type;
    const bare = t.kind === Kind.LIST_TYPE && t.type.kind !== Kind.NON_NULL_TYPE;
    const required = t.kind === Kind.NON_NULL_TYPE && t.type.kind === Kind.LIST_TYPE && t.type.type.kind !== Kind.NON_NULL_TYPE;
    if (bare || (required && !derived && !ASC_PRIMITIVES.has(name))) {
      this.flag(where.start, where.end, 'error', 'nullable-list-element', `Field '${field.name.value}': lists with null elements are not supported; write [${name}!]`);
    }
  }

  private sameButCase(name: string): string | undefined {
    if (!this.lowerNames) {
      this.lowerNames = new Map();
      for (const t of this.info.typeNames) if (!this.lowerNames.has(t.toLowerCase())) this.lowerNames.set(t.toLowerCase(), t);
    }
    return this.lowerNames.get(name.toLowerCase());
  }

  private replaceName(type: TypeNode, name: string): Fix {
    let t = type;
    while (t.kind !== Kind.NAMED_TYPE) t = t.type;
    return this.replace(loc(t).start, loc(t).end, name, `Change the type to ${name}`);
  }

  /**
   * @derivedFrom as graph-cli's validateDerivedFromDirective (validation/schema.js) and
   * graph-node's validate_derived_from (graph/src/schema/input/mod.rs) check it: one `field`
   * argument naming a field of the target type whose type points back at this type (or at an
   * interface this type implements). Where the two differ, the stricter one speaks: graph-cli
   * wants the back reference to be an entity or interface and has no exception for `id`;
   * graph-node wants the interface to declare the derived field too.
   */
  private checkDerivedFrom(def: ObjectTypeDefinitionNode, field: FieldDefinitionNode, directive: ConstDirectiveNode): void {
    const where = loc(directive);
    const fieldName = field.name.value;
    const arg = directive.arguments?.find((a) => a.name.value === 'field');
    if (!arg || arg.value.kind !== Kind.STRING) {
      this.flag(where.start, where.end, 'error', 'derived-from-argument', `Field '${fieldName}': @derivedFrom needs a field: "name" argument`);
      return;
    }
    if (directive.arguments!.length !== 1) {
      this.flag(where.start, where.end, 'error', 'derived-from-argument', `Field '${fieldName}': @derivedFrom takes only the field argument (graph build fails otherwise)`);
      return;
    }
    const targetName = innerType(field.type).name;
    const target = this.objectsByName.get(targetName) ?? this.interfaces.get(targetName);
    if (!target) {
      // An unknown name is reported by checkFieldType; a scalar or enum is graph-node's refusal.
      if (this.info.typeNames.has(targetName)) {
        const t = loc(field.type);
        this.flag(
          t.start,
          t.end,
          'error',
          'derived-from-type',
          `Field '${fieldName}': a @derivedFrom field's type must be an entity or interface, not '${targetName}' (graph-node rejects the schema)`,
        );
      }
      return;
    }
    const wanted = arg.value.value;
    const names = (target.fields ?? []).map((f) => f.name.value);
    const at = loc(arg.value);
    const back = target.fields?.find((f) => f.name.value === wanted);
    if (!back) {
      const near = closest(wanted, names);
      this.flag(
        at.start,
        at.end,
        'error',
        'derived-from-missing-field',
        `Field '${fieldName}': @derivedFrom field '${wanted}' does not exist on type '${targetName}'${near ? `; did you mean '${near}'?` : ''}`,
        near ? this.replace(at.start, at.end, JSON.stringify(near), `Derive from '${near}'`) : undefined,
      );
      return;
    }
    const self = def.name.value;
    const backType = innerType(back.type).name;
    const implemented = (def.interfaces ?? []).map((i) => i.name.value);
    // What `implements` names that is no interface is its own finding (implements-not-interface).
    const interfaces = implemented.filter((i) => this.interfaces.has(i));
    const backIsEntity = this.interfaces.has(backType) || this.objectsByName.get(backType)?.directives?.some((d) => d.name.value === 'entity') === true;
    const cliAccepts = backIsEntity && (backType === self || implemented.includes(backType));
    const nodeAccepts = backType === self || wanted === 'id' || (implemented.includes(backType) && (this.interfaces.get(backType)?.fields ?? []).some((f) => f.name.value === fieldName));
    if (cliAccepts && nodeAccepts) return;
    const message =
      backType === self && !cliAccepts
        ? `Field '${fieldName}': @derivedFrom fields are only allowed on @entity types, and '${self}' is not one (graph build fails)`
        : !cliAccepts
          ? `Field '${fieldName}': @derivedFrom field '${wanted}' on type '${targetName}' has type '${backType}' but must point back at '${self}'${interfaces.length ? ` or an interface it implements (${interfaces.join(', ')})` : ''} (graph build fails)`
          : !this.interfaces.has(backType)
            ? `Field '${fieldName}': @derivedFrom field '${wanted}' on type '${targetName}' points at '${backType}', which is an object type, not an interface '${self}' can implement; make '${wanted}' point at '${self}' (or make '${backType}' an interface declaring '${fieldName}') (graph-node rejects the schema)`
            : `Field '${fieldName}': @derivedFrom field '${wanted}' on type '${targetName}' points at interface '${backType}', which does not declare '${fieldName}' (graph-node rejects the schema)`;
    this.flag(at.start, at.end, 'error', 'derived-from-wrong-type', message);
  }

  /** A fix that writes `text` over [start, end) of the schema (an insert when start === end). */
  private replace(start: number, end: number, text: string, title: string): Fix {
    return { kind: 'replace', title, file: this.file, edits: [{ range: this.info.lines.range(start, end), text }] };
  }
}
