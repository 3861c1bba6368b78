/**
 * Rules across files, per data source and template: its ABIs exist and parse, `source.abi` is
 * among them, event and call signatures are in the ABI, handlers are exported by the mapping,
 * entities are in the schema, the features it uses fit the specVersion.
 */
import * as path from 'node:path';
import { bestEvent, bestFunction, normalizeSignature, type Abi, type AbiEvent } from '../code/abi';
import { isCheckedKind, label, type Path } from './checkShape';
import type { Context, Span } from './context';
import type { SchemaInfo } from '../schema/schema';
import { entityStub, handlerStub, type HandlerStubInput } from '../code/stubs';
import { nearMatch } from '../nearMatch';
import { brief, closest, LineIndex } from '../text';
import { API_VERSION_FOR, compareVersions, parseVersion, requireSpecVersion, SPEC_VERSION_FOR } from './versions';
import { get, isMap, isScalar, items, pairOf, str, type YMap, type YNode, type YScalar } from '../ynode';

export interface DataSourceRef {
  list: 'dataSources' | 'templates';
  index: number;
  node: YMap;
  name: string | undefined;
  kind: string | undefined;
  mapping: YMap | undefined;
}

/** The data sources and templates Chaindeck checks (Ethereum and file ones). */
export function dataSourceRefs(root: YNode | undefined): DataSourceRef[] {
  const refs: DataSourceRef[] = [];
  for (const list of ['dataSources', 'templates'] as const) {
    items(get(root, list)).forEach((node, index) => {
      const kindNode = get(node, 'kind');
      if (!isMap(node) || !isCheckedKind(list, isScalar(kindNode) ? kindNode.value : undefined)) return;
      const mapping = get(node, 'mapping');
      refs.push({ list, index, node, name: str(get(node, 'name')), kind: str(kindNode), mapping: isMap(mapping) ? mapping : undefined });
    });
  }
  return refs;
}

/** How many `export * from` modules deep a mapping's handlers are looked for. */
const MAX_REEXPORT_DEPTH = 16;

const spanOfKey = (map: YMap, key: string): Span | undefined => {
  const pair = pairOf(map, key);
  return pair && { start: pair.keyStart, end: pair.keyEnd };
};

export function checkDataSources(ctx: Context, schema: SchemaInfo | undefined): void {
  const mappingsChecked = new Set<string>();
  for (const ds of dataSourceRefs(ctx.doc.root)) new DataSourceChecker(ctx, ds, schema, mappingsChecked).run();
}

