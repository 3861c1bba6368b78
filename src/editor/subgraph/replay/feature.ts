/**
 * "Replay Block N" of a local deployment that stopped at block N: offered on its tree item and
 * fatal-error row, as a quick fix on its Problems entry, and in a notification when a deployment
 * fails. Plans the replay (graft from the failed deployment when graph-node's rules allow the
 * project's schema, else from block N), opens its panel and runs it; one session per debug name.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readCachedCalls } from '../../../core/indexing/replay/callCache';
import { deployedSchema, debugName, planReplay, type ReplayPlan } from '../../../core/indexing/replay/replay';
import { readCaptureManifest } from '../../../core/gndtest/capture/manifest';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { inertText } from '../../../core/inert';
import { redactText } from '../../../core/redact';
import { failedHandler, fatalErrorMessage } from '../../../core/subgraph/graphnode/fatalError';
import { summarizeManifest } from '../../../core/subgraph/manifest/manifestSummary';
import { COMMANDS } from '../../ids';
import { registerCommand } from '../../kit/commands';
import { SETTINGS } from '../../kit/settingsSchema';
import type { Log } from '../../log';
import type { LocalDeployment, LocalNode } from '../localnode/localNode';
import { FATAL_ERROR_SOURCE } from '../localnode/problems';
import { resolveManifest } from '../pickers';
import type { Manifests } from '../manifests';
import type { GraphToolchain } from '../tasks/toolchain';
import { ReplaySession } from './session';

export interface ReplayDeps {
  extensionUri: vscode.Uri;
  log: Log;
  local: LocalNode;
  manifests: Manifests;
  toolchain: GraphToolchain;
}

/** The block a deployment failed at, when it failed at one. */
export function failedBlock(d: Pick<LocalDeployment, 'status'>): number | undefined {
  return d.status.health === 'failed' ? d.status.fatalError?.block : undefined;
}

