/**
 * A local graph-node: gnd (installed on demand), the system's Postgres on a private folder, and
 * the local IPFS endpoint, started, watched and stopped as one. Its state (installing, starting,
 * ready with the URLs, failed with the reason, stopping, stopped), gnd's log lines and the
 * deployments' statuses are events, so the CLI and the editor drive the same object.
 *
 * Every process it starts, it stops: on stop(), on the exit of the process that runs it (what
 * is still running is killed then), and, after a crash that left no time for either, at the next
 * start with the same data folder (its lock names what was running).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { EndpointError, endpointFromUrl, registerUrlEndpoint } from '../nodes/endpoint';
import { RpcClient } from '../rpc/client';
import { registerSecret } from '../redact';
import { resolveGnd, type InstallProgress } from './gnd';
import { failureLine, GND_LOG_FILTER, isPanicStart } from './gndLog';
import { startIpfsEndpoint, type IpfsEndpoint } from './ipfs';
import { prepareDataFolder } from './dataFolder';
import { GndLogFile } from './gndLogFile';
import { acquireLock, isAlive, processesWithArgument, processStart, removeLock, SYSTEM_PROCESSES, writeLock, type LockedProcess, type LockRecord, type ProcessControl } from './lock';
import { checkPostgresUrl, findPsql, postgresEnv, readSubgraphNames, type SubgraphName } from './names';
import { placeholderManifest, writePlaceholder } from './placeholder';
import { startWatchdog } from './watchdog';
import { findPostgres, MISSING_POSTGRES, PostgresError, runningPostmaster, startPostgres, stopPostgres, stopPostgresSync, type PostgresBinaries, type RunningPostgres } from './postgres';
import { askGnd, fetchStatuses, PROBE_MAX_BYTES, type DeploymentStatus } from './status';

export interface LocalNodePorts {
  graphql: number;
  admin: number;
  indexNode: number;
  metrics: number;
  ipfs: number;
  postgres: number;
}

const PORT_NAMES: Record<keyof LocalNodePorts, string> = { graphql: 'GraphQL', admin: 'admin', indexNode: 'index-node', metrics: 'metrics', ipfs: 'IPFS', postgres: 'Postgres' };

export interface LocalNodeUrls {
  /** Base URL: a subgraph's queries go to <graphql>/subgraphs/name/<NAME>. */
  graphql: string;
  /** For `graph create/deploy --node`. */
  admin: string;
  /** For `graph deploy --ipfs`. */
  ipfs: string;
  /** The index-node GraphQL URL (statuses). */
  indexNode: string;
  metrics: string;
}

export type LocalNodeState =
  | { kind: 'stopped' }
  | { kind: 'installing'; progress: InstallProgress }
  | { kind: 'starting'; step: string }
  | { kind: 'ready'; urls: LocalNodeUrls }
  | { kind: 'failed'; reason: string }
  | { kind: 'stopping' };

export interface LocalNodeOptions {
  /** The RPC URL of the chain to index. */
  rpcUrl: string;
  /** The network name subgraph manifests use for that chain (default mainnet). */
  network?: string;
  /** Where Postgres, the IPFS blocks and gnd's files are kept; absent: a temporary folder, removed on stop. */
  dataDir?: string;
  /** Where gnd is installed (the extension's global storage, the CLI's user cache). */
  cacheDir: string;
  /** A gnd of the user's, used as is. */
  gndPath?: string;
  /** A Postgres of the user's (postgresql://USER:PASSWORD@HOST:PORT/DB) instead of one started here. */
  postgresUrl?: string;
  /** Ports the user picked; the others are free ones. */
  ports?: Partial<LocalNodePorts>;
  env?: NodeJS.ProcessEnv;
  /** The npm command that fetches gnd's package. */
  npm?: string;
  /** Folders searched for Postgres's binaries after PATH (default: the system's usual ones). */
  postgresDirs?: readonly string[];
  /** How long gnd may take to answer after it started (default 120 s). */
  readyTimeoutMs?: number;
}

/** A start that cannot go on: the message says what to do. */
export class LocalNodeError extends Error {}

interface LocalNodeEvents {
  state: [LocalNodeState];
  /** One line of gnd's output. */
  log: [string];
  statuses: [DeploymentStatus[]];
}

