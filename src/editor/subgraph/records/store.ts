/**
 * The subgraph records: their settings (`chaindeck.subgraphs`, URLs in their `{key}` form) and
 * their credentials (SecretStorage: the access key of the URL paths and the deploy key). The one
 * place that writes either, so a key cannot reach settings by another path. It also remembers
 * which subgraph.yaml deploys to which record (workspace state).
 */
import type { GraphQLSchema } from 'graphql';
import * as vscode from 'vscode';
import {
  resolveSubgraphUrls,
  templateSubgraphUrls,
  validateSubgraphRecord,
  type DeploymentRecord,
  type SubgraphRecord,
  type SubgraphSecrets,
  type SubgraphUrls,
  subgraphSecretValues,
  withKey,
} from '../../../core/subgraph/graphnode/records';
import { querySubgraph, subgraphHealth, type GraphqlCallOptions, type GraphqlRequest, type QueryOutcome, type SubgraphHealth } from '../../../core/subgraph/query/client';
import { idFromName, uniqueId, type Settings } from '../../kit/settings';
import type { Secrets } from '../../secrets';

const PAIRS = 'chaindeck.subgraphs.manifests';

const secretKey = (id: string) => `chaindeck.subgraph.${id}`;

/** A record as the Add/Edit form collects it: URLs as pasted (keys and all). */
export type RecordInput = Omit<SubgraphRecord, 'id' | 'versionLabel' | 'lastDeployment' | keyof SubgraphUrls> & SubgraphUrls;

/**
 * Records that are not the user's: the subgraphs of the local graph-node while it runs. Listed
 * with the user's (before them: a name deployed locally queries the local node), never written
 * to settings, whose URLs would go stale with the next start.
 */
export interface LocalRecordSource {
  records(): SubgraphRecord[];
  /** The subgraph.yaml a local record was deployed from. */
  manifestFor(record: SubgraphRecord): vscode.Uri | undefined;
  /** Whether its records are not known yet because it is still coming up (fires onDidChangeRecords when that changes). */
  pending(): boolean;
  readonly onDidChangeRecords: vscode.Event<void>;
}

