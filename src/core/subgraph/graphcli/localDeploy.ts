/**
 * A deploy to a local graph-node (gnd dev) as the graph CLI's four steps: codegen, build, create
 * (a name that exists already is fine: a new version is deployed to it), deploy; it stops at the
 * first step that fails. The steps run through the caller's `run` (runGraph bound to the CLI,
 * the subgraph folder and a cancel signal), so the editor shows them in a terminal and a test
 * or the command line may run them anywhere. A local node takes no keys: nothing secret here.
 */
import { graphBuildCommand, graphCodegenCommand, graphCreateCommand, graphDeployCommand, validateGraphDeploy, type GraphCommand } from './commands';
import type { GraphRun } from './launch';

/** Where a local graph-node takes deploys: its admin (JSON-RPC) URL and its IPFS endpoint. */
export interface LocalDeployUrls {
  admin: string;
  ipfs: string;
}

export interface LocalDeployResult {
  ok: boolean;
  name: string;
  summary: string;
  /** The deployment id (the manifest's CID), on success. */
  deployment?: string;
  /** The last step that ran (the failed one on failure): its problems are the deploy's. */
  run?: GraphRun;
}

export interface LocalDeployOptions {
  /** The manifest's file name in the subgraph folder (the folder is `run`'s working directory). */
  manifest: string;
  /** The subgraph name to deploy as. */
  name: string;
  urls: LocalDeployUrls;
  /** Runs one step to its end. */
  run(command: GraphCommand): Promise<GraphRun>;
  /** A step starts: the command (index from 0, of `count`). */
  onStep?(command: GraphCommand, index: number, count: number): void;
  /** A step ended and was judged (not called for a create whose name exists already). */
  onStepEnd?(command: GraphCommand, run: GraphRun): void;
  /** A remark between steps, for the same place the CLI's output goes. */
  onNote?(text: string): void;
  /** Default: localVersionLabel() of now. */
  versionLabel?: string;
}

/** A version label that sorts by time, e.g. `v20261128-210455` (every local deploy is a new version). */
export function localVersionLabel(now = new Date()): string {
  return `v${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
}

/** Why `name` cannot be a subgraph name on a graph-node (as graph-node checks it), or undefined. */
export function subgraphNameProblem(name: string): string | undefined {
  return validateGraphDeploy({ name, versionLabel: 'v1', deployUrl: 'http://127.0.0.1', ipfsUrl: 'http://127.0.0.1', useDeployKey: false }).find((p) => p.field === 'name')?.message;
}

/** The four steps' command lines; throws GraphInputError for a name or URL graph-node would refuse. */
export function localDeployCommands(manifest: string, name: string, urls: LocalDeployUrls, versionLabel: string): GraphCommand[] {
  return [
    graphCodegenCommand(manifest),
    graphBuildCommand(manifest),
    graphCreateCommand({ name, deployUrl: urls.admin, useDeployKey: false }),
    graphDeployCommand({ name, versionLabel, deployUrl: urls.admin, ipfsUrl: urls.ipfs, useDeployKey: false, manifest }),
  ];
}

/** Runs the four steps; resolves with what came of them (rejects only when a step could not be run at all). */
export async function deployToLocalNode(options: LocalDeployOptions): Promise<LocalDeployResult> {
  const { name } = options;
  const commands = localDeployCommands(options.manifest, name, options.urls, options.versionLabel ?? localVersionLabel());
  let run: GraphRun | undefined;
  for (const [i, command] of commands.entries()) {
    options.onStep?.(command, i, commands.length);
    run = await options.run(command);
    if (command.subcommand === 'create' && !run.outcome.ok && /already exists/i.test(run.output)) {
      options.onNote?.(`${name} exists already: deploying a new version.`);
      continue;
    }
    options.onStepEnd?.(command, run);
    if (!run.outcome.ok) {
      return { ok: false, name, run, summary: run.cancelled ? 'The deploy was cancelled.' : `Deploying ${name} to the local graph-node failed: ${run.outcome.summary}` };
    }
  }
  return { ok: true, name, run, summary: run!.outcome.summary, deployment: run!.outcome.ipfsHash };
}