/** A port to use: the one picked (refused when something listens there), else a free one. */
async function claimPort(kind: keyof LocalNodePorts, picked: number | undefined, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE' || err.code === 'EACCES'
          ? new LocalNodeError(`Port ${picked} (${PORT_NAMES[kind]}) is in use${err.code === 'EACCES' ? ' or not allowed' : ''}: pick another port, or stop what listens there.`)
          : err,
      );
    });
    server.listen(picked ?? 0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether one of gnd's ports answers (below 500), bounded in time and size. */
async function answers(url: string, body?: string): Promise<boolean> {
  try {
    return (await askGnd(url, body, { timeoutMs: 2000, maxBytes: PROBE_MAX_BYTES, peer: 'gnd' })).status < 500;
  } catch {
    return false;
  }
}

/**
 * The chain's latest block number, through core's JSON-RPC client (a bounded reply, retries,
 * the URL's secrets scrubbed from every message). The URL becomes an endpoint as every node URL
 * does: a user:password in it is sent as HTTP Basic, as gnd sends it; the path and query are secret.
 */
export async function chainHead(rpcUrl: string, signal?: AbortSignal): Promise<number> {
  try {
    const head = await new RpcClient(endpointFromUrl(rpcUrl), { timeoutMs: 15_000 }).call('eth_blockNumber', [], { signal });
    if (typeof head !== 'string' || !/^0x[0-9a-f]{1,16}$/i.test(head)) throw new Error(`eth_blockNumber answered ${JSON.stringify(head)?.slice(0, 80)}, not a block number`);
    return Number(BigInt(head));
  } catch (err) {
    if (signal?.aborted) throw new LocalNodeError('The start was cancelled.');
    if (err instanceof EndpointError) throw new LocalNodeError(`The RPC URL of the chain cannot be used: ${err.message}`);
    throw new LocalNodeError(`The chain at the RPC URL did not answer eth_blockNumber (${err instanceof Error ? err.message : String(err)}): check the URL and that the node runs.`);
  }
}

/**
 * Registers every secret part of the RPC URL (userinfo, path, query, the Basic credentials as
 * sent) for redaction: gnd echoes its endpoint in its log, in forms of its own.
 */
export function registerRpcSecrets(rpcUrl: string): void {
  try {
    registerUrlEndpoint(endpointFromUrl(rpcUrl));
  } catch {
    // Not a URL an endpoint is made of: chainHead says why, before gnd ever sees it.
  }
}

/**
 * How long a process may take to end after SIGINT before it is killed: gnd ends in 0.5–2.4 s,
 * Postgres's fast shutdown in well under a second; gnd whose database went away can hang.
 */
const STOP_GRACE_MS = 5000;

/** How long gnd's exit waits to see whether Postgres ended first (and is the cause). */
const POSTGRES_END_GRACE_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a stop waits for the killed watchdog to end (it ends at once; the bound is for a stuck system). */
const WATCHDOG_EXIT_WAIT_MS = 2000;

/** Sends SIGINT (gnd ignores SIGTERM; it is Postgres's fast shutdown too), then SIGKILL after `graceMs`; resolves once the pid is gone. */
async function interruptPid(pid: number, graceMs: number): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) signal('SIGKILL');
  while (isAlive(pid) && Date.now() < deadline + 5000) await sleep(50);
}

export class LocalGraphNode extends EventEmitter<LocalNodeEvents> {
  private current: LocalNodeState = { kind: 'stopped' };
  private gnd?: ChildProcess;
  private gndExit?: Promise<void>;
  private postgres?: RunningPostgres;
  private postgresBins?: PostgresBinaries;
  private ipfs?: IpfsEndpoint;
  private dataDir?: string;
  private gndBinary?: string;
  private temporary = false;
  /** Whether the lock in the data folder is this node's: a start refused because another node runs there leaves that node's lock alone. */
  private lockOwned = false;
  private lock?: LockRecord;
  private stopping?: Promise<void>;
  private starting?: Promise<LocalNodeUrls>;
  private cancelStart?: () => void;
  /** gnd's last lines, read for the reason it failed. */
  private readonly tail: string[] = [];
  /** A panic's message while gnd starts: gnd may go on running without ever answering. */
  private panicked?: string;
  private interrupted = false;
  /** A failure while ready is being handled (the rest stopping). */
  private failing = false;
  private readonly exitGuard = () => this.killNow();
  /** Cleans up after this process if it dies without stopping the node (see watchdog.ts). */
  private watchdog?: ChildProcess;
  /** gnd's output in the data folder, for `chaindeck graph-node logs` in another process. */
  private logFile?: GndLogFile;

  constructor(readonly options: LocalNodeOptions) {
    super();
  }