export class SubgraphStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private local?: { source: LocalRecordSource; subscription: vscode.Disposable };

  constructor(
    private readonly secrets: Secrets,
    private readonly state: vscode.Memento,
    private readonly settings: Settings,
  ) {
    this.subscription = settings.onDidChange(['subgraphs'], () => this.changed.fire());
  }

  /** Adds the local graph-node's records to the ones listed. */
  setLocalSource(source: LocalRecordSource): void {
    this.local?.subscription.dispose();
    this.local = { source, subscription: source.onDidChangeRecords(() => this.changed.fire()) };
  }

  /** Whether the local graph-node is still coming up: a name not found may be one of its records, not known yet. */
  localPending(): boolean {
    return this.local?.source.pending() ?? false;
  }

  /** Every record: the local graph-node's, then the user's (a user's record named like a local one is hidden while the local one exists). */
  all(): SubgraphRecord[] {
    const local = this.local?.source.records() ?? [];
    const names = new Set(local.map((r) => r.name.toLowerCase()));
    return [...local, ...this.hosted().filter((r) => !names.has(r.name.toLowerCase()))];
  }

  /** The user's records, from settings. */
  hosted(): SubgraphRecord[] {
    return this.settings.subgraphEntries().flatMap((entry) => {
      const record = toRecord(entry);
      return record ? [record] : [];
    });
  }

  byId(id: string): SubgraphRecord | undefined {
    return this.all().find((r) => r.id === id);
  }

  byName(name: string): SubgraphRecord | undefined {
    const wanted = name.trim().toLowerCase();
    return this.all().find((r) => r.name.toLowerCase() === wanted);
  }

  nameProblem(name: string, exceptId?: string): string | undefined {
    const problem = validateSubgraphRecord({ name: name.trim() }).find((p) => p.field === 'name');
    if (problem) return problem.message;
    const wanted = name.trim().toLowerCase();
    const other = this.hosted().find((r) => r.name.toLowerCase() === wanted);
    return other && other.id !== exceptId ? `A subgraph named "${other.name}" already exists.` : undefined;
  }

  /**
   * Adds a record: the keys in the pasted URLs go to SecretStorage (with the deploy key), the
   * URLs to settings with `{key}` in their place. Throws core's SubgraphRecordError for a bad field.
   */
  async add(input: RecordInput, deployKey?: string): Promise<SubgraphRecord> {
    const records = this.hosted();
    const { record, accessKey } = this.build(input, uniqueId(idFromName(input.name), records));
    await this.secrets.set(secretKey(record.id), { accessKey, deployKey });
    await this.write([...records, record]);
    return record;
  }

  /**
   * Changes a record. Keys found in the pasted URLs replace the stored access key; `deployKey`
   * replaces the deploy key when given ('' removes it), else it is kept.
   */
  async update(id: string, input: RecordInput, deployKey?: string): Promise<SubgraphRecord> {
    const records = this.hosted();
    const old = records.find((r) => r.id === id);
    if (!old) throw new Error('This subgraph is no longer in the settings.');
    const { record, accessKey } = this.build(input, id);
    const secrets = await this.secretsOf(old);
    const updated: SubgraphRecord = { ...record, versionLabel: old.versionLabel, lastDeployment: old.lastDeployment };
    await this.secrets.set(secretKey(id), { accessKey: accessKey ?? secrets.accessKey, deployKey: deployKey ?? secrets.deployKey });
    await this.write(records.map((r) => (r.id === id ? updated : r)));
    return updated;
  }

  private build(input: RecordInput, id: string): { record: SubgraphRecord; accessKey?: string } {
    const { urls, accessKey } = templateSubgraphUrls(input);
    const record: SubgraphRecord = {
      id,
      name: input.name.trim(),
      project: input.project.trim(),
      protocol: input.protocol.trim(),
      network: input.network.trim(),
      type: input.type.trim(),
      ...urls,
    };
    const [problem] = validateSubgraphRecord(record);
    if (problem) throw problem;
    return { record, accessKey };
  }

  async remove(id: string): Promise<void> {
    await this.write(this.hosted().filter((r) => r.id !== id));
    await this.secrets.delete(secretKey(id));
    const pairs = this.pairs();
    for (const [manifest, recordId] of Object.entries(pairs)) if (recordId === id) delete pairs[manifest];
    await this.state.update(PAIRS, pairs);
  }

  async secretsOf(record: Pick<SubgraphRecord, 'id'>): Promise<SubgraphSecrets> {
    return (await this.secrets.get<SubgraphSecrets>(secretKey(record.id))) ?? {};
  }

  async setDeployKey(record: SubgraphRecord, deployKey: string | undefined): Promise<void> {
    const secrets = await this.secretsOf(record);
    await this.secrets.set(secretKey(record.id), { ...secrets, deployKey });
  }

  /** The record's URLs with the key put in: for calls only, never to show or log. */
  async resolve(record: SubgraphRecord): Promise<SubgraphUrls> {
    return resolveSubgraphUrls(record, await this.secretsOf(record));
  }

  /** The URL queries go to: the record's, else the one the last deploy printed. */
  queryUrlOf(record: SubgraphRecord): string {
    return record.queryUrl || record.lastDeployment?.queriesUrl || '';
  }

  /** Asks the record's query URL for `_meta`: its latest block and whether it has indexing errors. Throws without a query URL. */
  async health(record: SubgraphRecord, signal: AbortSignal): Promise<SubgraphHealth> {
    return subgraphHealth(...(await this.queryCall(record, signal)));
  }

  /** Sends a query to the record's query URL, checked against `schema` first when given. */
  async query(record: SubgraphRecord, request: GraphqlRequest, schema: GraphQLSchema | undefined, signal: AbortSignal): Promise<QueryOutcome> {
    const [url, options] = await this.queryCall(record, signal);
    return querySubgraph(url, request, { ...options, schema });
  }

  /** The query URL with its access key, and the options of a call to it: the user's limits, the key kept out of messages. */
  private async queryCall(record: SubgraphRecord, signal: AbortSignal): Promise<[url: string, options: GraphqlCallOptions]> {
    const template = this.queryUrlOf(record);
    if (!template) throw new Error(`${record.name} has no query URL yet: deploy it, or add the query URL from the console (Edit Subgraph…).`);
    const secrets = await this.secretsOf(record);
    return [withKey(template, secrets.accessKey, 'query URL'), { ...this.settings.limits(), signal, secrets: subgraphSecretValues(secrets) }];
  }

  /** The browser GraphQL UI: the record's, else the last deploy's playground. */
  uiUrlOf(record: SubgraphRecord): string {
    return record.graphqlUiUrl || record.lastDeployment?.deployedTo || '';
  }

  /** Remembers a successful deploy: its label (offered next time), and the URLs it printed where the record has none. */
  async recordDeployment(id: string, deployment: DeploymentRecord): Promise<SubgraphRecord | undefined> {
    const records = this.hosted();
    const old = records.find((r) => r.id === id);
    if (!old) return undefined;
    const updated: SubgraphRecord = {
      ...old,
      versionLabel: deployment.versionLabel,
      lastDeployment: deployment,
      queryUrl: old.queryUrl || deployment.queriesUrl || '',
      graphqlUiUrl: old.graphqlUiUrl || deployment.deployedTo || '',
    };
    await this.write(records.map((r) => (r.id === id ? updated : r)));
    return updated;
  }

  // ---- which manifest deploys to which record ----------------------------------------------

  private pairs(): Record<string, string> {
    return { ...(this.state.get<Record<string, string>>(PAIRS) ?? {}) };
  }

  recordForManifest(manifest: vscode.Uri): SubgraphRecord | undefined {
    const id = this.pairs()[manifest.toString()];
    return id ? this.byId(id) : undefined;
  }

  manifestForRecord(record: SubgraphRecord): vscode.Uri | undefined {
    const local = this.local?.source.manifestFor(record);
    if (local) return local;
    const found = Object.entries(this.pairs()).find(([, id]) => id === record.id);
    return found && vscode.Uri.parse(found[0]);
  }

  async pair(manifest: vscode.Uri, record: SubgraphRecord): Promise<void> {
    const pairs = this.pairs();
    // One manifest per record: pairing again moves the record.
    for (const [m, id] of Object.entries(pairs)) if (id === record.id) delete pairs[m];
    pairs[manifest.toString()] = record.id;
    await this.state.update(PAIRS, pairs);
    this.changed.fire();
  }

  private write(records: readonly SubgraphRecord[]): Thenable<void> {
    const clean = records.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== '')));
    return this.settings.setSubgraphEntries(clean);
  }

  dispose(): void {
    this.subscription.dispose();
    this.local?.subscription.dispose();
    this.changed.dispose();
  }
}

/** Entries may be written by hand: read leniently (no id: from the name; missing fields empty). */
function toRecord(entry: unknown): SubgraphRecord | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(e.name);
  if (!name) return undefined;
  const deployment = e.lastDeployment as DeploymentRecord | undefined;
  return {
    id: text(e.id) || idFromName(name),
    name,
    project: text(e.project),
    protocol: text(e.protocol),
    network: text(e.network),
    type: text(e.type),
    deployUrl: text(e.deployUrl),
    ipfsUrl: text(e.ipfsUrl),
    queryUrl: text(e.queryUrl),
    graphqlUiUrl: text(e.graphqlUiUrl),
    ...(text(e.versionLabel) ? { versionLabel: text(e.versionLabel) } : {}),
    ...(deployment && typeof deployment === 'object' && typeof deployment.versionLabel === 'string' ? { lastDeployment: deployment } : {}),
  };
}
