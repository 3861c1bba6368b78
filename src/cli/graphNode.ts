/**
 * `chaindeck graph-node start`: a real graph-node on this machine (gnd, the system's Postgres,
 * the local IPFS endpoint), in the foreground until SIGINT or SIGTERM, which stop everything.
 * With --json, once everything answers, one line on stdout holds the URLs; progress and gnd's
 * log go to stderr.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { inertJson } from '../core/inert';
import { urlWithUserinfo } from '../core/nodes/endpoint';
import { redactUrl } from '../core/redact';
import { gndLogLevel } from '../core/localnode/gndLog';
import { GND_BINDS_ALL_INTERFACES, GND_VERSION } from '../core/localnode/gndVersion';
import type { LocalGraphNode, LocalNodePorts } from '../core/localnode/supervisor';
import { UsageError, type OptionTable } from './args';
import { defineCommand, reportFailure, type CliCommand, type CliIO } from './command';
import { graphNodeLogsCommand } from './graphNodeLogs';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, REFUSED_PASSWORD } from './endpointFlags';

const POSTGRES_URL_ENV = 'CHAINDECK_POSTGRES_URL';

const portOption = (what: string) => ({ type: 'string', value: 'PORT', help: `the ${what} port (default: a free one)` }) as const;

const options = {
  ...nodeOptions('the JSON-RPC URL of the chain to index, http or https (e.g. a local anvil, http://127.0.0.1:8545)'),
  network: { type: 'string', value: 'NAME', help: "the network name the subgraphs' manifests use for that chain (default mainnet)" },
  data: {
    type: 'string',
    value: 'DIR',
    help: 'keep Postgres, the IPFS blocks and the deployed files in DIR, so deployments and their records survive a stop (default: a temporary folder, removed on stop)',
  },
  json: {
    type: 'boolean',
    help: 'once everything answers, print one line of JSON with the URLs (graphql, admin, ipfs, indexNode, metrics), the network, the data folder and the gnd binary on stdout',
  },
  gnd: { type: 'string', value: 'PATH', help: `use this gnd binary as is (default: gnd on PATH, else gnd ${GND_VERSION}, installed once into the user cache through npm)` },
  'http-port': portOption('GraphQL'),
  'admin-port': portOption('admin (graph create/deploy --node)'),
  'index-port': portOption('index-node'),
  'ipfs-port': portOption('IPFS (graph deploy --ipfs)'),
} satisfies OptionTable;

interface GraphNodeArgs {
  rpcUrl: string;
  network: string;
  dataDir?: string;
  json: boolean;
  gndPath?: string;
  ports: Partial<LocalNodePorts>;
}

function portOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) throw new UsageError(`--${flag} takes a port number from 1 to 65535, not '${value}'`);
  return Number(value);
}

/** The user's cache folder for Chaindeck: $XDG_CACHE_HOME/chaindeck or ~/.cache/chaindeck (the platform's own on macOS and Windows). */
export function userCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'chaindeck');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'chaindeck');
  if (platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'chaindeck', 'cache');
  return path.join(os.homedir(), '.cache', 'chaindeck');
}

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP (the terminal closed): each one stops the node.
 * A second one while it stops is held (the stop is bounded) and said, so the last line still comes.
 */
function untilSignal(io: CliIO): { done: Promise<NodeJS.Signals>; dispose(): void } {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = new Map<NodeJS.Signals, () => void>();
  let seen = false;
  const done = new Promise<NodeJS.Signals>((resolve) => {
    for (const sig of signals) {
      const handler = () => {
        if (seen) io.err('chaindeck graph-node: still stopping gnd and Postgres (at most a few seconds)\n');
        seen = true;
        resolve(sig);
      };
      handlers.set(sig, handler);
      process.on(sig, handler);
    }
  });
  return { done, dispose: () => handlers.forEach((handler, sig) => process.off(sig, handler)) };
}