  get state(): LocalNodeState {
    return this.current;
  }

  /** The URLs while ready. */
  get urls(): LocalNodeUrls | undefined {
    return this.current.kind === 'ready' ? this.current.urls : undefined;
  }

  /** The data folder in use (while running). */
  get dataFolder(): string | undefined {
    return this.dataDir;
  }

  /** The gnd binary it runs (given, on PATH, or installed into the cache), once resolved. */
  get gndPath(): string | undefined {
    return this.gndBinary;
  }

  private setState(state: LocalNodeState): void {
    this.current = state;
    this.emit('state', state);
  }

  /** Starts everything and resolves with the URLs once gnd answers; a failure stops what was started and rejects with the reason. */
  start(signal?: AbortSignal): Promise<LocalNodeUrls> {
    if (this.current.kind === 'ready') return Promise.resolve(this.current.urls);
    if (this.starting) return this.starting;
    // The caller's cancel, or a stop() while starting, ends the start.
    const stopRequest = new AbortController();
    this.cancelStart = () => stopRequest.abort();
    const cancel = signal ? AbortSignal.any([signal, stopRequest.signal]) : stopRequest.signal;
    this.starting = (async () => {
      if (this.stopping) await this.stopping;
      try {
        return await this.startAll(cancel);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await this.stopAll();
        // Cancelled by the caller or by stop(): stopped, as asked; anything else failed.
        this.setState(cancel.aborted ? { kind: 'stopped' } : { kind: 'failed', reason });
        throw err;
      } finally {
        this.starting = undefined;
        this.cancelStart = undefined;
      }
    })();
    return this.starting;
  }

  /** Stops everything started (gnd, then the IPFS endpoint and Postgres), a start in progress too; a temporary data folder is removed. */
  async stop(): Promise<void> {
    if (this.starting) {
      this.cancelStart?.();
      await this.starting.catch(() => undefined);
    }
    if (this.current.kind === 'stopped' || this.current.kind === 'failed') return this.stopping ?? undefined;
    this.setState({ kind: 'stopping' });
    await this.stopAll();
    this.setState({ kind: 'stopped' });
  }

  async restart(signal?: AbortSignal): Promise<LocalNodeUrls> {
    await this.stop();
    return this.start(signal);
  }

  /** Every deployment's status, from the index node (while ready). */
  async statuses(signal?: AbortSignal): Promise<DeploymentStatus[]> {
    const urls = this.urls;
    if (!urls) throw new LocalNodeError('The local graph-node is not running.');
    const statuses = await fetchStatuses(urls.indexNode, signal);
    this.emit('statuses', statuses);
    return statuses;
  }

  /** Every subgraph name the node knows (deployed from anywhere), with its current and pending deployment, read from its Postgres (while ready). */
  async subgraphNames(signal?: AbortSignal): Promise<SubgraphName[]> {
    const { psql, postgresUrl } = this.database('the names of subgraphs deployed from elsewhere cannot be read');
    return readSubgraphNames(psql, postgresUrl, signal);
  }

  /** psql and the node's Postgres URL (secret and all: only for core's psql runs), while ready; `lost` says what cannot be done without psql. */
  database(lost: string): { psql: string; postgresUrl: string } {
    const postgresUrl = this.urls && (this.postgres?.url ?? this.options.postgresUrl);
    if (!postgresUrl) throw new LocalNodeError('The local graph-node is not running.');
    const psql = findPsql(this.postgresBins, this.options.env ?? process.env, this.options.postgresDirs);
    if (!psql) throw new LocalNodeError(`psql (the Postgres client) was found neither beside Postgres nor on PATH: ${lost}.`);
    return { psql, postgresUrl };
  }

