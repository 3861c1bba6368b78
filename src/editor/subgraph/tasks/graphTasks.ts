/**
 * Tasks of type `graph`: codegen, build and deploy for every subgraph.yaml, named like
 * "graph: build - path/to/subgraph.yaml". Each runs in a pseudo-terminal (CustomExecution) that
 * calls core's runGraph, not as a ProcessExecution: the CLI's secrets travel on its stdin, so
 * neither the terminal's command line, nor the task definition, nor the log ever holds a key.
 * The output arrives already redacted; what the CLI reports as problems becomes diagnostics
 * (collection "graph"), cleared when the same subgraph runs again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CliNoiseFilter, formatProblem } from '../../../core/subgraph/graphcli/output';
import { displayCommand, graphBuildCommand, graphCodegenCommand, graphDeployCommand, type GraphCommand } from '../../../core/subgraph/graphcli/commands';
import { findGraphCli, runGraph, type GraphRun } from '../../../core/subgraph/graphcli/launch';
import { inertText } from '../../../core/inert';
import type { SubgraphRecord, SubgraphSecrets } from '../../../core/subgraph/graphnode/records';
import { errorText } from '../../kit/errors';
import { settings } from '../../kit/settings';
import type { Log } from '../../log';
import { manifestLabel, type Manifests } from '../manifests';
import { askVersionLabel, resolveRecord } from '../pickers';
import type { SubgraphStore } from '../records/store';
import { problemsToDiagnostics } from './problems';

export const GRAPH_TASK_TYPE = 'graph';
export const GRAPH_TASKS = ['codegen', 'build', 'deploy'] as const;
export type GraphTaskKind = (typeof GRAPH_TASKS)[number];

/** What a `graph` task is (tasks.json can name one too). Never holds a credential. */
export interface GraphTaskDefinition extends vscode.TaskDefinition {
  type: typeof GRAPH_TASK_TYPE;
  task: GraphTaskKind;
  /** The manifest: relative to the task's workspace folder, or absolute. */
  manifest: string;
  /** Deploy: the subgraph record's name; asked for (or the remembered one) when absent. */
  subgraph?: string;
  /** Deploy: the version label; asked for when absent. */
  versionLabel?: string;
}

/** One finished run, for whoever waits on it (commands, tests). */
export interface FinishedRun {
  definition: GraphTaskDefinition;
  manifest: vscode.Uri;
  /** Absent when the CLI never started (not installed, untrusted, a missing secret). */
  run?: GraphRun;
  /** Why it did not start, when it did not. */
  error?: string;
  record?: SubgraphRecord;
}

export interface TaskDeps {
  store: SubgraphStore;
  manifests: Manifests;
  log: Log;
  isTrusted(): boolean;
  /** Records a successful deploy and tells the user (deploy.ts). */
  afterDeploy(record: SubgraphRecord, versionLabel: string, run: GraphRun): Promise<void>;
}

interface DeployTarget {
  record: SubgraphRecord;
  versionLabel: string;
}

/** Problems listed in the terminal and the log after a run; the Problems view has them all. */
const MAX_LISTED = 50;

const UNTRUSTED = 'Running the graph CLI runs code from this workspace: trust the workspace first (Manage Workspace Trust).';

export function isGraphDefinition(def: vscode.TaskDefinition): def is GraphTaskDefinition {
  return def.type === GRAPH_TASK_TYPE && GRAPH_TASKS.includes(def.task) && typeof def.manifest === 'string' && def.manifest.length > 0;
}

/** Node.js for the CLI: the setting, else this host's own binary when it is Node (not Electron), else `node` on PATH. */
export function nodeBinary(): string {
  return settings.graphNodePath() ?? (process.versions.electron ? 'node' : process.execPath);
}

