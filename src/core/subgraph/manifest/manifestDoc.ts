/**
 * subgraph.yaml parsed into a YNode tree with source offsets, plus the YAML syntax errors, and
 * the key-path → range resolver the graph CLI's problem matcher uses (`Path: dataSources > 0 >
 * eventHandlers > 0`).
 */
import { yamlMessage } from './yamlMessages';
import { isAlias, isMap as isYamlMap, isPair, isScalar as isYamlScalar, isSeq as isYamlSeq, parseDocument, Scalar, type Node as YamlNode } from 'yaml';
import { parseFastYaml } from './fastYaml';
import { LineIndex } from '../text';
import type { Range } from '../types';
import { closeBlock, get, nullScalar, pairOf, type YNode, type YPair } from '../ynode';

export interface SyntaxProblem {
  start: number;
  end: number;
  message: string;
  code: string;
  severity: 'error' | 'warning';
}

export interface ManifestDoc {
  text: string;
  lines: LineIndex;
  /** undefined for an empty document. */
  root: YNode | undefined;
  problems: SyntaxProblem[];
  /** Which parser built the tree (the fast one when the text allows it). */
  parser: 'fast' | 'yaml';
}

export interface ParseOptions {
  /** Skip the fast parser and always use the `yaml` package (tests and benchmarks compare). */
  yamlOnly?: boolean;
}

/** Manifests nest a handful of levels; the `yaml` package overflows the stack near 800. */
export const MAX_MANIFEST_DEPTH = 64;

export function parseManifest(text: string, options: ParseOptions = {}): ManifestDoc {
  const lines = new LineIndex(text);
  const deep = yamlTooDeepAt(text, MAX_MANIFEST_DEPTH);
  if (deep !== -1) {
    const message = `The manifest nests more than ${MAX_MANIFEST_DEPTH} levels deep here; a subgraph manifest needs a handful, so it is not read further`;
    return { text, lines, root: undefined, problems: [{ start: deep, end: Math.min(deep + 1, text.length), message, code: 'nesting-too-deep', severity: 'error' }], parser: 'yaml' };
  }
  const fast = options.yamlOnly ? undefined : parseFastYaml(text);
  const doc: ManifestDoc = fast ? { text, lines, root: fast, problems: [], parser: 'fast' } : { text, lines, ...parseWithYaml(text), parser: 'yaml' };
  doc.problems.push(...duplicateKeys(doc.root, lines));
  return doc;
}

/**
 * Where YAML text first nests deeper than `max` levels, or -1: block levels by indentation (a
 * stack of the indents still open) plus `- ` items opened on a line, plus flow brackets outside
 * quotes and comments. One pass; it over-counts only exotic layouts, never under-counts.
 */
export function yamlTooDeepAt(text: string, max: number): number {
  const indents: number[] = [];
  let flow = 0;
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    let at = start;
    while (at < end && (text[at] === ' ' || text[at] === '\t')) at++;
    if (at < end && text[at] !== '#' && text[at] !== '\r') {
      if (flow === 0) {
        const indent = at - start;
        while (indents.length && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
        if (indents.length > max) return at;
        for (let items = 1; text[at] === '-' && (text[at + 1] === ' ' || at + 1 === end); items++) {
          if (indents.length + items > max) return at;
          at += 2;
          while (at < end && text[at] === ' ') at++;
        }
      }
      for (let i = at; i < end; i++) {
        const c = text[i];
        const prev = i === start ? ' ' : text[i - 1];
        if (c === '#' && (prev === ' ' || prev === '\t')) break;
        if ((c === '"' || c === "'") && ' \t[{,:'.includes(prev)) {
          // A quoted scalar: skip to its closing quote on this line (multi-line ones are rare).
          for (i++; i < end && text[i] !== c; i++) if (c === '"' && text[i] === '\\') i++;
        } else if (c === '[' || c === '{') {
          if (indents.length + ++flow > max) return i;
        } else if ((c === ']' || c === '}') && flow > 0) {
          flow--;
        }
      }
    }
    start = end + 1;
  }
  return -1;
}

