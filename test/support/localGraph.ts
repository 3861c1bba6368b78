/**
 * A real local graph-node for tests and benchmarks: the supervisor (gnd + Postgres + the IPFS
 * endpoint) on a given chain, subgraphs deployed through the real graph CLI (codegen, build,
 * create, deploy with a version label), waits on the index node's statuses, queries by name, and
 * a stop that checks nothing of it is left running. Used by node:test integration tests and,
 * bundled (esbuild.js), by the workbench suites: it imports no test framework.
 */
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { userCacheDir } from '../../src/cli/graphNode';
import { fetchStatuses, type DeploymentStatus } from '../../src/core/localnode/status';
import { LocalGraphNode, type LocalNodeOptions, type LocalNodeUrls } from '../../src/core/localnode/supervisor';
import { killProcessesUsing, processesUsing } from './processes';

/** The repository root: the folder above this file (test/support or, bundled, out/test/support) whose node_modules has the graph CLI. */
export function repoRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', '.bin', 'graph'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no node_modules/.bin/graph above ${from}`);
  }
}

/** A folder for a test's data, traversable by the postgres user (Postgres runs as it when the tests run as root). */
export function scratchFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `probe` returns something, or throws naming `what` (and the last thing seen) after `timeoutMs`. */
async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, lastSeen: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastSeen() ? `; last seen: ${lastSeen()}` : ''}`);
    await sleep(100);
  }
}

export interface GraphCliRun {
  code: number;
  output: string;
}

/** Runs node_modules/.bin/graph with `args` in `cwd`; rejects with the output when it fails (unless `allowFailure`). */
export function graphCli(args: string[], cwd: string, allowFailure = false): Promise<GraphCliRun> {
  const bin = path.join(repoRoot(), 'node_modules', '.bin', 'graph');
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, timeout: 180_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      if (code !== 0 && !allowFailure) reject(new Error(`graph ${args.join(' ')} failed (${code}): ${output.slice(-2000)}`));
      else resolve({ code, output });
    });
  });
}

/**
 * Copies a subgraph project into `scratch` and links the repository's node_modules beside it, so
 * graph-cli and graph-ts resolve as in a user's project. Remove it with removeProject.
 */
export function copyProject(source: string, scratch: string, name = path.basename(source)): string {
  const dir = path.join(scratch, name);
  cpSync(source, dir, { recursive: true, filter: (src) => !/[\\/](node_modules|build|generated)$/.test(src) });
  linkNodeModules(scratch);
  return dir;
}

/** Links the repository's node_modules into `scratch`, so projects below it resolve graph-cli and graph-ts. */
export function linkNodeModules(scratch: string): void {
  const link = path.join(scratch, 'node_modules');
  if (!existsSync(link)) symlinkSync(path.join(repoRoot(), 'node_modules'), link, 'dir');
}

/**
 * A node_modules in `scratch` as a project without graph-cli has it: graph-ts and AssemblyScript
 * (with `.bin/asc`), linked from the repository's. `assemblyscript`: 'pinned' is the 0.19.23 gnd
 * requires (`npm install -D @graphprotocol/graph-ts assemblyscript@0.19.23`); 'graph-ts' the one
 * graph-ts alone brings (`npm install @graphprotocol/graph-ts`). Projects below `scratch` use it.
 */
export function graphTsOnlyModules(scratch: string, assemblyscript: 'pinned' | 'graph-ts' = 'pinned'): void {
  const modules = path.join(scratch, 'node_modules');
  const from = path.join(repoRoot(), 'node_modules');
  mkdirSync(path.join(modules, '@graphprotocol'), { recursive: true });
  mkdirSync(path.join(modules, '.bin'));
  symlinkSync(path.join(from, '@graphprotocol', 'graph-ts'), path.join(modules, '@graphprotocol', 'graph-ts'), 'dir');
  const asc = assemblyscript === 'pinned' ? path.join(from, 'assemblyscript') : path.join(from, '@graphprotocol', 'graph-ts', 'node_modules', 'assemblyscript');
  symlinkSync(asc, path.join(modules, 'assemblyscript'), 'dir');
  symlinkSync(path.join('..', 'assemblyscript', 'bin', assemblyscript === 'pinned' ? 'asc' : 'asc.js'), path.join(modules, '.bin', 'asc'));
}

/** Removes a scratch folder that may hold a node_modules link: the link first, by itself, so the shared node_modules is never walked. */
export function removeScratch(scratch: string): void {
  try {
    unlinkSync(path.join(scratch, 'node_modules'));
  } catch {
    // no link
  }
  rmSync(scratch, { recursive: true, force: true });
}

export interface Deployed {
  /** The deployment id (the manifest's CID). */
  deployment: string;
  /** What `graph deploy` printed. */
  output: string;
}

export interface GraphqlAnswer<T> {
  status: number;
  data?: T;
  errors?: { message: string }[];
}

export interface LocalGraph {
  readonly node: LocalGraphNode;
  /** The URLs of the current run (they change with a restart). */
  readonly urls: LocalNodeUrls;
  readonly dataDir: string;
  /** codegen + build (unless `skipBuild`), create, deploy with `versionLabel` (default v1). */
  deploy(projectDir: string, name: string, versionLabel?: string, options?: { skipBuild?: boolean }): Promise<Deployed>;
  /** Every deployment's status. */
  statuses(): Promise<DeploymentStatus[]>;
  /** The status of `deployment` once `accept` takes it (default 60 s). */
  waitStatus(deployment: string, what: string, accept: (status: DeploymentStatus) => boolean, timeoutMs?: number): Promise<DeploymentStatus>;
  /** Synced and healthy, with at least block `atLeast` indexed; a failed deployment throws its fatal error at once. */
  waitSynced(deployment: string, atLeast?: number, timeoutMs?: number): Promise<DeploymentStatus>;
  /** A query to <graphql>/subgraphs/name/NAME: the whole answer, data and errors together. */
  answer<T = Record<string, unknown>>(name: string, query: string, variables?: Record<string, unknown>): Promise<GraphqlAnswer<T>>;
  /** A query to <graphql>/subgraphs/name/NAME: its data, or an Error with the GraphQL errors. */
  query<T = Record<string, unknown>>(name: string, query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Stops the node (a failed one too), checks nothing is left, and starts it again on the same data folder. */
  restart(): Promise<LocalNodeUrls>;
  /** Stops the node and throws when anything started from its data folder is still running (it is killed then). */
  stop(): Promise<void>;
}

export interface LocalGraphOptions extends Partial<Omit<LocalNodeOptions, 'rpcUrl'>> {
  /** Where the data lives; absent: a new scratch folder, removed by stop(). */
  dataDir?: string;
}

/** Nothing started from `dataDir` runs any more (Postgres's children end shortly after their parent); leftovers are killed and named. */
export async function assertNothingLeft(dataDir: string): Promise<void> {
  for (let i = 0; i < 50 && processesUsing(dataDir).length; i++) await sleep(100);
  const left = processesUsing(dataDir);
  if (left.length) {
    killProcessesUsing(dataDir);
    throw new Error(`processes left running from ${dataDir}: ${left.join(', ')}`);
  }
}

/** Starts a local graph-node on the chain at `rpcUrl` and resolves once it answers. */
export async function startLocalGraph(rpcUrl: string, options: LocalGraphOptions = {}): Promise<LocalGraph> {
  const ownScratch = options.dataDir ? undefined : scratchFolder('chaindeck-local-graph-');
  const dataDir = options.dataDir ?? path.join(ownScratch!, 'data');
  const node = new LocalGraphNode({ cacheDir: userCacheDir(process.env), ...options, rpcUrl, dataDir });
  let urls: LocalNodeUrls;
  try {
    urls = await node.start();
  } catch (err) {
    await node.stop().catch(() => undefined);
    killProcessesUsing(dataDir);
    if (ownScratch) rmSync(ownScratch, { recursive: true, force: true });
    throw err;
  }

  const statuses = () => fetchStatuses(urls.indexNode, AbortSignal.timeout(5000));
  let last = '';
  const waitStatus: LocalGraph['waitStatus'] = (deployment, what, accept, timeoutMs = 60_000) =>
    poll(
      `${deployment} to be ${what}`,
      async () => {
        const status = (await statuses()).find((s) => s.deployment === deployment);
        last = JSON.stringify(status);
        return status && accept(status) ? status : undefined;
      },
      timeoutMs,
      () => last,
    );

  const answer = async <T>(name: string, query: string, variables?: Record<string, unknown>): Promise<GraphqlAnswer<T>> => {
    const res = await fetch(`${urls.graphql}/subgraphs/name/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, ...((await res.json()) as Omit<GraphqlAnswer<T>, 'status'>) };
  };

  return {
    node,
    get urls() {
      return urls;
    },
    dataDir,
    statuses,
    waitStatus,
    async deploy(projectDir, name, versionLabel = 'v1', { skipBuild = false } = {}) {
      if (!skipBuild) {
        await graphCli(['codegen'], projectDir);
        await graphCli(['build'], projectDir);
      }
      // A second version goes to a name created before.
      const created = await graphCli(['create', '--node', urls.admin, name], projectDir, true);
      if (created.code !== 0 && !/already exists/i.test(created.output)) throw new Error(`graph create ${name} failed: ${created.output.slice(-2000)}`);
      const { output } = await graphCli(['deploy', '--node', urls.admin, '--ipfs', urls.ipfs, name, '--version-label', versionLabel], projectDir);
      const deployment = /Build completed:\s+(Qm\w{44})/.exec(output)?.[1];
      if (!deployment) throw new Error(`graph deploy printed no deployment id: ${output.slice(-2000)}`);
      return { deployment, output };
    },
    async waitSynced(deployment, atLeast = 0, timeoutMs = 60_000) {
      const status = await waitStatus(deployment, `synced to block ${atLeast}`, (s) => s.health === 'failed' || (s.synced && (s.indexed ?? -1) >= atLeast), timeoutMs);
      if (status.health === 'failed') throw new Error(`${deployment} failed: ${status.fatalError?.message ?? 'no fatal error given'}`);
      return status;
    },
    answer,
    async query<T>(name: string, query: string, variables?: Record<string, unknown>): Promise<T> {
      const { status, data, errors } = await answer<T>(name, query, variables);
      if (errors?.length || !data) throw new Error(`query to ${name} answered HTTP ${status}: ${errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
      return data;
    },
    async restart() {
      await node.stop();
      await assertNothingLeft(dataDir);
      urls = await node.start();
      return urls;
    },
    async stop() {
      try {
        await node.stop();
        await assertNothingLeft(dataDir);
      } finally {
        if (ownScratch) rmSync(ownScratch, { recursive: true, force: true });
      }
    },
  };
}
