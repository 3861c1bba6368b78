/**
 * Rules over the whole subgraph: unique names, one network and one protocol, one apiVersion,
 * declared features, the schema's own findings, and generated code older than its sources.
 */
import * as path from 'node:path';
import type { Context, Span } from './context';
import { dataSourceRefs, type DataSourceRef } from './dataSources';
import type { SchemaInfo } from '../schema/schema';
import type { Finding, Fix, Severity } from '../types';
import { graphCliAtLeast } from './toolchain';
import { compareVersions, GRAPH_CLI_REQUIRES_IMMUTABLE, parseVersion, requireSpecVersion, SPEC_VERSION_FOR } from './versions';
import { get, isScalar, items, pairOf, str, type YNode } from '../ynode';

const keySpan = (node: YNode | undefined, key: string): Span | undefined => {
  const pair = pairOf(node, key);
  return pair && { start: pair.keyStart, end: pair.keyEnd };
};

/** The schema file the manifest names, analysed (from the cache), or undefined when unreadable. */
export function loadSchema(ctx: Context): { file: string; info: SchemaInfo } | undefined {
  const written = str(get(get(ctx.doc.root, 'schema'), 'file'));
  if (written === undefined) return undefined;
  const file = ctx.resolve(written);
  const text = ctx.read(file);
  return text === undefined ? undefined : { file, info: ctx.cache.schema(file, text) };
}

export function checkProject(ctx: Context, schema: { file: string; info: SchemaInfo } | undefined): void {
  const root = ctx.doc.root;
  const refs = dataSourceRefs(root);
  const dataSources = get(root, 'dataSources');
  if (dataSources?.kind === 'seq' && dataSources.items.length === 0) {
    ctx.flag(dataSources, 'error', 'no-data-sources', 'dataSources is empty: graph-node needs at least one data source');
  }
  uniqueNames(ctx, refs);
  oneNetwork(ctx, refs);
  oneApiVersion(ctx, refs);
  features(ctx, schema);
  if (schema) {
    ctx.findings.push(...entityImmutableByCliVersion(ctx, schema.file, schema.info.findings));
    schemaNeedsSpecVersion(ctx, schema);
  }
  staleness(ctx, refs, schema?.file);
}

function uniqueNames(ctx: Context, refs: DataSourceRef[]): void {
  for (const list of ['dataSources', 'templates'] as const) {
    const seen = new Set<string>();
    for (const ref of refs.filter((r) => r.list === list)) {
      if (ref.name === undefined) continue;
      if (seen.has(ref.name)) {
        const what = list === 'dataSources' ? 'data source' : 'template';
        ctx.flag(
          get(ref.node, 'name')!,
          'error',
          `duplicate-${list === 'dataSources' ? 'data-source' : 'template'}-name`,
          `More than one ${what} named '${ref.name}'; ${what} names must be unique`,
        );
      }
      seen.add(ref.name);
    }
  }
}

/** graph-cli and graph-node index one network per subgraph, with one protocol. */
function oneNetwork(ctx: Context, refs: DataSourceRef[]): void {
  const contracts = refs.filter((r) => !r.kind?.startsWith('file/'));
  const first = contracts[0];
  if (!first) return;
  const firstNetwork = str(get(first.node, 'network')) ?? '';
  for (const ref of contracts.slice(1)) {
    const node = get(ref.node, 'network');
    const network = str(node) ?? '';
    if (network === firstNetwork) continue;
    const where = node ?? keySpan(ref.node, 'name') ?? ref.node;
    const mine = network ? `'${network}'` : 'no network';
    const theirs = firstNetwork ? `'${firstNetwork}'` : 'no network';
    ctx.flag(
      where,
      'error',
      'conflicting-networks',
      `Conflicting networks: ${mine} here, ${theirs} in ${first.list}[${first.index}]; all data sources and templates must use the same network`,
    );
  }
}

/** graph-node rejects manifests whose mappings differ in apiVersion (from 0.0.5 on). */
function oneApiVersion(ctx: Context, refs: DataSourceRef[]): void {
  const versions = refs.map((r) => get(r.mapping, 'apiVersion')).filter((n): n is YNode => str(n) !== undefined && parseVersion(str(n)) !== undefined);
  // Counted once: sorting by a count recomputed in the comparator was quadratic in data sources.
  const counts = new Map<string, number>();
  for (const n of versions) counts.set(str(n)!, (counts.get(str(n)!) ?? 0) + 1);
  const distinct = [...counts.keys()];
  if (distinct.length < 2 || distinct.every((v) => compareVersions(v, '0.0.5') < 0)) return;
  const majority = distinct.sort((a, b) => counts.get(b)! - counts.get(a)!)[0];
  // Every mismatch names the versions found: a few, or one message per data source would carry them all.
  const found = distinct.length > 5 ? `${distinct.slice(0, 5).join(', ')} and ${distinct.length - 5} more` : distinct.join(', ');
  for (const node of versions) {
    if (str(node) !== majority) {
      ctx.flag(node, 'error', 'api-version-mismatch', `All mappings must use the same apiVersion: this one has ${str(node)}, the others ${majority} (found ${found})`);
    }
  }
}