  /** Asks for the statuses every `intervalMs` while ready (each answer a 'statuses' event); returns the function that ends it. */
  watchStatuses(intervalMs = 2000): () => void {
    const timer = setInterval(() => {
      if (this.current.kind === 'ready') this.statuses().catch(() => undefined);
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private step(step: string): void {
    this.setState({ kind: 'starting', step });
  }

  /** Writes what runs now into the lock: each process with its start time; `postgres`, the cluster whose start begins (before pg_ctl runs). */
  private lockRecord(postgres?: string): void {
    if (!this.dataDir || !this.lock) return;
    const processes: LockedProcess[] = [];
    if (this.postgres && this.postgres.pid > 0) processes.push({ role: 'postgres', pid: this.postgres.pid, since: processStart(this.postgres.pid) });
    if (this.gnd?.pid) processes.push({ role: 'gnd', pid: this.gnd.pid, since: processStart(this.gnd.pid) });
    this.lock = { ...this.lock, processes, ...(postgres ? { postgres } : {}) };
    writeLock(this.dataDir, this.lock);
  }

  private async startAll(signal?: AbortSignal): Promise<LocalNodeUrls> {
    const o = this.options;
    const env = o.env ?? process.env;
    const aborted = () => {
      if (signal?.aborted) throw new LocalNodeError('The start was cancelled.');
    };
    this.tail.length = 0;
    this.panicked = undefined;
    this.interrupted = false;
    registerRpcSecrets(o.rpcUrl);
    this.step('preparing the data folder');
    process.on('exit', this.exitGuard);
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    const folder = await prepareDataFolder(o.dataDir, root);
    this.dataDir = folder.dir;
    this.temporary = folder.temporary;
    const dataDir = this.dataDir;
    const cluster = path.join(dataDir, 'pg');

    const { record, stopped } = await acquireLock(dataDir, this.processControl());
    this.lock = record;
    this.lockOwned = true;
    this.watchdog = startWatchdog(dataDir, { temporary: this.temporary, graceMs: STOP_GRACE_MS });
    this.logFile = new GndLogFile(dataDir);
    // With the lock ours, a Postgres still running on the cluster is a leftover, also one whose pid no lock learnt (killed during pg_ctl).
    // So is a gnd on the folder's own manifest (killed between spawning it and writing the lock), stopped first.
    const leftovers: LockedProcess[] = processesWithArgument(placeholderManifest(dataDir)).map((pid) => ({ role: 'gnd', pid }));
    const postmaster = runningPostmaster(cluster);
    if (postmaster !== undefined) leftovers.push({ role: 'postgres', pid: postmaster });
    for (const leftover of leftovers) {
      await this.processControl().stop(leftover);
      stopped.push(leftover);
    }
    for (const p of stopped) this.emit('log', `chaindeck: stopped ${p.role} (pid ${p.pid}) left running from ${dataDir}`);

    const picked = o.ports ?? {};
    const ports: LocalNodePorts = {
      graphql: await claimPort('graphql', picked.graphql, '0.0.0.0'),
      admin: await claimPort('admin', picked.admin, '0.0.0.0'),
      indexNode: await claimPort('indexNode', picked.indexNode, '0.0.0.0'),
      metrics: await claimPort('metrics', picked.metrics, '0.0.0.0'),
      ipfs: await claimPort('ipfs', picked.ipfs, '127.0.0.1'),
      postgres: o.postgresUrl ? 0 : await claimPort('postgres', picked.postgres, '127.0.0.1'),
    };
    if (new Set(Object.values(ports).filter(Boolean)).size !== Object.values(ports).filter(Boolean).length)
      throw new LocalNodeError('Two of the ports picked are the same: pick a different port for each.');

    let postgresUrl = o.postgresUrl;
    if (postgresUrl) {
      // gnd given a Postgres it cannot use panics and waits for ever: checked first, in one line.
      this.step('checking Postgres');
      await checkPostgresUrl(postgresUrl, findPsql(undefined, env, o.postgresDirs), signal);
      for (const secret of postgresEnv(postgresUrl).secrets) registerSecret(secret);
    } else {
      this.postgresBins = findPostgres(env, o.postgresDirs);
      if (!this.postgresBins) throw new PostgresError(MISSING_POSTGRES);
    }

    const gnd = await resolveGnd({
      gndPath: o.gndPath,
      cacheDir: o.cacheDir,
      env,
      npm: o.npm,
      signal,
      onProgress: (progress) => this.setState({ kind: 'installing', progress }),
    });
    this.gndBinary = gnd.path;
    aborted();

    if (this.postgresBins) {
      this.step('starting Postgres');
      this.lockRecord(cluster);
      this.postgres = await startPostgres(this.postgresBins, cluster, ports.postgres, (line) => this.emit('log', `chaindeck: ${line}`));
      postgresUrl = this.postgres.url;
      this.lockRecord();
    }
    aborted();

    this.step('starting the IPFS endpoint');
    const filesDir = path.join(dataDir, 'ipfs', 'files');
    this.ipfs = await startIpfsEndpoint({ blocksDir: path.join(dataDir, 'ipfs', 'blocks'), filesDir, port: ports.ipfs });

    this.step('reading the chain head');
    const network = o.network ?? 'mainnet';
    const manifest = await writePlaceholder(path.join(dataDir, 'dev'), network, await chainHead(o.rpcUrl, signal));
    aborted();

    this.step('starting gnd');
    const args = ['dev', '--manifests', manifest, '--ipfs', `127.0.0.1:${this.ipfs.port}`];
    args.push('--http-port', String(ports.graphql), '--admin-port', String(ports.admin), '--index-node-port', String(ports.indexNode), '--metrics-port', String(ports.metrics));
    // The RPC URL (which may hold a key) and the Postgres URL (a password) go by gnd's environment variables, not the command line other users can read.
    // A devnet on this machine answers at once: poll it for new blocks every 200 ms, not graph-node's 500 ms, so a new block's records are there sooner.
    // graph-node's wasm runtime at debug adds, after each handler ran, the line naming it and its transaction (and the mappings' log.debug): what attributes a mapping's lines.
    const gndEnv = { GRAPH_LOG: GND_LOG_FILTER, ETHEREUM_POLLING_INTERVAL: '200', ...env, POSTGRES_URL: postgresUrl!, ETHEREUM_RPC: `${network}:${o.rpcUrl}` };
    const child = spawn(gnd.path, args, { cwd: filesDir, env: gndEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    this.gnd = child;
    this.gndExit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const spawnFailure = new Promise<never>((_, reject) => child.once('error', (err) => reject(new LocalNodeError(`gnd could not be started (${gnd.path}): ${err.message}`))));
    spawnFailure.catch(() => undefined);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (this.current.kind === 'starting' && !this.panicked && this.tail.length && isPanicStart(this.tail[this.tail.length - 1]))
          this.panicked = failureLine(this.tail.slice(-1).concat(line));
        this.tail.push(line);
        this.logFile?.write(line);
        if (this.tail.length > 200) this.tail.shift();
        // What gnd prints while it shuts down (a panic trace on every SIGINT) is not news.
        if (!this.interrupted) this.emit('log', line);
      });
    }
    this.lockRecord();
    child.once('exit', (code, sig) => this.gndExited(code, sig));

    const urls: LocalNodeUrls = {
      graphql: `http://127.0.0.1:${ports.graphql}`,
      admin: `http://127.0.0.1:${ports.admin}`,
      ipfs: this.ipfs.url,
      indexNode: `http://127.0.0.1:${ports.indexNode}/graphql`,
      metrics: `http://127.0.0.1:${ports.metrics}`,
    };
    this.step('waiting for gnd to answer');
    const deadline = Date.now() + (o.readyTimeoutMs ?? 120_000);
    const probe = JSON.stringify({ query: '{ indexingStatuses { subgraph } }' });
    const ready = async () =>
      (await answers(urls.indexNode, probe)) && (await answers(urls.graphql)) && (await answers(urls.admin, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subgraph_list', params: {} })));
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new LocalNodeError(`gnd exited before it answered (${child.signalCode ?? `status ${child.exitCode}`}): ${this.lastLines()}`);
      if (this.panicked) throw new LocalNodeError(`gnd failed while starting: ${this.panicked}`);
      if (await Promise.race([ready(), spawnFailure])) break;
      aborted();
      if (Date.now() > deadline) throw new LocalNodeError(`gnd did not answer within ${Math.round((o.readyTimeoutMs ?? 120_000) / 1000)} s: ${this.lastLines()}`);
      await sleep(100);
    }
    this.setState({ kind: 'ready', urls });
    this.watchPostgres();
    return urls;
  }

  /** Postgres runs detached from us (pg_ctl starts it): while ready, its end is noticed by polling its pid. */
  private watchPostgres(): void {
    const postgres = this.postgres;
    if (!postgres || postgres.pid <= 0) return;
    const timer = setInterval(() => {
      if (this.current.kind !== 'ready' || this.postgres !== postgres) clearInterval(timer);
      else if (!isAlive(postgres.pid)) {
        clearInterval(timer);
        this.failWhileReady(this.postgresGone(postgres), true);
      }
    }, 1000);
    timer.unref();
  }

  private postgresGone(postgres: RunningPostgres): string {
    return `Postgres (pid ${postgres.pid}) exited unexpectedly; its log is ${path.join(postgres.dataDir, 'server.log')}`;
  }

  /** Something the node needs ended while it was ready: the rest is stopped and the state says why. */
  private failWhileReady(reason: string, gndCannotStopCleanly = false): void {
    // Once: Postgres's end is seen by its watch and then by gnd's exit; the first reason stands.
    if (this.current.kind !== 'ready' || this.failing) return;
    this.failing = true;
    // Without its database gnd may hang in its shutdown: it is killed at once.
    if (gndCannotStopCleanly && this.gnd?.exitCode === null) this.gnd.kill('SIGKILL');
    this.stopping = this.stopAll().then(() => {
      this.failing = false;
      this.setState({ kind: 'failed', reason });
    });
  }

  /** The one line of gnd's output that says why it failed. */
  private lastLines(): string {
    return failureLine(this.tail) ?? '(no output)';
  }

  /** gnd ended while we did not stop it: the node has failed, and the rest is stopped. */
  private gndExited(code: number | null, sig: NodeJS.Signals | null): void {
    // A start in progress reports it itself; a stop expects it. gnd ends by itself when its Postgres ended first: that is the cause.
    const postgres = this.postgres;
    const gndReason = `gnd exited unexpectedly (${sig ?? `status ${code}`}): ${this.lastLines()}`;
    // Killed by a signal, gnd did not end for want of its database.
    if (!postgres || postgres.pid <= 0 || sig) return this.failWhileReady(gndReason);
    // A killed postmaster closes its files (its backends, then gnd, see that) before it is seen to end: give it a moment.
    void (async () => {
      for (let waited = 0; waited < POSTGRES_END_GRACE_MS && isAlive(postgres.pid); waited += 50) await sleep(50);
      this.failWhileReady(isAlive(postgres.pid) ? gndReason : this.postgresGone(postgres));
    })();
  }

  private processControl(): ProcessControl {
    return {
      ...SYSTEM_PROCESSES,
      stop: async (leftover) => {
        if (leftover.role === 'postgres' && this.dataDir) {
          const bins = this.postgresBins ?? findPostgres(this.options.env ?? process.env, this.options.postgresDirs);
          if (bins) {
            await stopPostgres(bins, path.join(this.dataDir, 'pg')).catch(() => undefined);
            if (!isAlive(leftover.pid)) return;
          }
        }
        await interruptPid(leftover.pid, STOP_GRACE_MS);
      },
    };
  }

  private async stopAll(): Promise<void> {
    const child = this.gnd;
    if (child && child.exitCode === null && child.signalCode === null && child.pid) {
      // gnd exits on SIGINT only, and aborts (status 134) while shutting down: its status is not ours.
      this.interrupted = true;
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.gndExit;
      clearTimeout(killer);
    }
    this.gnd = undefined;
    this.logFile?.close();
    this.logFile = undefined;
    await this.ipfs?.close().catch(() => undefined);
    this.ipfs = undefined;
    if (this.postgres) {
      await this.postgres.stop().catch(async () => {
        if (this.postgres) await interruptPid(this.postgres.pid, STOP_GRACE_MS);
      });
      this.postgres = undefined;
    }
    process.off('exit', this.exitGuard);
    await this.stopWatchdog();
    if (this.dataDir) {
      if (this.temporary) await rm(this.dataDir, { recursive: true, force: true }).catch(() => undefined);
      else if (this.lockOwned && existsSync(this.dataDir)) removeLock(this.dataDir);
    }
    this.lockOwned = false;
    this.lock = undefined;
    this.dataDir = undefined;
    this.temporary = false;
  }

  /** Kills the watchdog and waits (briefly) for it to be gone: a stop or failure reported while it lives would leave a process naming the data folder. */
  private async stopWatchdog(): Promise<void> {
    const watchdog = this.watchdog;
    this.watchdog = undefined;
    if (!watchdog || watchdog.exitCode !== null || watchdog.signalCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const gone = new Promise<void>((resolve) => {
      watchdog.once('exit', () => resolve());
      timer = setTimeout(resolve, WATCHDOG_EXIT_WAIT_MS);
    });
    watchdog.kill('SIGKILL');
    await gone;
    clearTimeout(timer);
  }

  /** The process is exiting with the node still up: kill what runs now (no time to wait), so nothing is left behind. */
  private killNow(): void {
    if (this.gnd && this.gnd.exitCode === null) this.gnd.kill('SIGKILL');
    if (this.postgres && this.postgresBins) stopPostgresSync(this.postgresBins, this.postgres.dataDir);
    if (this.dataDir && this.temporary) {
      try {
        rmSync(this.dataDir, { recursive: true, force: true });
      } catch {
        // the process is exiting: nothing more can be done
      }
    }
  }
}
