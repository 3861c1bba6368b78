/**
 * Running the graph CLI with credentials that never reach a command line.
 *
 * How the key stays off the command line: the CLI is started as
 *   node --import <SECRET_PRELOAD> <graph-cli>/bin/run.js deploy --node https://host/{key}/deploy … --deploy-key {deployKey}
 * and the secrets ({accessKey, deployKey} as JSON) are written to its stdin. The preload, a fixed
 * module given as a data: URL (it holds no secret), reads stdin to its end and swaps the
 * placeholders in `process.argv` in memory before the CLI parses it. So:
 *  - `ps` and /proc/<pid>/cmdline show only the placeholders (Node keeps its own copy of argv);
 *  - the environment holds no secret either (nothing inherits it: `graph init` runs npm);
 *  - the terminal, the task definition and the log see `graph deploy … {key} … {deployKey}`;
 *  - every line the CLI prints is scrubbed of the secrets (the CLI echoes the node URL, key
 *    included) before anyone sees it.
 * What remains: the secrets are in the CLI process's memory, and stdin is at end-of-file, so
 * the CLI cannot prompt (every prompt is answered by a flag anyway). Anyone who can read this
 * user's process memory could read them; that is the same trust boundary as SecretStorage.
 */
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { FILE_CAPS, readTextFile } from '../../files';
import { redactKnownSecrets } from '../../redact';
import { nodeAtPath, parseManifest } from '../manifest/manifestDoc';
import { KEY_PLACEHOLDER, subgraphSecretValues, templateFromPrinted, type SubgraphSecrets } from '../graphnode/records';
import { DEPLOY_KEY_PLACEHOLDER, displayCommand, GraphInputError, type GraphCommand } from './commands';
import { judgeGraphRun, parseDeployLines, type GraphOutcome } from './output';

const CLI_IN_PACKAGE = path.join('node_modules', '@graphprotocol', 'graph-cli', 'bin', 'run.js');

/**
 * The graph CLI's entry script (…/graph-cli/bin/run.js): the subgraph's own node_modules or any
 * folder above it first, then a `graph` on PATH (npm's link resolves to the same script).
 */
export function findGraphCli(fromDir: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, CLI_IN_PACKAGE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const link = path.join(dir, 'graph');
    if (existsSync(link)) {
      const real = realpathSync(link);
      if (real.endsWith(path.join('graph-cli', 'bin', 'run.js'))) return real;
    }
    // npm on Windows: graph.cmd beside node_modules/@graphprotocol/graph-cli.
    const beside = path.join(dir, CLI_IN_PACKAGE);
    if (existsSync(beside)) return beside;
  }
  return undefined;
}

/** Reads the secrets from stdin and swaps the placeholders in argv; contains no secret itself. */
const PRELOAD_SOURCE = `import { readFileSync } from 'node:fs';
let s = {};
try { s = JSON.parse(readFileSync(0, 'utf8') || '{}'); } catch { s = {}; }
const argv = process.argv;
for (let i = 2; i < argv.length; i++) {
  if (argv[i] === ${JSON.stringify(DEPLOY_KEY_PLACEHOLDER)}) argv[i] = s.deployKey || '';
  else if (s.accessKey && /^https?:\\/\\//i.test(argv[i])) argv[i] = argv[i].split(${JSON.stringify(KEY_PLACEHOLDER)}).join(encodeURIComponent(s.accessKey));
}
`;

export const SECRET_PRELOAD = `data:text/javascript,${encodeURIComponent(PRELOAD_SOURCE)}`;

