/**
 * One replay of a failing block, open in its panel: the plan, each run (the first at once, then
 * one per save of the project's mapping, schema, manifest or ABIs, one at a time, the last save
 * winning), the block read once from the chain, and the panel kept up to date.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AscWorker } from '../../../core/indexing/replay/ascWorker';
import { readBlock } from '../../../core/indexing/replay/block';
import type { CachedCalls } from '../../../core/indexing/replay/callCache';
import { changeOf, rebuildFilesOf, runReplay, type ReplayNode, type ReplayPlan, type ReplayRun } from '../../../core/indexing/replay/replay';
import { readCaptureManifest } from '../../../core/gndtest/capture/manifest';
import { endpointFromUrl } from '../../../core/nodes/endpoint';
import { redactText } from '../../../core/redact';
import { RpcClient } from '../../../core/rpc/client';
import { buildSubgraph } from '../../../core/subgraph/graphcli/toolchain';
import type { ReplayContract, ReplayLocation, ReplaySnapshot } from '../../../webview/replay/protocol';
import { PANEL_TYPES } from '../../ids';
import { errorText } from '../../kit/errors';
import type { Log } from '../../log';
import { HostMessenger } from '../../webview/messenger';
import { createPanel } from '../../webview/panel';
import { nodeBinary, type GraphToolchain } from '../tasks/toolchain';

const SAVE_DELAY_MS = 150;

export interface SessionDeps {
  extensionUri: vscode.Uri;
  log: Log;
  toolchain: GraphToolchain;
  /** The local node's URLs now (undefined: not running). */
  node(): ReplayNode | undefined;
  /** The chain's RPC URL (secret and all: only handed to core's client). */
  rpcUrl?: string;
  /** The calls graph-node cached for the block (core's readCachedCalls on the local node's Postgres). */
  cachedCalls(signal: AbortSignal): Promise<CachedCalls>;
}

