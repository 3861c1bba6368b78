/**
 * The workspace's graph-cli and graph-ts as a pair: graph codegen and graph build work only with
 * a graph-ts recent enough for the code graph-cli writes. Each fact was confirmed by running
 * graph-cli 0.98.1's codegen and build on the tutorial subgraph with graph-ts 0.24.1, 0.30.0,
 * 0.32.0 and 0.33.0 (docs/validation-rules.md):
 * - codegen refuses graph-ts older than 0.25.0 (`assertGraphTsVersion` in commands/codegen.js,
 *   the same in graph-cli 0.96.0);
 * - from graph-cli 0.97.0 on, generated/schema.ts imports `Int8`, which graph-ts exports from
 *   0.31.0: older ones fail the build (TS2305), whatever the schema holds;
 * - a Timestamp field's setter calls `Value.fromTimestamp`, which graph-ts has from 0.34.0: older
 *   ones fail the build (TS2339) once the mapping sets the field (a field never set builds).
 * The apiVersion is not among them: graph-ts 0.32.0 builds apiVersion 0.0.9.
 */
import * as path from 'node:path';
import type { Context } from './context';
import { blankComments } from '../code/mappingScan';
import type { SchemaInfo } from '../schema/schema';
import { compareVersions, rangeAtLeast } from './versions';
import { get, items, pairOf, str, type YNode } from '../ynode';

export const GRAPH_TS_FOR = { codegen: '0.25.0', int8: '0.31.0', timestamp: '0.34.0' } as const;
/** The oldest graph-cli seen refusing graph-ts below 0.25.0 (0.96.0 and 0.98.1 were read). */
export const GRAPH_CLI_CHECKS_GRAPH_TS = '0.96.0';
/** The first graph-cli whose generated/schema.ts imports Int8 (graph-tooling PR 1934). */
export const GRAPH_CLI_IMPORTS_INT8 = '0.97.0';

/**
 * Whether the workspace's graph-cli (installed, else the package.json range) is `version` or
 * newer: true, false, or undefined when it cannot be told; `cli` names it for messages.
 */
export function graphCliAtLeast(ctx: Context, version: string): { atLeast: boolean | undefined; cli: string | undefined } {
  const { installed, range } = ctx.graphCliVersion();
  if (installed !== undefined) return { atLeast: compareVersions(installed, version) >= 0, cli: `the installed graph-cli ${installed}` };
  if (range !== undefined) return { atLeast: rangeAtLeast(range, version), cli: `graph-cli ${range}, as package.json asks` };
  return { atLeast: undefined, cli: undefined };
}

/**
 * One finding when the installed graph-ts is too old for what graph-cli generates: every reason,
 * and the one upgrade that answers them all. An error when graph-cli's version makes the failure
 * certain, a warning when it cannot be told.
 */
export function checkToolchain(ctx: Context, schema: SchemaInfo | undefined): void {
  const graphTs = ctx.graphTsVersion();
  if (graphTs === undefined) return;
  const older = (than: string) => compareVersions(graphTs, than) < 0;
  const reasons: string[] = [];
  let upgradeTo: string = GRAPH_TS_FOR.codegen;
  let certain = false;
  const need = (version: string, reason: string, sure: boolean) => {
    reasons.push(reason);
    if (compareVersions(version, upgradeTo) > 0) upgradeTo = version;
    certain ||= sure;
  };

  if (older(GRAPH_TS_FOR.codegen)) {
    const { atLeast, cli } = graphCliAtLeast(ctx, GRAPH_CLI_CHECKS_GRAPH_TS);
    if (atLeast !== false)
      need(
        GRAPH_TS_FOR.codegen,
        `graph codegen refuses graph-ts older than ${GRAPH_TS_FOR.codegen}${cli ? ` (${cli})` : ` (graph-cli ${GRAPH_CLI_CHECKS_GRAPH_TS} and newer)`}`,
        atLeast === true,
      );
  }
  if (older(GRAPH_TS_FOR.int8)) {
    const { atLeast, cli } = graphCliAtLeast(ctx, GRAPH_CLI_IMPORTS_INT8);
    const who = cli ? `${cli} writes` : `graph-cli ${GRAPH_CLI_IMPORTS_INT8} and newer write`;
    if (atLeast !== false)
      need(GRAPH_TS_FOR.int8, `${who} a generated/schema.ts that imports Int8, which graph-ts has from ${GRAPH_TS_FOR.int8} (graph build fails: TS2305)`, atLeast === true);
  }
  const timestamp = older(GRAPH_TS_FOR.timestamp) ? timestampFieldSet(ctx, schema) : undefined;
  if (timestamp) {
    need(GRAPH_TS_FOR.timestamp, `the Timestamp field ${timestamp} is set through Value.fromTimestamp, which graph-ts has from ${GRAPH_TS_FOR.timestamp} (graph build fails: TS2339)`, true);
  }
  if (!reasons.length) return;
  ctx.flag(
    where(ctx),
    certain ? 'error' : 'warning',
    'graph-ts-too-old',
    `@graphprotocol/graph-ts ${graphTs} is too old for this project: ${reasons.join('; ')}. Upgrade @graphprotocol/graph-ts to ${upgradeTo} or newer`,
  );
}

