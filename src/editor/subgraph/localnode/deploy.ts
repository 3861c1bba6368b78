/**
 * "Deploy to Local Graph Node": core's local deploy (codegen, build, create, deploy of one
 * subgraph.yaml) as one task, through the toolchain (trust, the CLI, a pseudo-terminal, problems)
 * under a progress notification, to the local graph-node, started first when it is not running.
 * The name is the project's (asked the first time, then remembered). With redeployOnSave, saving
 * a file of a subgraph deployed locally deploys it again (debounced, one deploy at a time).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalNodeUrls } from '../../../core/localnode/supervisor';
import { isManifestFile, isProjectSource } from '../../../core/subgraph/copies';
import { deployToLocalNode, subgraphNameProblem, type LocalDeployResult } from '../../../core/subgraph/graphcli/localDeploy';
import { displayToolchainCommand, toolchainName } from '../../../core/subgraph/graphcli/toolchain';
import { suggestSubgraphName } from '../../../core/subgraph/graphnode/localChain';
import { COMMANDS } from '../../ids';
import { errorText } from '../../kit/errors';
import { withProgress } from '../../kit/progress';
import type { Settings } from '../../kit/settings';
import { manifestLabel, type Manifests } from '../manifests';
import { manifestOf, resolveManifest } from '../pickers';
import type { SubgraphStore } from '../records/store';
import { GRAPH_TASK_TYPE, projectFolder, taskManifestPath, type GraphToolchain } from '../tasks/toolchain';
import type { LocalNode } from './localNode';

/** What deploying to the local graph-node works with. */
export interface LocalDeployDeps {
  store: SubgraphStore;
  manifests: Manifests;
  toolchain: GraphToolchain;
  local: LocalNode;
  settings: Settings;
}

const REDEPLOY_DELAY_MS = 1000;

export class LocalDeployer implements vscode.Disposable {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queued = new Set<string>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscription: vscode.Disposable;

  private readonly local: LocalNode;

  constructor(private readonly f: LocalDeployDeps) {
    this.local = f.local;
    this.subscription = vscode.workspace.onDidSaveTextDocument((d) => this.saved(d.uri));
  }

  /** The command: a manifest (given, the active editor's, or picked), its name, the node started, then the task. */
  async deploy(arg: unknown): Promise<LocalDeployResult | undefined> {
    if (!this.f.toolchain.requireTrust()) return undefined;
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

  /** Core's four steps as one task, under a progress notification; resolves once the task ended. */
  private async runTask(manifest: vscode.Uri, name: string, urls: LocalNodeUrls): Promise<LocalDeployResult | undefined> {
    const { toolchain } = this.f;
    let result: LocalDeployResult | undefined;
    await withProgress(
      `Deploying ${name} to the local graph-node`,
      (_, progress) =>
        toolchain.runTask(
          toolchain.task({
            definition: { type: GRAPH_TASK_TYPE, task: 'deployLocal', manifest: taskManifestPath(manifest), subgraph: name },
            manifest,
            name: `deploy to local graph-node - ${manifestLabel(manifest)}`,
            reveal: vscode.TaskRevealKind.Silent,
            start: async () => async (out, signal) => {
              result = await this.steps(manifest, name, urls, out, signal, (message) => progress(message, 25));
              return result.ok ? 0 : 1;
            },
          }),
        ),
      // The task's terminal cancels (Ctrl+C, or closing it).
      { cancellable: false },
    );
    return result;
  }

  /** The steps in the terminal: each command, the CLI's output, its outcome; the problems of the last as diagnostics. */
  private async steps(
    manifest: vscode.Uri,
    name: string,
    urls: LocalNodeUrls,
    out: (text: string) => void,
    signal: AbortSignal,
    step: (message: string) => void,
  ): Promise<LocalDeployResult> {
    const { toolchain } = this.f;
    const folder = path.dirname(manifest.fsPath);
    const found = await toolchain.resolve(folder);
    if ('missing' in found) {
      out(`${found.missing}\n`);
      return { ok: false, name, summary: found.missing };
    }
    toolchain.clearProblems(folder);
    let result: LocalDeployResult;
    try {
      result = await deployToLocalNode({
        manifest: path.basename(manifest.fsPath),
        name,
        urls,
        run: (command) => toolchain.run(command, { toolchain: found.toolchain, cwd: folder, signal, out }),
        onStep: (command, i, count) => {
          step(`${toolchainName(found.toolchain)} ${command.subcommand} (${i + 1}/${count})`);
          out(`\x1b[1m> ${displayToolchainCommand(found.toolchain, command)}\x1b[0m\n\n`);
        },
        onNote: (text) => out(`\n${text}\n\n`),
        onStepEnd: (_, run) => out(`\n${run.outcome.ok ? '\x1b[32m✔' : '\x1b[31m✖'} ${run.outcome.summary}\x1b[0m\n\n`),
      });
    } catch (error) {
      return { ok: false, name, summary: errorText(error) };
    }
    if (result.run) await toolchain.showProblems(folder, result.run);
    return result;
  }

  /** A saved file of a subgraph deployed locally: that subgraph is deployed again shortly after. */
  private saved(uri: vscode.Uri): void {
    // Untrusted: the graph CLI runs the workspace's code, and a save is no request to trust it.
    if (!this.f.settings.localGraphNodeRedeployOnSave() || this.local.state.kind !== 'ready' || !this.f.toolchain.isTrusted()) return;
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
    validateInput: (v) => subgraphNameProblem(v.trim()),
  });
  return name?.trim() || undefined;
}