export class GraphTasks implements vscode.TaskProvider, vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('graph');
  private readonly finished = new vscode.EventEmitter<FinishedRun>();
  /** Fires when a run ended, after its diagnostics are set and a deploy is recorded. */
  readonly onDidFinishRun = this.finished.event;
  /** The files each subgraph folder's last run put diagnostics on, to clear on the next run. */
  private readonly reported = new Map<string, vscode.Uri[]>();

  constructor(private readonly deps: TaskDeps) {}

  async provideTasks(): Promise<vscode.Task[]> {
    if (!this.deps.isTrusted()) return [];
    const manifests = await this.deps.manifests.all();
    return manifests.flatMap((uri) => GRAPH_TASKS.map((kind) => this.task(this.definition(kind, uri), uri)));
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const def = task.definition;
    if (!this.deps.isTrusted() || !isGraphDefinition(def)) return undefined;
    const uri = manifestUri(def, task.scope);
    return uri && this.task(def, uri);
  }

  /** The definition of a task on `manifest`: its path relative to its workspace folder. */
  definition(kind: GraphTaskKind, manifest: vscode.Uri, deploy?: { subgraph: string; versionLabel: string }): GraphTaskDefinition {
    const folder = vscode.workspace.getWorkspaceFolder(manifest);
    const relative = folder ? path.relative(folder.uri.fsPath, manifest.fsPath).split(path.sep).join('/') : manifest.fsPath;
    return { type: GRAPH_TASK_TYPE, task: kind, manifest: relative, ...deploy };
  }

  task(def: GraphTaskDefinition, manifest: vscode.Uri): vscode.Task {
    const folder = vscode.workspace.getWorkspaceFolder(manifest);
    const task = new vscode.Task(
      def,
      folder ?? vscode.TaskScope.Workspace,
      `${def.task} - ${manifestLabel(manifest)}`,
      GRAPH_TASK_TYPE,
      new vscode.CustomExecution(async (resolved) => this.terminal(isGraphDefinition(resolved) ? resolved : def, manifest)),
      [],
    );
    if (def.task === 'build') task.group = vscode.TaskGroup.Build;
    task.detail = { codegen: 'Generate AssemblyScript types from the schema and ABIs', build: 'Compile the mappings to WASM', deploy: 'Upload to IPFS and deploy to the graph-node host' }[
      def.task
    ];
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true, showReuseMessage: false };
    return task;
  }

  /**
   * Runs `kind` on `manifest` as a task and resolves once the task ended: with the run, or
   * undefined when it never started (the user cancelled a prompt, or stopped the task). A run of
   * the same task still going is waited for first (VS Code would otherwise ask what to do).
   */
  async run(kind: GraphTaskKind, manifest: vscode.Uri, deploy?: { subgraph: string; versionLabel: string }): Promise<FinishedRun | undefined> {
    const def = this.definition(kind, manifest, deploy);
    const same = (d: vscode.TaskDefinition) => d.type === GRAPH_TASK_TYPE && d.task === def.task && d.manifest === def.manifest;
    await whenIdle(same);
    return new Promise((resolve, reject) => {
      let result: FinishedRun | undefined;
      const subscriptions = [
        this.onDidFinishRun((r) => {
          if (same(r.definition)) result = r;
        }),
        // Nothing else runs this task now (see whenIdle): the next end of it is ours.
        vscode.tasks.onDidEndTask((e) => {
          if (!same(e.execution.task.definition)) return;
          subscriptions.forEach((s) => s.dispose());
          resolve(result);
        }),
      ];
      vscode.tasks.executeTask(this.task(def, manifest)).then(undefined, (error: unknown) => {
        subscriptions.forEach((s) => s.dispose());
        reject(error);
      });
    });
  }

  private async terminal(def: GraphTaskDefinition, manifest: vscode.Uri): Promise<vscode.Pseudoterminal> {
    let target: DeployTarget | undefined;
    if (def.task === 'deploy' && this.deps.isTrusted()) {
      target = await this.deployTarget(def, manifest);
      if (!target) return new GraphTerminal(async (out) => (out('Deploy cancelled: no subgraph or version label was chosen.\n'), 1));
    }
    return new GraphTerminal((out, signal) => this.execute(def, manifest, out, signal, target));
  }

  /** The record and label of a deploy: from the definition, else the remembered pairing and a prompt. */
  private async deployTarget(def: GraphTaskDefinition, manifest: vscode.Uri): Promise<DeployTarget | undefined> {
    const { store } = this.deps;
    let record: SubgraphRecord | undefined;
    if (def.subgraph) {
      record = store.byName(def.subgraph);
      if (!record) void vscode.window.showErrorMessage(`No subgraph named "${def.subgraph}" in chaindeck.subgraphs: add it (Add Subgraph…) or fix the task's "subgraph".`);
    } else {
      record = store.recordForManifest(manifest) ?? (await resolveRecord(store, undefined, `Deploy ${manifestLabel(manifest)} to Which Subgraph?`));
    }
    if (!record) return undefined;
    const versionLabel = def.versionLabel ?? (await askVersionLabel(record))?.trim();
    if (!versionLabel) return undefined;
    await store.pair(manifest, record);
    return { record, versionLabel };
  }

  /** One run of the CLI in the terminal; resolves with the exit code the task reports. */
  private async execute(def: GraphTaskDefinition, manifest: vscode.Uri, out: (text: string) => void, signal: AbortSignal, target?: DeployTarget): Promise<number> {
    const folder = path.dirname(manifest.fsPath);
    const name = `graph ${def.task} - ${manifestLabel(manifest)}`;
    const stop = (message: string, record?: SubgraphRecord) => {
      out(`${message}\n`);
      this.deps.log.warn(`${name}: ${message}`);
      this.finished.fire({ definition: def, manifest, error: message, record });
      return 1;
    };
    if (!this.deps.isTrusted()) return stop(UNTRUSTED);
    const cli = findGraphCli(folder);
    if (!cli) {
      void offerInstall(folder);
      return stop(
        `The graph CLI is not installed for this subgraph: no node_modules/@graphprotocol/graph-cli in ${folder} or above, and no graph on PATH. Install it in the project (npm install --save-dev @graphprotocol/graph-cli), then run the task again.`,
      );
    }
    let command: GraphCommand;
    let secrets: SubgraphSecrets = {};
    const manifestArg = path.basename(manifest.fsPath);
    try {
      if (def.task === 'codegen') command = graphCodegenCommand(manifestArg);
      else if (def.task === 'build') command = graphBuildCommand(manifestArg);
      else {
        const { record, versionLabel } = target!;
        secrets = await this.deps.store.secretsOf(record);
        command = graphDeployCommand({ name: record.name, versionLabel, deployUrl: record.deployUrl, ipfsUrl: record.ipfsUrl, useDeployKey: !!secrets.deployKey, manifest: manifestArg });
      }
    } catch (error) {
      return stop(errorText(error), target?.record);
    }
    for (const note of command.notes) out(`${note}\n`);
    // The command as shown holds `{key}` and `{deployKey}`, never their values.
    out(`\x1b[1m> ${displayCommand(command)}\x1b[0m\n\n`);
    this.clearDiagnostics(folder);
    let run: GraphRun;
    try {
      // The terminal shows the CLI's output without its stack traces; the parser reads it whole.
      const noise = new CliNoiseFilter();
      run = await runGraph(command, {
        cli,
        cwd: folder,
        secrets,
        node: nodeBinary(),
        signal,
        onOutput: (text) => {
          const shown = noise.push(text);
          if (shown) out(shown);
        },
      });
    } catch (error) {
      return stop(errorText(error), target?.record);
    }
    await this.showProblems(folder, run);
    const { outcome } = run;
    // Problems as `file:line:col message`, relative to the subgraph folder (the terminal links them).
    const listed = outcome.problems.slice(0, MAX_LISTED).map(formatProblem);
    if (outcome.problems.length > MAX_LISTED) listed.push(`… and ${outcome.problems.length - MAX_LISTED} more (see Problems)`);
    if (listed.length) out(`\n${listed.join('\n')}\n`);
    for (const line of listed) this.deps.log.warn(`${name}: ${line}`);
    out(`\n${outcome.ok ? '\x1b[32m✔' : '\x1b[31m✖'} ${outcome.summary}\x1b[0m\n`);
    const seconds = `${(run.timeMs / 1000).toFixed(1)} s`;
    if (outcome.ok) this.deps.log.info(`${name}: ${outcome.summary} (${seconds})`);
    else this.deps.log.error(`${name}: ${outcome.summary} (exit code ${run.exitCode ?? 'none'}, ${seconds})`);
    if (outcome.ok && target) await this.deps.afterDeploy(target.record, target.versionLabel, run);
    else if (outcome.ok) void vscode.window.setStatusBarMessage(`$(check) ${name}: ${outcome.summary}`, 8000);
    else if (!run.cancelled) void reportFailure(outcome.summary, outcome.problems.length > 0);
    this.finished.fire({ definition: def, manifest, run, record: target?.record });
    return outcome.ok ? 0 : run.exitCode || 1;
  }

  /** Removes the diagnostics the last run in `folder` set. */
  clearDiagnostics(folder: string): void {
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
    this.finished.dispose();
  }
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