export class ReplaySession implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private readonly messenger: HostMessenger<ReplayContract>;
  private readonly subscriptions: vscode.Disposable[] = [];
  private snapshot: ReplaySnapshot;
  private running?: Promise<void>;
  /** What the next run rebuilds ('all' wins), when saves came during a run. */
  private next?: 'mapping' | 'all';
  private timer?: ReturnType<typeof setTimeout>;
  private readonly abort = new AbortController();
  /** Kept warm between saves: a mapping then compiles in a fraction of a cold start's time. */
  private readonly asc: AscWorker;
  /** The manifest, its schema and ABIs: a save of one of them rebuilds all. */
  private rebuildFiles: ReadonlySet<string>;
  /** The last run, for tests. */
  last?: ReplayRun;
  private readonly ran = new vscode.EventEmitter<ReplayRun | undefined>();
  /** A run ended (undefined: it failed before a result). */
  readonly onDidRun = this.ran.event;

  constructor(
    readonly plan: ReplayPlan,
    private readonly deps: SessionDeps,
    title: string,
  ) {
    this.asc = new AscWorker(plan.projectDir, nodeBinary());
    this.rebuildFiles = rebuildFilesOf(plan.manifest, readFileSync(plan.manifest, 'utf8'));
    this.snapshot = { title, debugName: plan.name, block: plan.block, plan: plan.reason, busy: '' };
    this.panel = createPanel(deps.extensionUri, { viewType: PANEL_TYPES.replay, title: `Replay ${title}`, entry: 'replay', iconPath: new vscode.ThemeIcon('debug-rerun') });
    this.messenger = new HostMessenger<ReplayContract>(
      this.panel,
      {
        ready: () => this.snapshot,
        rerun: () => {
          void this.request('all');
          return undefined;
        },
        openLocation: async (location) => {
          await this.open(location);
          return undefined;
        },
      },
      (method, message) => deps.log.warn(`Replay panel: ${method} failed: ${message}`),
    );
    this.subscriptions.push(
      this.messenger,
      vscode.workspace.onDidSaveTextDocument((doc) => {
        // The manifest's own save is read anew: it may name other files now.
        if (path.resolve(doc.uri.fsPath) === path.resolve(plan.manifest)) this.rebuildFiles = rebuildFilesOf(plan.manifest, doc.getText());
        const change = changeOf(plan.projectDir, doc.uri.fsPath, this.rebuildFiles);
        if (change) void this.request(change);
      }),
    );
    this.panel.onDidDispose(() => this.dispose());
    void this.readChain();
  }

  private update(patch: Partial<ReplaySnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.messenger.notify('snapshot', this.snapshot);
  }

  private async readChain(): Promise<void> {
    if (!this.deps.rpcUrl) return this.update({ chainError: 'the local graph-node has no chain now' });
    try {
      const client = new RpcClient(endpointFromUrl(this.deps.rpcUrl), { timeoutMs: 15_000 });
      this.update({ chain: await readBlock(client, readCaptureManifest(this.plan.manifest), this.plan.block, this.abort.signal) });
    } catch (err) {
      this.update({ chainError: redactText(errorText(err)) });
    }
  }

  /** What graph-node's call cache holds for the block now (the failed deployment's calls and the replays'). */
  private async readCalls(): Promise<void> {
    try {
      this.update({ calls: await this.deps.cachedCalls(this.abort.signal), callsError: undefined });
    } catch (err) {
      if (!this.abort.signal.aborted) this.update({ calls: undefined, callsError: redactText(errorText(err)) });
    }
  }

  /** Asks for a run: now when idle, else once the current one ends (saves in a burst make one run). */
  request(change: 'mapping' | 'all'): Promise<void> {
    this.next = this.next === 'all' ? 'all' : change;
    clearTimeout(this.timer);
    return new Promise((resolve) => {
      this.timer = setTimeout(() => {
        this.running ??= this.drain().finally(() => (this.running = undefined));
        void this.running.then(resolve);
      }, SAVE_DELAY_MS);
    });
  }

  private async drain(): Promise<void> {
    while (this.next && !this.abort.signal.aborted) {
      const change = this.next;
      this.next = undefined;
      await this.runOnce(change);
    }
  }

  private async runOnce(changed: 'mapping' | 'all'): Promise<void> {
    const node = this.deps.node();
    if (!node) {
      this.update({ error: 'The local graph-node is not running: start it, then save again or Replay Again.' });
      this.ran.fire(undefined);
      return;
    }
    this.update({ busy: changed === 'all' ? 'Building (codegen and build), deploying, indexing…' : 'Compiling the mapping, deploying, indexing…', error: undefined });
    try {
      const run = await runReplay({
        plan: this.plan,
        node,
        changed,
        fullBuild: (signal) => this.fullBuild(signal),
        asc: (args, signal) => this.asc.compile(args, signal),
        signal: this.abort.signal,
      });
      this.last = run;
      const outcome = run.outcome;
      this.update({
        busy: '',
        at: new Date().toISOString(),
        deployment: run.deployment,
        timings: run.timings,
        result:
          outcome.kind === 'indexed'
            ? {
                kind: 'indexed',
                changes: outcome.changes.changes,
                truncated: outcome.changes.truncated,
                errors: outcome.changes.errors.map((e) => redactText(e)),
                laterError: outcome.laterError,
              }
            : outcome.kind === 'failed'
              ? { ...outcome, message: redactText(outcome.message) }
              : { ...outcome, message: redactText(outcome.message), output: redactText(outcome.output) },
      });
      this.deps.log.info(`Replay of block ${this.plan.block} as ${this.plan.name}: ${outcome.kind} in ${run.timings.total} ms`);
      await this.readCalls();
      this.ran.fire(run);
    } catch (err) {
      if (this.abort.signal.aborted) return;
      this.update({ busy: '', error: redactText(errorText(err)) });
      this.ran.fire(undefined);
    }
  }

  private async fullBuild(signal?: AbortSignal): Promise<void> {
    const resolved = await this.deps.toolchain.resolve(this.plan.projectDir);
    if ('missing' in resolved) throw new Error(resolved.missing);
    await buildSubgraph({ manifest: this.plan.manifest, toolchain: resolved.toolchain, node: nodeBinary(), signal });
  }

  private async open(location: ReplayLocation): Promise<void> {
    const file = path.resolve(this.plan.projectDir, location.file);
    if (path.relative(this.plan.projectDir, file).startsWith('..')) throw new Error(`${location.file} is outside the subgraph's folder.`);
    const position = new vscode.Position(Math.max(0, location.line - 1), Math.max(0, location.column - 1));
    await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(position, position), viewColumn: vscode.ViewColumn.One });
  }

  dispose(): void {
    this.abort.abort();
    this.asc.close();
    clearTimeout(this.timer);
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.ran.dispose();
    this.panel.dispose();
  }
}
