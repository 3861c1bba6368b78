/**
 * Which toolchain builds and deploys a subgraph, and running a command through it. graph-cli
 * when the project has it (findGraphCli: its node_modules, a folder above, or `graph` on PATH),
 * else gnd, graph-node's own drop-in replacement; a preference may force either. gnd's binary
 * comes from the caller (core/localnode resolves and installs it; this folder may not import it).
 *
 * gnd takes graph-cli's command lines as they are (codegen, build, create, deploy, remove), with
 * three differences handled here:
 *  - a deploy key: gnd reads it from `--deploy-key`/`--access-token` or, with neither, from
 *    `$HOME/.graph-cli.json` (`{"<node URL>": "<key>"}`, the URL as the WHATWG parser writes it).
 *    The key goes in that file, in a private temporary HOME removed after the run, never on argv;
 *  - a URL holding an access key ({key}) cannot be hidden: gnd takes URLs only on its command
 *    line, where `ps` shows them to every user. Such a command is refused with a way out;
 *  - `gnd build` finds `asc` on PATH or in node_modules/.bin of the manifest's own folder only:
 *    the nearest node_modules/.bin above the manifest that has `asc` is put first on PATH, so a
 *    hoisted (workspace) layout builds as it does with graph-cli.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { KEY_PLACEHOLDER, type SubgraphSecrets } from '../graphnode/records';
import { DEPLOY_KEY_PLACEHOLDER, graphBuildCommand, graphCodegenCommand, GraphInputError, type GraphCommand } from './commands';
import { findGraphCli, runGraph, runGraphProcess, secretsNeeded, type GraphProcess, type GraphRun, type RunProcessOptions } from './launch';

export const TOOLCHAIN_PREFERENCES = ['auto', 'graph-cli', 'gnd'] as const;
export type ToolchainPreference = (typeof TOOLCHAIN_PREFERENCES)[number];

export type Toolchain = { kind: 'graph-cli'; cli: string } | { kind: 'gnd'; gnd: string };

/** No toolchain can be used: `message` is one line that says what to do. */
export class ToolchainError extends Error {
  override readonly name = 'ToolchainError';
}

export interface ChooseToolchainOptions {
  /** The subgraph folder (graph-cli is looked for from here up, then on PATH). */
  fromDir: string;
  /** Default 'auto': graph-cli when found, else gnd. */
  preference?: ToolchainPreference;
  /** gnd's binary, resolved (and installed) by the caller only when gnd is the choice. */
  gnd: () => Promise<string>;
  searchPath?: string;
}

/** The toolchain for a subgraph folder; rejects with ToolchainError when the forced one is missing. */
export async function chooseToolchain(options: ChooseToolchainOptions): Promise<Toolchain> {
  const preference = options.preference ?? 'auto';
  if (preference !== 'gnd') {
    const cli = findGraphCli(options.fromDir, options.searchPath);
    if (cli) return { kind: 'graph-cli', cli };
    if (preference === 'graph-cli') {
      throw new ToolchainError(
        `The graph CLI was not found from ${options.fromDir} (its node_modules, a folder above, or \`graph\` on PATH): install @graphprotocol/graph-cli, or set the toolchain to gnd or auto.`,
      );
    }
  }
  return { kind: 'gnd', gnd: await options.gnd() };
}

/** The toolchain's own name, for messages: `graph` or `gnd`. */
export function toolchainName(toolchain: Pick<Toolchain, 'kind'>): string {
  return toolchain.kind === 'gnd' ? 'gnd' : 'graph';
}

