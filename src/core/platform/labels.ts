/**
 * How platform objects are named in the editor: status icons, one-line descriptions, hovers, the
 * short words of a failure and what to do about it, and what an import did. Everything is drawn
 * from a copy passed through redactSecrets, so a node's key or password never reaches a label or
 * a hover. Words and codicon names only: the editor turns them into its items.
 */
import type { NodeConfig } from '../nodes/model';
import { PlatformError } from './errors';
import { redactSecrets } from './secrets';
import type { Identity, Network, Organization, PlatformNode, Project } from './types';

const STATUS_ICONS: Readonly<Record<string, { icon: string; color?: string }>> = {
  running: { icon: 'pass', color: 'charts.green' },
  pending: { icon: 'loading~spin' },
  starting: { icon: 'loading~spin' },
  stopping: { icon: 'debug-stop' },
  stopped: { icon: 'debug-stop' },
  failed: { icon: 'error', color: 'charts.red' },
  error: { icon: 'error', color: 'charts.red' },
  maintenance: { icon: 'tools' },
};

/** The codicon (and theme colour) of a node's status; an unknown status gets an empty circle. */
export function statusIcon(status: string | undefined): { icon: string; color?: string } {
  return STATUS_ICONS[status?.toLowerCase() ?? ''] ?? { icon: 'circle-outline' };
}

/** "a · b · c" of the parts that are there. */
export function joined(...parts: (string | undefined)[]): string {
  return parts.filter(Boolean).join(' · ');
}

/** A hover: a codicon and a title, then one `name: value` row per fact the object has. */
export interface Hover {
  icon: string;
  title: string;
  rows: [name: string, value: string][];
}

type Row = [name: string, value: string | number | boolean | undefined];

function hover(icon: string, title: string, rows: Row[]): Hover {
  const shown = rows.flatMap(([name, value]): [string, string][] => {
    if (value === undefined || value === '') return [];
    return [[name, typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)]];
  });
  return { icon, title, rows: shown };
}

const count = (list: unknown[] | undefined) => list?.length;

/** The organization's id beside its name; nothing when the id is all it has (it is the label then). */
export function organizationDescription(org: Organization): string | undefined {
  const o = redactSecrets(org);
  return o.name ? o.id : undefined;
}

export function organizationHover(org: Organization): Hover {
  const o = redactSecrets(org);
  return hover('organization', o.name ?? o.id, [['ID', o.id]]);
}

export function projectDescription(project: Project): string {
  return redactSecrets(project).id;
}

export function projectHover(project: Project): Hover {
  const p = redactSecrets(project);
  return hover('project', p.name ?? p.id, [
    ['ID', p.id],
    ['Description', p.description],
    ['Type', p.type],
    ['Networks', count(p.networks)],
    ['Members', count(p.members)],
    ['Created', p.created_at],
  ]);
}

export function networkHover(network: Network): Hover {
  const n = redactSecrets(network);
  return hover('globe', n.name ?? n.id, [
    ['ID', n.id],
    ['Protocol', n.protocol],
    ['Network', n.configuration?.network],
    ['Status', n.status],
    ['Nodes', count(n.nodes)],
    ['Created', n.created_at],
  ]);
}

/** A network's line beside its name: protocol, network, and its status unless it is running. */
export function networkDescription(network: Network): string {
  const n = redactSecrets(network);
  return joined(n.protocol, n.configuration?.network, n.status && n.status !== 'running' ? n.status : undefined);
}

/** How the node's credentials are given, never what they are. */
function credentialForm(node: PlatformNode): string {
  const d = node.details;
  if (d?.auth_key) return 'access key in the path';
  if (d?.auth_username) return 'username and password (HTTP Basic)';
  return d ? 'none given' : "not shown (only to the node's owner)";
}

export function nodeDescription(node: PlatformNode): string {
  const n = redactSecrets(node);
  return joined(n.status, n.type, n.region);
}

/** The node's facts and endpoints, with every credential masked. */
export function nodeHover(node: PlatformNode): Hover {
  const n = redactSecrets(node);
  const d = n.details;
  return hover('server', n.name ?? n.id, [
    ['ID', n.id],
    ['Status', n.status],
    ['Type', n.type],
    ['Role', n.role],
    ['Provider', n.provider],
    ['Region', n.region],
    ['Archive', n.configuration?.archive],
    ['Mode', d?.mode],
    ['Client version', d?.version],
    ['APIs', d?.api_namespaces?.join(', ')],
    ['HTTPS', d?.https_endpoint],
    ['WSS', d?.wss_endpoint],
    ['Beacon', d?.beacon_endpoint],
    ['GraphQL', d?.graphql_endpoint],
    ['Credentials', credentialForm(node)],
  ]);
}

export function identityDescription(identity: Identity): string {
  const i = redactSecrets(identity);
  return joined(i.type, i.status);
}

export function identityHover(identity: Identity): Hover {
  const i = redactSecrets(identity);
  return hover('person', i.name ?? i.id, [
    ['ID', i.id],
    ['Type', i.type],
    ['Status', i.status],
    ['Created', i.created_at],
  ]);
}

/** Short words for a failure's label (its whole message is the description and the hover). */
const HEADLINES: Partial<Record<PlatformError['kind'], string>> = {
  auth: 'API key not accepted: set a new one',
  forbidden: 'Not allowed for this API key',
  'rate-limited': 'Rate limited: try again later',
  unreachable: 'Platform API unreachable',
  timeout: 'Platform API timed out',
  tls: 'TLS failure',
  server: 'Platform API server error',
};

export function failureHeadline(error: Error): string | undefined {
  return error instanceof PlatformError ? HEADLINES[error.kind] : undefined;
}

/** What clicking a failure should do: set a new key (401), check the API URL, or read again. */
export function failureRemedy(error: Error): 'set-key' | 'check-api-url' | 'refresh' {
  const kind = error instanceof PlatformError ? error.kind : undefined;
  if (kind === 'auth') return 'set-key';
  if (kind === 'unreachable' || kind === 'tls' || kind === 'not-json' || kind === 'invalid-request' || (kind === 'not-found' && !/No such/.test(error.message))) return 'check-api-url';
  return 'refresh';
}

export interface ImportReport {
  added: NodeConfig[];
  updated: NodeConfig[];
  /** Nodes that could not be imported, and why (e.g. no endpoint while the node starts). */
  skipped: { name: string; why: string }[];
  /** Imported nodes whose protocol is a guess, not the platform's word. */
  guessed: NodeConfig[];
}

const names = (nodes: readonly NodeConfig[]) => nodes.map((n) => `"${n.name}"`).join(', ');

/** What an import did, in a sentence or two, e.g. `Imported "a" into the Nodes view and updated "b".` */
export function describeImport({ added, updated, guessed, skipped }: ImportReport): string {
  const parts: string[] = [];
  if (added.length) parts.push(`Imported ${names(added)} into the Nodes view${updated.length ? ` and updated ${names(updated)}` : ''}.`);
  else if (updated.length) parts.push(`Updated ${names(updated)} in the Nodes view.`);
  if ([...added, ...updated].some((n) => n.auth !== 'none')) parts.push("Credentials are in the system's secret storage.");
  if (guessed.length) parts.push(`The protocol of ${names(guessed)} is a guess (EVM): change it with Edit Node… if it is wrong.`);
  if (skipped.length) parts.push(`Skipped ${skipped.length}: ${skipped.map((s) => s.why).join(' ')}`);
  return parts.join(' ') || 'Nothing to import.';
}
