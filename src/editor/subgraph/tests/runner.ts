/**
 * Running subgraph tests from the Test Explorer: the items asked for, grouped by manifest, each
 * group one run of core's runSubgraphTests (build first, gnd against the kept Postgres), its
 * output in the run's terminal, results placed on the files and assertions (a failed assertion
 * shows expected against actual as a diff at the assertion; a handler error is the test's). Cancel
 * aborts the run (core kills gnd). Continuous runs and runOnSave run a manifest's tests again when
 * one of its files is saved. Only in a trusted workspace: the build and gnd run the workspace's code.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isCancellation } from '../../../core/cancel';
import { inertText } from '../../../core/inert';
import { isProjectSource } from '../../../core/subgraph/copies';
import { errorText } from '../../kit/errors';
import type { Settings } from '../../kit/settings';
import type { Log } from '../../log';
import type { GraphToolchain } from '../tasks/toolchain';
import { UNTRUSTED } from '../tasks/toolchain';
import { buildStep } from './build';
import type { SubgraphTestTree } from './controller';
import type { KeptTestDatabase } from './database';
import { runSubgraphTests } from '../../../core/gndtest/run';
import type { TestResult } from '../../../core/gndtest/results';
import { diffSide, resultOfFile, resultsByAssertion, runSummary } from './results';

/** How long after the last save a re-run starts (a "save all" is one run). */
const SAVE_DELAY_MS = 300;

export interface TestRunnerDeps {
  tree: SubgraphTestTree;
  toolchain: GraphToolchain;
  database: KeptTestDatabase;
  settings: Settings;
  log: Log;
}

export class SubgraphTestRunner implements vscode.Disposable {
  readonly profile: vscode.TestRunProfile;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Continuous runs going on: what each covers, and how to run it again. */
  private readonly watching = new Set<{ request: vscode.TestRunRequest; manifests: Set<string>; rerun: () => void }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The run on save going on per manifest: a new save cancels it first. */
  private readonly onSave = new Map<string, vscode.CancellationTokenSource>();