/**
 * Keys repeated in a map, in one pass with a Set per map. (The `yaml` package's uniqueKeys
 * compares each key with every earlier one: 27 s for a map of 40,000 keys.) Iterative, so any
 * depth is safe; shared alias targets are visited once.
 */
export function duplicateKeys(root: YNode | undefined, lines: LineIndex): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const seen = new Set<YNode>();
  const todo: YNode[] = root ? [root] : [];
  for (let node = todo.pop(); node; node = todo.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === 'seq') for (const item of node.items) todo.push(item);
    if (node.kind !== 'map') continue;
    const first = new Map<string, YPair>();
    for (const pair of node.pairs) {
      todo.push(pair.value);
      const earlier = first.get(pair.key);
      if (!earlier) {
        first.set(pair.key, pair);
        continue;
      }
      const line = lines.range(earlier.keyStart, earlier.keyStart).start.line + 1;
      const message = `Duplicate key '${pair.key}': already set on line ${line}; keys of a map must be unique`;
      problems.push({ start: pair.keyStart, end: Math.max(pair.keyEnd, pair.keyStart + 1), message, code: 'duplicate-key', severity: 'error' });
    }
  }
  return problems.sort((a, b) => a.start - b.start);
}

/** The `yaml` package's reading of the text, converted to YNodes (aliases resolved, shared). */
export function parseWithYaml(text: string): { root: YNode | undefined; problems: SyntaxProblem[] } {
  // uniqueKeys compares each key with every earlier one (quadratic: 27 s for 40,000 keys);
  // duplicates are found below instead, with a Set per map.
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const problems: SyntaxProblem[] = [
    ...doc.errors.map((e) => problem(e.pos, yamlMessage(e.code, e.message), 'yaml-syntax', 'error', text)),
    ...doc.warnings.map((w) => problem(w.pos, yamlMessage(w.code, w.message), 'yaml-warning', 'warning', text)),
  ];
  const anchors = new Map<string, YNode>();
  const converted = new Map<YamlNode, YNode>();

  const convert = (node: unknown, at: number): YNode => {
    if (isAlias(node)) {
      return anchors.get(node.source) ?? nullScalar(node.range?.[0] ?? at);
    }
    if (!node || typeof node !== 'object' || !('range' in node)) return nullScalar(at);
    const yamlNode = node as YamlNode;
    const seen = converted.get(yamlNode);
    if (seen) return seen;
    const [start, valueEnd] = yamlNode.range ?? [at, at];
    let result: YNode;
    if (isYamlScalar(yamlNode)) {
      const quoted = yamlNode.type === Scalar.QUOTE_DOUBLE || yamlNode.type === Scalar.QUOTE_SINGLE;
      result = { kind: 'scalar', value: yamlNode.value, quoted, start, end: valueEnd };
    } else if (isYamlMap(yamlNode) || isYamlSeq(yamlNode)) {
      const flow = Boolean(yamlNode.flow);
      result = isYamlMap(yamlNode) ? { kind: 'map', pairs: [], start, end: flow ? valueEnd : start } : { kind: 'seq', items: [], start, end: flow ? valueEnd : start };
      // Registered before the children, so an alias inside its own anchor finds it.
      converted.set(yamlNode, result);
      if (yamlNode.anchor) anchors.set(yamlNode.anchor, result);
      for (const item of yamlNode.items as unknown[]) {
        if (result.kind === 'map') result.pairs.push(convertPair(item as { key: unknown; value: unknown }, start));
        else if (isPair(item)) {
          // `[a: b]`: a one-pair map inside a flow sequence.
          const pair = convertPair(item, start);
          result.items.push({ kind: 'map', pairs: [pair], start: pair.keyStart, end: pair.value.end });
        } else result.items.push(convert(item, start));
      }
      if (!flow) closeBlock(result);
      return result;
    } else {
      result = nullScalar(start);
    }
    converted.set(yamlNode, result);
    if (yamlNode.anchor) anchors.set(yamlNode.anchor, result);
    return result;
  };

  const convertPair = (pair: { key: unknown; value: unknown }, at: number): YPair => {
    const keyNode = pair.key as YamlNode | null;
    const [keyStart, keyEnd] = keyNode?.range ?? [at, at];
    const key = isYamlScalar(keyNode) && typeof keyNode.value === 'string' ? keyNode.value : text.slice(keyStart, keyEnd);
    // Convert the key too: it may define an anchor used later.
    if (keyNode && !isYamlScalar(keyNode)) convert(keyNode, keyStart);
    else if (keyNode?.anchor) anchors.set(keyNode.anchor, convert(keyNode, keyStart));
    return { key, keyStart, keyEnd, value: pair.value === null || pair.value === undefined ? nullScalar(keyEnd) : convert(pair.value, keyEnd) };
  };

  return { root: doc.contents === null ? undefined : convert(doc.contents, 0), problems };
}

