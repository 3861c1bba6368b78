/**
 * The Platform view: the organization → its projects → each project's networks → each network's
 * nodes, and the identities beside them. Each level is read when it is first expanded (with the
 * API's project= and network= filters) and kept until refreshed. A failed read becomes an item
 * with core's actionable message, never an exception; with no API key the tree is empty, so the
 * welcome view offers to set one.
 */
import * as vscode from 'vscode';
import type { PlatformClient } from '../../core/platform/client';
import { PlatformError } from '../../core/platform/errors';
import type { Identity, Network, Organization, PlatformNode, Project } from '../../core/platform/types';
import { COMMANDS, VIEWS } from '../ids';
import { SETTINGS } from '../kit/settingsSchema';
import { errorText } from '../kit/errors';
import { withProgress } from '../kit/progress';
import {
  failureHeadline,
  failureRemedy,
  identityDescription,
  identityHover,
  networkDescription,
  networkHover,
  nodeDescription,
  nodeHover,
  organizationDescription,
  organizationHover,
  projectDescription,
  projectHover,
  type Hover,
} from '../../core/platform/labels';
import { hoverMarkdown, statusThemeIcon } from './labels';
import type { PlatformSession } from './session';

export interface OrganizationElement {
  kind: 'organization';
  organization: Organization;
}
export interface ProjectElement {
  kind: 'project';
  project: Project;
}
export interface NetworkElement {
  kind: 'network';
  network: Network;
}
export interface NodeElement {
  kind: 'node';
  node: PlatformNode;
  /** The network it was listed under: it decides the protocol of the imported node. */
  network?: Network;
}
interface IdentitiesElement {
  kind: 'identities';
}
export interface IdentityElement {
  kind: 'identity';
  identity: Identity;
}
/** A note in place of children: "no nodes", or a failure with what to do about it. */
export interface MessageElement {
  kind: 'message';
  id: string;
  text: string;
  error?: PlatformError | Error;
}

export type PlatformElement = OrganizationElement | ProjectElement | NetworkElement | NodeElement | IdentitiesElement | IdentityElement | MessageElement;

type Loader = (client: PlatformClient, signal: AbortSignal) => Promise<PlatformElement[]>;

/** A stable key per element: tree item ids and the children cache use it. */
function keyOf(element: PlatformElement | undefined): string {
  switch (element?.kind) {
    case undefined:
      return 'root';
    case 'organization':
      return `organization:${element.organization.id}`;
    case 'project':
      return `project:${element.project.id}`;
    case 'network':
      return `network:${element.network.id}`;
    case 'node':
      return `node:${element.node.id}`;
    case 'identities':
      return 'identities';
    case 'identity':
      return `identity:${element.identity.id}`;
    case 'message':
      return element.id;
  }
}

export class PlatformTree implements vscode.TreeDataProvider<PlatformElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PlatformElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly children = new Map<string, Promise<PlatformElement[]>>();
  private cancel = new AbortController();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly session: PlatformSession) {
    this.subscription = session.onDidChange(() => this.refresh());
  }

  /** Forgets everything read, cancels reads under way, and redraws. */
  refresh(): void {
    this.cancel.abort();
    this.cancel = new AbortController();
    this.children.clear();
    this.changed.fire(undefined);
  }

  getChildren(element?: PlatformElement): Promise<PlatformElement[]> {
    const key = keyOf(element);
    let entry = this.children.get(key);
    if (!entry) {
      entry = this.load(element, key);
      this.children.set(key, entry);
    }
    return entry;
  }

  private async load(element: PlatformElement | undefined, key: string): Promise<PlatformElement[]> {
    const loader = this.loaderFor(element);
    if (!loader) return [];
    const signal = this.cancel.signal;
    try {
      const client = await this.session.client();
      if (!client) return [];
      // Shown on the view itself: the user sees which tree is busy, nothing pops up.
      return await withProgress(undefined, (signal) => loader(client, signal), { location: { viewId: VIEWS.platform }, signal });
    } catch (error) {
      return [messageOf(key, error)];
    }
  }

  private loaderFor(element: PlatformElement | undefined): Loader | undefined {
    switch (element?.kind) {
      case undefined:
        return async (client, signal) => [{ kind: 'organization', organization: await client.organization({ signal }) }, { kind: 'identities' }];
      case 'organization':
        return (client, signal) => listed(keyOf(element), 'No projects in this organization.', client.listProjects({}, { signal }), (project) => ({ kind: 'project', project }));
      case 'project':
        return (client, signal) =>
          listed(keyOf(element), 'No networks in this project.', client.listNetworks({ project: element.project.id }, { signal }), (network) => ({ kind: 'network', network }));
      case 'network':
        return (client, signal) =>
          listed(keyOf(element), 'No nodes in this network.', client.listNodes({ network: element.network.id }, { signal }), (node) => ({ kind: 'node', node, network: element.network }));
      case 'identities':
        return (client, signal) => listed(keyOf(element), 'No identities.', client.listIdentities({}, { signal }), (identity) => ({ kind: 'identity', identity }));
      default:
        return undefined;
    }
  }

  getTreeItem(element: PlatformElement): vscode.TreeItem {
    const item = this.itemOf(element);
    item.id = keyOf(element);
    return item;
  }

  private itemOf(element: PlatformElement): vscode.TreeItem {
    if (element.kind === 'message') return messageItem(element);
    if (element.kind === 'identities') {
      const item = new vscode.TreeItem('Identities', vscode.TreeItemCollapsibleState.Collapsed);
      item.iconPath = new vscode.ThemeIcon('person');
      item.contextValue = 'platform.identities';
      return item;
    }
    const { hover, description, state, icon } = lookOf(element);
    // The hover's title is the object's name (else its id), redacted: the label too.
    const item = new vscode.TreeItem(hover.title, state);
    item.description = description;
    item.tooltip = hoverMarkdown(hover);
    item.iconPath = icon;
    item.contextValue = `platform.${element.kind}`;
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.cancel.abort();
    this.changed.dispose();
  }
}

