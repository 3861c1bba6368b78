/**
 * Replay of a failing block on the local graph-node: the plan (graft onto the failed deployment
 * at N−1 when graph-node's graft rules allow the project's schema, else every data source
 * starting at N), and each run of it: rebuild (the mappings alone when only they changed),
 * upload and deploy as the debug name, wait until block N is indexed or fails, then read what the
 * block wrote (entity changes) or where it failed (the mapping line).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parse } from 'yaml';
import { fetchStatuses, type DeploymentStatus } from '../../localnode/status';
import { compileMappings, CompileError, type AscRun } from './compile';
import { entityChanges, type EntityChanges } from './entities';
import { mappingLocation, type MappingLocation } from './errorLine';
import { graftProblems } from './graftRules';
import { replayManifestText, type ReplayStart } from './manifest';
import { schemaTables } from './schemaTables';
import { deployBuild } from './upload';

/** The local graph-node's URLs a replay uses. */
export interface ReplayNode {
  admin: string;
  ipfs: string;
  graphql: string;
  indexNode: string;
}

export interface ReplayPlan {
  /** The subgraph's folder and its manifest (absolute). */
  projectDir: string;
  manifest: string;
  /** The failing block N. */
  block: number;
  /** The name the debug version is deployed as. */
  name: string;
  start: ReplayStart;
  /** Why the plan grafts or does not (one line). */
  reason: string;
  /** The failed deployment's query URL: entities before N are read there (at N−1). */
  beforeUrl?: string;
}

/**
 * What a save of `file` asks of a replay of the project: a mapping (a .ts file of the project,
 * not generated code, build output or tests) compiles alone; one of `rebuildFiles` (the
 * manifest, its schema, its ABIs) rebuilds all; anything else (a query file, a README) nothing.
 */
export function changeOf(projectDir: string, file: string, rebuildFiles: ReadonlySet<string>): 'mapping' | 'all' | undefined {
  if (rebuildFiles.has(path.resolve(file))) return 'all';
  const rel = path.relative(projectDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || /^(build|generated|node_modules|tests)[\\/]/.test(rel)) return undefined;
  return /\.ts$/.test(rel) ? 'mapping' : undefined;
}

