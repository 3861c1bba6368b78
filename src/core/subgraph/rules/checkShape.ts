/**
 * The shape pass: walks the manifest along the shape table (shape.ts) and reports what graph-cli
 * reports: wrong types, missing required keys, unknown keys, enum values, missing files. Where a
 * value passes its type check, the value rule registered for its path (values.ts) runs.
 */
import type { Context, Span } from './context';
import type { Finding } from '../types';
import { dataSourceShape, MANIFEST, describeShape } from '../manifest/shape';
import type { ObjectShape, Shape } from '../manifest/shapeKit';
import { ETHEREUM_ONLY_RULES } from './protocols';
import { otherProtocolShape } from '../manifest/protocolShapes';
import { brief, closest } from '../text';
import { get, isMap, isScalar, pairOf, type YMap, type YNode, type YScalar } from '../ynode';

export type Path = (string | number)[];
export type ValueRule = (ctx: Context, node: YNode, path: Path) => void;

/** Data source kinds whose keys Chaindeck checks (the others go to their own tools). */
export function isCheckedKind(list: 'dataSources' | 'templates', kind: unknown): boolean {
  if (kind === undefined || kind === null || kind === 'ethereum' || kind === 'ethereum/contract') return true;
  return list === 'templates' && (kind === 'file/ipfs' || kind === 'file/arweave');
}

export function checkShape(ctx: Context, rules: Readonly<Record<string, ValueRule>>): void {
  const root = ctx.doc.root;
  if (!root) {
    ctx.flag({ start: 0, end: 0 }, 'error', 'empty-manifest', 'The manifest is empty: it needs specVersion, schema and dataSources');
    return;
  }
  const owner = isMap(root) && root.pairs.length ? { start: root.pairs[0].keyStart, end: root.pairs[0].keyEnd } : { start: root.start, end: root.start };
  new ShapeWalker(ctx, rules).walk(root, MANIFEST, [], '', owner);
}

const NON_ETHEREUM_RULES = new WeakMap<object, Readonly<Record<string, ValueRule>>>();

function nonEthereumRules(rules: Readonly<Record<string, ValueRule>>): Readonly<Record<string, ValueRule>> {
  let kept = NON_ETHEREUM_RULES.get(rules);
  if (!kept) NON_ETHEREUM_RULES.set(rules, (kept = Object.fromEntries(Object.entries(rules).filter(([k]) => !ETHEREUM_ONLY_RULES.test(k)))));
  return kept;
}

const REQUIRED = new WeakMap<ObjectShape, string[]>();

function requiredKeys(shape: ObjectShape): string[] {
  let keys = REQUIRED.get(shape);
  if (!keys) REQUIRED.set(shape, (keys = Object.keys(shape.fields).filter((k) => shape.fields[k].required)));
  return keys;
}

/** How a value's type reads in messages, as the CLI names them. */
function found(node: YNode): string {
  if (node.kind === 'map') return 'map';
  if (node.kind === 'seq') return 'list';
  const v = node.value;
  return v === null ? 'null' : typeof v === 'number' || typeof v === 'bigint' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
}

class ShapeWalker {
  constructor(
    private readonly ctx: Context,
    private readonly rules: Readonly<Record<string, ValueRule>>,
  ) {}

  /**
   * `pattern` is the path with each list index as `*` (`dataSources.*.source.address`), built as the
   * walk goes down (it keys the value rules).
   * `owner` is where to point when something is missing inside `node` (the key naming it).
   */
  walk(node: YNode, shape: Shape, path: Path, pattern: string, owner: Span): boolean {
    const ok = this.check(node, shape, path, pattern, owner);
    if (ok) this.rules[pattern]?.(this.ctx, node, path);
    return ok;
  }

