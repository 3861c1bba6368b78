/**
 * "Capture Test from Blocks…": core's captureTest for a block range of a node's chain, written as
 * a `gnd test` file beside the manifest, opened, and shown in the Test Explorer. From the palette,
 * a deployment (the local graph-node's: its chain; a hosted record: its manifest), a manifest or a
 * data source (the tree, a code lens), and a fatal indexing error (the failing block N..N: the
 * failing block becomes a regression test once the handler is fixed). The node's URL, key and all, goes to core only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inertText, oneLine } from '../../../core/inert';
import type { NodeConfig } from '../../../core/nodes/model';
import { errorText } from '../../kit/errors';
import { withProgress } from '../../kit/progress';
import type { NodesFeature } from '../../nodes/feature';
import { resolveNode } from '../../nodes/pickers';
import { rpcUrlOf } from '../localnode/chain';
import type { LocalNode } from '../localnode/localNode';
import type { Manifests } from '../manifests';
import { resolveManifest } from '../pickers';
import type { SubgraphStore } from '../records/store';
import type { GraphToolchain } from '../tasks/toolchain';
import { buildStep } from './build';
import type { SubgraphTestTree } from './controller';
import { captureTest, defaultOutFile, outProblem } from '../../../core/gndtest/capture/capture';
import { blockProblem, parseBlock } from './captureText';

/** What the command was invoked on, as far as it says: each part missing is asked for. */
export interface CaptureTarget {
  manifest?: vscode.Uri;
  dataSource?: string;
  from?: number;
  to?: number;
  /** The node whose chain to read (the local graph-node's), preselected. */
  node?: NodeConfig;
  /** The block failed to index with this error: the test is to reproduce it. */
  fatalError?: string;
}

export interface CaptureDeps {
  nodes: Pick<NodesFeature, 'store'>;
  manifests: Manifests;
  store: SubgraphStore;
  local: LocalNode;
  toolchain: GraphToolchain;
  tree: SubgraphTestTree;
  globalStorage: vscode.Uri;
}

/** The target of a tree element, a code lens's or quick fix's argument, a manifest Uri, or nothing. */
export async function targetOf(deps: CaptureDeps, arg: unknown): Promise<CaptureTarget> {
  if (arg instanceof vscode.Uri) return { manifest: arg };
  const a = (arg ?? {}) as Record<string, unknown>;
  const chainNode = () => (deps.local.chainNode ? deps.nodes.store.byName(deps.local.chainNode) : undefined);
  if (a.kind === 'localDeployment') {
    const d = a.deployment as import('../localnode/localNode').LocalDeployment;
    const fatal = d.status.fatalError;
    const block = fatal?.block;
    const summary = d.manifest && (await deps.manifests.summary(d.manifest));
    const start = summary?.dataSources.find((ds) => !ds.template)?.startBlock;
    return {
      manifest: d.manifest,
      node: chainNode(),
      from: block ?? start,
      to: block ?? d.status.indexed,
      fatalError: block !== undefined ? fatal?.message : undefined,
    };
  }
  if (a.kind === 'record') return { manifest: deps.store.manifestForRecord(a.record as never) };
  if (a.kind === 'dataSource') {
    const ds = a.dataSource as { name?: string; startBlock?: number };
    return { manifest: a.manifest as vscode.Uri, dataSource: ds.name, from: ds.startBlock };
  }
  if (a.kind === 'manifest') return { manifest: a.manifest as vscode.Uri };
  if (a.manifest instanceof vscode.Uri) {
    // A code lens or the fatal error's quick fix.
    const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
    return {
      manifest: a.manifest,
      dataSource: typeof a.dataSource === 'string' ? a.dataSource : undefined,
      from: num(a.from),
      to: num(a.to),
      node: a.local === true ? chainNode() : undefined,
      fatalError: typeof a.fatalError === 'string' ? a.fatalError : undefined,
    };
  }
  return {};
}

