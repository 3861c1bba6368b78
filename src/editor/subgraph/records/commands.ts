/**
 * Add, Edit and Remove Subgraph: the console's record (name, project, protocol, network, type)
 * plus the four URLs of the graph-node host, pasted with their keys; the keys and the deploy key
 * go to SecretStorage (core splits them off), settings keep `{key}`. Also the deploy key on its
 * own, and opening the GraphQL UI with the key put in only at that moment.
 */
import * as vscode from 'vscode';
import { EVM_NETWORKS, OTHER_PROTOCOL_NETWORKS } from '../../../core/subgraph/manifest/networks';
import { KEY_PLACEHOLDER, templateSubgraphUrls, withKey, SUBGRAPH_URL_FIELDS, type SubgraphRecord, type SubgraphUrlField, type SubgraphUrls } from '../../../core/subgraph/graphnode/records';
import { COMMANDS } from '../../ids';
import { problemOf } from '../../kit/errors';
import { pickOrType, resolveRecord } from '../pickers';
import type { Log } from '../../log';
import type { RecordInput, SubgraphStore } from './store';

/** What the record commands work with. */
export interface RecordDeps {
  store: SubgraphStore;
  log: Log;
}

const PROTOCOLS = [
  { id: 'ethereum', label: 'Ethereum', detail: 'Ethereum and EVM-compatible chains' },
  { id: 'near', label: 'NEAR', detail: 'NEAR Protocol' },
  { id: 'cosmos', label: 'Cosmos', detail: 'Cosmos SDK chains' },
  { id: 'arweave', label: 'Arweave', detail: 'Arweave' },
  { id: 'starknet', label: 'Starknet', detail: 'Starknet-style chains' },
];

const TYPES = [
  { id: 'elastic', label: 'Elastic', detail: 'Indexed on shared infrastructure' },
  { id: 'dedicated', label: 'Dedicated', detail: 'Indexed on a graph-node of its own' },
];

const URL_STEPS: Record<SubgraphUrlField, { title: string; prompt: string; placeHolder: string; required: boolean }> = {
  deployUrl: {
    title: 'Deploy URL',
    prompt: 'The deploy URL (graph deploy --node) from the console, key included: the key goes to secret storage.',
    placeHolder: 'https://api.graph-host.example/<key>/deploy',
    required: true,
  },
  ipfsUrl: { title: 'IPFS URL', prompt: 'The IPFS URL (graph deploy --ipfs) from the console, key included.', placeHolder: 'https://api.graph-host.example/<key>/ipfs', required: true },
  queryUrl: {
    title: 'Query URL',
    prompt: 'The query URL, if the subgraph is deployed already; empty to take it from the first deploy.',
    placeHolder: 'https://graph-host.example/<key>/subgraphs/name/my/erc20',
    required: false,
  },
  graphqlUiUrl: {
    title: 'GraphQL UI URL',
    prompt: 'The browser GraphQL UI URL, if you have one; empty to take it from the first deploy.',
    placeHolder: 'https://graph-host.example/<key>/subgraphs/name/my/erc20/graphql',
    required: false,
  },
};

function networksOf(protocol: string): { id: string; label: string }[] {
  const names =
    protocol === 'ethereum'
      ? EVM_NETWORKS
      : Object.entries(OTHER_PROTOCOL_NETWORKS)
          .filter(([, p]) => p === protocol)
          .map(([n]) => n);
  return names.map((n) => ({ id: n, label: n }));
}

/** The record form, prefilled from `old` (templates show `{key}`: kept as is, the stored key stays). */
async function askRecord(f: RecordDeps, title: string, old?: SubgraphRecord): Promise<RecordInput | undefined> {
  const input = (prompt: string, value: string, validate: (v: string) => string | undefined, placeHolder?: string) =>
    vscode.window.showInputBox({ title, prompt, value, placeHolder, ignoreFocusOut: true, validateInput: validate });
  const name = await input("The subgraph's name on the graph-node host (what graph deploy deploys to), e.g. my-team/erc20", old?.name ?? '', (v) => f.store.nameProblem(v, old?.id));
  if (name === undefined) return undefined;
  const project = await input('The project the subgraph belongs to (as in the console)', old?.project ?? '', (v) => (v.trim() ? undefined : 'A subgraph must belong to a project.'));
  if (project === undefined) return undefined;
  const protocol = await pickOrType(title, 'Blockchain protocol', PROTOCOLS, old?.protocol ?? 'ethereum');
  if (!protocol) return undefined;
  const network = await pickOrType(title, 'Network (type to filter, or to enter another)', networksOf(protocol), old?.network ?? (protocol === 'ethereum' ? 'mainnet' : undefined));
  if (!network) return undefined;
  const type = await pickOrType(title, 'Type of subgraph', TYPES, old?.type);
  if (type === undefined) return undefined;
  const urls = {} as SubgraphUrls;
  for (const field of SUBGRAPH_URL_FIELDS) {
    const step = URL_STEPS[field];
    const value = await input(step.prompt, old?.[field] ?? '', (v) => urlProblem(field, v, urls, step.required), step.placeHolder);
    if (value === undefined) return undefined;
    urls[field] = value.trim();
  }
  return { name: name.trim(), project: project.trim(), protocol, network, type, ...urls };
}