  private check(node: YNode, shape: Shape, path: Path, pattern: string, owner: Span): boolean {
    switch (shape.type) {
      case 'object':
        return isMap(node) ? this.object(node, shape, path, pattern, owner) : this.mismatch(node, shape, path);
      case 'list':
        if (node.kind !== 'seq') return this.mismatch(node, shape, path);
        node.items.forEach((item, i) => this.listItem(item, shape.of, shape.itemRequired, [...path, i], `${pattern}.*`));
        return true;
      case 'union':
        return this.union(node, shape.of, path, pattern, owner);
      case 'enum':
        if (isScalar(node) && typeof node.value === 'string' && shape.values.includes(node.value)) return true;
        return this.badEnum(node, shape.values, path);
      case 'JSON':
        return true;
      case 'String':
      case 'File':
        if (!isScalar(node) || typeof node.value !== 'string') return this.mismatch(node, shape, path);
        return shape.type === 'File' ? this.fileExists(node) : true;
      case 'BigInt':
        return isScalar(node) && typeof node.value === 'number' ? true : this.mismatch(node, shape, path);
      case 'Boolean':
        return isScalar(node) && typeof node.value === 'boolean' ? true : this.mismatch(node, shape, path);
    }
  }

  private listItem(item: YNode, shape: Shape, required: boolean, path: Path, pattern: string): void {
    if (isScalar(item) && item.value === null) {
      if (required) this.ctx.flag(item.start === item.end ? this.lineOf(item) : item, 'error', 'missing-value', `No value provided for ${label(path)}`);
      return;
    }
    const list = path[0];
    if (path.length === 2 && (list === 'dataSources' || list === 'templates')) {
      const kind = get(item, 'kind');
      // Only a string names a kind: a number or boolean one is checked as Ethereum's, whose shape
      // reports its type (as for a list or map); left to the kind rule, it went unreported.
      const kindValue = isScalar(kind) && typeof kind.value === 'string' ? kind.value : undefined;
      const other = list === 'dataSources' ? otherProtocolShape(kindValue) : undefined;
      if (other) {
        // near, cosmos, arweave, substreams, subgraph: their own shape, without the EVM value rules.
        new ShapeWalker(this.ctx, nonEthereumRules(this.rules)).walk(item, other, path, pattern, item);
        return;
      }
      if (!isCheckedKind(list, kindValue)) {
        // A template of another protocol (protocols.ts reports it) or an unknown kind: only its kind is checked.
        if (kind) this.rules[`${list}.*.kind`]?.(this.ctx, kind, [...path, 'kind']);
        return;
      }
      shape = dataSourceShape(list, kindValue);
    }
    this.walk(item, shape, path, pattern, item);
  }

  private object(node: YMap, shape: ObjectShape, path: Path, pattern: string, owner: Span): boolean {
    for (const pair of node.pairs) {
      const field = Object.hasOwn(shape.fields, pair.key) ? shape.fields[pair.key] : undefined;
      const keySpan = { start: pair.keyStart, end: pair.keyEnd };
      if (!field) {
        this.unknownKey(pair.key, keySpan, Object.keys(shape.fields), path);
        continue;
      }
      const empty = isScalar(pair.value) && pair.value.value === null;
      if (empty) {
        if (field.required) this.ctx.flag(keySpan, 'error', 'missing-value', `No value provided for ${label([...path, pair.key])}`);
        continue;
      }
      this.walk(pair.value, field.shape, [...path, pair.key], pattern ? `${pattern}.${pair.key}` : pair.key, keySpan);
    }
    for (const name of requiredKeys(shape)) {
      if (!pairOf(node, name)) {
        this.ctx.flag(owner, 'error', 'missing-key', `Missing required key '${name}' in ${path.length ? label(path) : 'the manifest'}`);
      }
    }
    return true;
  }

  private unknownKey(key: string, span: Span, names: string[], path: Path): void {
    const where = path.length ? label(path) : 'the manifest';
    if (key === '<<') {
      this.ctx.flag(span, 'error', 'unknown-key', `Unexpected key '<<' in ${where}: graph-cli does not support YAML merge keys; write the keys out`);
      return;
    }
    const near = closest(key, names);
    this.ctx.flag(span, 'error', 'unknown-key', `Unexpected key '${brief(key, 40)}' in ${where}${near ? `; did you mean '${near}'?` : ''}`, {
      fix: near ? this.ctx.replace(span, near, `Rename to '${near}'`) : undefined,
    });
  }

