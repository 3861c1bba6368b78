/**
 * How platform objects are drawn: status icons, one-line descriptions and hovers. Everything is
 * drawn from a copy passed through core's redactSecrets, so a node's key or password never
 * reaches a label or a tooltip.
 */
import * as vscode from 'vscode';
import { redactSecrets } from '../../core/platform/secrets';
import type { Identity, Network, Organization, PlatformNode, Project } from '../../core/platform/types';

const STATUS_ICONS: Readonly<Record<string, [icon: string, color?: string]>> = {
  running: ['pass', 'charts.green'],
  pending: ['loading~spin'],
  starting: ['loading~spin'],
  stopping: ['debug-stop'],
  stopped: ['debug-stop'],
  failed: ['error', 'charts.red'],
  error: ['error', 'charts.red'],
  maintenance: ['tools'],
};

export function statusIcon(status: string | undefined): vscode.ThemeIcon {
  const [icon, color] = STATUS_ICONS[status?.toLowerCase() ?? ''] ?? ['circle-outline'];
  return new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
}

/** "a · b · c" of the parts that are there. */
export function joined(...parts: (string | undefined)[]): string {
  return parts.filter(Boolean).join(' · ');
}

type Row = [name: string, value: string | number | boolean | undefined];

function hover(icon: string, title: string, rows: Row[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`$(${icon}) `);
  md.appendText(title);
  md.appendMarkdown('\n\n');
  for (const [name, value] of rows) {
    if (value === undefined || value === '') continue;
    const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
    md.appendMarkdown(`${name}: \`${text.replace(/`/g, "'")}\`  \n`);
  }
  return md;
}

const count = (list: unknown[] | undefined) => list?.length;

export function organizationHover(org: Organization): vscode.MarkdownString {
  const o = redactSecrets(org);
  return hover('organization', o.name ?? o.id, [['ID', o.id]]);
}

export function projectHover(project: Project): vscode.MarkdownString {
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

export function networkHover(network: Network): vscode.MarkdownString {
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

/** How the node's credentials are given, never what they are. */
function credentialForm(node: PlatformNode): string {
  const d = node.details;
  if (d?.auth_key) return 'access key in the path';
  if (d?.auth_username) return 'username and password (HTTP Basic)';
  return d ? 'none given' : 'not shown (only to the node\'s owner)';
}

export function nodeDescription(node: PlatformNode): string {
  return joined(node.status, node.type, node.region);
}

/** The node's facts and endpoints, with every credential masked. */
export function nodeHover(node: PlatformNode): vscode.MarkdownString {
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

export function identityHover(identity: Identity): vscode.MarkdownString {
  const i = redactSecrets(identity);
  return hover('person', i.name ?? i.id, [
    ['ID', i.id],
    ['Type', i.type],
    ['Status', i.status],
    ['Created', i.created_at],
  ]);
}
