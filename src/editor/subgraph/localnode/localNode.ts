/**
 * The local graph-node in the editor: core's LocalGraphNode (gnd, Postgres, the IPFS endpoint)
 * started on the chain chosen from the Nodes view, with its data in the workspace's storage (or
 * the folder the setting names) and gnd installed into the extension's global storage. Its state,
 * its deployments (statuses refreshed while it runs, each under the names deployed to it) and its
 * output channel. The names are the node's own (read from its Postgres: deployed from here, a
 * terminal or an earlier run on the same data); which subgraph.yaml was deployed under which name
 * is remembered per workspace, so a deployment and its fatal error lead back to the manifest.
 */
import * as vscode from 'vscode';
import { GND_BINDS_ALL_INTERFACES, GND_VERSION, type InstallProgress } from '../../../core/localnode/gnd';
import { gndChannelLine, type LogLevel } from '../../../core/localnode/gndLog';
import { fetchCurrentDeployments, isPlaceholderDeployment, type DeploymentStatus } from '../../../core/localnode/status';
import { LocalGraphNode, type LocalNodeState, type LocalNodeUrls } from '../../../core/localnode/supervisor';
import { inertText } from '../../../core/inert';
import { redactText, registerPublicUrl } from '../../../core/redact';
import type { SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { COMMANDS } from '../../ids';
import { errorText } from '../../kit/errors';
import { withProgress } from '../../kit/progress';
import type { Settings } from '../../kit/settings';
import { SETTINGS } from '../../kit/settingsSchema';
import type { Log } from '../../log';
import type { Manifests } from '../manifests';
import { resolveChain, type ChainNodes, type LocalChain } from './chain';
import type { LocalNodeDataFolder } from './dataFolder';

const DEPLOYED = 'chaindeck.localGraphNode.deployments';
export const LOCAL_RECORD_PREFIX = 'local:';
export const OUTPUT_CHANNEL = 'Chaindeck: Local Graph Node';
/** How long deactivation waits for the node to stop before leaving the rest to the process-exit guard. */
const STOP_BOUND_MS = 8000;

/** What the error notification says when gnd or Postgres ended while the node ran, and its buttons. */
export interface LocalNodeDeath {
  message: string;
  actions: readonly string[];
}

/** A deployment of the local node, with the names whose current version it is. */
export interface LocalDeployment {
  id: string;
  names: string[];
  /** Names whose pending version it is (it becomes current once synced). */
  pendingNames: string[];
  status: DeploymentStatus;
  /** The subgraph.yaml it was deployed from, when deployed from this workspace. */
  manifest?: vscode.Uri;
}

export interface LocalNodeDeps {
  extension: vscode.ExtensionContext;
  nodes: ChainNodes;
  manifests: Manifests;
  settings: Settings;
  dataFolder: LocalNodeDataFolder;
  log: Log;
}

export class LocalNode implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel(OUTPUT_CHANNEL, { log: true });
  private node?: LocalGraphNode;
  private chain?: LocalChain;
  private starting?: Promise<LocalNodeUrls | undefined>;
  private stopping?: Promise<void>;
  /** Counts stop requests: a start that began before the latest one gives up. */
  private stops = 0;
  private stopWatching?: () => void;
  private statuses: DeploymentStatus[] = [];
  /** Each name's current deployment id, as the node last said. */
  private current = new Map<string, string>();
  /** Each name's pending deployment id (a new version not current yet). */
  private pending = new Map<string, string>();
  /** Whether the names were read since the node became ready (until then a name not found may be one of its own). */
  private namesRead = false;
  /** Why the node's names could not be read, last time (said once in the output). */
  private namesProblem?: string;
  /** The names' last question, and the one queued after it. */
  private naming: Promise<void> = Promise.resolve();
  private namesQueued?: Promise<void>;
  private recordsKey = '';
  private readonly changed = new vscode.EventEmitter<void>();
  /** Any change: state, statuses, names. */
  readonly onDidChange = this.changed.event;
  private readonly recordsChanged = new vscode.EventEmitter<void>();
  /** The local records (names queryable now) changed. */
  readonly onDidChangeRecords = this.recordsChanged.event;
  private readonly died = new vscode.EventEmitter<LocalNodeDeath>();
  /** gnd or Postgres ended while the node ran: what the notification says (fired as it is shown). */
  readonly onDidDie = this.died.event;
  private readonly gndLines = new vscode.EventEmitter<string>();
  /** Each line of gnd's output, as gnd wrote it (Subgraph Logs reads its entries from them). */
  readonly onGndLine = this.gndLines.event;

  constructor(private readonly deps: LocalNodeDeps) {}

  get state(): LocalNodeState {
    return this.node?.state ?? { kind: 'stopped' };
  }

  get urls(): LocalNodeUrls | undefined {
    return this.node?.urls;
  }

  /** The node of the Nodes view it indexes (while started). */
  get chainNode(): string | undefined {
    return this.chain?.node.name;
  }

  /** The URL of the chain it indexes, secret and all: only for core's RPC client (a replay reads the failing block). */
  get chainRpcUrl(): string | undefined {
    return this.chain?.rpcUrl;
  }

  /** The network name gnd was given for its chain (while started). */
  get chainNetwork(): string | undefined {
    return this.chain?.network;
  }

  /** psql and the node's Postgres URL (secret and all: only for core's psql runs); throws while not running. */
  database(lost: string): { psql: string; postgresUrl: string } {
    if (!this.node) throw new Error('The local graph-node is not running.');
    return this.node.database(lost);
  }

  /**
   * Whether its names (the records it serves) are not known yet because it is coming up: a start
   * under way (the chain being chosen included), or ready with its names not read yet. A query
   * file's subgraph not found then is waited for, not reported missing.
   */
  get namesPending(): boolean {
    const kind = this.state.kind;
    return !!this.starting || kind === 'installing' || kind === 'starting' || (kind === 'ready' && !this.namesRead);
  }

  // ---- start, stop --------------------------------------------------------------------------

  /**
   * Starts the node (choosing the chain first) with a progress notification; resolves with its
   * URLs, or undefined when not started (no chain, or a stop came first). Rejects with the reason
   * of a failed start. Clicks while it starts share the one start.
   */
  start(): Promise<LocalNodeUrls | undefined> {
    if (this.node?.state.kind === 'ready') return Promise.resolve(this.node.urls);
    if (this.starting) return this.starting;
    const starting = this.startNow().finally(() => {
      if (this.starting === starting) this.starting = undefined;
      this.fireRecords();
    });
    this.starting = starting;
    this.fireRecords();
    return starting;
  }

  /** start(), with a failure shown as an error message (with Show Log) instead of thrown. */
  async startOrReport(): Promise<LocalNodeUrls | undefined> {
    try {
      return await this.start();
    } catch (error) {
      // Not awaited: the caller (a command, a deploy) ends now, not when the notification is closed.
      void vscode.window.showErrorMessage(startFailureMessage(errorText(error)), 'Show Log').then((choice) => choice && this.output.show(true));
      return undefined;
    }
  }

  /** The start when the workspace opens: only with chaindeck.localGraphNode.autoStart and a folder open; resolves with the URLs when it started. */
  async startOnActivation(): Promise<LocalNodeUrls | undefined> {
    if (!this.deps.settings.localGraphNodeAutoStart() || !vscode.workspace.workspaceFolders?.length) return undefined;
    this.line(`chaindeck: starting, as ${SETTINGS.localGraphNodeAutoStart.id} asks`);
    return this.startOrReport();
  }

  private async startNow(): Promise<LocalNodeUrls | undefined> {
    const { settings, nodes, manifests, extension } = this.deps;
    // Counted before waiting: a stop asked for after this start gives it up, also one while the last stop ends.
    const stops = this.stops;
    // A start asked for while it stops comes up after the stop.
    if (this.stopping) await this.stopping;
    if (stops !== this.stops) return undefined;
    const chain = await resolveChain(nodes, manifests, settings.localGraphNodeChain());
    // Stop was asked while the chain was chosen (a quick pick may be open a while): no start then.
    if (!chain || stops !== this.stops) return undefined;
    this.chain = chain;
    const node = new LocalGraphNode({
      rpcUrl: chain.rpcUrl,
      network: chain.network,
      dataDir: this.dataFolder(),
      cacheDir: extension.globalStorageUri.fsPath,
      gndPath: settings.localGraphNodeGndPath(),
    });
    this.attach(node);
    this.line(`Starting on ${chain.node.name} (chain id ${chain.chainId ?? 'unknown'}) as network ${chain.network}, data in ${this.dataFolder()}`);
    this.line(GND_BINDS_ALL_INTERFACES);
    // The one place the user starts it: the notification says where gnd listens.
    return withProgress('Local graph-node (gnd listens on every network interface; Postgres and IPFS on 127.0.0.1 only)', async (signal, report) => {
      const onState = (state: LocalNodeState) => {
        const text = stateText(state);
        if (state.kind === 'installing' || state.kind === 'starting') report(text);
      };
      node.on('state', onState);
      try {
        return await node.start(signal);
      } catch (error) {
        // A stop while it started is what the user asked for, not a failure.
        if (stops !== this.stops) return undefined;
        throw error;
      } finally {
        node.off('state', onState);
      }
    });
  }

  /** Stops the node and everything it started (a start in progress too); calls while it stops share the one stop. */
  stop(): Promise<void> {
    this.stops++;
    // The start in progress gives up (it sees the count); a start asked for after this is a new one.
    this.starting = undefined;
    this.fireRecords();
    this.stopping ??= (async () => {
      // A start still choosing its chain has no node yet: it sees the stop count and gives up.
      await this.node?.stop();
    })().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  /** Stop, then start (a failure shown as an error message): what the Restart command and button run. */
  async restart(): Promise<LocalNodeUrls | undefined> {
    await this.stop();
    return this.startOrReport();
  }

  /** Stops the node, waiting at most `ms`: what is left is killed by the supervisor's exit guard when the host exits. */
  async stopBounded(ms = STOP_BOUND_MS): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.stop().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  /** The data folder: the setting (relative to the first workspace folder), else the workspace's storage. */
  dataFolder(): string {
    return this.deps.dataFolder.path;
  }

  private attach(node: LocalGraphNode): void {
    this.node?.removeAllListeners();
    this.node = node;
    let previous: LocalNodeState['kind'] = node.state.kind;
    // gnd's errors and warnings keep their level in the channel (which stamps time and level itself); its debug lines show at the channel's Debug level; Chaindeck's own lines are info.
    node.on('log', (line) => {
      this.gndLines.fire(line);
      const { level, text } = gndChannelLine(line);
      this.line(text, level);
    });
    node.on('statuses', (statuses) => this.takeStatuses(statuses));
    node.on('state', (state) => {
      if (node !== this.node) return;
      const was = previous;
      previous = state.kind;
      if (state.kind !== 'installing') this.line(`chaindeck: ${stateText(state)}`);
      if (state.kind === 'ready') {
        // Its routes hold no secret: shown in full wherever they appear.
        for (const url of [state.urls.graphql, state.urls.admin, state.urls.ipfs, state.urls.indexNode.replace(/\/graphql$/, ''), state.urls.metrics])
          registerPublicUrl(url, { prefix: true });
        this.stopWatching = node.watchStatuses(2000);
        void node.statuses().catch(() => undefined);
      } else {
        this.stopWatching?.();
        this.stopWatching = undefined;
      }
      if (state.kind !== 'ready') {
        this.statuses = [];
        this.current.clear();
        this.pending.clear();
        this.namesRead = false;
        this.namesProblem = undefined;
      }
      if (state.kind === 'failed' && (was === 'ready' || was === 'stopping')) void this.reportDeath(state.reason);
      this.changed.fire();
      this.fireRecords();
    });
  }

  /** gnd or Postgres ended while it ran: said once, with Restart. */
  private async reportDeath(reason: string): Promise<void> {
    const death: LocalNodeDeath = { message: deathMessage(reason), actions: ['Restart', 'Show Log'] };
    this.deps.log.error(death.message);
    this.died.fire(death);
    const choice = await vscode.window.showErrorMessage(death.message, ...death.actions);
    if (choice === 'Restart') void vscode.commands.executeCommand(COMMANDS.localGraphNode.restart);
    if (choice === 'Show Log') this.output.show(true);
  }

  /** One line into the output channel: inert, redacted. */
  line(text: string, level: LogLevel = 'info'): void {
    const safe = redactText(inertText(text));
    if (level === 'error') this.output.error(safe);
    else if (level === 'warning') this.output.warn(safe);
    else if (level === 'debug') this.output.debug(safe);
    else this.output.info(safe);
  }

  // ---- deployments and names ----------------------------------------------------------------

  private deployed(): Record<string, string> {
    return { ...(this.deps.extension.workspaceState.get<Record<string, string>>(DEPLOYED) ?? {}) };
  }

  /** The name a manifest was deployed under, if any. */
  nameOf(manifest: vscode.Uri): string | undefined {
    return Object.entries(this.deployed()).find(([, m]) => m === manifest.toString())?.[0];
  }

  manifestOf(name: string): vscode.Uri | undefined {
    const m = this.deployed()[name];
    return m ? vscode.Uri.parse(m) : undefined;
  }

  /** Every (name, manifest) deployed from this workspace. */
  deployedManifests(): { name: string; manifest: vscode.Uri }[] {
    return Object.entries(this.deployed()).map(([name, m]) => ({ name, manifest: vscode.Uri.parse(m) }));
  }

  /** Remembers that `manifest` deploys as `name` (one name per manifest), and its deployment when known. */
  async remember(name: string, manifest: vscode.Uri, deployment?: string): Promise<void> {
    const deployed = this.deployed();
    for (const [n, m] of Object.entries(deployed)) if (m === manifest.toString()) delete deployed[n];
    deployed[name] = manifest.toString();
    await this.deps.extension.workspaceState.update(DEPLOYED, deployed);
    if (deployment) this.current.set(name, deployment);
    await this.refresh();
  }

  /** Asks the node again now: the statuses, then the names (a name deployed from elsewhere meanwhile included). */
  async refresh(): Promise<void> {
    if (this.node?.state.kind !== 'ready') return;
    await this.node.statuses().catch(() => undefined);
    await this.askNames();
  }

  private takeStatuses(statuses: DeploymentStatus[]): void {
    this.statuses = statuses.filter((s) => !isPlaceholderDeployment(s.deployment));
    this.changed.fire();
    void this.askNames();
  }

  /**
   * Which deployment each name serves now: every name the node keeps in its Postgres, deployed
   * from here or from anywhere else; should that read fail (no psql), the names deployed from
   * this workspace, asked of the index node. One question at a time: a call while one is out asks
   * once more after it (what that one reads may predate the call).
   */
  private askNames(): Promise<void> {
    this.namesQueued ??= this.naming.then(() => {
      this.namesQueued = undefined;
      return this.updateNames();
    });
    this.naming = this.namesQueued;
    return this.namesQueued;
  }

  private async updateNames(): Promise<void> {
    const node = this.node;
    const urls = this.urls;
    if (!node || !urls) return;
    try {
      const { current, pending } = await this.readNames(node, urls);
      if (this.urls !== urls) return;
      const before = JSON.stringify([[...this.current], [...this.pending]]);
      this.current = current;
      this.pending = pending;
      this.namesRead = true;
      if (JSON.stringify([[...current], [...pending]]) !== before) this.changed.fire();
      this.fireRecords();
    } catch {
      // the next statuses ask again
    }
  }

  private async readNames(node: LocalGraphNode, urls: LocalNodeUrls): Promise<{ current: Map<string, string>; pending: Map<string, string> }> {
    const current = new Map<string, string>();
    const pending = new Map<string, string>();
    try {
      for (const { name, current: id, pending: next } of await node.subgraphNames()) {
        // gnd's own placeholder (subgraph-0) is not the user's.
        if (id && !isPlaceholderDeployment(id)) current.set(name, id);
        if (next && !isPlaceholderDeployment(next)) pending.set(name, next);
      }
      this.namesProblem = undefined;
      return { current, pending };
    } catch (error) {
      const problem = errorText(error);
      // Said once, not at every refresh.
      if (problem !== this.namesProblem) this.line(`chaindeck: ${problem} Only the names deployed from this workspace are shown.`);
      this.namesProblem = problem;
    }
    return { current: await fetchCurrentDeployments(urls.indexNode, Object.keys(this.deployed())), pending };
  }

  /** The deployments (gnd's own placeholder left out), each with the names it is current for. */
  deployments(): LocalDeployment[] {
    const namesOf = (of: Map<string, string>, id: string) => [...of].filter(([, d]) => d === id).map(([n]) => n);
    return this.statuses.map((status) => {
      const names = namesOf(this.current, status.deployment);
      const pendingNames = namesOf(this.pending, status.deployment);
      // The remembered manifest of a name says where it came from (Problems, "Deployed from"); names deployed from elsewhere have none.
      const manifest = [...names, ...pendingNames].map((n) => this.manifestOf(n)).find(Boolean);
      return { id: status.deployment, names, pendingNames, status, manifest };
    });
  }

  /** Each name queryable now, as a subgraph record (never written to settings: its URLs change with every start). */
  records(): SubgraphRecord[] {
    const urls = this.urls;
    if (!urls) return [];
    return [...this.current.keys()].map((name) => localRecord(name, urls, this.chain?.network ?? ''));
  }

  private fireRecords(): void {
    const key = JSON.stringify([this.records(), this.namesPending]);
    if (key === this.recordsKey) return;
    this.recordsKey = key;
    this.recordsChanged.fire();
  }

  /** The browser GraphiQL page of a name. */
  graphiqlUrl(name: string): string | undefined {
    return this.urls && `${this.urls.graphql}/subgraphs/name/${name}/graphql`;
  }

  dispose(): void {
    this.stopWatching?.();
    // Deactivation awaits stopBounded(); this is for a dispose without it.
    void this.stop().catch((error: unknown) => this.deps.log.error(`Stopping the local graph-node: ${errorText(error)}`));
    this.changed.dispose();
    this.recordsChanged.dispose();
    this.died.dispose();
    this.gndLines.dispose();
    this.output.dispose();
  }
}

export function localRecord(name: string, urls: LocalNodeUrls, network: string): SubgraphRecord {
  const queryUrl = `${urls.graphql}/subgraphs/name/${name}`;
  return {
    id: `${LOCAL_RECORD_PREFIX}${name}`,
    name,
    project: 'Local graph-node',
    protocol: 'ethereum',
    network,
    type: 'local',
    deployUrl: urls.admin,
    ipfsUrl: urls.ipfs,
    queryUrl,
    graphqlUiUrl: `${queryUrl}/graphql`,
  };
}

export function isLocalRecord(record: Pick<SubgraphRecord, 'id'>): boolean {
  return record.id.startsWith(LOCAL_RECORD_PREFIX);
}

/** The notification when gnd or Postgres ended while the node ran: the reason (which names which one), inert and redacted. */
export function deathMessage(reason: string): string {
  return `The local graph-node stopped: ${redactText(inertText(reason))}`;
}

/** The notification when a start failed, inert and redacted (the reason may quote gnd's output). */
export function startFailureMessage(reason: string): string {
  return `The local graph-node did not start: ${redactText(inertText(reason))}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(0)} MB`;
}

function installText(progress: InstallProgress): string {
  if (progress.phase === 'download') return `downloading gnd ${GND_VERSION}: ${megabytes(progress.received)}${progress.total ? ` of ${megabytes(progress.total)}` : ''}`;
  return progress.phase === 'verify' ? `checking gnd ${GND_VERSION}` : `unpacking gnd ${GND_VERSION}`;
}

/** The state in words, as the tree's description and the progress say it. */
export function stateText(state: LocalNodeState): string {
  switch (state.kind) {
    case 'stopped':
      return 'stopped';
    case 'installing':
      return `installing: ${installText(state.progress)}`;
    case 'starting':
      return `starting: ${state.step}`;
    case 'ready':
      return 'ready';
    case 'failed':
      return `failed: ${state.reason}`;
    case 'stopping':
      return 'stopping';
  }
}