  constructor(private readonly deps: TestRunnerDeps) {
    const { controller } = deps.tree;
    this.profile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.handle(request, token), true, undefined, true);
    this.subscriptions.push(
      this.profile,
      vscode.workspace.onDidSaveTextDocument((d) => this.saved(d.uri)),
    );
  }

  private async handle(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (!request.continuous) return this.run(request, token);
    // Continuous: run now, then again whenever a covered manifest's file is saved, until cancelled.
    const manifests = new Set(this.groups(request).map((g) => g.manifest.toString()));
    const entry = { request, manifests, rerun: () => void this.run(new vscode.TestRunRequest(request.include, request.exclude, this.profile), token) };
    this.watching.add(entry);
    token.onCancellationRequested(() => this.watching.delete(entry));
    await this.run(request, token);
  }

  /** The items of a request as manifests with the files to run (undefined: all of them). */
  private groups(request: vscode.TestRunRequest): { manifest: vscode.Uri; item: vscode.TestItem; files: vscode.TestItem[] }[] {
    const { tree } = this.deps;
    const byManifest = new Map<string, { manifest: vscode.Uri; item: vscode.TestItem; files: Set<vscode.TestItem> }>();
    const excluded = new Set(request.exclude ?? []);
    const add = (manifestItem: vscode.TestItem, files: vscode.TestItem[]) => {
      const node = tree.nodeOf(manifestItem);
      if (node?.kind !== 'manifest') return;
      const group = byManifest.get(manifestItem.id) ?? { manifest: node.manifest, item: manifestItem, files: new Set() };
      for (const f of files) if (!excluded.has(f)) group.files.add(f);
      byManifest.set(manifestItem.id, group);
    };
    const included = request.include ?? [...tree.controller.items].map(([, item]) => item);
    for (const item of included) {
      if (excluded.has(item)) continue;
      const node = tree.nodeOf(item);
      if (node?.kind === 'manifest')
        add(
          item,
          [...item.children].map(([, c]) => c),
        );
      else if (node?.kind === 'file' && item.parent) add(item.parent, [item]);
      // An assertion runs its whole file: gnd runs files.
      else if (node?.kind === 'assertion' && item.parent?.parent) add(item.parent.parent, [item.parent]);
    }
    return [...byManifest.values()].filter((g) => g.files.size).map((g) => ({ ...g, files: [...g.files] }));
  }

  /** One run of the request: every group in turn, in one TestRun. */
  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.deps.tree.controller.createTestRun(request, 'Subgraph Tests');
    const abort = new AbortController();
    const cancelled = token.onCancellationRequested(() => abort.abort());
    const out = (line: string) => run.appendOutput(`${inertText(line).replace(/\n/g, '\r\n')}\r\n`);
    try {
      for (const group of this.groups(request)) {
        const everything = (items: vscode.TestItem[]) => items.flatMap((f) => [f, ...[...f.children].map(([, c]) => c)]);
        for (const item of everything(group.files)) run.enqueued(item);
        if (!this.deps.toolchain.isTrusted()) {
          for (const file of group.files) run.errored(file, new vscode.TestMessage(UNTRUSTED));
          continue;
        }
        if (abort.signal.aborted) {
          for (const item of everything(group.files)) run.skipped(item);
          continue;
        }
        await this.runGroup(run, group, abort.signal, out);
      }
    } finally {
      cancelled.dispose();
      run.end();
    }
  }

  private async runGroup(
    run: vscode.TestRun,
    group: { manifest: vscode.Uri; item: vscode.TestItem; files: vscode.TestItem[] },
    signal: AbortSignal,
    out: (line: string) => void,
  ): Promise<void> {
    const { database, toolchain, log } = this.deps;
    // Every file of the manifest: the runner finds them itself, as gnd does (tests/).
    const all = group.files.length === group.item.children.size;
    const started = Date.now();
    for (const file of group.files) run.started(file);
    let results: TestResult[];
    try {
      out(`Running the tests of ${vscode.workspace.asRelativePath(group.manifest)}`);
      const build = await buildStep(toolchain, group.manifest.fsPath);
      const gnd = await toolchain.gnd();
      const db = await database.get(signal);
      results = await runSubgraphTests({
        manifest: group.manifest.fsPath,
        files: all ? undefined : group.files.map((f) => f.uri!.fsPath),
        gnd,
        postgresUrl: db.url,
        build,
        signal,
        out,
      });
    } catch (error) {
      for (const file of group.files) {
        if (signal.aborted || isCancellation(error)) {
          run.skipped(file);
          for (const [, c] of file.children) run.skipped(c);
        } else run.errored(file, new vscode.TestMessage(errorText(error)));
      }
      if (!signal.aborted && !isCancellation(error)) {
        out(`Error: ${errorText(error)}`);
        log.error(`Subgraph tests of ${group.manifest.fsPath}: ${errorText(error)}`);
      }
      return;
    }
    for (const file of group.files) this.place(run, file, resultOfFile(results, file.uri!.fsPath) ?? resultOfFile(results, path.resolve(file.uri!.fsPath)));
    out(runSummary(results, Date.now() - started));
  }

  /** A file's result on its item and its assertions' items. */
  private place(run: vscode.TestRun, file: vscode.TestItem, result: TestResult | undefined): void {
    const assertions = [...file.children].map(([, c]) => c);
    if (!result) {
      run.errored(file, new vscode.TestMessage('gnd reported nothing for this file.'));
      for (const a of assertions) run.skipped(a);
      return;
    }
    const queryOf = (item: vscode.TestItem) => {
      const node = this.deps.tree.nodeOf(item);
      return node?.kind === 'assertion' ? node.query : item.label;
    };
    const placed = resultsByAssertion(assertions.map(queryOf), result.assertions);
    const diffs: vscode.TestMessage[] = [];
    assertions.forEach((item, i) => {
      const r = placed[i];
      if (!r) return run.skipped(item);
      if (r.passed) return run.passed(item);
      const message = vscode.TestMessage.diff(`${item.label}: the answer differs from the expected`, diffSide(r.expected), diffSide(r.actual));
      if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
      diffs.push(message);
      run.failed(item, message);
    });
    if (result.passed) run.passed(file, result.durationMs);
    else if (result.error) {
      const message = new vscode.TestMessage(result.error);
      if (file.uri && file.range) message.location = new vscode.Location(file.uri, file.range);
      run.errored(file, message, result.durationMs);
    } else {
      // The test's failures are its assertions' diffs, each at its assertion: the peek opens on the first.
      const failed = result.assertions.filter((a) => !a.passed).length;
      run.failed(file, diffs.length ? diffs : new vscode.TestMessage(`${failed} of ${result.assertions.length} assertions failed`), result.durationMs);
    }
  }

  /** A saved file of a manifest's project: its tests run again (continuous runs that cover it, and runOnSave). */
  private saved(uri: vscode.Uri): void {
    const { tree, settings, toolchain } = this.deps;
    if (!toolchain.isTrusted()) return;
    for (const [id, item] of tree.controller.items) {
      const node = tree.nodeOf(item);
      if (node?.kind !== 'manifest' || !isProjectSource(uri.fsPath, node.manifest.fsPath)) continue;
      const covering = [...this.watching].filter((w) => w.manifests.has(id));
      if (!covering.length && !settings.subgraphTestsRunOnSave()) continue;
      clearTimeout(this.timers.get(id));
      this.timers.set(
        id,
        setTimeout(() => {
          this.timers.delete(id);
          if (covering.length) for (const w of covering) w.rerun();
          else this.runOnSave(item);
        }, SAVE_DELAY_MS),
      );
    }
  }

  private runOnSave(item: vscode.TestItem): void {
    this.onSave.get(item.id)?.cancel();
    const source = new vscode.CancellationTokenSource();
    this.onSave.set(item.id, source);
    void this.run(new vscode.TestRunRequest([item], undefined, this.profile), source.token).finally(() => {
      if (this.onSave.get(item.id) === source) this.onSave.delete(item.id);
      source.dispose();
    });
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const source of this.onSave.values()) source.cancel();
    for (const s of this.subscriptions) s.dispose();
  }
}