/** The manifest a definition names: relative to its workspace folder, or absolute. */
export function manifestUri(def: GraphTaskDefinition, scope: vscode.Task['scope']): vscode.Uri | undefined {
  if (path.isAbsolute(def.manifest)) return vscode.Uri.file(def.manifest);
  const folder = typeof scope === 'object' ? scope : vscode.workspace.workspaceFolders?.[0];
  return folder && vscode.Uri.joinPath(folder.uri, def.manifest);
}

async function reportFailure(summary: string, hasProblems: boolean): Promise<void> {
  const choice = await vscode.window.showErrorMessage(summary, ...(hasProblems ? ['Show Problems'] : []));
  if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
}

/** The folder to install the CLI in: the project's (nearest package.json), else the manifest's. */
export function projectFolder(folder: string): string {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const workspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(dir));
    if (!workspace || workspace.uri.fsPath === dir || path.dirname(dir) === dir) return folder;
  }
}

/** Offers to install the CLI as a dev dependency; runs npm in a terminal only when asked. */
async function offerInstall(folder: string): Promise<void> {
  const project = projectFolder(folder);
  const choice = await vscode.window.showWarningMessage(
    `The graph CLI is not installed for the subgraph in ${vscode.workspace.asRelativePath(folder)}.`,
    { detail: `Install it with npm in ${project}?` },
    'Install graph CLI',
  );
  if (!choice) return;
  const terminal = vscode.window.createTerminal({ name: 'Install graph CLI', cwd: project });
  terminal.show();
  terminal.sendText('npm install --save-dev @graphprotocol/graph-cli');
}

/** A pseudo-terminal around one run: output in (control sequences stripped, LF → CRLF), Ctrl+C or closing the terminal cancels. */
export class GraphTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  private readonly abort = new AbortController();

  constructor(private readonly start: (out: (text: string) => void, signal: AbortSignal) => Promise<number>) {}

  open(): void {
    // Inert first: the graph CLI relays text from graph-node and IPFS.
    const out = (text: string) => this.written.fire(inertText(text).replace(/\n/g, '\r\n'));
    this.start(out, this.abort.signal).then(
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
