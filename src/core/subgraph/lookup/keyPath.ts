/**
 * Where the cursor is in subgraph.yaml, as a key path (['dataSources', 0, 'mapping', 'entities', 1]).
 * Read from indentation alone, so it works on the half-typed lines completions see (`  ev`,
 * `network: `, `- `) where a YAML parser gives up or guesses. Block style only, as manifests are
 * written; flow collections spanning lines are not followed. No vscode import: pure text.
 */

export type KeyPath = (string | number)[];

export interface Place {
  /**
   * 'value': the cursor is in the value at `path` (after `key:`, or in a list item).
   * 'key': the cursor is on a key (or where one would be typed) of the map at `path`.
   */
  part: 'key' | 'value';
  path: KeyPath;
  /** The key under the cursor, when part is 'key' and the line has one. */
  key?: string;
  /** Columns (on the cursor's line) of the key or value text the cursor is in; quotes excluded. */
  start: number;
  end: number;
  /** The column the key being typed starts at (where sibling keys start). */
  column: number;
}

interface LineParts {
  /** Columns of the `- ` markers at the start of the line. */
  dashes: number[];
  key?: { text: string; start: number; end: number; colon: number };
  /** The value (after the key's colon, or after the dashes), comment and quotes excluded. */
  valueStart: number;
  valueEnd: number;
  blockScalar: boolean;
}

/** `key:` at the start of a text: a quoted key, or a plain one up to the first `: `. */
const KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"[\]{},&*!|>%@`-][^#]*?|-[^\s#][^#]*?))[ \t]*:(?=[ \t]|$)/;

function lineParts(line: string): LineParts | undefined {
  let i = line.search(/\S/);
  if (i === -1 || line[i] === '#') return undefined;
  const dashes: number[] = [];
  while (line[i] === '-' && (i + 1 === line.length || line[i + 1] === ' ' || line[i + 1] === '\t')) {
    dashes.push(i);
    i++;
    while (line[i] === ' ' || line[i] === '\t') i++;
  }
  const m = KEY.exec(line.slice(i));
  let key: LineParts['key'];
  if (m) {
    const text = m[1] ?? m[2]?.replace(/''/g, "'") ?? m[3].trimEnd();
    const written = m[0].slice(0, -1).trimEnd();
    key = { text, start: i, end: i + written.length, colon: i + m[0].length - 1 };
    i = key.colon + 1;
    while (line[i] === ' ' || line[i] === '\t') i++;
  }
  // A comment starts at `#` after whitespace (or at the value's start).
  const comment = line.slice(i).search(/(^|[ \t])#/);
  let end = comment === -1 ? line.length : i + comment;
  while (end > i && /\s/.test(line[end - 1])) end--;
  let start = i;
  const q = line[start];
  if ((q === '"' || q === "'") && end > start) {
    start++;
    if (end > start && line[end - 1] === q) end--;
  }
  return { dashes, key, valueStart: start, valueEnd: end, blockScalar: /^[|>]/.test(line.slice(i)) };
}

interface Frame {
  column: number;
  kind: 'map' | 'seq';
  /** The current key (map) or item index (seq). */
  at: string | number;
}

class Stack {
  readonly frames: Frame[] = [];

  private get top(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  /** Leaves the collections a node at `column` cannot be in (a key also ends a same-column list). */
  popTo(column: number, kind: 'map' | 'seq'): void {
    while (this.top && (this.top.column > column || (kind === 'map' && this.top.column === column && this.top.kind === 'seq'))) this.frames.pop();
  }

  key(column: number, key: string): void {
    this.popTo(column, 'map');
    if (this.top?.column === column) this.top.at = key;
    else this.frames.push({ column, kind: 'map', at: key });
  }

  dash(column: number): void {
    this.popTo(column, 'seq');
    const top = this.top;
    if (top?.column === column && top.kind === 'seq') top.at = (top.at as number) + 1;
    else this.frames.push({ column, kind: 'seq', at: 0 });
  }

  /** The path to the current entry of the innermost collection. */
  path(): KeyPath {
    return this.frames.map((f) => f.at);
  }

  /** The path of the map a key at `column` belongs to (it may be a new, nested one). */
  mapPath(column: number): KeyPath {
    this.popTo(column, 'map');
    return this.top?.column === column ? this.frames.slice(0, -1).map((f) => f.at) : this.path();
  }
}

/** The place of a cursor (0-based line and character) in YAML text. */
export function placeAt(text: string, line: number, character: number): Place {
  const lines = text.split(/\r?\n/);
  const stack = new Stack();
  let scalarAbove: number | undefined;
  for (let n = 0; n < Math.min(line, lines.length); n++) {
    const parts = lineParts(lines[n]);
    if (!parts) continue;
    // Lines of a block scalar (`|`, `>`) are text, as long as they are indented past its key.
    if (scalarAbove !== undefined && lines[n].search(/\S/) > scalarAbove) continue;
    scalarAbove = undefined;
    for (const d of parts.dashes) stack.dash(d);
    if (parts.key) {
      stack.key(parts.key.start, parts.key.text);
      if (parts.blockScalar) scalarAbove = parts.key.start;
    }
  }

  const current = lines[line] ?? '';
  const parts = lineParts(current);
  if (!parts) return { part: 'key', path: stack.mapPath(character), start: character, end: character, column: character };
  const dashes = parts.dashes.filter((d) => d < character);
  for (const d of dashes) stack.dash(d);
  const { key } = parts;
  if (key && character > key.colon) {
    stack.key(key.start, key.text);
    return { part: 'value', path: stack.path(), start: parts.valueStart, end: parts.valueEnd, column: key.start };
  }
  if (key && character >= key.start) {
    return { part: 'key', path: stack.mapPath(key.start), key: key.text, start: key.start, end: key.end, column: key.start };
  }
  if (!key && dashes.length && dashes.length === parts.dashes.length) {
    // A list item being written: a scalar (`- ApprovalQuery`) or the first key of a map (`- ev`).
    return { part: 'value', path: stack.path(), start: parts.valueStart, end: Math.max(parts.valueEnd, parts.valueStart), column: parts.valueStart };
  }
  const column = key ? key.start : Math.min(parts.valueStart, character);
  return { part: 'key', path: stack.mapPath(column), start: column, end: key ? key.end : parts.valueEnd, column };
}