/** Core's verdict on one pasted URL, given the ones before it (one record, one access key). */
function urlProblem(field: SubgraphUrlField, value: string, before: Partial<SubgraphUrls>, required: boolean): string | undefined {
  if (!value.trim()) return required ? `Paste the ${URL_STEPS[field].title}.` : undefined;
  const all = Object.fromEntries(SUBGRAPH_URL_FIELDS.map((k) => [k, k === field ? value : (before[k] ?? '')])) as SubgraphUrls;
  return problemOf(() => templateSubgraphUrls(all));
}

function askDeployKey(title: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: 'The deploy key, if your host gave you one (sent as Authorization: Bearer by graph deploy); empty for none. It is kept in secret storage only.',
    password: true,
    ignoreFocusOut: true,
  });
}

export async function addRecord(f: RecordDeps): Promise<SubgraphRecord | undefined> {
  const title = 'Add Subgraph';
  const input = await askRecord(f, title);
  if (!input) return undefined;
  const deployKey = await askDeployKey(title);
  if (deployKey === undefined) return undefined;
  const record = await f.store.add(input, deployKey.trim() || undefined);
  f.log.info(`Added subgraph ${record.name} (${record.project}, ${record.network})`);
  const keyed = SUBGRAPH_URL_FIELDS.some((k) => record[k].includes(KEY_PLACEHOLDER));
  void vscode.window.showInformationMessage(`Added ${record.name}.${keyed ? ' Its access key is in secret storage; settings keep {key}.' : ''}`);
  return record;
}

export async function editRecord(f: RecordDeps, arg: unknown): Promise<SubgraphRecord | undefined> {
  const old = await resolveRecord(f.store, arg, 'Edit Which Subgraph?');
  if (!old) return undefined;
  const input = await askRecord(f, `Edit ${old.name}`, old);
  if (!input) return undefined;
  const record = await f.store.update(old.id, input);
  f.log.info(`Updated subgraph ${record.name}`);
  return record;
}

export async function removeRecord(f: RecordDeps, arg: unknown): Promise<void> {
  const record = await resolveRecord(f.store, arg, 'Remove Which Subgraph?');
  if (!record) return;
  const remove = await vscode.window.showWarningMessage(
    `Remove ${record.name} from Chaindeck?`,
    { modal: true, detail: 'Its keys are deleted from secret storage. The deployment on the graph-node host stays.' },
    'Remove',
  );
  if (remove !== 'Remove') return;
  await f.store.remove(record.id);
  f.log.info(`Removed subgraph ${record.name}`);
}

export async function setDeployKey(f: RecordDeps, arg: unknown): Promise<void> {
  const record = await resolveRecord(f.store, arg, 'Set the Deploy Key of Which Subgraph?');
  if (!record) return;
  const key = await askDeployKey(`Deploy Key of ${record.name}`);
  if (key === undefined) return;
  await f.store.setDeployKey(record, key.trim() || undefined);
  void vscode.window.showInformationMessage(key.trim() ? `Stored the deploy key of ${record.name} in secret storage.` : `${record.name} now deploys without a deploy key.`);
}

/** Opens the GraphQL UI in the browser; the key is put into the URL here, and the URL is never logged. */
export async function openGraphqlUi(f: RecordDeps, arg: unknown): Promise<void> {
  const record = await resolveRecord(f.store, arg, 'Open the GraphQL UI of Which Subgraph?');
  if (!record) return;
  const template = f.store.uiUrlOf(record);
  if (!template) {
    const edit = await vscode.window.showInformationMessage(`${record.name} has no GraphQL UI URL yet: deploy it, or add the URL from the console.`, 'Edit Subgraph…');
    if (edit) await vscode.commands.executeCommand(COMMANDS.subgraphs.edit, record);
    return;
  }
  const url = withKey(template, (await f.store.secretsOf(record)).accessKey, 'GraphQL UI URL');
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
