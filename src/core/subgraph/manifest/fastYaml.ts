/**
 * A fast parser for the plain block-style YAML that subgraph manifests are written in: block maps
 * and sequences indented with spaces, plain and quoted one-line scalars, one-line flow sequences
 * and comments. Why: on bench/validate.bench.ts's 200-data-source manifest (154 KB) the `yaml`
 * package takes ~50 ms of CPU, its Parser alone (the CST, before any document) ~35 ms: more than
 * the 30 ms a whole validation may take. With this parser, parseManifest takes ~4 ms (duplicate
 * keys checked).
 * It returns undefined as soon as the text uses anything else (anchors, tags, block or
 * multi-line scalars, escapes, flow maps, several documents, odd indentation…),
 * and then the `yaml` package parses it, errors and all. The unit tests compare both on
 * thousands of texts: whenever this parser answers, its tree equals the one from `yaml`.
 */
import { isScalar, Schema, type ScalarTag } from 'yaml';
import { closeBlock, nullScalar, type YMap, type YNode, type YScalar, type YSeq } from '../ynode';

/** Anything outside the subset: the caller falls back to the `yaml` package. */
class Unsupported extends Error {}

const bail = (): never => {
  throw new Unsupported();
};

// Characters that make a text leave the subset wherever they appear: tabs, controls, BOMs, and
// carriage returns outside CRLF line ends. (Two tests: one regex with both is 3× slower.)
// eslint-disable-next-line no-control-regex
const OUTSIDE_SUBSET = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufffe\uffff]/;
const LONE_CR = /\r(?!\n)/;
const PLAIN_KEY = /^[A-Za-z0-9_][\w./-]*$/;
/** First characters a plain scalar may not start with here (YAML indicators). */
const INDICATORS = new Set('[]{},#&*!|>\'"%@`?:');

/** The core schema's implicit scalar tags (null, bool, int, float), in the order the `yaml` package tries them. */
const IMPLICIT_TAGS = new Schema({ schema: 'core' }).tags.filter((tag): tag is ScalarTag & { test: RegExp } => tag.default === true && !tag.collection && tag.test !== undefined);

/** A plain scalar's value as the `yaml` package resolves it (YAML 1.2 core schema), with its own tags. */
export function resolvePlain(s: string): unknown {
  // Most manifest scalars are names and paths: a letter other than the first of true/false/null
  // (or a `/`) settles it without the regexes.
  const first = s.charCodeAt(0);
  if (((first | 32) >= 97 && (first | 32) <= 122 && !'tTfFnN'.includes(s[0])) || first === 47) return s;
  const tag = IMPLICIT_TAGS.find((t) => t.test.test(s));
  if (!tag) return s;
  // Some tags give a Scalar node (floats keep their written precision), others the bare value.
  const value = tag.resolve(s, () => undefined, {});
  return isScalar(value) ? value.value : value;
}

interface Frame {
  node: YMap | YSeq;
  indent: number;
}

/**
 * A `key:` or `-` whose value is on the following lines. Its entry already holds an empty value,
 * replaced when nested lines follow.
 */
interface Pending {
  indent: number;
  /** Under a map key, a sequence may sit at the key's own indentation. */
  underKey: boolean;
  owner: YMap | YSeq;
  index: number;
}