/** The files whose change needs codegen and a whole build: the manifest, its schema and every file it names that is not a mapping. */
export function rebuildFilesOf(manifest: string, manifestText: string): Set<string> {
  const dir = path.dirname(manifest);
  const named = [...manifestText.matchAll(/^\s*(?:-\s*)?file:\s*["']?([^"'#\n]+?)["']?\s*(?:#.*)?$/gm)].map((m) => m[1]).filter((f) => !/\.ts$/.test(f));
  return new Set([path.resolve(manifest), ...named.map((f) => path.resolve(dir, f))]);
}

/** The debug name of a subgraph name: `<name>-debug`. */
export function debugName(name: string): string {
  return `${name.replace(/-debug$/, '')}-debug`;
}

/** The base deployment's schema, through the local IPFS endpoint (its manifest, then the schema it links). */
export async function deployedSchema(ipfsUrl: string, deployment: string, signal?: AbortSignal): Promise<string> {
  const cat = async (arg: string) => {
    const res = await fetch(`${ipfsUrl.replace(/\/+$/, '')}/api/v0/cat?arg=${encodeURIComponent(arg)}`, {
      method: 'POST',
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(10_000)]) : AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`the local IPFS endpoint has no ${arg} (HTTP ${res.status})`);
    return (await res.text()).slice(0, 16 * 1024 * 1024);
  };
  const manifest = await cat(deployment);
  const schemaFile = (parse(manifest) as { schema?: { file?: { '/'?: unknown } } } | null)?.schema?.file?.['/'];
  const link = typeof schemaFile === 'string' ? /^\/ipfs\/(\w+)$/.exec(schemaFile)?.[1] : undefined;
  if (!link) throw new Error(`the manifest of ${deployment} links no schema`);
  return cat(link);
}

export interface PlanInput {
  projectDir: string;
  manifest: string;
  /** The failing block N (≥ 1 to graft). */
  block: number;
  /** The subgraph name the failed deployment serves. */
  name: string;
  /** The failed deployment on this local node, whose schema is `baseSchema`; absent for a deployment elsewhere (a remote chain). */
  base?: { deployment: string; schema: string; queryUrl: string };
  /** The project's schema text. */
  schema: string;
}

/** Grafts when there is a local base and the schema allows it, else starts at N. */
export function planReplay(input: PlanInput): ReplayPlan {
  const common = { projectDir: input.projectDir, manifest: input.manifest, block: input.block, name: debugName(input.name), beforeUrl: input.base?.queryUrl };
  if (!input.base) return { ...common, start: { kind: 'startBlock', block: input.block }, reason: `no deployment on the local node to graft from: indexing from block ${input.block}` };
  if (input.block < 1) return { ...common, start: { kind: 'startBlock', block: input.block }, reason: 'block 0 has no block before it to graft at' };
  let problems: string[];
  try {
    problems = graftProblems(input.base.schema, input.schema);
  } catch (err) {
    problems = [`a schema does not parse: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`];
  }
  if (problems.length)
    return {
      ...common,
      start: { kind: 'startBlock', block: input.block },
      reason: `cannot graft (${problems[0]}${problems.length > 1 ? `, and ${problems.length - 1} more` : ''}): indexing from block ${input.block}`,
    };
  return { ...common, start: { kind: 'graft', base: input.base.deployment, block: input.block - 1 }, reason: `grafted onto ${input.base.deployment} at block ${input.block - 1}` };
}

export type ReplayOutcome =
  | { kind: 'indexed'; changes: EntityChanges; /** A later block failed after N was indexed. */ laterError?: string }
  | { kind: 'failed'; message: string; block?: number; location?: MappingLocation }
  | { kind: 'build-failed'; message: string; output: string };

export interface ReplayRun {
  deployment?: string;
  outcome: ReplayOutcome;
  /** Milliseconds of each step and in all. */
  timings: { build: number; deploy: number; index: number; read: number; total: number };
}

export interface RunOptions {
  plan: ReplayPlan;
  node: ReplayNode;
  /** 'mapping': only mappings changed (compiled alone); 'all': the schema, manifest or ABIs changed (or no build yet). */
  changed: 'mapping' | 'all';
  /** codegen + build through the project's toolchain; rejects with its first failure. */
  fullBuild(signal?: AbortSignal): Promise<void>;
  /** A warm compiler (AscWorker's compile) for the mappings; absent: the project's asc runs as a process each time. */
  asc?: AscRun;
  /** How long block N may take to be indexed (default 60 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForBlock(node: ReplayNode, deployment: string, block: number, timeoutMs: number, signal?: AbortSignal): Promise<DeploymentStatus> {
  const deadline = Date.now() + timeoutMs;
  let last: DeploymentStatus | undefined;
  for (;;) {
    signal?.throwIfAborted();
    last = (await fetchStatuses(node.indexNode, signal).catch(() => []))?.find((s) => s.deployment === deployment) ?? last;
    if (last && (last.health === 'failed' || (last.indexed ?? -1) >= block)) return last;
    if (Date.now() > deadline)
      throw new Error(
        `block ${block} was not indexed within ${Math.round(timeoutMs / 1000)} s (${last ? `the debug deployment is at block ${last.indexed ?? 'none'}` : 'the node does not list the debug deployment'})`,
      );
    await sleep(100);
  }
}

/** One replay: build, deploy, index block N, read the outcome. */
export async function runReplay(options: RunOptions): Promise<ReplayRun> {
  const { plan, node, signal } = options;
  const t0 = Date.now();
  const timings = { build: 0, deploy: 0, index: 0, read: 0, total: 0 };
  const lap = (key: keyof typeof timings, since: number) => (timings[key] = Date.now() - since);
  const builtManifest = path.join(plan.projectDir, 'build', 'subgraph.yaml');
  try {
    if (options.changed === 'all' || !existsSync(builtManifest)) await options.fullBuild(signal);
    else await compileMappings(plan.projectDir, await readFile(plan.manifest, 'utf8'), await readFile(builtManifest, 'utf8'), signal, options.asc);
  } catch (err) {
    lap('build', t0);
    lap('total', t0);
    const output = err instanceof CompileError ? err.output : err instanceof Error ? err.message : String(err);
    return { outcome: { kind: 'build-failed', message: err instanceof Error ? err.message.split('\n')[0] : String(err), output }, timings };
  }
  lap('build', t0);
  const t1 = Date.now();
  const manifest = replayManifestText(await readFile(builtManifest, 'utf8'), plan.start);
  const { deployment } = await deployBuild(path.dirname(builtManifest), manifest, plan.name, node, `replay-${Date.now()}`, signal);
  lap('deploy', t1);
  const t2 = Date.now();
  const status = await waitForBlock(node, deployment, plan.block, options.timeoutMs ?? 60_000, signal);
  lap('index', t2);
  const t3 = Date.now();
  const fatal = status.fatalError;
  let outcome: ReplayOutcome;
  if (fatal && (fatal.block === undefined || fatal.block <= plan.block)) {
    const location = mappingLocation(fatal.message);
    outcome = { kind: 'failed', message: fatal.message, block: fatal.block, ...(location ? { location } : {}) };
  } else {
    const tables = schemaTables(await readFile(path.join(plan.projectDir, 'build', 'schema.graphql'), 'utf8'));
    const changes = await entityChanges(tables, plan.block, `${node.graphql}/subgraphs/id/${deployment}`, plan.beforeUrl, signal);
    outcome = { kind: 'indexed', changes, ...(fatal ? { laterError: fatal.message } : {}) };
  }
  lap('read', t3);
  lap('total', t0);
  return { deployment, outcome, timings };
}
