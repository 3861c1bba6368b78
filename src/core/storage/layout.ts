/**
 * Storage-layout labels from compiler artifacts: solc's `storageLayout` output, as Hardhat keeps
 * it in `artifacts/build-info/*.json` (output.contracts[source][name].storageLayout) and Foundry
 * in `out/<File>.sol/<Name>.json` (top-level storageLayout, when `extra_output` asks for it).
 * Names for slots are in slotLabels.ts; matching deployed code in deployedCode.ts.
 */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { FILE_CAPS, readTextFile } from '../files';
import type { CodeRange, ContractLayout, LayoutVariable, SolcStorageLayout, SolcType } from './layoutTypes';
import { addFoundryNamespaces, addOutputNamespaces, foundryCache, metadataSources, type FoundryCache } from './erc7201/files';

export type { CodeRange, ContractLayout, LayoutVariable, SolcStorageItem, SolcStorageLayout, SolcType } from './layoutTypes';

/** The type with id `id`, only if the layout describes it (an id like "constructor" is no Object method). */
export function typeOf(types: Record<string, SolcType>, id: string): SolcType | undefined {
  return Object.hasOwn(types, id) ? types[id] : undefined;
}

function toVariables(layout: SolcStorageLayout): LayoutVariable[] {
  const types = layout.types ?? {};
  return layout.storage.map((s) => ({
    label: s.label,
    slot: String(s.slot),
    offset: s.offset,
    type: typeOf(types, s.type)?.label ?? s.type,
    typeId: s.type,
    numberOfBytes: bytesOf(types, s.type),
  }));
}

const ENCODINGS: readonly string[] = ['inplace', 'mapping', 'dynamic_array', 'bytes'];
const DECIMAL = /^\d{1,78}$/;
const SLOT_LIMIT = 1n << 256n;

/** A value of a layout as it reads in a message: a primitive as JSON, cut short; a list or an object by its kind (it may nest past the stack). */
const shown = (v: unknown) => (Array.isArray(v) ? 'a list' : typeof v === 'object' && v !== null ? 'an object' : (JSON.stringify(v) ?? String(v)).slice(0, 40));