export function parseFastYaml(text: string): YNode | undefined {
  if (OUTSIDE_SUBSET.test(text) || (text.includes('\r') && LONE_CR.test(text))) return undefined;
  try {
    return new FastParser(text).parse();
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

class FastParser {
  private readonly stack: Frame[] = [];
  private pending: Pending | undefined;
  private root: YMap | YSeq | undefined;
  private lineStart = 0;
  private lineEnd = 0;

  constructor(private readonly text: string) {}

  parse(): YNode | undefined {
    const { text } = this;
    for (let start = 0; start <= text.length;) {
      const nl = text.indexOf('\n', start);
      const next = nl === -1 ? text.length + 1 : nl + 1;
      this.lineStart = start;
      this.lineEnd = nl === -1 ? text.length : text[nl - 1] === '\r' ? nl - 1 : nl;
      this.line(start);
      start = next;
    }
    this.pending = undefined;
    while (this.stack.length) this.pop();
    return this.root;
  }

  private line(start: number): void {
    const { text } = this;
    let at = start;
    while (at < this.lineEnd && text.charCodeAt(at) === 32) at++;
    if (at === this.lineEnd || text[at] === '#') return;
    const indent = at - start;
    if (text[at] === '%' || (indent === 0 && /^(?:---|\.\.\.)(?:\s|$)/.test(text.slice(at, at + 4)))) bail();
    this.entry(at, indent);
  }

  /** One `key: …` or `- …` entry starting at offset `at`, `indent` columns in. */
  private entry(at: number, indent: number): void {
    const isItem = this.isDash(at);
    const pending = this.pending;
    this.pending = undefined;
    if (pending && (indent > pending.indent || (indent === pending.indent && isItem && pending.underKey))) {
      const nested = this.open(isItem, at, indent);
      if (pending.owner.kind === 'map') pending.owner.pairs[pending.index].value = nested;
      else pending.owner.items[pending.index] = nested;
    }
    const { stack } = this;
    let frame = stack[stack.length - 1];
    while (frame && (frame.indent > indent || (frame.indent === indent && (frame.node.kind === 'seq') !== isItem))) {
      this.pop();
      frame = stack[stack.length - 1];
    }
    if (!frame) {
      if (this.root || indent !== 0) bail();
      this.root = this.open(isItem, at, indent);
      frame = stack[0];
    }
    if (frame.indent !== indent) bail();
    if (isItem) this.item(frame.node as YSeq, at);
    else this.pair(frame, at);
  }

  private get top(): Frame {
    return this.stack[this.stack.length - 1];
  }

  private isDash(at: number): boolean {
    return this.text[at] === '-' && (at + 1 === this.lineEnd || this.text[at + 1] === ' ');
  }

  private open(isItem: boolean, at: number, indent: number): YMap | YSeq {
    const node: YMap | YSeq = isItem ? { kind: 'seq', items: [], start: at, end: at } : { kind: 'map', pairs: [], start: at, end: at };
    this.stack.push({ node, indent });
    return node;
  }

  private pop(): void {
    closeBlock(this.stack.pop()!.node);
  }

  private skipSpaces(at: number): number {
    while (at < this.lineEnd && this.text.charCodeAt(at) === 32) at++;
    return at;
  }

  /** `- value`, `- key: value` (a map starts in the item) or `-` (value on the next lines). */
  private item(seq: YSeq, dash: number): void {
    const at = this.skipSpaces(dash + 1);
    if (at === this.lineEnd || (this.text[at] === '#' && at > dash + 1)) {
      this.pending = { indent: this.top.indent, underKey: false, owner: seq, index: seq.items.length };
      seq.items.push(nullScalar(at));
      return;
    }
    if (this.isDash(at)) bail();
    if (this.keyColon(at) !== -1) {
      const map = this.open(false, at, at - this.lineStart);
      seq.items.push(map);
      this.pair(this.top, at);
      return;
    }
    seq.items.push(this.value(at));
  }

  /** Offset of the `:` ending a plain key that starts at `at`, or -1. */
  private keyColon(at: number): number {
    const { text } = this;
    for (let i = at; i < this.lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 58 /* : */ && (i + 1 === this.lineEnd || text.charCodeAt(i + 1) === 32)) return i;
      if (c === 35 /* # */ && text.charCodeAt(i - 1) === 32) return -1;
    }
    return -1;
  }

  private pair(frame: Frame, at: number): void {
    const colon = this.keyColon(at);
    if (colon === -1) bail();
    const key = this.text.slice(at, colon);
    const map = frame.node as YMap;
    // A duplicate key is kept (as the `yaml` package keeps it without uniqueKeys) and reported
    // by manifestDoc's one-pass check: scanning the map here was quadratic.
    if (!PLAIN_KEY.test(key) || key.length > 1000) bail();
    const valueAt = this.skipSpaces(colon + 1);
    if (valueAt === this.lineEnd || (this.text[valueAt] === '#' && valueAt > colon + 1)) {
      this.pending = { indent: frame.indent, underKey: true, owner: map, index: map.pairs.length };
      map.pairs.push({ key, keyStart: at, keyEnd: colon, value: nullScalar(valueAt) });
      return;
    }
    map.pairs.push({ key, keyStart: at, keyEnd: colon, value: this.value(valueAt) });
  }

  /** A scalar or flow sequence from `at` to the end of the line (a comment may follow). */
  private value(at: number): YNode {
    const { text } = this;
    const c = text[at];
    let node: YNode;
    let after: number;
    if (c === '"' || c === "'") {
      node = this.quoted(at);
      after = node.end;
    } else if (c === '[') {
      node = this.flowSeq(at);
      after = node.end;
    } else {
      if (INDICATORS.has(c) || this.isDash(at)) bail();
      let end = at;
      while (end < this.lineEnd && !(text.charCodeAt(end) === 35 /* # */ && text.charCodeAt(end - 1) === 32)) end++;
      while (text.charCodeAt(end - 1) === 32) end--;
      const source = text.slice(at, end);
      if (source.includes(': ') || source.endsWith(':')) bail();
      return this.plain(source, at, end);
    }
    this.restIsComment(after);
    return node;
  }

  private plain(source: string, start: number, end: number): YScalar {
    return { kind: 'scalar', value: resolvePlain(source), quoted: false, start, end };
  }

  /** After a closing quote or bracket: nothing but spaces and maybe a comment. */
  private restIsComment(after: number): void {
    const at = this.skipSpaces(after);
    if (at !== this.lineEnd && !(this.text[at] === '#' && at > after)) bail();
  }

  private quoted(at: number): YScalar {
    const { text } = this;
    const q = text[at];
    let value = '';
    for (let i = at + 1; i < this.lineEnd; i++) {
      const c = text[i];
      if (q === '"' && c === '\\') bail();
      if (c !== q) {
        value += c;
        continue;
      }
      if (q === "'" && text[i + 1] === "'") {
        value += "'";
        i++;
        continue;
      }
      return { kind: 'scalar', value, quoted: true, start: at, end: i + 1 };
    }
    return bail();
  }

  /** `[a, "b", c]` on one line, scalars only. */
  private flowSeq(at: number): YSeq {
    const { text } = this;
    const seq: YSeq = { kind: 'seq', items: [], start: at, end: at };
    let i = this.skipSpaces(at + 1);
    if (text[i] === ']') {
      seq.end = i + 1;
      return seq;
    }
    for (;;) {
      if (text[i] === '"' || text[i] === "'") {
        const item = this.quoted(i);
        seq.items.push(item);
        i = this.skipSpaces(item.end);
      } else {
        let end = i;
        while (end < this.lineEnd && !',[]{}#:'.includes(text[end])) end++;
        let trimmed = end;
        while (text.charCodeAt(trimmed - 1) === 32) trimmed--;
        if (trimmed === i || INDICATORS.has(text[i]) || this.isDash(i)) bail();
        seq.items.push(this.plain(text.slice(i, trimmed), i, trimmed));
        i = end;
      }
      if (text[i] === ']') {
        seq.end = i + 1;
        return seq;
      }
      if (text[i] !== ',') bail();
      i = this.skipSpaces(i + 1);
    }
  }
}
