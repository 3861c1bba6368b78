/**
 * Manifest specVersions and mapping apiVersions: which exist, what each enables, and the finding
 * for a feature the specVersion is too low for (graph-ts against graph-cli: toolchain.ts).
 *
 * Sources (facts, checked against the installed tools): graph-node's spec/api version constants
 * (graph/src/data/subgraph/api_version.rs) for what each version enables; graph-cli 0.98.1 for
 * the bounds it works with: `graph codegen` refuses apiVersion < 0.0.5 (commands/codegen.js),
 * `graph init` writes specVersion 1.3.0 and apiVersion 0.0.9 (the newest it knows).
 */
import type { Context, Span } from './context';
import type { Range } from '../types';
import { get, str, type YScalar } from '../ynode';

/** Every manifest specVersion graph-node accepts (0.0.3 never existed but is tolerated). */
export const SPEC_VERSIONS = ['0.0.2', '0.0.3', '0.0.4', '0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.0.9', '1.0.0', '1.1.0', '1.2.0', '1.3.0'] as const;

/** Mapping apiVersions graph-cli 0.98 generates code for (older ones need an older CLI). */
export const API_VERSIONS = ['0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.0.9'] as const;
export const MIN_API_VERSION = '0.0.5';

/**
 * Manifest features and the specVersion that introduced them (graph-node rejects them below):
 * graph/src/data/subgraph/mod.rs (endBlock, indexerHints, subgraph data sources; its file data
 * source gate applies to dataSources only, where graph-cli refuses file kinds anyway), chain/ethereum/src/data_source.rs min_spec_version and validate (polling/once block
 * filters, topic1-3 filters, declared calls), graph/src/schema/input/mod.rs (Int8 ids,
 * aggregations). `featureValidation` is not a gate: from it on graph-node checks that the
 * features used are declared (validate_subgraph_features); `features:` itself needs no version.
 */
export const SPEC_VERSION_FOR = {
  featureValidation: '0.0.4',
  pollingAndOnceBlockHandlers: '0.0.8',
  endBlock: '0.0.9',
  indexerHints: '1.0.0',
  aggregations: '1.1.0',
  int8Ids: '1.1.0',
  declaredCallsAndTopicFilters: '1.2.0',
  subgraphDataSources: '1.3.0',
} as const;

/** Mapping features and the apiVersion that introduced them (receipts: chain/ethereum/src/data_source.rs, validate). */
export const API_VERSION_FOR = { receipt: '0.0.7' } as const;

/** Parses `x.y.z` (digits only); undefined for anything else. */
export function parseVersion(v: unknown): [number, number, number] | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Compares two `x.y.z` versions (prerelease suffixes, as in `0.38.0-alpha…`, are ignored). */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a.replace(/[-+].*$/, '')) ?? [0, 0, 0];
  const pb = parseVersion(b.replace(/[-+].*$/, '')) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

export const LATEST_SPEC_VERSION = SPEC_VERSIONS[SPEC_VERSIONS.length - 1];
export const LATEST_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1];

/**
 * The first graph-cli release rejecting `@entity` without `immutable:` (or `timeseries:`):
 * validation/schema.js, validateEntityDirectiveImmutableArgument, added in 0.97.0 ("require
 * immutable flag on entities", graph-tooling PR 1994). graph-node accepts it (mutable).
 */
export const GRAPH_CLI_REQUIRES_IMMUTABLE = '0.97.0';

/**
 * Whether every graph-cli release a package.json range allows is at least `version` (true),
 * below it (false), or some of each / unreadable (undefined). Covers what package.json files
 * hold for a CLI: `x.y.z`, `^x.y.z`, `~x.y.z`, `>=x.y.z`, with an optional `v` or `=`.
 */
export function rangeAtLeast(range: string, version: string): boolean | undefined {
  const m = /^\s*(\^|~|>=|=)?\s*v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:[-+][\w.-]*)?\s*$/.exec(range);
  if (!m) return undefined;
  const [major, minor] = [Number(m[2]), Number(m[3])];
  const low = `${m[2]}.${m[3]}.${m[4]}`;
  if (compareVersions(low, version) >= 0) return true;
  // The highest release the range allows, exclusive; none for `>=`.
  const high = m[1] === '>=' ? undefined : m[1] === '^' ? (major > 0 ? `${major + 1}.0.0` : `0.${minor + 1}.0`) : m[1] === '~' ? `${major}.${minor + 1}.0` : undefined;
  if (m[1] === '>=') return undefined;
  if (high === undefined) return false; // an exact version below `version`
  return compareVersions(high, version) <= 0 ? false : undefined;
}

/** The manifest's specVersion when it is a valid one. */
function specVersionOf(ctx: Context): { value: string; node: YScalar } | undefined {
  const node = get(ctx.doc.root, 'specVersion');
  const value = str(node);
  return value && parseVersion(value) ? { value, node: node as YScalar } : undefined;
}

/**
 * Reports `what` when the specVersion is below `needed`, with a fix raising it; `where` is a
 * span of the manifest, or a range of another file (the schema).
 */
export function requireSpecVersion(ctx: Context, where: Span | { file: string; range: Range }, needed: string, what: string): void {
  const spec = specVersionOf(ctx);
  if (!spec || compareVersions(spec.value, needed) >= 0) return;
  const quote = spec.node.quoted ? ctx.doc.text[spec.node.start] : '';
  const fix = ctx.replace(spec.node, `${quote}${needed}${quote}`, `Raise specVersion to ${needed}`);
  const message = `${what} needs specVersion ${needed} or newer; the manifest has ${spec.value}`;
  if ('range' in where) ctx.findings.push({ ...where, severity: 'error', code: 'spec-version-too-low', message, fix });
  else ctx.flag(where, 'error', 'spec-version-too-low', message, { fix });
}