function progressLine(node: LocalGraphNode, io: CliIO): void {
  let lastPhase = '';
  node.on('state', (state) => {
    if (state.kind === 'installing') {
      const p = state.progress;
      if (p.phase === lastPhase && p.phase !== 'download') return;
      if (p.phase === 'download' && lastPhase === 'download' && !p.total) return;
      lastPhase = p.phase;
      io.err(
        `chaindeck graph-node: ${p.phase === 'download' ? `downloading gnd ${GND_VERSION}${p.total ? ` (${Math.round((p.received / p.total) * 100)} %)` : ''}` : p.phase === 'verify' ? 'verifying gnd' : 'unpacking gnd'}\n`,
      );
    } else if (state.kind === 'starting') {
      io.err(`chaindeck graph-node: ${state.step}\n`);
    }
  });
}

async function start(args: GraphNodeArgs, io: CliIO): Promise<number> {
  // Loaded here, not at the start: the help and the argument checks need no HTTP stack.
  const { LocalGraphNode } = await import('../core/localnode/supervisor');
  const node = new LocalGraphNode({
    rpcUrl: args.rpcUrl,
    network: args.network,
    dataDir: args.dataDir,
    cacheDir: userCacheDir(io.env),
    gndPath: args.gndPath,
    postgresUrl: io.env[POSTGRES_URL_ENV] || undefined,
    ports: args.ports,
    env: io.env,
  });
  progressLine(node, io);
  // gnd's debug lines (one per handler run) stay in the data folder's log: `chaindeck graph-node logs` reads them.
  node.on('log', (line) => gndLogLevel(line) !== 'debug' && io.err(`${line}\n`));
  const signal = untilSignal(io);
  const abort = new AbortController();
  let starting = true;
  void signal.done.then(() => {
    // Ctrl+C before the node is ready: the start is cancelled, and what it started is stopped.
    if (starting) io.err('chaindeck graph-node: stopping (interrupted while starting)\n');
    abort.abort();
  });
  try {
    const started = Date.now();
    let urls;
    try {
      urls = await node.start(abort.signal);
    } catch (err) {
      if (abort.signal.aborted) {
        await node.stop();
        io.err('chaindeck graph-node: stopped\n');
        return 0;
      }
      return reportFailure(io, 'graph-node', err);
    }
    starting = false;
    io.err(`chaindeck graph-node: ${GND_BINDS_ALL_INTERFACES}\n`);
    io.err(`chaindeck graph-node: ready in ${((Date.now() - started) / 1000).toFixed(1)} s; Ctrl+C stops it${args.dataDir ? '' : ' and removes its temporary data'}\n`);
    // The URLs are the node's own (loopback, no key): shown whole, where the usual redaction would take their paths for keys.
    const show = io.outRevealed ?? io.out;
    if (args.json) {
      show(`${inertJson({ ...urls, network: args.network, data: node.dataFolder, gnd: node.gndPath }, 0)}\n`);
    } else {
      show(
        [
          `GraphQL:    ${urls.graphql}/subgraphs/name/<NAME>`,
          `admin:      ${urls.admin}      (graph create/deploy --node)`,
          `IPFS:       ${urls.ipfs}      (graph deploy --ipfs)`,
          `index node: ${urls.indexNode}`,
          `data:       ${node.dataFolder}`,
          `gnd:        ${node.gndPath}`,
          '',
        ].join('\n'),
      );
    }
    // Runs until a signal, or until gnd fails on its own.
    const failed = new Promise<string>((resolve) => node.on('state', (s) => s.kind === 'failed' && resolve(s.reason)));
    const outcome = await Promise.race([signal.done.then(() => undefined), failed]);
    if (outcome !== undefined) {
      io.err(`chaindeck graph-node: ${outcome}\n`);
      await node.stop();
      return 1;
    }
    io.err('chaindeck graph-node: stopping\n');
    const stopStarted = Date.now();
    await node.stop();
    io.err(`chaindeck graph-node: stopped in ${((Date.now() - stopStarted) / 1000).toFixed(1)} s\n`);
    return 0;
  } finally {
    signal.dispose();
    await node.stop().catch(() => undefined);
  }
}