export class Replays implements vscode.Disposable {
  private readonly sessions = new Map<string, ReplaySession>();
  /** Failures already seen (deployment@block): notified once; those present at the first look are not news. */
  private seen?: Set<string>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: ReplayDeps) {
    this.subscriptions = [
      registerCommand(deps.log, COMMANDS.localGraphNode.replayBlock, (arg) => this.replay(arg)),
      vscode.languages.registerCodeActionsProvider(
        { scheme: 'file' },
        { provideCodeActions: (_doc, _range, context) => this.codeActions(context) },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
      deps.local.onDidChange(() => this.notifyFailures()),
    ];
  }

  /** The session of a debug name, for tests. */
  session(name: string): ReplaySession | undefined {
    return this.sessions.get(debugName(name));
  }

  /** The command: a deployment (tree item, its row, a quick fix, the notification: `{ deployment }` or its id). */
  async replay(arg: unknown): Promise<ReplaySession | undefined> {
    const record = (arg as { record?: SubgraphRecord } | undefined)?.record;
    if (record) return this.replayElsewhere(record);
    const given = (arg as { deployment?: LocalDeployment | string } | undefined)?.deployment ?? arg;
    const id = typeof given === 'string' ? given : (given as LocalDeployment | undefined)?.id;
    const d = this.deps.local.deployments().find((x) => x.id === id) ?? (await this.pickFailed());
    if (!d) return undefined;
    const block = failedBlock(d);
    if (block === undefined) {
      void vscode.window.showInformationMessage(`${inertText(d.names[0] ?? d.id)} has not failed at a block: there is nothing to replay.`);
      return undefined;
    }
    const urls = this.deps.local.urls;
    if (!urls) {
      void vscode.window.showInformationMessage('The local graph-node is not running: start it first.');
      return undefined;
    }
    if (!this.deps.toolchain.requireTrust()) return undefined;
    const name = d.names[0] ?? d.pendingNames[0] ?? `replay-${d.id.slice(0, 8).toLowerCase()}`;
    const open = this.reveal(name, block);
    if (open) return open;
    const manifest = d.manifest ?? this.deps.local.manifestOf(name) ?? (await resolveManifest(this.deps.manifests, `Replay Block ${block} with Which subgraph.yaml?`));
    if (!manifest) return undefined;
    const { projectDir, schema } = await project(manifest);
    const baseSchema = await deployedSchema(urls.ipfs, d.id).catch((err: unknown) => {
      this.deps.log.warn(`Replay: the schema of ${d.id} could not be read (${errorLine(err)}): replaying from block ${block}.`);
      return undefined;
    });
    const plan = planReplay({
      projectDir,
      manifest: manifest.fsPath,
      block,
      name,
      schema,
      base: baseSchema === undefined ? undefined : { deployment: d.id, schema: baseSchema, queryUrl: `${urls.graphql}/subgraphs/id/${d.id}` },
    });
    return this.open(plan, name);
  }

  /** The open session of this name and block, brought forward; another block's session is closed. */
  private reveal(name: string, block: number): ReplaySession | undefined {
    const open = this.sessions.get(debugName(name));
    if (open && open.plan.block === block) {
      open.panel.reveal();
      return open;
    }
    open?.dispose();
    return undefined;
  }

  /**
   * A deployment on another graph-node (a record of the tree): replayed on the local node from
   * block N (nothing local to graft from), which must index the same chain: the node of the
   * Nodes view it was started on.
   */
  private async replayElsewhere(record: SubgraphRecord): Promise<ReplaySession | undefined> {
    const local = this.deps.local;
    if (!local.urls) {
      void vscode.window.showInformationMessage('The local graph-node is not running: start it on a node of the chain this subgraph indexes, then replay.');
      return undefined;
    }
    if (record.network && local.chainNetwork && record.network !== local.chainNetwork) {
      void vscode.window.showErrorMessage(
        `${inertText(record.name)} indexes ${inertText(record.network)}, the local graph-node ${inertText(local.chainNetwork)} (${inertText(local.chainNode ?? '')}): set ${SETTINGS.localGraphNodeChain.id} to a node of ${inertText(record.network)} in the Nodes view and restart the local graph-node.`,
      );
      return undefined;
    }
    if (!this.deps.toolchain.requireTrust()) return undefined;
    const answer = await vscode.window.showInputBox({
      title: `Replay ${record.name}: Which Block?`,
      prompt: 'The block its fatal error names: replayed on the local graph-node from that block, with this workspace’s mapping',
      validateInput: (v) => (/^\d{1,12}$/.test(v.trim()) ? undefined : 'A block number'),
    });
    if (answer === undefined) return undefined;
    const block = Number(answer.trim());
    const open = this.reveal(record.name, block);
    if (open) return open;
    const manifest = await resolveManifest(this.deps.manifests, `Replay Block ${block} with Which subgraph.yaml?`);
    if (!manifest) return undefined;
    const { projectDir, schema } = await project(manifest);
    return this.open(planReplay({ projectDir, manifest: manifest.fsPath, block, name: record.name, schema }), record.name);
  }

  private open(plan: ReplayPlan, name: string): ReplaySession {
    const local = this.deps.local;
    const block = plan.block;
    const session = new ReplaySession(
      plan,
      {
        extensionUri: this.deps.extensionUri,
        log: this.deps.log,
        toolchain: this.deps.toolchain,
        node: () => local.urls,
        rpcUrl: local.chainRpcUrl,
        cachedCalls: (signal) => {
          const { psql, postgresUrl } = local.database('graph-node’s call cache cannot be read');
          return readCachedCalls(psql, postgresUrl, local.chainNetwork ?? '', block, readCaptureManifest(plan.manifest), signal);
        },
      },
      `${name} · block ${block}`,
    );
    this.sessions.set(plan.name, session);
    session.panel.onDidDispose(() => this.sessions.get(plan.name) === session && this.sessions.delete(plan.name));
    void session.request(builtBefore(plan.projectDir, plan.manifest) ? 'mapping' : 'all');
    return session;
  }

  private async pickFailed(): Promise<LocalDeployment | undefined> {
    const failed = this.deps.local.deployments().filter((d) => failedBlock(d) !== undefined);
    if (failed.length <= 1) {
      if (!failed.length) void vscode.window.showInformationMessage('No deployment of the local graph-node has failed at a block.');
      return failed[0];
    }
    const items = failed.map((d) => ({ label: d.names[0] ?? d.id, description: `block ${failedBlock(d)} · ${failedHandler(d.status.fatalError!) ?? ''}`, d }));
    return (await vscode.window.showQuickPick(items, { title: 'Replay Which Failing Block?' }))?.d;
  }

  /** "Replay Block N" on a fatal error's Problems entry (the same message the diagnostics write). */
  private codeActions(context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics.filter((x) => x.source === FATAL_ERROR_SOURCE)) {
      const d = this.deps.local.deployments().find((x) => x.names.length && x.status.fatalError && redactText(fatalErrorMessage(x.names[0], x.status.fatalError)) === diagnostic.message);
      const block = d && failedBlock(d);
      if (!d || block === undefined) continue;
      const action = new vscode.CodeAction(`Replay Block ${block}`, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = { command: COMMANDS.localGraphNode.replayBlock, title: `Replay Block ${block}`, arguments: [{ deployment: d.id }] };
      actions.push(action);
    }
    return actions;
  }

  /** A deployment that newly failed at a block: a notification offering its replay (debug versions are shown in their panel). */
  private notifyFailures(): void {
    if (this.deps.local.state.kind !== 'ready') return;
    const failed = this.deps.local.deployments().filter((d) => failedBlock(d) !== undefined && d.names.length && !d.names.every((n) => n.endsWith('-debug')));
    const keys = failed.map((d) => `${d.id}@${failedBlock(d)}`);
    if (!this.seen) {
      this.seen = new Set(keys);
      return;
    }
    failed.forEach((d, i) => {
      if (this.seen!.has(keys[i])) return;
      this.seen!.add(keys[i]);
      const block = failedBlock(d)!;
      const action = `Replay Block ${block}`;
      void vscode.window
        .showErrorMessage(inertText(redactText(fatalErrorMessage(d.names[0], d.status.fatalError!))).slice(0, 500), action)
        .then((choice) => choice === action && vscode.commands.executeCommand(COMMANDS.localGraphNode.replayBlock, { deployment: d.id }));
    });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
  }
}

/** Whether build/ is newer than the manifest and its schema (else the first replay builds all: codegen too). */
function builtBefore(projectDir: string, manifest: string): boolean {
  const mtime = (file: string) => {
    try {
      return statSync(file).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const built = mtime(path.join(projectDir, 'build', 'subgraph.yaml'));
  const schema = mtime(path.join(projectDir, 'build', 'schema.graphql'));
  const sources = [
    mtime(manifest),
    ...readdirSafe(projectDir)
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => mtime(path.join(projectDir, f))),
  ];
  return built !== undefined && schema !== undefined && sources.every((m) => m === undefined || m <= built);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The manifest's folder and its schema's text. */
async function project(manifest: vscode.Uri): Promise<{ projectDir: string; schema: string }> {
  const projectDir = path.dirname(manifest.fsPath);
  const schemaFile = summarizeManifest(await readFile(manifest.fsPath, 'utf8')).schemaFile;
  if (!schemaFile) throw new Error(`${manifest.fsPath} names no schema file.`);
  return { projectDir, schema: await readFile(path.resolve(projectDir, schemaFile), 'utf8') };
}

function errorLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}
