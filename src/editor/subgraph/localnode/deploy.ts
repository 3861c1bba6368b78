/**
 * "Deploy to Local Graph Node": codegen, build, create and deploy of one subgraph.yaml as one
 * task (a pseudo-terminal running the workspace's graph CLI, as the graph tasks do) under a
 * progress notification, to the local graph-node, started first when it is not running. The
 * name is the project's (asked the first time, then remembered). With redeployOnSave, saving a
 * file of a subgraph deployed locally deploys it again (debounced, one deploy at a time).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { suggestSubgraphName } from '../../../core/subgraph/graphnode/localChain';
import type { LocalNodeUrls } from '../../../core/localnode/supervisor';
import {
  displayCommand,
  graphBuildCommand,
  graphCodegenCommand,
  graphCreateCommand,
  graphDeployCommand,
  validateGraphDeploy,
  type GraphCommand,
} from '../../../core/subgraph/graphcli/commands';
import { findGraphCli, runGraph, type GraphRun } from '../../../core/subgraph/graphcli/launch';
import { CliNoiseFilter } from '../../../core/subgraph/graphcli/output';
import { isManifestFile, isProjectSource } from '../../../core/subgraph/copies';
import { COMMANDS } from '../../ids';
import { errorText } from '../../kit/errors';
import type { Settings } from '../../kit/settings';
import type { SubgraphsFeature } from '../feature';
import { manifestLabel } from '../manifests';
import { manifestOf, resolveManifest } from '../pickers';
import { requireTrust } from '../tasks/deploy';
import { GRAPH_TASK_TYPE, GraphTerminal, nodeBinary, projectFolder } from '../tasks/graphTasks';
import type { LocalNode } from './localNode';

export interface LocalDeployResult {
  ok: boolean;
  name: string;
  summary: string;
  /** The deployment id (the manifest's CID). */
  deployment?: string;
}

const REDEPLOY_DELAY_MS = 1000;