class DataSourceChecker {
  private readonly path: Path;
  private abis = new Map<string, Abi>();
  private sourceAbi: { name: string; abi: Abi } | undefined;
  private mappingFile: string | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly ds: DataSourceRef,
    private readonly schema: SchemaInfo | undefined,
    private readonly mappingsChecked: Set<string>,
  ) {
    this.path = [ds.list, ds.index];
  }

  run(): void {
    const { mapping } = this.ds;
    this.blockRange();
    if (!mapping) return;
    const file = str(get(mapping, 'file'));
    this.mappingFile = file === undefined ? undefined : this.ctx.resolve(file);
    this.loadAbis(mapping);
    this.sourceAbiListed(mapping);
    this.handlers(mapping);
    this.entities(mapping);
    this.mappingImports();
  }

  private blockRange(): void {
    const source = get(this.ds.node, 'source');
    const start = get(source, 'startBlock');
    const end = get(source, 'endBlock');
    if (isScalar(end) && typeof end.value === 'number') {
      requireSpecVersion(this.ctx, end, SPEC_VERSION_FOR.endBlock, 'source.endBlock');
      if (isScalar(start) && typeof start.value === 'number' && end.value < start.value) {
        // graph-node accepts it and the data source simply indexes nothing: a hint.
        this.ctx.flag(end, 'info', 'end-before-start', `endBlock ${end.value} is before startBlock ${start.value}: this data source indexes no block`);
      }
    }
    // No specVersion gate for file data sources: graph-node holds them to 0.0.7 in dataSources
    // only, where graph-cli refuses the kind anyway (unknown-kind); as templates, a subgraph of
    // specVersion 0.0.2 builds and deploys.
  }

  private loadAbis(mapping: YMap): void {
    for (const entry of items(get(mapping, 'abis'))) {
      const name = str(get(entry, 'name'));
      const fileNode = get(entry, 'file');
      const file = str(fileNode);
      if (name === undefined || file === undefined) continue;
      const text = this.ctx.read(this.ctx.resolve(file));
      if (text === undefined) continue; // reported by the shape pass
      const result = this.ctx.cache.abi(text);
      if ('error' in result) this.ctx.flag(fileNode!, 'error', 'abi-invalid', `${result.error} (${file})`);
      else if (!this.abis.has(name)) this.abis.set(name, result.abi);
    }
  }

  private sourceAbiListed(mapping: YMap): void {
    const node = get(get(this.ds.node, 'source'), 'abi');
    const name = str(node);
    if (name === undefined) return;
    const names = items(get(mapping, 'abis'))
      .map((e) => str(get(e, 'name')))
      .filter((n): n is string => n !== undefined);
    if (names.includes(name)) {
      const abi = this.abis.get(name);
      if (abi) this.sourceAbi = { name, abi };
      return;
    }
    const near = nearMatch(name, names) ?? (names.length === 1 ? names[0] : undefined);
    this.ctx.flag(node!, 'error', 'abi-not-listed', `ABI name '${name}' not found in mapping.abis${names.length ? ` (available: ${names.join(', ')})` : ''}`, {
      fix: near ? this.ctx.replace(node!, near, `Change to ${near}`) : undefined,
    });
  }

  private handlers(mapping: YMap): void {
    const isFile = this.ds.kind?.startsWith('file/');
    if (isFile) {
      const handler = get(mapping, 'handler');
      if (str(handler) !== undefined) this.exported(handler as YScalar, { kind: 'file' });
      return;
    }
    const lists = ['eventHandlers', 'callHandlers', 'blockHandlers'].map((k) => items(get(mapping, k)));
    // graph-cli requires handlers on data sources only (Subgraph.validateHandlers); a template may have none.
    if (this.ds.list === 'dataSources' && lists.every((l) => l.length === 0)) {
      const span = spanOfKey(this.ds.node, 'mapping')!;
      this.ctx.flag(span, 'error', 'no-handlers', `Mapping of ${this.ds.name ?? label(this.path)} has no eventHandlers, callHandlers or blockHandlers; at least one is needed`);
    }
    for (const h of lists[0]) this.eventHandler(h);
    for (const h of lists[1]) this.callHandler(h);
    for (const h of lists[2]) {
      const handler = get(h, 'handler');
      if (str(handler) !== undefined) this.exported(handler as YScalar, { kind: 'block' });
      const kind = str(get(get(h, 'filter'), 'kind'));
      if (kind === 'polling' || kind === 'once') requireSpecVersion(this.ctx, get(get(h, 'filter'), 'kind')!, SPEC_VERSION_FOR.pollingAndOnceBlockHandlers, `A ${kind} block filter`);
    }
  }

  private eventHandler(h: YNode): void {
    if (!isMap(h)) return;
    const eventNode = get(h, 'event');
    const written = str(eventNode);
    let event: AbiEvent | undefined;
    if (written !== undefined && this.sourceAbi) event = this.eventInAbi(eventNode as YScalar, written, this.sourceAbi);
    const handler = get(h, 'handler');
    if (str(handler) !== undefined) {
      const trigger = event ? { kind: 'event' as const, name: event.name, signature: event.signature, params: event.params } : undefined;
      this.exported(handler as YScalar, trigger ?? { kind: 'event', name: (written ?? 'Event').split('(')[0].trim() || 'Event', signature: written ?? '', params: [] });
    }
    for (const key of ['topic1', 'topic2', 'topic3', 'calls']) {
      const span = spanOfKey(h, key);
      if (span) requireSpecVersion(this.ctx, span, SPEC_VERSION_FOR.declaredCallsAndTopicFilters, key === 'calls' ? 'A declared call' : `A ${key} filter`);
    }
    const receipt = get(h, 'receipt');
    // graph-node gates receipts on the mapping's apiVersion only (chain/ethereum/src/data_source.rs, validate).
    if (isScalar(receipt) && receipt.value === true) {
      const api = str(get(this.ds.mapping, 'apiVersion'));
      if (api && parseVersion(api) && compareVersions(api, API_VERSION_FOR.receipt) < 0) {
        this.ctx.flag(receipt, 'error', 'api-version-too-low', `receipt: true needs mapping apiVersion ${API_VERSION_FOR.receipt} or newer; this mapping has ${api}`);
      }
    }
  }

  /** The ABI event the handler names, reporting a signature the CLI would not accept. */
  private eventInAbi(node: YScalar, written: string, source: { name: string; abi: Abi }): AbiEvent | undefined {
    const exact = source.abi.events.find((e) => e.signature === written);
    if (exact) return exact;
    const normalized = source.abi.events.find((e) => e.signature === normalizeSignature(written));
    if (normalized) {
      this.ctx.flag(node, 'error', 'event-signature-format', `Event signature '${brief(written, 80)}' must be written as '${normalized.signature}': no spaces except after indexed`, {
        fix: this.ctx.replace(node, normalized.signature, 'Rewrite the signature'),
      });
      return normalized;
    }
    const best = bestEvent(source.abi, written);
    const available = source.abi.events.map((e) => e.signature);
    this.ctx.flag(
      node,
      'error',
      'event-not-in-abi',
      `Event with signature '${brief(written, 80)}' not present in ABI '${source.name}'${best ? `; did you mean '${best.signature}'?` : '.'} Available events: ${available.length ? available.join(', ') : 'none'}`,
      { fix: best ? this.ctx.replace(node, best.signature, `Change to ${best.signature}`) : undefined },
    );
    return best;
  }

  private callHandler(h: YNode): void {
    const fnNode = get(h, 'function');
    const written = str(fnNode);
    let functionName = (written ?? 'call').split('(')[0].trim() || 'call';
    if (written !== undefined && this.sourceAbi && !this.sourceAbi.abi.callFunctions.includes(written)) {
      const best = bestFunction(this.sourceAbi.abi, written);
      if (best) functionName = best.split('(')[0];
      const available = this.sourceAbi.abi.callFunctions;
      this.ctx.flag(
        fnNode!,
        'error',
        'function-not-in-abi',
        `Call function with signature '${brief(written, 80)}' not present in ABI '${this.sourceAbi.name}'${best ? `; did you mean '${best}'?` : '.'} Available call functions: ${available.length ? available.join(', ') : 'none'}`,
        { fix: best ? this.ctx.replace(fnNode!, best, `Change to ${best}`) : undefined },
      );
    }
    const handler = get(h, 'handler');
    if (str(handler) !== undefined) this.exported(handler as YScalar, { kind: 'call', functionName });
  }

  /**
   * The names a mapping exports, following `export * from './x'` chains up to MAX_REEXPORT_DEPTH modules deep.
   * Undefined when that set is not known for sure (a module that cannot be read, such as a
   * package, or a longer chain): then no handler is reported as missing.
   */
  private exportsOf(file: string, depth = 0, seen = new Set<string>()): Set<string> | undefined {
    const text = this.ctx.read(file);
    if (text === undefined) return undefined;
    if (seen.has(file)) return new Set(); // a cycle adds no names
    seen.add(file);
    const scan = this.ctx.cache.mapping(text);
    if (!scan.exportAll.length) return scan.exports;
    if (depth >= MAX_REEXPORT_DEPTH) {
      this.ctx.unchecked.push(`the handlers of ${this.mappingFile ?? file} are not checked: its re-exports (export * from) go more than ${MAX_REEXPORT_DEPTH} modules deep, to ${file}`);
      return undefined;
    }
    const all = new Set(scan.exports);
    for (const module of scan.exportAll) {
      const base = path.join(path.dirname(file), module);
      const [asFile, asFolder] = [`${base}.ts`, path.join(base, 'index.ts')];
      const found = this.exportsOf(asFile, depth + 1, seen) ?? this.exportsOf(asFolder, depth + 1, seen);
      if (!found) {
        // Unreadable files are reported as such; a relative module that is not there at all
        // leaves the handlers unchecked just the same.
        const missing =
          module.startsWith('.') && !this.ctx.problemOf(asFile) && !this.ctx.problemOf(asFolder) && this.ctx.read(asFile) === undefined && this.ctx.read(asFolder) === undefined;
        if (missing) this.ctx.unchecked.push(`the handlers of ${file} are not checked: it re-exports '${module}' (export * from), and neither ${asFile} nor ${asFolder} exists`);
        return undefined;
      }
      found.forEach((n) => all.add(n));
    }
    return all;
  }

  private exported(node: YScalar, trigger: HandlerStubInput['trigger']): void {
    if (!this.mappingFile) return;
    // A compiled manifest (graph build's output) names the .wasm: its export section is the truth.
    const compiled = this.mappingFile.toLowerCase().endsWith('.wasm');
    const exports = compiled ? this.ctx.wasmExportsOf(this.mappingFile) : this.exportsOf(this.mappingFile);
    const handler = String(node.value);
    if (!exports || exports.has(handler)) return;
    const near = nearMatch(handler, exports);
    const relative = str(get(this.ds.mapping, 'file'));
    // graph build compiles and checks only the first data source of each mapping file, so the
    // mistake can pass it; graph-node then fails the subgraph when the first such trigger arrives.
    const message = `Handler '${handler}' is not an exported function of ${relative}: graph-node fails the subgraph when the first trigger for it arrives (graph build checks only the first data source of each mapping file, so it may not catch this)${near ? `; did you mean '${near}'?` : ''}`;
    const stub = compiled ? undefined : this.stub(handler, trigger);
    this.ctx.flag(node, 'error', 'handler-not-exported', message, near ? { fix: this.ctx.replace(node, near, `Change to ${near}`), alternative: stub } : { fix: stub });
  }

  private stub(handler: string, trigger: HandlerStubInput['trigger']): ReturnType<typeof handlerStub> | undefined {
    const mappingText = this.ctx.read(this.mappingFile!);
    if (mappingText === undefined) return undefined;
    return handlerStub({
      mappingFile: this.mappingFile!,
      mappingText,
      scan: this.ctx.cache.mapping(mappingText),
      handler,
      generatedDir: this.ctx.resolve('generated'),
      dataSourceFolder: this.ds.list === 'templates' ? path.join('templates', this.ds.name ?? '') : (this.ds.name ?? ''),
      abiName: this.sourceAbi?.name ?? str(get(get(this.ds.node, 'source'), 'abi')) ?? this.ds.name ?? '',
      trigger,
    });
  }

  private entities(mapping: YMap): void {
    const schema = this.schema;
    if (!schema?.parsed) return;
    const schemaFile = this.ctx.resolve(str(get(get(this.ctx.doc.root, 'schema'), 'file')) ?? 'schema.graphql');
    for (const node of items(get(mapping, 'entities'))) {
      const name = str(node);
      if (name === undefined || schema.entities.has(name)) continue;
      const near = nearMatch(name, schema.entities.keys());
      const event = this.sourceAbi?.abi.events.find((e) => e.name.toLowerCase() === name.toLowerCase());
      const schemaText = this.ctx.read(schemaFile) ?? '';
      // Neither graph-cli nor graph-node checks mapping.entities against the schema: a hint only.
      this.ctx.flag(
        node,
        'info',
        'entity-not-in-schema',
        `Entity '${name}' is not an @entity type of ${path.basename(schemaFile)}${near ? `; did you mean '${near}'?` : ''} (a hint: graph-cli and graph-node do not check mapping.entities)`,
        near
          ? { fix: this.ctx.replace(node, near, `Change to ${near}`), alternative: entityStub(schemaFile, schemaText, name, event?.params) }
          : { fix: entityStub(schemaFile, schemaText, name, event?.params) },
      );
    }
  }

  /**
   * What a mapping imports from generated/ must be there once graph codegen has run: names from
   * generated/schema are types of the schema (else TS2305), and generated/<data source>/<ABI>
   * (templates: generated/templates/<template>/<ABI>) belong to a data source and ABI of the
   * manifest (else TS6054, the file is not found).
   */
  private mappingImports(): void {
    const file = this.mappingFile;
    if (!file || file.toLowerCase().endsWith('.wasm') || this.mappingsChecked.has(file)) return;
    this.mappingsChecked.add(file);
    const text = this.ctx.read(file);
    if (text === undefined) return;
    const generated = this.ctx.resolve('generated');
    const scan = this.ctx.cache.mapping(text);
    let lines: LineIndex | undefined;
    const flag = (start: number, end: number, code: string, message: string) => {
      lines ??= new LineIndex(text);
      this.ctx.findings.push({ file, range: lines.range(start, end), severity: 'error', code, message });
    };
    for (const statement of scan.imports) {
      if (!statement.from.startsWith('.')) continue;
      const target = path.relative(generated, path.join(path.dirname(file), statement.from)).split(path.sep);
      if (target[0] === '..' || path.isAbsolute(target[0])) continue;
      if (target.length === 1 && target[0] === 'schema') this.schemaImports(statement.names, flag);
      else {
        const problem = target[0] === 'templates' ? generatedModuleProblem(this.ctx, 'templates', target.slice(1)) : generatedModuleProblem(this.ctx, 'dataSources', target);
        // The module's string with its quotes, where the compiler marks it.
        const at = text.indexOf(statement.from, statement.start) - 1;
        if (problem)
          flag(at, at + statement.from.length + 2, 'generated-module-unknown', `'${statement.from}' is not written by graph codegen: ${problem} (graph build fails: TS6054, file not found)`);
      }
    }
  }

  private schemaImports(names: { name: string; start: number; end: number }[], flag: (start: number, end: number, code: string, message: string) => void): void {
    if (!this.schema?.parsed) return;
    for (const name of names) {
      if (this.schema.typeNames.has(name.name)) continue;
      const near = closest(name.name, this.schema.entities.keys());
      flag(
        name.start,
        name.end,
        'mapping-import-unknown',
        `'${name.name}' is not a type of the schema, so generated/schema has no such class (graph build fails: TS2305)${near ? `; did you mean '${near}'?` : ''}`,
      );
    }
  }
}

