/**
 * Tasks of type `graph`: codegen, build and deploy for every subgraph.yaml, named like
 * "graph: build - path/to/subgraph.yaml", each run through the toolchain (toolchain.ts: trust,
 * the CLI, a pseudo-terminal, problems as diagnostics). The output arrives already redacted; a
 * deploy asks for its record and version label first when the definition does not name them.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatProblem } from '../../../core/subgraph/graphcli/output';
import { graphBuildCommand, graphCodegenCommand, graphDeployCommand, type GraphCommand } from '../../../core/subgraph/graphcli/commands';
import { displayToolchainCommand } from '../../../core/subgraph/graphcli/toolchain';
import type { GraphRun } from '../../../core/subgraph/graphcli/launch';
import type { SubgraphRecord, SubgraphSecrets } from '../../../core/subgraph/graphnode/records';
import { errorText } from '../../kit/errors';
import type { Log } from '../../log';
import { manifestLabel, type Manifests } from '../manifests';
import { askVersionLabel, resolveRecord } from '../pickers';
import type { SubgraphStore } from '../records/store';
import { GRAPH_TASK_TYPE, taskManifestPath, UNTRUSTED, type GraphToolchain, type RunBody } from './toolchain';

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
  toolchain: GraphToolchain;
  /** Records a successful deploy and tells the user (deploy.ts). */
  afterDeploy(record: SubgraphRecord, versionLabel: string, run: GraphRun): Promise<void>;
}

interface DeployTarget {
  record: SubgraphRecord;
  versionLabel: string;
}

/** Problems listed in the terminal and the log after a run; the Problems view has them all. */
const MAX_LISTED = 50;

export function isGraphDefinition(def: vscode.TaskDefinition): def is GraphTaskDefinition {
  return def.type === GRAPH_TASK_TYPE && GRAPH_TASKS.includes(def.task) && typeof def.manifest === 'string' && def.manifest.length > 0;
}

export class GraphTasks implements vscode.TaskProvider, vscode.Disposable {
  private readonly finished = new vscode.EventEmitter<FinishedRun>();
  /** Fires when a run ended, after its diagnostics are set and a deploy is recorded. */
  readonly onDidFinishRun = this.finished.event;

  constructor(private readonly deps: TaskDeps) {}

  async provideTasks(): Promise<vscode.Task[]> {
    if (!this.deps.toolchain.isTrusted()) return [];
    const manifests = await this.deps.manifests.all();
    return manifests.flatMap((uri) => GRAPH_TASKS.map((kind) => this.task(this.definition(kind, uri), uri)));
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const def = task.definition;
    if (!this.deps.toolchain.isTrusted() || !isGraphDefinition(def)) return undefined;
    const uri = manifestUri(def, task.scope);
    return uri && this.task(def, uri);
  }

  /** The definition of a task on `manifest`: its path relative to its workspace folder. */
  definition(kind: GraphTaskKind, manifest: vscode.Uri, deploy?: { subgraph: string; versionLabel: string }): GraphTaskDefinition {
    return { type: GRAPH_TASK_TYPE, task: kind, manifest: taskManifestPath(manifest), ...deploy };
  }

  task(def: GraphTaskDefinition, manifest: vscode.Uri, onFinished?: (run: FinishedRun) => void): vscode.Task {
    return this.deps.toolchain.task({
      definition: def,
      manifest,
      name: `${def.task} - ${manifestLabel(manifest)}`,
      start: (resolved) => this.body(isGraphDefinition(resolved) ? resolved : def, manifest, onFinished),
      reveal: vscode.TaskRevealKind.Always,
      group: def.task === 'build' ? vscode.TaskGroup.Build : undefined,
      detail: { codegen: 'Generate AssemblyScript types from the schema and ABIs', build: 'Compile the mappings to WASM', deploy: 'Upload to IPFS and deploy to the graph-node host' }[
        def.task
      ],
    });
  }

  /**
   * Runs `kind` on `manifest` as a task and resolves once the task ended: with the run, or
   * undefined when it never started (the user cancelled a prompt, or stopped the task). A run of
   * the same task still going is waited for first (VS Code would otherwise ask what to do).
   */
  async run(kind: GraphTaskKind, manifest: vscode.Uri, deploy?: { subgraph: string; versionLabel: string }): Promise<FinishedRun | undefined> {
    let result: FinishedRun | undefined;
    await this.deps.toolchain.runTask(this.task(this.definition(kind, manifest, deploy), manifest, (r) => (result = r)));
    return result;
  }

  private async body(def: GraphTaskDefinition, manifest: vscode.Uri, onFinished?: (run: FinishedRun) => void): Promise<RunBody> {
    const finish = (run: FinishedRun) => {
      this.finished.fire(run);
      onFinished?.(run);
    };
    let target: DeployTarget | undefined;
    if (def.task === 'deploy' && this.deps.toolchain.isTrusted()) {
      target = await this.deployTarget(def, manifest);
      if (!target) return async (out) => (out('Deploy cancelled: no subgraph or version label was chosen.\n'), 1);
    }
    return (out, signal) => this.execute(def, manifest, out, signal, finish, target);
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
  private async execute(
    def: GraphTaskDefinition,
    manifest: vscode.Uri,
    out: (text: string) => void,
    signal: AbortSignal,
    finish: (run: FinishedRun) => void,
    target?: DeployTarget,
  ): Promise<number> {
    const { toolchain } = this.deps;
    const folder = path.dirname(manifest.fsPath);
    const name = `graph ${def.task} - ${manifestLabel(manifest)}`;
    const stop = (message: string, record?: SubgraphRecord) => {
      out(`${message}\n`);
      this.deps.log.warn(`${name}: ${message}`);
      finish({ definition: def, manifest, error: message, record });
      return 1;
    };
    if (!toolchain.isTrusted()) return stop(UNTRUSTED);
    const found = await toolchain.resolve(folder);
    if ('missing' in found) return stop(found.missing);
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
    out(`\x1b[1m> ${displayToolchainCommand(found.toolchain, command)}\x1b[0m\n\n`);
    toolchain.clearProblems(folder);
    let run: GraphRun;
    try {
      run = await toolchain.run(command, { toolchain: found.toolchain, cwd: folder, secrets, signal, out });
    } catch (error) {
      return stop(errorText(error), target?.record);
    }
    await toolchain.showProblems(folder, run);
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
    finish({ definition: def, manifest, run, record: target?.record });
    return outcome.ok ? 0 : run.exitCode || 1;
  }

  dispose(): void {
    this.finished.dispose();
  }
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