/** The command: resolves with the written file, or undefined (cancelled, or told why). */
export async function captureTestCommand(deps: CaptureDeps, arg: unknown): Promise<vscode.Uri | undefined> {
  if (!deps.toolchain.requireTrust()) return undefined;
  const target = await targetOf(deps, arg);
  const title = 'Capture Test from Blocks';
  const manifest = target.manifest ?? (await resolveManifest(deps.manifests, `${title}: Which subgraph.yaml?`));
  if (!manifest) return undefined;
  const node = await resolveNode(deps.nodes.store, undefined, `${title}: Which Node's Chain?`, target.node ?? deps.nodes.store.defaultNode());
  if (!node) return undefined;
  const fromText = await vscode.window.showInputBox({
    title: `${title} (1/2)`,
    prompt: 'The first block of the range (every block in it with an event of the subgraph becomes a block of the test)',
    value: target.from?.toString(),
    ignoreFocusOut: true,
    validateInput: (v) => blockProblem(v),
  });
  const from = fromText === undefined ? undefined : parseBlock(fromText);
  if (from === undefined) return undefined;
  const toText = await vscode.window.showInputBox({
    title: `${title} (2/2)`,
    prompt: `The last block of the range (from ${from})`,
    value: (target.to !== undefined && target.to >= from ? target.to : from).toString(),
    ignoreFocusOut: true,
    validateInput: (v) => blockProblem(v, from),
  });
  const to = toText === undefined ? undefined : parseBlock(toText);
  if (to === undefined) return undefined;
  const summary = await deps.manifests.summary(manifest);
  const dataSource = target.dataSource ?? summary.dataSources.find((ds) => !ds.template)?.name ?? 'subgraph';
  const out = defaultOutFile(manifest.fsPath, dataSource, from, to);
  let force = false;
  const problem = outProblem(out, false);
  if (problem && fs.existsSync(out) && fs.statSync(out).isFile()) {
    const replace = await vscode.window.showWarningMessage(`${path.basename(out)} exists: replace it with the capture of blocks ${from}–${to}?`, { modal: true }, 'Replace');
    if (!replace) return undefined;
    force = true;
  } else if (problem) throw new Error(problem);

  const capturing = withProgress(`Capturing a test from blocks ${from}–${to} of ${oneLine(node.name, 80)}`, async (signal, report) => {
    const rpcUrl = await rpcUrlOf(deps.nodes, node);
    report('building');
    const build = await buildStep(deps.toolchain, manifest.fsPath);
    const gnd = await deps.toolchain.gnd();
    return captureTest({
      manifest: manifest.fsPath,
      rpcUrl,
      from,
      to,
      out,
      force,
      gnd,
      cacheDir: deps.globalStorage.fsPath,
      build,
      signal,
      progress: (message) => report(inertText(oneLine(message, 200))),
    });
  });
  // A failing block is captured with the handler as it is now: once fixed, the capture passes and
  // pins the fix; still broken, it fails at the block as the deployment did, and says so.
  const written = await capturing.catch((error: unknown) => {
    if (target.fatalError && /failed at block/.test(errorText(error)))
      throw new Error(
        `Block ${from} still fails to index with the handler as it is now (${oneLine(errorText(error), 300)}). Fix the handler, then capture the block again: the test then pins the fix.`,
      );
    throw error;
  });
  const file = vscode.Uri.file(written.file);
  await deps.tree.discover();
  await vscode.window.showTextDocument(file);
  const counts = `${written.blocks} blocks, ${written.events} events, ${written.ethCalls} eth_calls, ${written.entities} entities`;
  void vscode.window.showInformationMessage(
    target.fatalError
      ? `Captured block ${from}, which failed to index on the deployment, as a regression test (${counts}): it passes with the handler as it is now, and fails if the fix is undone.`
      : `Captured ${path.basename(written.file)} (${counts}): run it from the Test Explorer.`,
  );
  return file;
}