  /**
   * Union types (block filters, `prune`): the variant with the fewest problems wins; on a tie, the
   * one with fewer unexpected keys (a polling filter's `every: 0` is a bad value, not a key the
   * plain filter does not know).
   */
  private union(node: YNode, variants: readonly Shape[], path: Path, pattern: string, owner: Span): boolean {
    let best: { ok: boolean; findings: Finding[]; unknownKeys: number } | undefined;
    for (const variant of variants) {
      const mark = this.ctx.findings.length;
      const ok = this.check(node, variant, path, pattern, owner);
      const findings = this.ctx.findings.splice(mark);
      const unknownKeys = findings.filter((f) => f.code === 'unknown-key').length;
      if (!best || findings.length < best.findings.length || (findings.length === best.findings.length && unknownKeys < best.unknownKeys)) best = { ok, findings, unknownKeys };
      if (!findings.length) break;
    }
    this.ctx.findings.push(...best!.findings);
    return best!.ok;
  }

  private badEnum(node: YNode, values: readonly string[], path: Path): boolean {
    const value = isScalar(node) ? String(node.value) : found(node);
    const near = closest(value, values);
    this.ctx.flag(node, 'error', 'invalid-enum', `Unexpected value '${brief(value, 40)}' for ${label(path)}; allowed values: ${values.join(', ')}`, {
      fix: near && isScalar(node) ? this.ctx.replace(node, near, `Change to '${near}'`) : undefined,
    });
    return false;
  }

  private mismatch(node: YNode, shape: Shape, path: Path): boolean {
    const expected = shape.type === 'String' || shape.type === 'File' ? 'string' : shape.type === 'BigInt' ? 'BigInt' : shape.type === 'object' ? 'map' : describeShape(shape);
    const what = found(node);
    const key = path[path.length - 1];
    const text = this.ctx.text(node);
    if (isScalar(node) && expected === 'string' && what === 'number') {
      // YAML reads an unquoted 0x… address (or 1.0) as a number; graph-cli then sees 9.17e+47.
      const hex = /^0x[0-9a-f]+$/i.test(text);
      this.ctx.flag(
        node,
        'error',
        hex && key === 'address' ? 'unquoted-address' : 'type-mismatch',
        `Expected string, found number ${brief(text, 48)}: YAML reads ${hex ? 'an unquoted 0x… value' : 'it'} as a number; put it in quotes`,
        { fix: this.ctx.replace(node, `"${text}"`, 'Put the value in quotes') },
      );
      return false;
    }
    if (isScalar(node) && expected === 'BigInt' && what === 'string' && /^\d+$/.test(String(node.value))) {
      this.ctx.flag(node, 'error', 'type-mismatch', `Expected BigInt, found string '${node.value}': write the number without quotes`, {
        fix: this.ctx.replace(node, String(node.value), 'Remove the quotes'),
      });
      return false;
    }
    const shown = isScalar(node) ? ` ${brief(text, 40)}` : '';
    this.ctx.flag(node, 'error', 'type-mismatch', `Expected ${expected}, found ${what}${shown} (${path.length ? label(path) : 'the manifest'})`);
    return false;
  }

  private fileExists(node: YScalar): boolean {
    const written = String(node.value);
    const file = this.ctx.resolve(written);
    if (this.ctx.read(file) !== undefined) return true;
    const problem = this.ctx.problemOf(file);
    if (problem) this.ctx.flag(node, 'error', `file-${problem.kind}`, `File cannot be read: ${problem.message.replace(file, written)}`);
    else this.ctx.flag(node, 'error', 'file-not-found', `File does not exist: ${written}`);
    return false;
  }

  /** An empty list item `-` is easier to see as the whole line than as a point. */
  private lineOf(node: YNode): Span {
    const lineStart = this.ctx.doc.text.lastIndexOf('\n', node.start - 1) + 1;
    return { start: lineStart, end: node.start };
  }
}

/** `dataSources[0].source.startBlock`, for messages. */
export function label(path: Path): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('');
}
