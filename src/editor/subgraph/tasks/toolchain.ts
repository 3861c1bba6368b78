/**
 * The one way the editor runs the subgraph toolchain, for build, deploy, local deploy and init:
 * only in a trusted workspace (the toolchain runs the workspace's code); graph-cli found from the
 * subgraph's folder (its node_modules or a folder above, else `graph` on PATH), else gnd
 * (installed once into the extension's storage, as the local graph-node installs it), or the one
 * `chaindeck.subgraph.toolchain` forces; Node.js to run graph-cli with; each command run by
 * core's runToolchain with its output cleaned for people; a run as a `graph` task in a
 * pseudo-terminal (CustomExecution, not a ProcessExecution: secrets travel on graph-cli's stdin
 * or in gnd's private config file, so neither the terminal's command line, nor the task
 * definition, nor the log ever holds a key), waited for to its end; and the problems a run
 * reported as diagnostics (collection "graph"), cleared when the folder runs again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inertText } from '../../../core/inert';
import { cachedGndPath, GND_VERSION, gndOnPath, resolveGnd } from '../../../core/localnode/gnd';
import type { GraphCommand } from '../../../core/subgraph/graphcli/commands';
import type { GraphRun } from '../../../core/subgraph/graphcli/launch';
import { CliNoiseFilter } from '../../../core/subgraph/graphcli/output';
import { chooseToolchain, runToolchain, ToolchainError, type Toolchain } from '../../../core/subgraph/graphcli/toolchain';
import type { SubgraphSecrets } from '../../../core/subgraph/graphnode/records';
import { errorText } from '../../kit/errors';
import { withProgress } from '../../kit/progress';
import { settings } from '../../kit/settings';
import { SETTINGS } from '../../kit/settingsSchema';
import { problemsToDiagnostics } from './problems';

export const GRAPH_TASK_TYPE = 'graph';

const TRUST_FIRST = 'Running the subgraph toolchain (graph CLI or gnd) runs code from this workspace: trust the workspace first';
/** What a run in an untrusted workspace says instead of running (the warning's button says the way out). */
export const UNTRUSTED = `${TRUST_FIRST} (Manage Workspace Trust).`;

/** Writes to a run's terminal; a run resolves with the exit code the task reports. */
export type RunBody = (out: (text: string) => void, signal: AbortSignal) => Promise<number>;

/** How a `graph` task is named and shown. */
export interface GraphTaskShape {
  definition: vscode.TaskDefinition & { task: string; manifest: string };
  manifest: vscode.Uri;
  name: string;
  /** Builds the run once the task starts, with the definition VS Code resolved (tasks.json may name one). */
  start(resolved: vscode.TaskDefinition): Promise<RunBody>;
  reveal: vscode.TaskRevealKind;
  group?: vscode.TaskGroup;
  detail?: string;
}

export interface RunOptions {
  toolchain: Toolchain;
  /** The subgraph folder (the CLI's working directory); for init, the folder to create it in. */
  cwd: string;
  secrets?: SubgraphSecrets;
  signal: AbortSignal;
  /** The CLI's output, redacted, without stack traces (the parser still reads it whole). */
  out?: (text: string) => void;
}

