/**
 * "Compare with…": the query of a query file (the operation at the cursor, sent to its
 * `# @subgraph` record) or of a local deployment (every entity's list, from its schema) run at
 * one block against another endpoint the user picks: another local deployment, a subgraph
 * record, or a query URL typed in (kept in SecretStorage, never settings, offered again next
 * time). Core compares; the panel shows the entities that differ. URLs reach core only; the
 * user sees them masked.
 */
import * as vscode from 'vscode';
import { compareEndpoints, type CompareEndpoint } from '../../../core/indexing/compare/compare';
import { entitiesQuery } from '../../../core/indexing/compare/rows';
import { EndpointError, endpointFromUrl } from '../../../core/nodes/endpoint';
import { redactUrl } from '../../../core/redact';
import { subgraphSecretValues, withKey, type SubgraphRecord } from '../../../core/subgraph/graphnode/records';
import { operationAt, operationText, parseQueryFile } from '../../../core/subgraph/query/file';
import type { Settings } from '../../kit/settings';
import type { Secrets } from '../../secrets';
import { readWorkspaceText } from '../../readFile';
import type { LocalDeployment, LocalNode } from '../localnode/localNode';
import { besideManifest, type Manifests } from '../manifests';
import type { SubgraphStore } from '../records/store';
import type { ComparePanel } from './panel';

/** Where the last query URL typed in is kept (SecretStorage: it may hold a key). */
const TYPED_URL_SECRET = 'chaindeck.compare.typedUrl';

export interface CompareDeps {
  store: SubgraphStore;
  local: LocalNode;
  manifests: Manifests;
  secrets: Secrets;
  settings: Settings;
  panel: ComparePanel;
}

/** One side of a compare: how it is named, and the endpoint core calls. */
export interface CompareSide {
  label: string;
  endpoint: CompareEndpoint;
  /** The record it is, so the picker leaves it out of the other side's choices. */
  recordId?: string;
  deploymentId?: string;
}

const deploymentOf = (arg: unknown) =>
  (arg as { kind?: string; deployment?: LocalDeployment } | undefined)?.kind === 'localDeployment' ? (arg as { deployment: LocalDeployment }).deployment : undefined;
const deploymentLabel = (d: LocalDeployment) => (d.names.length ? `${d.names.join(', ')} (${d.id.slice(0, 10)}…)` : d.id);

/**
 * A query URL given by hand, as an endpoint: its secrets travel with it (core masks them in what it
 * says), not registered for the whole session: a path's words (`subgraphs`, a name) would be masked
 * everywhere after. Refused when it is not a URL to query.
 */
export function typedEndpoint(url: string): CompareSide {
  const endpoint = endpointFromUrl(url.trim());
  if (endpoint.isWs) throw new EndpointError('Give the query URL over http(s), not a WebSocket URL.');
  return { label: redactUrl(url.trim(), endpoint.secrets), endpoint: { url: endpoint.httpUrl, headers: endpoint.headers, secrets: endpoint.secrets } };
}

export class CompareWith {
  constructor(private readonly deps: CompareDeps) {}

  /** A record's query URL with its key, and the values to mask. */
  private async recordSide(record: SubgraphRecord): Promise<CompareSide> {
    const secrets = await this.deps.store.secretsOf(record);
    const url = withKey(this.deps.store.queryUrlOf(record), secrets.accessKey, 'query URL');
    const values = subgraphSecretValues(secrets);
    return { label: record.name, recordId: record.id, endpoint: { url, secrets: values, label: `${record.name} (${redactUrl(url, values)})` } };
  }

  private deploymentSide(d: LocalDeployment): CompareSide {
    const urls = this.deps.local.urls;
    if (!urls) throw new Error('The local graph-node is not running: start it first.');
    const url = `${urls.graphql}/subgraphs/id/${d.id}`;
    return { label: deploymentLabel(d), deploymentId: d.id, endpoint: { url, label: `${deploymentLabel(d)} (local)` } };
  }