const isDecimal = (v: unknown) => (typeof v === 'string' && DECIMAL.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

/** What is wrong with one storage item or struct member, or undefined. */
function itemProblem(item: unknown, where: string): string | undefined {
  if (typeof item !== 'object' || item === null) return `${where} is ${shown(item)}, not an entry`;
  const i = item as Record<string, unknown>;
  if (typeof i.label !== 'string') return `${where} has no label`;
  const at = `${where} (${i.label.slice(0, 60)})`;
  if (typeof i.type !== 'string') return `${at} has no type`;
  if (!isDecimal(i.slot) || BigInt(i.slot as string | number) >= SLOT_LIMIT) return `${at}: slot ${shown(i.slot)} is not a decimal number below 2^256`;
  if (typeof i.offset !== 'number' || !Number.isInteger(i.offset) || i.offset < 0 || i.offset > 31) return `${at}: offset ${shown(i.offset)} is not a byte offset from 0 to 31`;
  return undefined;
}

/**
 * What is wrong with a storageLayout, or undefined when it has solc's shape: slots decimal and
 * below 2^256, offsets 0–31, every type with a known encoding and a decimal size. A file edited
 * by hand or written by another tool must fail here with its culprit named, not deep in a decode.
 */
export function layoutProblem(v: unknown): string | undefined {
  const l = v as { storage?: unknown; types?: unknown } | null;
  if (typeof l !== 'object' || l === null || !Array.isArray(l.storage)) return 'it has no storage list';
  for (const [k, item] of l.storage.entries()) {
    const problem = itemProblem(item, `storage[${k}]`);
    if (problem) return problem;
  }
  if (l.types === null || l.types === undefined) return undefined;
  if (typeof l.types !== 'object' || Array.isArray(l.types)) return `types is ${shown(l.types)}, not an object`;
  for (const [id, type] of Object.entries(l.types as Record<string, unknown>)) {
    const where = `type ${id.slice(0, 80)}`;
    if (typeof type !== 'object' || type === null) return `${where} is ${shown(type)}, not a type`;
    const t = type as Record<string, unknown>;
    if (typeof t.encoding !== 'string' || !ENCODINGS.includes(t.encoding)) return `${where}: encoding ${shown(t.encoding)} is none of ${ENCODINGS.join(', ')}`;
    if (typeof t.label !== 'string') return `${where} has no label`;
    if (!isDecimal(t.numberOfBytes) || /^0+$/.test(String(t.numberOfBytes))) return `${where}: numberOfBytes ${shown(t.numberOfBytes)} is not a positive decimal number`;
    // A value type lies within one slot; only arrays and structs span more.
    if (t.encoding === 'inplace' && t.base === undefined && t.members === undefined && BigInt(t.numberOfBytes as string | number) > 32n) {
      return `${where}: numberOfBytes ${shown(t.numberOfBytes)} is more than the 32 bytes of a value type`;
    }
    for (const ref of ['base', 'key', 'value'] as const) if (t[ref] !== undefined && typeof t[ref] !== 'string') return `${where}: ${ref} ${shown(t[ref])} is not a type id`;
    if (t.members !== undefined) {
      if (!Array.isArray(t.members)) return `${where}: members is ${shown(t.members)}, not a list`;
      for (const [k, m] of t.members.entries()) {
        const problem = itemProblem(m, `${where} member ${k}`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** A storageLayout in solc's shape (see layoutProblem); a malformed one counts as none. */
function isStorageLayout(v: unknown): v is SolcStorageLayout {
  return layoutProblem(v) === undefined;
}

/** Immutable references ({astId: [{start, length}]}) and link references ({file: {lib: [{start, length}]}}) as ranges. */
function rangesOf(deployed: { immutableReferences?: unknown; linkReferences?: unknown } | undefined): CodeRange[] {
  const out: CodeRange[] = [];
  const push = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const r of list) if (typeof r?.start === 'number' && typeof r?.length === 'number') out.push({ start: r.start, length: r.length });
  };
  for (const list of Object.values((deployed?.immutableReferences as Record<string, unknown>) ?? {})) push(list);
  for (const libs of Object.values((deployed?.linkReferences as Record<string, Record<string, unknown>>) ?? {})) {
    for (const list of Object.values(libs ?? {})) push(list);
  }
  return out;
}

function hexOf(object: unknown): string | undefined {
  if (typeof object !== 'string' || object.replace(/^0x/, '') === '') return undefined;
  return object.startsWith('0x') ? object : `0x${object}`;
}

/** The layouts of solc's `contracts[source][name]`, as standard-JSON output and every build-info holds it. */
function layoutsOfContracts(contracts: Record<string, Record<string, unknown>>, file?: string): ContractLayout[] {
  const out: ContractLayout[] = [];
  for (const [source, byName] of Object.entries(contracts)) {
    for (const [contractName, c] of Object.entries(byName ?? {})) {
      const contract = c as { storageLayout?: unknown; evm?: { deployedBytecode?: { object?: unknown; immutableReferences?: unknown; linkReferences?: unknown } } };
      if (!isStorageLayout(contract?.storageLayout)) continue;
      const deployed = contract.evm?.deployedBytecode;
      out.push({
        contractName,
        source,
        storage: toVariables(contract.storageLayout),
        types: contract.storageLayout.types ?? {},
        deployedBytecode: hexOf(deployed?.object),
        variableRanges: rangesOf(deployed),
        ...(file ? { artifact: file } : {}),
      });
    }
  }
  return out;
}

function contractsOf(value: unknown): Record<string, Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, Record<string, unknown>>) : undefined;
}

/** The layouts in a Hardhat build-info file (v2 `<id>.json`, or Hardhat 3's `<id>.output.json`). */
export function parseHardhatBuildInfo(json: unknown, file?: string): ContractLayout[] {
  const j = json as { output?: { contracts?: unknown; sources?: unknown }; input?: { sources?: unknown } } | null;
  const contracts = contractsOf(j?.output?.contracts);
  if (!contracts) return [];
  const layouts = layoutsOfContracts(contracts, file);
  // Hardhat 3 keeps the input beside the output: <id>.json next to <id>.output.json.
  const input = () => j?.input?.sources ?? (file?.endsWith('.output.json') ? (readJson(file.replace(/\.output\.json$/, '.json')) as typeof j)?.input?.sources : undefined);
  addOutputNamespaces(layouts, j?.output?.sources, input);
  return layouts;
}

/**
 * The layout in a Foundry artifact (`out/<File>.sol/<Name>.json`), or undefined when it has
 * none. The name and source come from metadata.settings.compilationTarget, else from the path.
 */
export function parseFoundryArtifact(json: unknown, file?: string, cache: FoundryCache = foundryCache()): ContractLayout | undefined {
  const a = json as {
    storageLayout?: unknown;
    deployedBytecode?: { object?: unknown; immutableReferences?: unknown; linkReferences?: unknown };
    metadata?: { settings?: { compilationTarget?: Record<string, string> } } | string;
    ast?: { absolutePath?: string };
  };
  if (!isStorageLayout(a?.storageLayout)) return undefined;
  const metadata = typeof a.metadata === 'string' ? safeJson(a.metadata) : a.metadata;
  const target = Object.entries((metadata as { settings?: { compilationTarget?: Record<string, string> } })?.settings?.compilationTarget ?? {})[0];
  const fromPath = file ? { name: path.basename(file, '.json'), source: path.basename(path.dirname(file)) } : undefined;
  const layout: ContractLayout = {
    contractName: target?.[1] ?? fromPath?.name ?? 'unknown',
    source: target?.[0] ?? a.ast?.absolutePath ?? fromPath?.source ?? 'unknown',
    storage: toVariables(a.storageLayout),
    types: a.storageLayout.types ?? {},
    deployedBytecode: hexOf(a.deployedBytecode?.object),
    variableRanges: rangesOf(a.deployedBytecode),
    ...(file ? { artifact: file } : {}),
  };
  addFoundryNamespaces(layout, { ast: a.ast, metadata }, file, cache);
  return layout;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readJson(file: string): unknown {
  try {
    return safeJson(readTextFile(file, FILE_CAPS.artifact));
  } catch {
    return undefined; // not a regular file, too large, unreadable: no layout from it
  }
}

/** A folder (a broken symlink or a vanished entry is not one, and no reason to fail). */
function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Every layout under a project folder: Hardhat's artifacts/build-info/*.json and Foundry's
 * out/<File>.sol/<Name>.json (its out/build-info is skipped: the per-contract files hold the same).
 */
export function loadProjectLayouts(root: string): ContractLayout[] {
  const out: ContractLayout[] = [];
  const buildInfo = path.join(root, 'artifacts', 'build-info');
  for (const f of listDir(buildInfo)
    .filter((n) => n.endsWith('.json'))
    .sort())
    out.push(...parseHardhatBuildInfo(readJson(path.join(buildInfo, f)), path.join(buildInfo, f)));
  const foundry = path.join(root, 'out');
  const cache = foundryCache();
  for (const dir of listDir(foundry)
    .filter((n) => n !== 'build-info')
    .sort()) {
    const full = path.join(foundry, dir);
    if (!isFolder(full)) continue;
    for (const f of listDir(full)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const layout = parseFoundryArtifact(readJson(path.join(full, f)), path.join(full, f), cache);
      if (layout) out.push(layout);
    }
  }
  return out;
}

// ---- one layout file, as the user names it ----

/** The kinds of file a layout is read from. */
export type LayoutFileKind = 'solc-output' | 'foundry-artifact' | 'hardhat-build-info' | 'hardhat3-output';

/** A layout file that cannot give the layout asked for; `ambiguous` when only a --contract choice is missing. */
export class LayoutFileError extends Error {
  override readonly name = 'LayoutFileError';
  constructor(
    message: string,
    readonly reason: 'unreadable' | 'not-json' | 'not-a-layout-file' | 'no-layout' | 'malformed' | 'no-contract' | 'ambiguous',
  ) {
    super(message);
  }
}

/** How to make the compiler write the layout, for the message of a file without one. */
export const ASK_FOR_LAYOUT =
  'ask the compiler for it: solc and Hardhat with settings.outputSelection {"*": {"*": ["storageLayout"]}}, forge with --extra-output storageLayout (or extra_output = ["storageLayout"] in foundry.toml)';

/** What a parsed JSON file is, judged by its shape. */
export function layoutFileKind(json: unknown): LayoutFileKind | 'hardhat3-input' | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const j = json as Record<string, unknown>;
  if (j._format === 'hh3-sol-build-info-1') return 'hardhat3-input';
  if (j._format === 'hh3-sol-build-info-output-1') return 'hardhat3-output';
  if (contractsOf((j.output as { contracts?: unknown } | undefined)?.contracts)) return 'hardhat-build-info';
  if (contractsOf(j.contracts)) return 'solc-output';
  if ('storageLayout' in j || 'deployedBytecode' in j || ('abi' in j && 'bytecode' in j)) return 'foundry-artifact';
  return undefined;
}

/** The layouts of a solc standard-JSON output, namespaces read from its sources' ASTs. */
function solcOutputLayouts(json: { contracts: unknown; sources?: unknown }, file: string): ContractLayout[] {
  const layouts = layoutsOfContracts(contractsOf(json.contracts)!, file);
  addOutputNamespaces(layouts, json.sources, () => metadataSources(json.contracts));
  return layouts;
}

/** The storageLayout values a file holds, by contract name ("source:Name"), well formed or not. */
function layoutsIn(json: unknown, kind: LayoutFileKind, file: string): [string, unknown][] {
  if (kind === 'foundry-artifact') return [[contractNames(json, kind, file)[0], (json as { storageLayout?: unknown }).storageLayout]];
  const j = json as { contracts?: unknown; output?: { contracts?: unknown } };
  const contracts = contractsOf(kind === 'solc-output' ? j.contracts : j.output?.contracts) ?? {};
  return Object.entries(contracts).flatMap(([source, byName]) =>
    Object.entries(byName ?? {}).map(([name, c]): [string, unknown] => [`${source}:${name}`, (c as { storageLayout?: unknown } | null)?.storageLayout]),
  );
}

/** Every contract a file names, with or without a layout: "source:Name". */
function contractNames(json: unknown, kind: LayoutFileKind, file: string): string[] {
  if (kind === 'foundry-artifact') return [parseFoundryArtifact({ ...(json as object), storageLayout: { storage: [], types: null } }, file)!.contractName];
  const j = json as { contracts?: unknown; output?: { contracts?: unknown } };
  const contracts = contractsOf(kind === 'solc-output' ? j.contracts : j.output?.contracts) ?? {};
  return Object.entries(contracts).flatMap(([source, byName]) => Object.keys(byName ?? {}).map((name) => `${source}:${name}`));
}

/**
 * The layouts of one file: a solc standard-JSON output, a Foundry artifact, a Hardhat 2
 * build-info or a Hardhat 3 `<id>.output.json`. Throws a LayoutFileError naming the file when it
 * cannot be read, is not JSON, is none of these, or holds no layout (saying how to ask for one).
 */
export function readLayoutFile(file: string): { kind: LayoutFileKind; layouts: ContractLayout[] } {
  let text: string;
  try {
    text = readTextFile(file, FILE_CAPS.artifact);
  } catch (err) {
    throw new LayoutFileError(err instanceof Error ? err.message : String(err), 'unreadable');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new LayoutFileError(`${file} is not JSON: ${(err as Error).message}`, 'not-json');
  }
  const kind = layoutFileKind(json);
  if (kind === 'hardhat3-input') {
    throw new LayoutFileError(`${file} is a Hardhat 3 build-info without the compiler's output: use ${file.replace(/\.json$/, '.output.json')} beside it`, 'not-a-layout-file');
  }
  if (!kind) {
    throw new LayoutFileError(
      `${file} is not a compiler output: expected a solc standard-JSON output, a Foundry artifact (out/<File>.sol/<Name>.json) or a Hardhat build-info (build-info/<id>.json, or <id>.output.json for Hardhat 3)`,
      'not-a-layout-file',
    );
  }
  for (const [name, layout] of layoutsIn(json, kind, file)) {
    const problem = layout === undefined ? undefined : layoutProblem(layout);
    if (problem) throw new LayoutFileError(`${file}: the storage layout of ${name} is malformed: ${problem}`, 'malformed');
  }
  const layouts =
    kind === 'foundry-artifact'
      ? [parseFoundryArtifact(json, file)].filter((l): l is ContractLayout => l !== undefined)
      : kind === 'solc-output'
        ? solcOutputLayouts(json as { contracts: unknown; sources?: unknown }, file)
        : parseHardhatBuildInfo(json, file);
  if (layouts.length === 0) {
    const names = contractNames(json, kind, file);
    const which = names.length ? `none of its contracts (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}) has` : 'it has no contract with';
    throw new LayoutFileError(`${file} has no storage layout: ${which} storageLayout; ${ASK_FOR_LAYOUT}`, 'no-layout');
  }
  return { kind, layouts };
}

/** How a layout is named in lists and messages: "source:Name". */
export function layoutName(layout: Pick<ContractLayout, 'source' | 'contractName'>): string {
  return `${layout.source}:${layout.contractName}`;
}

/** Whether a source name is the one the user wrote: as is, or with Hardhat 3's `project/` prefix, or as its tail. */
function sourceMatches(source: string, wanted: string): boolean {
  const a = source.replace(/\\/g, '/');
  const b = wanted.replace(/\\/g, '/').replace(/^\.\//, '');
  return a === b || a === `project/${b}` || a.endsWith(`/${b}`);
}

/**
 * The layout `contract` names (NAME or PATH:NAME) among a file's layouts; without a name, the one
 * contract with storage (interfaces and libraries, which have none, are left out).
 */
export function selectLayout(layouts: readonly ContractLayout[], contract: string | undefined, file: string): ContractLayout {
  const list = (ls: readonly ContractLayout[]) => ls.map(layoutName).join(', ');
  if (contract === undefined) {
    const withState = layouts.filter((l) => l.storage.length > 0 || Object.keys(l.types).length > 0);
    const pool = withState.length ? withState : layouts;
    if (pool.length === 1) return pool[0];
    throw new LayoutFileError(`${file} holds ${pool.length} contracts: choose one with --contract NAME or PATH:NAME (${list(pool)})`, 'ambiguous');
  }
  const colon = contract.lastIndexOf(':');
  const name = colon >= 0 ? contract.slice(colon + 1) : contract;
  const source = colon >= 0 ? contract.slice(0, colon) : undefined;
  const found = layouts.filter((l) => l.contractName === name && (source === undefined || sourceMatches(l.source, source)));
  if (found.length === 1) return found[0];
  if (found.length > 1) throw new LayoutFileError(`--contract ${contract} is in ${file} ${found.length} times: write PATH:NAME (${list(found)})`, 'ambiguous');
  throw new LayoutFileError(`--contract ${contract} is not in ${file}; it holds: ${list(layouts)}`, 'no-contract');
}

// ---- sizes ----

/** Bytes a value of type `id` takes (solc's numberOfBytes; 32 when unknown). */
export function bytesOf(types: Record<string, SolcType>, id: string): number {
  return Number(typeOf(types, id)?.numberOfBytes ?? 32);
}

/** Whole slots a value of type `id` takes. */
export function slotsOf(types: Record<string, SolcType>, id: string): bigint {
  return BigInt(Math.max(1, Math.ceil(bytesOf(types, id) / 32)));
}

/** Static array length from solc's type id, e.g. t_array(t_uint256)3_storage → 3n (exact, however long). */
export function staticLength(id: string): bigint {
  const m = /\)(\d+)_storage$/.exec(id);
  return m ? BigInt(m[1]) : 0n;
}