export class GraphToolchain implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('graph');
  /** The files each subgraph folder's last run put diagnostics on, to clear on the next run. */
  private readonly reported = new Map<string, vscode.Uri[]>();

  private installing: Promise<string> | undefined;

  /** `storage`: the folder gnd is installed into (the extension's global storage). */
  constructor(
    readonly isTrusted: () => boolean,
    private readonly storage?: string,
  ) {}

  /** Whether the CLI may run; when not, says so with the way out (Manage Workspace Trust). */
  requireTrust(): boolean {
    if (this.isTrusted()) return true;
    void vscode.window.showWarningMessage(`${TRUST_FIRST}.`, 'Manage Workspace Trust').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
    });
    return false;
  }

  /**
   * The toolchain for a subgraph in `folder`: graph-cli when found, else gnd (installed now if
   * needed), as the setting allows. When none can run, returns the one line a terminal or a
   * message says instead (and offers to install graph-cli when the setting asks for it; for init
   * globally, since the project does not exist yet).
   */
  async resolve(folder: string, install: 'project' | 'global' = 'project'): Promise<{ toolchain: Toolchain } | { missing: string }> {
    try {
      return { toolchain: await chooseToolchain({ fromDir: folder, preference: settings.subgraphToolchain(), gnd: () => this.gnd() }) };
    } catch (error) {
      if (error instanceof ToolchainError) {
        void offerInstall(folder, install);
        return { missing: error.message };
      }
      return {
        missing: `No graph CLI was found for this subgraph, and gnd ${GND_VERSION} could not be had: ${errorText(error)} Install the graph CLI in the project (npm install --save-dev @graphprotocol/graph-cli), or set ${SETTINGS.localGraphNodeGndPath.id} to a gnd binary.`,
      };
    }
  }

  /** gnd's binary: the setting's, on PATH, or the pinned one in the extension's storage, installed once (under a progress notification). */
  gnd(): Promise<string> {
    const cacheDir = this.storage;
    if (!cacheDir) return Promise.reject(new Error('gnd has no storage folder to be installed into.'));
    const source = { gndPath: settings.localGraphNodeGndPath(), cacheDir, env: process.env };
    const present = source.gndPath || gndOnPath(process.env) || fs.existsSync(cachedGndPath(cacheDir));
    if (present) return resolveGnd(source).then((resolved) => resolved.path);
    // One install at a time, whoever asks meanwhile waits for it.
    this.installing ??= withProgress(`Installing gnd ${GND_VERSION}, the subgraph toolchain for projects without the graph CLI`, (signal) => resolveGnd({ ...source, signal }))
      .then((resolved) => resolved.path)
      .finally(() => (this.installing = undefined));
    return this.installing;
  }

  /**
   * Runs one command to its end (or until cancelled); rejects when it cannot start (an untrusted
   * workspace, a needed secret missing). Trust is checked here too, whoever asks: a redeploy on
   * save has no command to gate it.
   */
  run(command: GraphCommand, options: RunOptions): Promise<GraphRun> {
    if (!this.isTrusted()) return Promise.reject(new Error(UNTRUSTED));
    const noise = new CliNoiseFilter();
    const { out } = options;
    return runToolchain(options.toolchain, command, {
      cwd: options.cwd,
      secrets: options.secrets,
      node: nodeBinary(),
      signal: options.signal,
      onOutput:
        out &&
        ((text) => {
          const shown = noise.push(text);
          if (shown) out(shown);
        }),
    });
  }

  /** A `graph` task whose pseudo-terminal runs what `shape.start` builds. */
  task(shape: GraphTaskShape): vscode.Task {
    const folder = vscode.workspace.getWorkspaceFolder(shape.manifest);
    const task = new vscode.Task(
      shape.definition,
      folder ?? vscode.TaskScope.Workspace,
      shape.name,
      GRAPH_TASK_TYPE,
      new vscode.CustomExecution(async (resolved) => new GraphTerminal(await shape.start(resolved))),
      [],
    );
    if (shape.group) task.group = shape.group;
    task.detail = shape.detail;
    task.presentationOptions = { reveal: shape.reveal, clear: true, showReuseMessage: false };
    return task;
  }

  /**
   * Runs a `graph` task and resolves once it ended. A run of the same task (kind and manifest)
   * still going is waited for first (VS Code would otherwise ask what to do).
   */
  async runTask(task: vscode.Task): Promise<void> {
    const { definition } = task;
    const same = (d: vscode.TaskDefinition) => d.type === GRAPH_TASK_TYPE && d.task === definition.task && d.manifest === definition.manifest;
    await whenIdle(same);
    return new Promise((resolve, reject) => {
      // Nothing else runs this task now (see whenIdle): the next end of it is ours.
      const ended = vscode.tasks.onDidEndTask((e) => {
        if (!same(e.execution.task.definition)) return;
        ended.dispose();
        resolve();
      });
      vscode.tasks.executeTask(task).then(undefined, (error: unknown) => {
        ended.dispose();
        reject(error);
      });
    });
  }

  /** Removes the diagnostics the last run in `folder` set. */
  clearProblems(folder: string): void {
    for (const uri of this.reported.get(folder) ?? []) this.diagnostics.delete(uri);
    this.reported.delete(folder);
  }

  /** A run's problems as diagnostics, cleared by the next run in the same folder. */
  async showProblems(folder: string, run: GraphRun): Promise<void> {
    const byFile = await problemsToDiagnostics(run.outcome.problems, folder);
    for (const { uri, diagnostics } of byFile.values()) this.diagnostics.set(uri, diagnostics);
    this.reported.set(
      folder,
      [...byFile.values()].map((e) => e.uri),
    );
  }

  dispose(): void {
    this.diagnostics.dispose();
  }
}

