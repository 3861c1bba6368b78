/**
 * Query files: a .graphql document tied to a subgraph record by a first-line comment
 * `# @subgraph <record name>` (like request files' `# @node`), holding one or more operations.
 * Checking a query against the subgraph's schema is validateQuery's.
 */
import { Kind, parse, type DefinitionNode, type OperationDefinitionNode } from 'graphql';
import { DEFAULT_PAGE_SIZE } from './build';

const DIRECTIVE = /^[ \t]*#[ \t]*@subgraph[ \t]+(\S.*?)[ \t]*$/;

export interface QueryOperation {
  /** The operation's name, when it has one. */
  name?: string;
  /** query, mutation or subscription; only queries are sent. */
  type: string;
  /** Offsets of the operation in the file. */
  start: number;
  end: number;
  /** Whether it takes $first and $skip (as the default list queries do): the results panel pages it. */
  paging?: { pageSize: number };
}

export interface QueryFile {
  subgraph?: { name: string; line: number };
  operations: QueryOperation[];
  /** Offsets of fragment definitions: sent along with every operation. */
  fragments: { start: number; end: number }[];
  /** Set when the text is not GraphQL; validation then reports the error where it is. */
  syntaxError?: string;
}

/** The directive line that ties a query file to a record. */
export function subgraphDirective(name: string): string {
  return `# @subgraph ${name}`;
}

/** The `# @subgraph` line among the comments that open the file. */
function directiveOf(text: string): QueryFile['subgraph'] {
  const lines = text.split(/\r?\n/);
  for (let line = 0; line < lines.length; line++) {
    const match = DIRECTIVE.exec(lines[line]);
    if (match) return { name: match[1], line };
    if (lines[line].trim() && !lines[line].trim().startsWith('#')) return undefined;
  }
  return undefined;
}

function pagingOf(op: OperationDefinitionNode): QueryOperation['paging'] {
  const variables = new Map((op.variableDefinitions ?? []).map((v) => [v.variable.name.value, v]));
  const first = variables.get('first');
  if (!first || !variables.has('skip')) return undefined;
  const size = first.defaultValue?.kind === Kind.INT ? Number(first.defaultValue.value) : DEFAULT_PAGE_SIZE;
  return { pageSize: size > 0 ? size : DEFAULT_PAGE_SIZE };
}

export function parseQueryFile(text: string): QueryFile {
  const subgraph = directiveOf(text);
  let definitions: readonly DefinitionNode[];
  try {
    definitions = parse(text).definitions;
  } catch (error) {
    // One operation over the whole text: running it reports the syntax error where it is.
    const start = Math.max(0, text.search(/[{]|\b(query|subscription|mutation)\b/));
    return { subgraph, operations: [{ type: 'query', start, end: text.length }], fragments: [], syntaxError: (error as Error).message };
  }
  const operations: QueryOperation[] = [];
  const fragments: QueryFile['fragments'] = [];
  for (const def of definitions) {
    if (!def.loc) continue;
    if (def.kind === Kind.OPERATION_DEFINITION) {
      operations.push({ name: def.name?.value, type: def.operation, start: def.loc.start, end: def.loc.end, paging: pagingOf(def) });
    } else if (def.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.push({ start: def.loc.start, end: def.loc.end });
    }
  }
  return { subgraph, operations, fragments };
}

/**
 * The text to send for one operation: the file with every other operation blanked out (spaces,
 * line breaks kept). Offsets stay those of the file, so a validation error points into the
 * editor as is, and fragments come along.
 */
export function operationText(text: string, file: QueryFile, index: number): string {
  let out = text;
  file.operations.forEach((op, i) => {
    if (i === index) return;
    out = out.slice(0, op.start) + out.slice(op.start, op.end).replace(/[^\n\r]/g, ' ') + out.slice(op.end);
  });
  return out;
}

/** The operation the cursor is in (or the first after it, else the last). */
export function operationAt(file: QueryFile, offset: number): number | undefined {
  if (!file.operations.length) return undefined;
  const inside = file.operations.findIndex((op) => offset >= op.start && offset <= op.end);
  if (inside >= 0) return inside;
  const after = file.operations.findIndex((op) => op.start > offset);
  return after >= 0 ? after : file.operations.length - 1;
}

/**
 * How a run of an operation is named in the log and its progress: by the operation's name, or
 * plainly a query when it has none (never "Query query on …").
 */
export function queryRunText(operation: string | undefined, subgraph: string): { title: string; progress: string } {
  return operation ? { title: `Query ${operation} on ${subgraph}`, progress: `Querying ${operation} on ${subgraph}` } : { title: `Query on ${subgraph}`, progress: `Querying ${subgraph}` };
}