/**
 * Why generated/<data source>/<ABI> (or templates/<template>/<ABI>) does not exist after codegen,
 * or undefined when it does or cannot be told (another protocol's data source, another depth).
 */
function generatedModuleProblem(ctx: Context, list: 'dataSources' | 'templates', target: string[]): string | undefined {
  if (target.length !== 2) return undefined;
  const [name, module] = target;
  const what = list === 'dataSources' ? 'data source' : 'template';
  const sources = items(get(ctx.doc.root, list));
  const source = sources.find((ds) => str(get(ds, 'name')) === name);
  if (!source) {
    const names = sources.map((ds) => str(get(ds, 'name')));
    // A name that is not a string is reported by the shape pass; which one is meant is unknown.
    if (!names.every((n): n is string => n !== undefined)) return undefined;
    const near = closest(name, names);
    return `the manifest has no ${what} named '${name}'${near ? `; did you mean '${near}'?` : ''}`;
  }
  const abis = items(get(get(source, 'mapping'), 'abis'));
  if (!isCheckedKind(list, str(get(source, 'kind'))) || !abis.length) return undefined;
  const abiNames = abis.map((a) => str(get(a, 'name'))).filter((n): n is string => n !== undefined);
  if (abiNames.includes(module.replace(/\.ts$/, ''))) return undefined;
  return `${what} '${name}' has no ABI named '${module}' (its ABIs: ${abiNames.join(', ')})`;
}