/** How a platform object is drawn: core's words (core/platform/labels), VS Code's icons. */
function lookOf(element: OrganizationElement | ProjectElement | NetworkElement | NodeElement | IdentityElement): {
  hover: Hover;
  description?: string;
  state: vscode.TreeItemCollapsibleState;
  icon: vscode.ThemeIcon;
} {
  const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
  switch (element.kind) {
    case 'organization':
      return { hover: organizationHover(element.organization), description: organizationDescription(element.organization), state: Expanded, icon: new vscode.ThemeIcon('organization') };
    case 'project':
      return { hover: projectHover(element.project), description: projectDescription(element.project), state: Collapsed, icon: new vscode.ThemeIcon('project') };
    case 'network':
      return { hover: networkHover(element.network), description: networkDescription(element.network), state: Collapsed, icon: new vscode.ThemeIcon('globe') };
    case 'node':
      return { hover: nodeHover(element.node), description: nodeDescription(element.node), state: None, icon: statusThemeIcon(element.node.status) };
    case 'identity':
      return { hover: identityHover(element.identity), description: identityDescription(element.identity), state: None, icon: new vscode.ThemeIcon('account') };
  }
}

/**
 * The children of one list. A list that failed after some pages shows those (core hands them
 * over as `partial`) followed by the failure, so what was read is not hidden by one bad page.
 */
async function listed<T>(parentKey: string, empty: string, list: Promise<T[]>, toElement: (item: T) => PlatformElement): Promise<PlatformElement[]> {
  try {
    const items = await list;
    return items.length ? items.map(toElement) : [{ kind: 'message', id: `${parentKey}:empty`, text: empty }];
  } catch (error) {
    const partial = error instanceof PlatformError && error.partial ? (error.partial as T[]).map(toElement) : [];
    return [...partial, messageOf(parentKey, error)];
  }
}

function messageOf(parentKey: string, error: unknown): MessageElement {
  return { kind: 'message', id: `${parentKey}:error`, text: errorText(error), error: error instanceof Error ? error : new Error(String(error)) };
}

/** What clicking a failure does: set the key (401), open the API URL setting, or try again. */
const REMEDIES: Record<ReturnType<typeof failureRemedy>, vscode.Command> = {
  'set-key': { title: 'Set Platform API Key…', command: COMMANDS.platform.setApiKey },
  'check-api-url': { title: 'Open the API URL Setting', command: 'workbench.action.openSettings', arguments: [SETTINGS.platformApiUrl.id] },
  refresh: { title: 'Refresh', command: COMMANDS.platform.refresh },
};

function messageItem(element: MessageElement): vscode.TreeItem {
  if (!element.error) {
    const item = new vscode.TreeItem(element.text);
    item.iconPath = new vscode.ThemeIcon('info');
    return item;
  }
  const headline = failureHeadline(element.error);
  const item = new vscode.TreeItem(headline ?? element.text);
  if (headline) item.description = element.text;
  item.tooltip = element.text;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsIcon.errorForeground'));
  item.command = REMEDIES[failureRemedy(element.error)];
  item.contextValue = 'platform.error';
  return item;
}