export interface GraphProcessOptions {
  /** The CLI's bin/run.js (findGraphCli). */
  cli: string;
  /** Node.js to run it with; default `node` on PATH (the extension host's own binary is not Node). */
  node?: string;
  /** Base environment; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The exact process to start: what a task or a pseudo-terminal runs. Holds no secret. */
export interface GraphProcess {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** What to write to stdin (then close it): the secrets, as JSON. */
  stdin: string;
  /** The command as shown to the user: `graph …` (or `gnd …`) with placeholders. */
  display: string;
  /** What to say when `file` is not there (default: install Node.js). */
  missing?: string;
}

/** Which secrets a command line needs, by its placeholders. */
export function secretsNeeded(command: Pick<GraphCommand, 'args'>): { accessKey: boolean; deployKey: boolean } {
  return {
    accessKey: command.args.some((a) => /^https?:\/\//i.test(a) && a.includes(KEY_PLACEHOLDER)),
    deployKey: command.args.includes(DEPLOY_KEY_PLACEHOLDER),
  };
}

/** Builds the process for a command; throws GraphInputError when a needed secret is missing. */
export function graphProcess(command: GraphCommand, secrets: SubgraphSecrets, options: GraphProcessOptions): GraphProcess {
  const needed = secretsNeeded(command);
  const missing = [
    ...(needed.accessKey && !secrets.accessKey ? [{ field: 'accessKey', message: `The URLs hold ${KEY_PLACEHOLDER}, but no access key is stored for this subgraph: enter it again.` }] : []),
    ...(needed.deployKey && !secrets.deployKey ? [{ field: 'deployKey', message: 'No deploy key is stored for this subgraph: set it, or deploy without one.' }] : []),
  ];
  if (missing.length) throw new GraphInputError(missing);
  const base = options.env ?? process.env;
  const node = options.node ?? 'node';
  // `graph init` runs `npm run codegen`, which needs `graph` (the .bin beside the CLI) and node on PATH.
  const binDir = path.join(path.dirname(path.dirname(path.dirname(path.dirname(options.cli)))), '.bin');
  const pathDirs = [existsSync(binDir) ? binDir : undefined, path.isAbsolute(node) ? path.dirname(node) : undefined, base.PATH].filter(Boolean);
  const env: NodeJS.ProcessEnv = { ...base, FORCE_COLOR: '0', PATH: pathDirs.join(path.delimiter) };
  // Only the secrets this command uses travel, and only on stdin.
  const sent: SubgraphSecrets = {
    ...(needed.accessKey ? { accessKey: secrets.accessKey } : {}),
    ...(needed.deployKey ? { deployKey: secrets.deployKey } : {}),
  };
  return { file: node, args: ['--import', SECRET_PRELOAD, options.cli, ...command.args], env, stdin: JSON.stringify(sent), display: displayCommand(command) };
}

// The CLI hides and shows the cursor even with FORCE_COLOR=0; logs and parsers want plain text.
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

// Every secret the CLI holds came from us, so masking those values suffices; masking every URL
// path would hide the deployment link and query URL it prints (and that are read back).
function clean(text: string, secrets: readonly string[]): string {
  return redactKnownSecrets(text.replace(ANSI_ESCAPE, ''), secrets);
}

/** Masks secrets in text that arrives in chunks: whole lines only, so a key split across chunks is still caught. */
export class LineRedactor {
  private pending = '';
  constructor(
    private readonly secrets: readonly string[],
    private readonly emit: (text: string) => void,
  ) {}

  push(chunk: string): void {
    this.pending += chunk;
    const cut = Math.max(this.pending.lastIndexOf('\n'), this.pending.lastIndexOf('\r'));
    if (cut < 0) return;
    const complete = this.pending.slice(0, cut + 1);
    this.pending = this.pending.slice(cut + 1);
    this.emit(clean(complete, this.secrets));
  }

  end(): void {
    if (this.pending) this.emit(clean(this.pending, this.secrets));
    this.pending = '';
  }
}

export interface RunProcessOptions {
  /** The subgraph folder (the CLI's working directory); for init, the folder to create it in. */
  cwd: string;
  secrets?: SubgraphSecrets;
  signal?: AbortSignal;
  /** Redacted output as it arrives (stdout and stderr), for a terminal or a log. */
  onOutput?: (text: string) => void;
  /** Called with the CLI's process id once it started. */
  onStart?: (pid: number) => void;
}

export interface RunGraphOptions extends GraphProcessOptions, RunProcessOptions {}

export interface GraphRun {
  outcome: GraphOutcome;
  exitCode: number | null;
  cancelled: boolean;
  /** Everything the CLI printed, redacted. */
  output: string;
  /** `graph …` with placeholders. */
  command: string;
  timeMs: number;
}

/** The schema file a manifest names (`schema: file:`), as written; undefined when unreadable. */
function schemaFileOf(manifest: string): string | undefined {
  try {
    const node = nodeAtPath(parseManifest(readTextFile(manifest, FILE_CAPS.manifest)).root, ['schema', 'file']);
    return node?.matched === 2 && node.node.kind === 'scalar' ? String(node.node.value) : undefined;
  } catch {
    return undefined;
  }
}

function argAfter(args: readonly string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Runs one graph command to its end (or until cancelled) and judges what it printed; rejects with GraphInputError when a needed secret is missing. */
export async function runGraph(command: GraphCommand, options: RunGraphOptions): Promise<GraphRun> {
  return runGraphProcess(command, graphProcess(command, options.secrets ?? {}, options), options);
}

/** Runs a process built for `command` (graph-cli's or gnd's) to its end and judges what it printed. */
export async function runGraphProcess(command: GraphCommand, proc: GraphProcess, options: RunProcessOptions): Promise<GraphRun> {
  const secrets = options.secrets ?? {};
  const secretValues = subgraphSecretValues(secrets);
  const started = performance.now();
  return new Promise<GraphRun>((resolve) => {
    let redacted = '';
    let raw = '';
    let cancelled = false;
    const collect = (text: string) => {
      redacted += text;
      options.onOutput?.(text);
    };
    const outRedactor = new LineRedactor(secretValues, collect);
    const errRedactor = new LineRedactor(secretValues, collect);
    const child = spawn(proc.file, proc.args, { cwd: options.cwd, env: proc.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    child.stdin.on('error', () => undefined); // a CLI that exits at once closes stdin early
    child.stdin.end(proc.stdin);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      raw += d;
      outRedactor.push(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      raw += d;
      errRedactor.push(d);
    });
    const onAbort = () => {
      cancelled = true;
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000).unref();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let spawnError: Error | undefined;
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      outRedactor.end();
      errRedactor.end();
      const deployUrl = argAfter(command.args, '--node');
      const ipfsUrl = argAfter(command.args, '--ipfs');
      let outcome: GraphOutcome;
      if (spawnError) {
        const why =
          (spawnError as NodeJS.ErrnoException).code === 'ENOENT' ? (proc.missing ?? `${proc.file} was not found: install Node.js (20.18 or later) or set its path.`) : spawnError.message;
        outcome = { ok: false, summary: `Cannot start ${proc.display.split(' ')[0] === 'gnd' ? 'gnd' : 'the graph CLI'}: ${why}`, problems: [] };
      } else if (cancelled) {
        outcome = { ok: false, summary: `${proc.display.split(' ').slice(0, 2).join(' ')} was cancelled.`, problems: [] };
      } else {
        outcome = judgeGraphRun(command.subcommand, code, redacted, {
          manifest: command.manifest,
          shownDeployUrl: deployUrl,
          shownIpfsUrl: ipfsUrl,
          sentDeployKey: secretsNeeded(command).deployKey,
          subgraphName: command.subgraphName,
          tool: proc.display.split(' ')[0],
          schemaFile: /^Schema validation errors:/m.test(redacted) ? schemaFileOf(path.resolve(options.cwd, command.manifest)) : undefined,
        });
        if (outcome.ok && command.subcommand === 'deploy') {
          // The printed URLs may carry the access key: keep them in the record's {key} form.
          const printed = parseDeployLines(raw);
          outcome.deployedTo = printed.deployedTo && templateFromPrinted(printed.deployedTo, secrets.accessKey);
          outcome.queriesUrl = printed.queriesUrl && templateFromPrinted(printed.queriesUrl, secrets.accessKey);
        }
      }
      raw = '';
      resolve({ outcome, exitCode: code, cancelled, output: redacted, command: proc.display, timeMs: performance.now() - started });
    });
  });
}