/** The command as the user would type it with this toolchain (placeholders kept, key flags dropped for gnd). */
export function displayToolchainCommand(toolchain: Pick<Toolchain, 'kind'>, command: Pick<GraphCommand, 'args'>): string {
  const args = toolchain.kind === 'gnd' ? gndArgs(command) : command.args;
  return [toolchainName(toolchain), ...args].map((a) => (/^[A-Za-z0-9_@%+=:,./{}-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

const KEY_FLAGS = new Set(['--deploy-key', '--access-token']);

/**
 * gnd's argument vector for a graph-cli command: the same, without a deploy key flag (gnd reads
 * the key from its config file, see gndProcess). init is not offered through gnd (its flags differ).
 */
export function gndArgs(command: Pick<GraphCommand, 'args'>): string[] {
  const args: string[] = [];
  for (let i = 0; i < command.args.length; i++) {
    if (KEY_FLAGS.has(command.args[i]) && command.args[i + 1] === DEPLOY_KEY_PLACEHOLDER) {
      i++;
      continue;
    }
    args.push(command.args[i]);
  }
  return args;
}

/** `gnd test [--skip-build] --manifest M [FILE…]`: gnd only; the Postgres URL travels in the env (POSTGRES_URL). */
export function gndTestArgs(options: { manifest: string; files?: readonly string[]; skipBuild?: boolean }): string[] {
  return ['test', '--manifest', options.manifest, ...(options.skipBuild ? ['--skip-build'] : []), ...(options.files?.length ? ['--', ...options.files] : [])];
}

/** The nearest node_modules/.bin at or above `dir` that holds the AssemblyScript compiler. */
export function findAscBin(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const bin = path.join(d, 'node_modules', '.bin');
    if (existsSync(path.join(bin, process.platform === 'win32' ? 'asc.cmd' : 'asc'))) return bin;
    if (path.dirname(d) === d) return undefined;
  }
}

export interface GndProcessOptions {
  gnd: string;
  /** The subgraph folder (gnd's working directory). */
  cwd: string;
  /** Node.js for asc (a Node script): its folder goes on PATH when absolute. */
  node?: string;
  env?: NodeJS.ProcessEnv;
  /** A private folder to hold the deploy key as gnd's HOME; made when needed (the caller removes it). */
  makeHome?: () => string;
}

/** The node URL gnd looks the key up by: URL::parse(node).to_string(), which is the WHATWG form. */
function normalizedNode(url: string): string {
  return new URL(url).href;
}

/** gnd's process for a command: secrets only in a file in a private HOME, the key-holding URLs refused. */
export function gndProcess(command: GraphCommand, secrets: SubgraphSecrets, options: GndProcessOptions): GraphProcess & { home?: string } {
  const needed = secretsNeeded(command);
  if (needed.accessKey) {
    throw new GraphInputError([
      {
        field: 'deployUrl',
        message: `gnd takes URLs on its command line, where other users of this machine could read the access key in them (${KEY_PLACEHOLDER}): use the graph CLI for this host (install @graphprotocol/graph-cli in the project), or a deploy key instead of a key in the URL.`,
      },
    ]);
  }
  if (needed.deployKey && !secrets.deployKey) {
    throw new GraphInputError([{ field: 'deployKey', message: 'No deploy key is stored for this subgraph: set it, or deploy without one.' }]);
  }
  const base = options.env ?? process.env;
  const asc = findAscBin(options.cwd);
  const pathDirs = [asc, options.node && path.isAbsolute(options.node) ? path.dirname(options.node) : undefined, base.PATH].filter(Boolean);
  const env: NodeJS.ProcessEnv = { ...base, NO_COLOR: '1', CLICOLOR: '0', FORCE_COLOR: '0', PATH: pathDirs.join(path.delimiter) };
  let home: string | undefined;
  if (needed.deployKey) {
    const node = command.args[command.args.indexOf('--node') + 1];
    home = (options.makeHome ?? (() => mkdtempSync(path.join(tmpdir(), 'chaindeck-gnd-'))))();
    writeFileSync(path.join(home, '.graph-cli.json'), JSON.stringify({ [normalizedNode(node)]: secrets.deployKey }), { mode: 0o600 });
    env.HOME = home;
    env.USERPROFILE = home;
  }
  const args = gndArgs(command);
  return {
    file: options.gnd,
    args,
    env,
    stdin: '',
    display: displayToolchainCommand({ kind: 'gnd' }, command),
    missing: `${options.gnd} was not found: install gnd again (Chaindeck installs it into its cache) or set its path.`,
    home,
  };
}

export interface RunToolchainOptions extends RunProcessOptions {
  node?: string;
  env?: NodeJS.ProcessEnv;
}

/** Runs one command through the toolchain to its end; rejects with GraphInputError when it cannot run as asked. */
export async function runToolchain(toolchain: Toolchain, command: GraphCommand, options: RunToolchainOptions): Promise<GraphRun> {
  if (toolchain.kind === 'graph-cli') return runGraph(command, { ...options, cli: toolchain.cli });
  const proc = gndProcess(command, options.secrets ?? {}, { gnd: toolchain.gnd, cwd: options.cwd, node: options.node, env: options.env });
  try {
    return await runGraphProcess(command, proc, options);
  } finally {
    if (proc.home) rmSync(proc.home, { recursive: true, force: true });
  }
}

export interface BuildSubgraphOptions {
  /** The manifest, absolute (its folder is the working directory). */
  manifest: string;
  toolchain: Toolchain;
  signal?: AbortSignal;
  /** Each line the toolchain printed, as it comes. */
  out?: (line: string) => void;
  node?: string;
  env?: NodeJS.ProcessEnv;
}

/** Codegen then build of a manifest; rejects with an Error whose message is one line (the first failure's summary). */
export async function buildSubgraph(options: BuildSubgraphOptions): Promise<GraphRun> {
  const cwd = path.dirname(path.resolve(options.manifest));
  const manifest = path.basename(options.manifest);
  let pending = '';
  const onOutput = options.out
    ? (text: string) => {
        const lines = (pending + text).split(/\r?\n/);
        pending = lines.pop() ?? '';
        for (const line of lines) options.out!(line);
      }
    : undefined;
  let run: GraphRun | undefined;
  for (const command of [graphCodegenCommand(manifest), graphBuildCommand(manifest)]) {
    run = await runToolchain(options.toolchain, command, { cwd, signal: options.signal, onOutput, node: options.node, env: options.env });
    if (pending) options.out?.(pending);
    pending = '';
    if (!run.outcome.ok) throw new Error(run.outcome.summary.replace(/\s*\n\s*/g, ' '));
  }
  return run!;
}

/** The build step in the shape the test runner and the capture take. */
export function buildStep(manifest: string, toolchain: Toolchain, extra: Pick<BuildSubgraphOptions, 'node' | 'env'> = {}) {
  return async (signal: AbortSignal, out: (line: string) => void): Promise<void> => {
    await buildSubgraph({ manifest, toolchain, signal, out, ...extra });
  };
}
