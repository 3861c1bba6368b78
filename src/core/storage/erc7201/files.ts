/**
 * Namespaces added to the layouts of each kind of compiler file: solc's standard-JSON output and
 * Hardhat's build-infos carry every source's AST in `output.sources[src].ast` (when asked for);
 * a Foundry artifact carries only its own file's AST (with `forge build --ast`), so the bases'
 * files are found through its imports, in the artifacts beside it. A file without an AST whose
 * sources use the tag gets a note saying how to ask for the AST, never a silent gap.
 */
import * as path from 'node:path';
import { readdirSync } from 'node:fs';
import { FILE_CAPS, readTextFile } from '../../files';
import type { ContractLayout } from '../layoutTypes';
import { AstIndex, contractIn, isSourceUnit, type AstNode } from './ast';
import { namespacesOf, type Namespaces } from './namespaces';
import { TAG } from './root';
import { addEnumMembers } from '../compat/enums';

export const ASK_FOR_AST_SOLC = 'add "ast" to the compiler\'s outputSelection ({"*": {"": ["ast"]}})';
export const ASK_FOR_AST_FORGE = 'build with forge build --ast';
/** Source files read from disk to look for the tag, at most (a Foundry artifact without an AST). */
const MAX_SOURCES = 1000;
/** Source units followed through imports, at most (a Foundry artifact's bases). */
const MAX_UNITS = 2000;

const noAstNote = (how: string) => `ERC-7201 namespaces are not decoded: the file carries no AST though its sources use ${TAG}; ${how}`;

function merge(layout: ContractLayout, ns: Namespaces): void {
  layout.storage = [...layout.storage, ...ns.storage];
  layout.types = { ...ns.types, ...layout.types };
  if (ns.notes.length) layout.notes = [...(layout.notes ?? []), ...ns.notes];
}

const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Whether standard-JSON input sources hold the tag in their text. */
function sourcesTagged(inputSources: unknown): boolean {
  return Object.values(record(inputSources)).some((s) => {
    const content = record(s).content;
    return typeof content === 'string' && content.includes(TAG);
  });
}

/**
 * Namespaces of layouts read from solc's `contracts` (standard-JSON output, Hardhat 2 and 3
 * build-info), from the same output's `sources`; `inputSources` (asked only when there is no AST)
 * are the input's sources, searched for the tag.
 */
export function addOutputNamespaces(layouts: ContractLayout[], sources: unknown, inputSources: () => unknown): void {
  const bySource = record(sources);
  const units = Object.values(bySource)
    .map((s) => record(s).ast)
    .filter(isSourceUnit);
  if (units.length === 0) {
    if (layouts.length && sourcesTagged(inputSources())) for (const l of layouts) l.notes = [...(l.notes ?? []), noAstNote(ASK_FOR_AST_SOLC)];
    return;
  }
  const index = new AstIndex(units);
  for (const layout of layouts) {
    const unit = record(bySource[layout.source]).ast;
    const contract = isSourceUnit(unit) ? contractIn(unit, layout.contractName) : undefined;
    if (contract) merge(layout, namespacesOf(contract, index, `${layout.source}:${layout.contractName}`));
    addEnumMembers(layout.types, index);
  }
}

/** The sources the contracts' metadata carries with their text (solc's metadata.useLiteralContent), as input sources: a solc output has no input. */
export function metadataSources(contracts: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const byName of Object.values(record(contracts))) {
    for (const c of Object.values(record(byName))) {
      const m = record(c).metadata;
      let meta: unknown = m;
      try {
        if (typeof m === 'string') meta = JSON.parse(m);
      } catch {
        continue; // metadata that is not JSON tells nothing of the sources
      }
      Object.assign(out, record(record(meta).sources));
    }
  }
  return out;
}

/** What Foundry files have been read for, shared across the artifacts of one project. */
export interface FoundryCache {
  /** Source units by absolute path (null: no artifact of it has an AST). */
  units: Map<string, AstNode | null>;
  /** Whether a source file on disk uses the tag. */
  tagged: Map<string, boolean>;
}

export const foundryCache = (): FoundryCache => ({ units: new Map(), tagged: new Map() });