/** A task definition's manifest: relative to its workspace folder (as tasks.json names it), else absolute. */
export function taskManifestPath(manifest: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(manifest);
  return folder ? path.relative(folder.uri.fsPath, manifest.fsPath).split(path.sep).join('/') : manifest.fsPath;
}

/** Node.js for the CLI: the setting, else this host's own binary when it is Node (not Electron), else `node` on PATH. */
export function nodeBinary(): string {
  return settings.graphNodePath() ?? (process.versions.electron ? 'node' : process.execPath);
}

/** Resolves when no execution of the task `same` picks out is running. */
function whenIdle(same: (d: vscode.TaskDefinition) => boolean): Promise<void> {
  const busy = () => vscode.tasks.taskExecutions.some((e) => same(e.task.definition));
  if (!busy()) return Promise.resolve();
  return new Promise((resolve) => {
    const subscription = vscode.tasks.onDidEndTask(() => {
      if (busy()) return;
      subscription.dispose();
      resolve();
    });
  });
}

/** The folder to install the CLI in: the project's (nearest package.json), else the manifest's. */
export function projectFolder(folder: string): string {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const workspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
    if (!workspace || workspace.uri.fsPath === dir || path.dirname(dir) === dir) return folder;
  }
}

/** Offers to install the CLI (in the project as a dev dependency, or globally); runs npm in a terminal only when asked. */
async function offerInstall(folder: string, install: 'project' | 'global'): Promise<void> {
  const global = install === 'global';
  const project = global ? folder : projectFolder(folder);
  const choice = global
    ? await vscode.window.showWarningMessage(
        'graph init needs the graph CLI, and none was found (no node_modules/@graphprotocol/graph-cli here or above, no graph on PATH).',
        'Install graph CLI Globally',
      )
    : await vscode.window.showWarningMessage(
        `The graph CLI is not installed for the subgraph in ${vscode.workspace.asRelativePath(folder)}.`,
        { detail: `Install it with npm in ${project}?` },
        'Install graph CLI',
      );
  if (!choice) return;
  const terminal = vscode.window.createTerminal({ name: 'Install graph CLI', cwd: project });
  terminal.show();
  terminal.sendText(`npm install ${global ? '--global' : '--save-dev'} @graphprotocol/graph-cli`);
}

/** A pseudo-terminal around one run: output in (made inert, LF → CRLF), Ctrl+C or closing the terminal cancels. */
export class GraphTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  private readonly abort = new AbortController();

  constructor(private readonly body: RunBody) {}

  open(): void {
    // Inert first: the graph CLI relays text from graph-node and IPFS.
    const out = (text: string) => this.written.fire(inertText(text).replace(/\n/g, '\r\n'));
    this.body(out, this.abort.signal).then(
      (code) => this.closed.fire(code),
      (error: unknown) => {
        out(`${errorText(error)}\n`);
        this.closed.fire(1);
      },
    );
  }

  handleInput(data: string): void {
    if (data === '\x03') this.abort.abort();
  }

  close(): void {
    this.abort.abort();
  }
}
