/**
 * The manifest as a small tree of YAML nodes with source offsets: what every rule reads. Two
 * parsers build it (fastYaml.ts for the plain block style real manifests use, the `yaml` package
 * for everything else); both give the same tree for the same text.
 */

export interface YScalar {
  kind: 'scalar';
  /** As YAML 1.2's core schema resolves it (what graph-cli's `yaml.parse` sees). */
  value: unknown;
  quoted: boolean;
  start: number;
  end: number;
}

export interface YPair {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: YNode;
}

export interface YMap {
  kind: 'map';
  pairs: YPair[];
  start: number;
  end: number;
}

export interface YSeq {
  kind: 'seq';
  items: YNode[];
  start: number;
  end: number;
}

export type YNode = YScalar | YMap | YSeq;

/** The empty value of `key:` with nothing after it. */
export function nullScalar(at: number): YScalar {
  return { kind: 'scalar', value: null, quoted: false, start: at, end: at };
}

export function isMap(node: YNode | undefined): node is YMap {
  return node?.kind === 'map';
}

export function isScalar(node: YNode | undefined): node is YScalar {
  return node?.kind === 'scalar';
}

/** The pair of `key` in a map node (the first, if the text repeats it). */
export function pairOf(node: YNode | undefined, key: string): YPair | undefined {
  return node?.kind === 'map' ? node.pairs.find((p) => p.key === key) : undefined;
}

/** The value under `key` in a map node (the first, if the text repeats it). */
export function get(node: YNode | undefined, key: string): YNode | undefined {
  return pairOf(node, key)?.value;
}

/** The string value of a scalar, or undefined for anything else (numbers included). */
export function str(node: YNode | undefined): string | undefined {
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
}

export function items(node: YNode | undefined): YNode[] {
  return node?.kind === 'seq' ? node.items : [];
}

/** Block collections end where their last entry ends (flow ones keep their closing bracket). */
export function closeBlock(node: YMap | YSeq): void {
  const last = node.kind === 'map' ? node.pairs[node.pairs.length - 1]?.value : node.items[node.items.length - 1];
  if (last) node.end = Math.max(node.end, last.end);
}