  /** The query and side A of what the command was invoked on: a local deployment, else the query file. */
  private async first(arg: unknown): Promise<{ query: string; side: CompareSide } | undefined> {
    const deployment = deploymentOf(arg);
    if (deployment) {
      const manifest = deployment.manifest;
      const { schemaFile } = manifest ? await this.deps.manifests.summary(manifest) : { schemaFile: undefined };
      if (!manifest || !schemaFile) throw new Error(`The schema of ${deploymentLabel(deployment)} is not in this workspace: open a query file for it and use "Compare with…" there.`);
      return { query: entitiesQuery(await readWorkspaceText(besideManifest(manifest, schemaFile))), side: this.deploymentSide(deployment) };
    }
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const document = uri && (await vscode.workspace.openTextDocument(uri));
    if (!document || document.languageId !== 'graphql') throw new Error('Open a .graphql query file and put the cursor in a query, or use "Compare with…" on a local deployment.');
    const file = parseQueryFile(document.getText());
    const editor = vscode.window.activeTextEditor;
    const at = operationAt(file, editor?.document === document ? document.offsetAt(editor.selection.active) : 0);
    if (at === undefined) throw new Error('This file has no query yet: write one first.');
    const record = file.subgraph && this.deps.store.byName(file.subgraph.name);
    if (!record) throw new Error('Choose the subgraph this file queries first (the "Subgraph:" lens at the top).');
    return { query: operationText(document.getText(), file, at), side: await this.recordSide(record) };
  }

  /** The other side: picked from local deployments, records and the last typed URL, or typed now. */
  private async other(a: CompareSide, given?: string): Promise<CompareSide | undefined> {
    if (given !== undefined) return typedEndpoint(given);
    type Item = vscode.QuickPickItem & { side?: () => Promise<CompareSide> | CompareSide };
    const items: Item[] = [];
    for (const d of this.deps.local.deployments()) {
      if (d.id !== a.deploymentId) items.push({ label: `$(database) ${deploymentLabel(d)}`, description: 'local deployment', side: () => this.deploymentSide(d) });
    }
    for (const r of this.deps.store.hosted()) {
      if (r.id !== a.recordId) items.push({ label: `$(cloud) ${r.name}`, description: [r.network, 'subgraph record'].filter(Boolean).join(' · '), side: () => this.recordSide(r) });
    }
    const typed = (await this.deps.secrets.get<{ url?: string }>(TYPED_URL_SECRET))?.url;
    if (typed) items.push({ label: `$(link) ${redactUrl(typed)}`, description: 'the URL typed last time', side: () => typedEndpoint(typed) });
    items.push({ label: '$(edit) Enter a Query URL…', description: 'its key is kept in SecretStorage' });
    const picked = await vscode.window.showQuickPick(items, {
      title: `Compare ${a.label} with…`,
      placeHolder: 'Another deployment, a subgraph record, or a query URL',
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked.side) return picked.side();
    const url = await vscode.window.showInputBox({
      title: `Compare ${a.label} with…`,
      prompt: "The other endpoint's query URL (…/subgraphs/name/NAME, …/subgraphs/id/Qm…, a gateway URL with its key)",
      ignoreFocusOut: true,
      validateInput: (text) => {
        try {
          typedEndpoint(text);
          return undefined;
        } catch (err) {
          return err instanceof EndpointError ? err.message : String(err);
        }
      },
    });
    if (!url) return undefined;
    await this.deps.secrets.set(TYPED_URL_SECRET, { url: url.trim() });
    return typedEndpoint(url);
  }

  /** The command: resolves with the compare's result (for tests), undefined when the user stops. `otherUrl` skips the picker. */
  async run(arg?: unknown, otherUrl?: string) {
    const first = await this.first(arg);
    if (!first) return undefined;
    const b = await this.other(first.side, typeof otherUrl === 'string' ? otherUrl : undefined);
    if (!b) return undefined;
    const { timeoutMs } = this.deps.settings.limits();
    const endpoints = { a: first.side.endpoint, b: { ...b.endpoint, label: b.endpoint.label ?? b.label } };
    return this.deps.panel.run(`Compare: ${first.side.label} ↔ ${b.label}`, (signal) => compareEndpoints(endpoints, { query: first.query, timeoutMs, signal }));
  }
}