const graphNodeStartCommand = defineCommand({
  name: 'graph-node',
  summary: "Run a real graph-node here (gnd, Postgres, IPFS), or print a deployment's log",
  usage: [
    'start --rpc URL [--user NAME] [--network NAME] [--data DIR] [--json]\n[--gnd PATH] [--http-port PORT] [--admin-port PORT] [--index-port PORT] [--ipfs-port PORT]',
    'logs --graphql URL --deployment ID|NAME [--level L] [--follow] [--format text|json]',
  ],
  description:
    'Deploy to it with the graph CLI: `graph create --node <admin> NAME`, then `graph deploy --node <admin> --ipfs <ipfs> NAME`; query <graphql>/subgraphs/name/NAME. It runs in the foreground; SIGINT (Ctrl+C) or SIGTERM stops gnd, Postgres and the IPFS endpoint. A start with a --data DIR whose previous run was killed first stops what that run left running.',
  arguments: [
    ['start', 'start the node (the options below)'],
    ['logs', "print a deployment's log, of this node or another graph-node (its options: chaindeck graph-node logs --help)"],
  ],
  options,
  refused: REFUSED_PASSWORD,
  noOptionAsValue: true,
  notes: `Postgres comes from the system (initdb and pg_ctl on PATH or in the usual folders; Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql@16), runs on a private folder inside the data folder and listens on 127.0.0.1 only. ${GND_BINDS_ALL_INTERFACES}`,
  environment: [
    [POSTGRES_URL_ENV, 'use this Postgres (postgresql://USER:PASSWORD@HOST:PORT/DATABASE) instead of starting one; checked before gnd starts'],
    ...ENDPOINT_ENV,
    ['XDG_CACHE_HOME', 'gnd is installed into $XDG_CACHE_HOME/chaindeck (default ~/.cache/chaindeck)'],
  ],
  exit: {
    done: 'the node ran and was stopped by SIGINT or SIGTERM',
    failed: 'it could not start (the reason on stderr: Postgres missing, a port in use, a failed download, …) or gnd failed while running',
    usageExample: 'no --rpc',
  },
  examples: ['chaindeck graph-node start --rpc http://127.0.0.1:8545', 'chaindeck graph-node start --rpc http://127.0.0.1:8545 --network devnet --data ./.graph-node --json'],

  check({ values, positionals }, io): GraphNodeArgs {
    const [action, ...extra] = positionals;
    if (action !== 'start') throw new UsageError(action === undefined ? 'name the action: start or logs' : `unknown action '${action}': the actions are start and logs`);
    if (extra.length) throw new UsageError(`too many arguments: ${extra.join(' ')}`);
    if (!values.rpc) throw new UsageError('--rpc URL is required: the JSON-RPC URL of the chain to index');
    if (!/^https?:\/\//i.test(values.rpc)) throw new UsageError(`--rpc takes an http or https URL, not '${redactUrl(values.rpc)}'`);
    // The rules (and masking) of every command's endpoint: no user:password@ (it shows in `ps`), its secrets registered.
    // gnd takes Basic credentials only in the URL, which it gets through its environment.
    const rpcUrl = urlWithUserinfo(endpointFromFlags(values.rpc, values.user, io.env));
    if (values.data === '') throw new UsageError("--data takes a folder, not ''");
    const network = values.network ?? 'mainnet';
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(network)) throw new UsageError(`--network takes a network name such as mainnet, not '${network}'`);
    const ports: Partial<LocalNodePorts> = {
      graphql: portOf('http-port', values['http-port']),
      admin: portOf('admin-port', values['admin-port']),
      indexNode: portOf('index-port', values['index-port']),
      ipfs: portOf('ipfs-port', values['ipfs-port']),
    };
    const picked = Object.values(ports).filter((p) => p !== undefined);
    const twice = picked.find((p, i) => picked.indexOf(p) !== i);
    if (twice !== undefined) throw new UsageError(`port ${twice} is given twice: pick a different port for each`);
    return { rpcUrl, network, dataDir: values.data, json: values.json === true, gndPath: values.gnd, ports };
  },

  work: start,
});

/** `chaindeck graph-node start|logs`: start is the options of this module, logs those of graphNodeLogs.ts. */
export const graphNodeCommand: CliCommand = {
  ...graphNodeStartCommand,
  usageOf: (args) => (args[0] === 'logs' ? graphNodeLogsCommand.usage : graphNodeStartCommand.usage),
  run: ([action, ...rest], io) => (action === 'logs' ? graphNodeLogsCommand.run(rest, io) : graphNodeStartCommand.run(action === undefined ? [] : [action, ...rest], io)),
};