/** Features used must be declared (graph-node checks from specVersion 0.0.4; `features` itself needs no version). */
function features(ctx: Context, schema: { file: string; info: SchemaInfo } | undefined): void {
  const root = ctx.doc.root;
  const declared = new Set(items(get(root, 'features')).map((n) => str(n)));
  const spec = str(get(root, 'specVersion'));
  const declaring = spec !== undefined && parseVersion(spec) !== undefined && compareVersions(spec, SPEC_VERSION_FOR.featureValidation) >= 0;
  const graft = keySpan(root, 'graft');
  if (declaring && graft && !declared.has('grafting')) {
    ctx.flag(graft, 'error', 'feature-undeclared', 'graft needs the grafting feature: add `grafting` to features');
  }
  const schemaFile = get(get(root, 'schema'), 'file');
  if (declaring && schema?.info.fulltext && !declared.has('fullTextSearch') && isScalar(schemaFile)) {
    ctx.flag(schemaFile, 'error', 'feature-undeclared', 'The schema defines @fulltext search: add `fullTextSearch` to features');
  }
  const hints = keySpan(root, 'indexerHints');
  if (hints) requireSpecVersion(ctx, hints, SPEC_VERSION_FOR.indexerHints, 'indexerHints');
}

/**
 * `@entity` without `immutable:` is an error only for the graph-cli releases that reject it
 * (GRAPH_CLI_REQUIRES_IMMUTABLE on); graph-node and older releases accept it as mutable. The
 * schema's findings are cached across runs, so they are copied, not changed.
 */
function entityImmutableByCliVersion(ctx: Context, schemaFile: string, findings: Finding[]): Finding[] {
  const missing = findings.filter((f) => f.code === 'entity-immutable-missing');
  if (!missing.length) return findings;
  const since = GRAPH_CLI_REQUIRES_IMMUTABLE;
  const { range } = ctx.graphCliVersion();
  const { atLeast: rejects, cli } = graphCliAtLeast(ctx, since);
  const [severity, why]: [Severity, string] =
    rejects === true
      ? ['error', `${cli} rejects it (graph-cli ${since} and newer require the argument)`]
      : rejects === false
        ? ['info', `${cli} and graph-node accept it and make the entity mutable; graph-cli ${since} and newer reject it`]
        : ['warning', `graph-cli ${since} and newer reject it${range !== undefined ? ` (package.json asks for ${range})` : ''}; graph-node and older graph-cli make the entity mutable`];
  // One edit per entity, keeping what graph-node does today: mutable entities.
  const fixAll: Fix = {
    kind: 'replace',
    title: 'Add immutable: false to every entity',
    file: schemaFile,
    edits: missing.flatMap((f) => (f.fix ? [{ range: f.fix.edits[0].range, text: '@entity(immutable: false)' }] : [])),
  };
  return findings.map((f) =>
    f.code === 'entity-immutable-missing'
      ? {
          ...f,
          severity,
          message: `@entity on '${/'([^']*)'/.exec(f.message)?.[1] ?? ''}' has no immutable argument: ${why}. Write immutable: true for records never updated, false otherwise`,
          fixAll,
        }
      : f,
  );
}

function schemaNeedsSpecVersion(ctx: Context, schema: { file: string; info: SchemaInfo }): void {
  const { info, file } = schema;
  const at = (span: Span) => ({ file, range: info.lines.range(span.start, span.end) });
  if (info.aggregation) requireSpecVersion(ctx, at(info.aggregation), SPEC_VERSION_FOR.aggregations, '@aggregation');
  if (info.int8Id) requireSpecVersion(ctx, at(info.int8Id), SPEC_VERSION_FOR.int8Ids, 'id: Int8!');
}

/**
 * `graph codegen` output older than what it is generated from: the mapping then compiles against
 * stale classes. Only checked once codegen has run (generated/schema.ts exists).
 */
function staleness(ctx: Context, refs: DataSourceRef[], schemaFile: string | undefined): void {
  const generated = ctx.resolve('generated');
  const generatedSchema = ctx.mtime(path.join(generated, 'schema.ts'));
  if (generatedSchema === undefined) return;
  const stale = (span: Span, written: string) => ctx.flag(span, 'info', 'generated-stale', `Generated code is older than ${written}; run graph codegen`, { action: 'run-codegen' });
  const schemaNode = get(get(ctx.doc.root, 'schema'), 'file');
  const schemaTime = schemaFile && ctx.mtime(schemaFile);
  if (schemaTime && schemaTime > generatedSchema && schemaNode) stale(schemaNode, str(schemaNode)!);
  for (const ref of refs) {
    if (ref.name === undefined) continue;
    const folder = ref.list === 'templates' ? path.join(generated, 'templates', ref.name) : path.join(generated, ref.name);
    for (const entry of items(get(ref.mapping, 'abis'))) {
      const name = str(get(entry, 'name'));
      const fileNode = get(entry, 'file');
      const written = str(fileNode);
      if (name === undefined || written === undefined) continue;
      const abiTime = ctx.mtime(ctx.resolve(written));
      const generatedTime = ctx.mtime(path.join(folder, `${name}.ts`));
      if (abiTime === undefined) continue;
      if (generatedTime === undefined) {
        ctx.flag(fileNode!, 'warning', 'generated-missing', `No generated code for ABI ${name} of ${ref.name}; run graph codegen`, { action: 'run-codegen' });
      } else if (abiTime > generatedTime) {
        stale(fileNode!, written);
      }
    }
  }
}