/**
 * `Entity.field` of the first Timestamp field a mapping sets (`x.field = …`), or any Timestamp
 * field when a mapping calls Value.fromTimestamp itself: a setter never called is never compiled,
 * and the build passes. Timeseries timestamps are graph-node's. By name, not by type: a mapping
 * scan is not a compiler.
 */
function timestampFieldSet(ctx: Context, schema: SchemaInfo | undefined): string | undefined {
  const fields: { name: string; field: string }[] = [];
  for (const entity of schema?.entities.values() ?? []) {
    if (entity.timeseries) continue;
    for (const field of entity.fields.values()) if (field.type === 'Timestamp') fields.push({ name: `${entity.name}.${field.name}`, field: field.name });
  }
  if (!fields.length) return undefined;
  const code = mappingCode(ctx);
  if (/\bValue\s*\.\s*fromTimestamp\b/.test(code)) return fields[0].name;
  return fields.find(({ field }) => new RegExp(`\\.\\s*${field}\\s*=(?![=>])`).test(code))?.name;
}

/** The first line of every file graph codegen writes. */
const GENERATED_NOTE = '// THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.';

/** The text of every AssemblyScript mapping and of the relative modules it imports, comments blanked (up to 256 files). */
function mappingCode(ctx: Context): string {
  const pending: string[] = [];
  for (const list of ['dataSources', 'templates']) {
    for (const ds of items(get(ctx.doc.root, list))) {
      const file = str(get(get(ds, 'mapping'), 'file'));
      if (file !== undefined && !file.toLowerCase().endsWith('.wasm')) pending.push(ctx.resolve(file));
    }
  }
  const seen = new Set<string>();
  const texts: string[] = [];
  for (let file = pending.shift(); file !== undefined && seen.size < 256; file = pending.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = ctx.read(file);
    // graph-cli's own output (generated/schema.ts) holds every setter, called or not.
    if (text === undefined || text.trimStart().startsWith(GENERATED_NOTE)) continue;
    texts.push(blankComments(text));
    for (const { from } of ctx.cache.mapping(text).imports) {
      if (!from.startsWith('.')) continue;
      const base = path.join(path.dirname(file), from);
      pending.push(...(base.endsWith('.ts') ? [base] : [`${base}.ts`, path.join(base, 'index.ts')]));
    }
  }
  return texts.join('\n');
}

/** The first mapping's apiVersion (the mapping API graph-ts provides), else specVersion's key, else the start. */
function where(ctx: Context): { start: number; end: number } {
  for (const list of ['dataSources', 'templates']) {
    for (const ds of items(get(ctx.doc.root, list))) {
      const api: YNode | undefined = get(get(ds, 'mapping'), 'apiVersion');
      if (api) return api;
    }
  }
  const spec = pairOf(ctx.doc.root, 'specVersion');
  return spec ? { start: spec.keyStart, end: spec.keyEnd } : { start: 0, end: 0 };
}