function problem(pos: [number, number], message: string, code: string, severity: 'error' | 'warning', text: string): SyntaxProblem {
  const start = Math.min(pos[0], text.length);
  // The yaml package often marks one character: cover the word there (a duplicate key, say).
  const word = /^[^\s:,[\]{}#]*/.exec(text.slice(start, start + 200))![0].length;
  const end = Math.min(Math.max(pos[1], start + word, start + 1), text.length);
  return { start, end, message: message.split('\n')[0], code, severity };
}

/** `dataSources > 0 > eventHandlers > 0` (as the graph CLI prints paths) → ['dataSources', 0, …]. */
export function parseCliPath(path: string): (string | number)[] {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed === '/') return [];
  return trimmed
    .split('>')
    .map((s) => s.trim())
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Handler lists the graph CLI names right under a data source, skipping `mapping`. */
const UNDER_MAPPING = new Set(['eventHandlers', 'callHandlers', 'blockHandlers']);

export interface PathTarget {
  node: YNode;
  /** The pair holding the node, when the last step was a map key. */
  pair?: YPair;
  /** How many path segments were found; less than the path's length when it stops early. */
  matched: number;
}

/** Walks a key path; stops at the deepest node that exists. */
export function nodeAtPath(root: YNode | undefined, path: readonly (string | number)[]): PathTarget | undefined {
  if (!root) return undefined;
  let target: PathTarget = { node: root, matched: 0 };
  for (const segment of path) {
    const { node } = target;
    let next: PathTarget | undefined;
    if (node.kind === 'seq' && typeof segment === 'number') {
      const item = node.items[segment];
      if (item) next = { node: item, matched: target.matched + 1 };
    } else if (node.kind === 'map') {
      const key = String(segment);
      // The CLI prints `dataSources > 0 > eventHandlers > 0` for what sits under `mapping`.
      const pair = pairOf(node, key) ?? (UNDER_MAPPING.has(key) ? pairOf(get(node, 'mapping'), key) : undefined);
      if (pair) next = { node: pair.value, pair, matched: target.matched + 1 };
    }
    if (!next) break;
    target = next;
  }
  return target;
}

/**
 * The range of what a key path points at: the value, or with `part: 'key'` the key naming it.
 * A path that goes further than the document gives the range of the deepest part that exists
 * (so a CLI error still lands near its cause); an empty document gives the start of the text.
 */
export function rangeOfKeyPath(doc: ManifestDoc, path: readonly (string | number)[], part: 'value' | 'key' = 'value'): Range {
  const target = nodeAtPath(doc.root, path);
  if (!target) return doc.lines.range(0, 0);
  if (part === 'key' && target.pair) return doc.lines.range(target.pair.keyStart, target.pair.keyEnd);
  return doc.lines.range(target.node.start, target.node.end);
}