function readJson(file: string): unknown {
  try {
    return JSON.parse(readTextFile(file, FILE_CAPS.artifact));
  } catch {
    return undefined;
  }
}

function listJson(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
}

/** Where Foundry writes the artifacts of a source: out/<File>.sol, or under more of its path when two sources share a file name. */
function artifactDirs(outDir: string, absolutePath: string): string[] {
  const parts = absolutePath.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  return parts.map((_, k) => path.join(outDir, ...parts.slice(parts.length - 1 - k)));
}

/** The AST of source `absolutePath` from the artifacts Foundry wrote for it. */
function foundryUnit(outDir: string, absolutePath: string, cache: FoundryCache): AstNode | undefined {
  if (!cache.units.has(absolutePath)) {
    let found: AstNode | null = null;
    search: for (const dir of artifactDirs(outDir, absolutePath)) {
      for (const f of listJson(dir)) {
        const ast = record(readJson(path.join(dir, f))).ast;
        if (isSourceUnit(ast) && ast.absolutePath === absolutePath) {
          found = ast;
          break search;
        }
      }
    }
    cache.units.set(absolutePath, found);
  }
  return cache.units.get(absolutePath) ?? undefined;
}

/**
 * The source units `first` imports, breadth first, read only as far as the definitions asked for
 * need; a source forge wrote no artifact for (one that only re-exports, holding no contract) cuts
 * that chain, so then the other sources the metadata lists (`sources`, the whole compilation the
 * contract needed) follow.
 */
function* importedUnits(outDir: string, first: AstNode, sources: readonly string[], cache: FoundryCache): Generator<AstNode> {
  const queue = [first];
  const seen = new Set([first.absolutePath]);
  const next = function* (absolutePath: string) {
    if (seen.has(absolutePath) || seen.size > MAX_UNITS) return;
    seen.add(absolutePath);
    const u = foundryUnit(outDir, absolutePath, cache);
    if (u) {
      queue.push(u);
      yield u;
    }
  };
  while (queue.length) {
    const unit = queue.shift()!;
    for (const n of unit.nodes ?? []) if (n.nodeType === 'ImportDirective' && typeof n.absolutePath === 'string') yield* next(n.absolutePath);
  }
  for (const source of sources) yield* next(source);
}

/** Whether the sources a Foundry artifact's metadata lists use the tag: their literal content, else the files under the project root. */
function foundrySourcesTagged(metadata: unknown, root: string | undefined, cache: FoundryCache): boolean {
  const sources = Object.entries(record(record(metadata).sources)).slice(0, MAX_SOURCES);
  return sources.some(([name, s]) => {
    const content = record(s).content;
    if (typeof content === 'string') return content.includes(TAG);
    if (!root) return false;
    const file = path.resolve(root, name);
    if (!cache.tagged.has(file)) {
      let tagged = false;
      try {
        tagged = readTextFile(file, FILE_CAPS.text).includes(TAG);
      } catch {
        // a source not on disk any more: nothing to say about it
      }
      cache.tagged.set(file, tagged);
    }
    return cache.tagged.get(file)!;
  });
}

/** Namespaces of a Foundry artifact's layout (`file` is out/<File>.sol/<Name>.json). */
export function addFoundryNamespaces(layout: ContractLayout, artifact: { ast?: unknown; metadata?: unknown }, file: string | undefined, cache: FoundryCache): void {
  const outDir = file ? path.dirname(path.dirname(file)) : undefined;
  if (!isSourceUnit(artifact.ast)) {
    if (foundrySourcesTagged(artifact.metadata, outDir && path.dirname(outDir), cache)) layout.notes = [...(layout.notes ?? []), noAstNote(ASK_FOR_AST_FORGE)];
    return;
  }
  const contract = contractIn(artifact.ast, layout.contractName);
  if (!contract) return;
  const sources = Object.keys(record(record(artifact.metadata).sources));
  const index = new AstIndex([artifact.ast], outDir ? importedUnits(outDir, artifact.ast, sources, cache) : undefined);
  merge(layout, namespacesOf(contract, index, `${layout.source}:${layout.contractName}`));
  addEnumMembers(layout.types, index);
}