export class LocalDeployer implements vscode.Disposable {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queued = new Set<string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly f: Pick<SubgraphsFeature, 'store' | 'manifests' | 'tasks' | 'isTrusted'>,
    private readonly local: LocalNode,
    private readonly settings: Settings,
  ) {
    this.subscription = vscode.workspace.onDidSaveTextDocument((d) => this.saved(d.uri));
  }

  /** The command: a manifest (given, the active editor's, or picked), its name, the node started, then the task. */
  async deploy(arg: unknown): Promise<LocalDeployResult | undefined> {
    if (!requireTrust(this.f)) return undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    const manifest =
      manifestOf(arg) ?? (active && isManifestFile(active.path) ? active : undefined) ?? (await resolveManifest(this.f.manifests, 'Deploy Which subgraph.yaml to the Local Graph Node?'));
    if (!manifest) return undefined;
    // A caller (a test, a task) may name it: { manifest, name }.
    const given = (arg as { name?: unknown } | undefined)?.name;
    const name = (typeof given === 'string' && given.trim()) || this.local.nameOf(manifest) || (await askName(manifest));
    if (!name) return undefined;
    return this.enqueue(manifest, name, false);
  }

  /** One deploy at a time: each waits for the one before. */
  private enqueue(manifest: vscode.Uri, name: string, quiet: boolean): Promise<LocalDeployResult | undefined> {
    const key = manifest.toString();
    this.queued.add(key);
    const run = this.queue.then(() => {
      this.queued.delete(key);
      return this.run(manifest, name, quiet);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(manifest: vscode.Uri, name: string, quiet: boolean): Promise<LocalDeployResult | undefined> {
    // A redeploy on save never starts a node the user stopped since the save.
    if (quiet && this.local.state.kind !== 'ready') return undefined;
    const urls = await this.local.startOrReport();
    if (!urls) return undefined;
    const result = await this.runTask(manifest, name, urls);
    if (!result) return undefined;
    if (result.ok) {
      await this.local.remember(name, manifest, result.deployment);
      this.local.line(`chaindeck: deployed ${manifestLabel(manifest)} as ${name}${result.deployment ? ` (${result.deployment})` : ''}`);
      if (!quiet) {
        void vscode.window.showInformationMessage(`Deployed ${name} to the local graph-node.`, 'Open GraphiQL', 'New Query').then((choice) => {
          if (choice === 'Open GraphiQL') void vscode.commands.executeCommand(COMMANDS.localGraphNode.openGraphiql, name);
          if (choice === 'New Query') void vscode.commands.executeCommand(COMMANDS.subgraphs.newQuery, this.f.store.byName(name));
        });
      }
    } else {
      this.local.line(`chaindeck: deploying ${manifestLabel(manifest)} as ${name} failed: ${result.summary}`);
      void vscode.window.showErrorMessage(result.summary, 'Show Problems').then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
    }
    return result;
  }

  /** The four steps as one task, under a progress notification; resolves once the task ended. */
  private runTask(manifest: vscode.Uri, name: string, urls: LocalNodeUrls): Promise<LocalDeployResult | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(manifest);
    const relative = folder ? path.relative(folder.uri.fsPath, manifest.fsPath).split(path.sep).join('/') : manifest.fsPath;
    const definition = { type: GRAPH_TASK_TYPE, task: 'deployLocal', manifest: relative, subgraph: name };
    let result: LocalDeployResult | undefined;
    return Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Deploying ${name} to the local graph-node`, cancellable: false }, (progress) => {
        const task = new vscode.Task(
          definition,
          folder ?? vscode.TaskScope.Workspace,
          `deploy to local graph-node - ${manifestLabel(manifest)}`,
          GRAPH_TASK_TYPE,
          new vscode.CustomExecution(
            async () =>
              new GraphTerminal(async (out, signal) => {
                result = await this.steps(manifest, name, urls, out, signal, (message) => progress.report({ message, increment: 25 }));
                return result.ok ? 0 : 1;
              }),
          ),
        );
        task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true, showReuseMessage: false };
        return new Promise<LocalDeployResult | undefined>((resolve, reject) => {
          const ended = vscode.tasks.onDidEndTask((e) => {
            if (e.execution.task.definition.task !== 'deployLocal' || e.execution.task.definition.manifest !== relative) return;
            ended.dispose();
            resolve(result);
          });
          vscode.tasks.executeTask(task).then(undefined, (error: unknown) => {
            ended.dispose();
            reject(error);
          });
        });
      }),
    );
  }

  /** codegen, build, create (an existing name is fine), deploy: stops at the first that fails. */
  private async steps(
    manifest: vscode.Uri,
    name: string,
    urls: LocalNodeUrls,
    out: (text: string) => void,
    signal: AbortSignal,
    step: (message: string) => void,
  ): Promise<LocalDeployResult> {
    const folder = path.dirname(manifest.fsPath);
    const cli = findGraphCli(folder);
    if (!cli) {
      const summary = `The graph CLI is not installed for this subgraph: install it in the project (npm install --save-dev @graphprotocol/graph-cli in ${projectFolder(folder)}), then deploy again.`;
      out(`${summary}\n`);
      return { ok: false, name, summary };
    }
    const file = path.basename(manifest.fsPath);
    const versionLabel = `v${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
    const commands: GraphCommand[] = [
      graphCodegenCommand(file),
      graphBuildCommand(file),
      graphCreateCommand({ name, deployUrl: urls.admin, useDeployKey: false }),
      graphDeployCommand({ name, versionLabel, deployUrl: urls.admin, ipfsUrl: urls.ipfs, useDeployKey: false, manifest: file }),
    ];
    this.f.tasks.clearDiagnostics(folder);
    let run: GraphRun | undefined;
    for (const [i, command] of commands.entries()) {
      step(`graph ${command.subcommand} (${i + 1}/${commands.length})`);
      out(`\x1b[1m> ${displayCommand(command)}\x1b[0m\n\n`);
      const noise = new CliNoiseFilter();
      try {
        run = await runGraph(command, { cli, cwd: folder, node: nodeBinary(), signal, onOutput: (text) => out(noise.push(text)) });
      } catch (error) {
        return { ok: false, name, summary: errorText(error) };
      }
      if (command.subcommand === 'create' && !run.outcome.ok && /already exists/i.test(run.output)) {
        out(`\n${name} exists already: deploying a new version.\n\n`);
        continue;
      }
      out(`\n${run.outcome.ok ? '\x1b[32m✔' : '\x1b[31m✖'} ${run.outcome.summary}\x1b[0m\n\n`);
      if (!run.outcome.ok) {
        await this.f.tasks.showProblems(folder, run);
        return { ok: false, name, summary: run.cancelled ? 'The deploy was cancelled.' : `Deploying ${name} to the local graph-node failed: ${run.outcome.summary}` };
      }
    }
    await this.f.tasks.showProblems(folder, run!);
    return { ok: true, name, summary: run!.outcome.summary, deployment: run!.outcome.ipfsHash };
  }

  /** A saved file of a subgraph deployed locally: that subgraph is deployed again shortly after. */
  private saved(uri: vscode.Uri): void {
    if (!this.settings.localGraphNodeRedeployOnSave() || this.local.state.kind !== 'ready') return;
    for (const { name, manifest } of this.local.deployedManifests()) {
      if (!isProjectSource(uri.fsPath, manifest.fsPath)) continue;
      const key = manifest.toString();
      clearTimeout(this.timers.get(key));
      this.timers.set(
        key,
        setTimeout(() => {
          this.timers.delete(key);
          if (!this.queued.has(key)) void this.enqueue(manifest, name, true);
        }, REDEPLOY_DELAY_MS),
      );
    }
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.subscription.dispose();
  }
}

/** The name to deploy as: suggested from the project's package.json name or folder, checked as graph-node checks it. */
async function askName(manifest: vscode.Uri): Promise<string | undefined> {
  const folder = path.dirname(manifest.fsPath);
  let packageName: string | undefined;
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectFolder(folder), 'package.json'), 'utf8')) as { name?: unknown };
    packageName = typeof pkg.name === 'string' ? pkg.name : undefined;
  } catch {
    packageName = undefined;
  }
  const name = await vscode.window.showInputBox({
    title: `Deploy ${manifestLabel(manifest)} to the Local Graph Node`,
    prompt: 'The subgraph name to deploy as (queries go to …/subgraphs/name/NAME); remembered for the next deploys.',
    value: suggestSubgraphName(packageName, path.basename(folder)),
    ignoreFocusOut: true,
    validateInput: (v) =>
      validateGraphDeploy({ name: v.trim(), versionLabel: 'v1', deployUrl: 'http://127.0.0.1', ipfsUrl: 'http://127.0.0.1', useDeployKey: false }).find((p) => p.field === 'name')?.message,
  });
  return name?.trim() || undefined;
}
