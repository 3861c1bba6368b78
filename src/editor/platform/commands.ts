/**
 * The Platform commands: set, replace and forget the API key; refresh; import a node or every
 * node of a project; open a node's endpoints. Commands run from the tree get its element; from
 * the palette they ask which node or project.
 */
import * as vscode from 'vscode';
import type { PlatformClient } from '../../core/platform/client';
import { redactSecrets } from '../../core/platform/secrets';
import type { Network, Project } from '../../core/platform/types';
import { COMMANDS, focusCommand, VIEWS } from '../ids';
import { registerCommand, type CommandRun } from '../kit/commands';
import { withProgress } from '../kit/progress';
import { pickOne } from '../nodes/pickers';
import { openEndpoints } from './endpoints';
import type { PlatformFeature } from './feature';
import { describeImport, joined, type ImportReport } from '../../core/platform/labels';
import { importNodes, withDetails, type ImportSource } from './importing';
import { type NodeElement, type ProjectElement } from './tree';

export function registerPlatformCommands(f: PlatformFeature): vscode.Disposable[] {
  const command = (id: string, run: CommandRun) => registerCommand(f.log, id, run);
  return [
    command(COMMANDS.platform.setApiKey, (arg) => setApiKey(f, arg)),
    command(COMMANDS.platform.forgetApiKey, () => forgetApiKey(f)),
    command(COMMANDS.platform.refresh, () => f.tree.refresh()),
    command(COMMANDS.platform.importNode, (arg) => importNode(f, arg)),
    command(COMMANDS.platform.importProject, (arg) => importProject(f, arg)),
    command(COMMANDS.platform.openEndpoints, (arg) => showEndpoints(f, arg)),
  ];
}

/** The key from the argument (tests, scripts) or from a password box. */
async function setApiKey(f: PlatformFeature, arg: unknown): Promise<void> {
  const given =
    typeof arg === 'string'
      ? arg
      : await vscode.window.showInputBox({
          title: f.session.hasKey ? 'Replace Platform API Key' : 'Set Platform API Key',
          prompt: "Paste an API key created in the platform's console. It is kept in the system's secret storage, never in settings.",
          password: true,
          ignoreFocusOut: true,
          validateInput: (text) => (text.trim() ? undefined : 'Paste the API key.'),
        });
  const apiKey = given?.trim();
  if (!apiKey) return;
  const replacing = f.session.hasKey;
  await f.session.setKey(apiKey);
  f.log.info(`${replacing ? 'Replaced' : 'Set'} the platform API key for ${f.session.apiUrl()}`);
  // The tree reads the organization first anyway: its answer says whether the key works.
  const [first] = await f.tree.getChildren();
  if (first?.kind === 'organization') {
    const org = redactSecrets(first.organization);
    void vscode.window.showInformationMessage(`Platform API key saved: organization ${joined(org.name, org.id)}.`);
  } else if (first?.kind === 'message' && first.error) {
    f.log.warn(`The platform API key was saved, but reading the organization failed: ${first.text}`);
    // Not awaited: the command is done; the notification waits for the user on its own.
    void vscode.window.showErrorMessage(`The platform API key was saved, but: ${first.text}`, 'Set Platform API Key…').then((retry) => {
      if (retry) void vscode.commands.executeCommand(COMMANDS.platform.setApiKey);
    });
  }
}

async function forgetApiKey(f: PlatformFeature): Promise<void> {
  if (!f.session.hasKey) {
    void vscode.window.showInformationMessage('No platform API key is stored.');
    return;
  }
  await f.session.forgetKey();
  f.log.info('Forgot the platform API key');
  void vscode.window.showInformationMessage('Forgot the platform API key. Nodes imported from the platform keep their own credentials.');
}

/** The client; without a key, undefined, and an offer to set one. */
async function clientOrAsk(f: PlatformFeature): Promise<PlatformClient | undefined> {
  const client = await f.session.client();
  if (client) return client;
  void vscode.window.showInformationMessage('Set a platform API key first.', 'Set Platform API Key…').then((set) => {
    if (set) void vscode.commands.executeCommand(COMMANDS.platform.setApiKey);
  });
  return undefined;
}

/** Whether a command got a tree element of this kind (from the view) rather than nothing (palette). */
function isElement(arg: unknown, kind: 'node' | 'project'): boolean {
  return (arg as { kind?: unknown } | undefined)?.kind === kind;
}

/** Long reads show on the Platform view, where the user clicked. */
function onView<T>(title: string, task: () => Promise<T>): Promise<T> {
  return withProgress(title, task, { location: { viewId: VIEWS.platform } });
}

async function pickNode(client: PlatformClient, title: string): Promise<ImportSource | undefined> {
  const [nodes, networks] = await onView('Listing nodes', () => Promise.all([client.listNodes(), client.listNetworks()]));
  const byId = new Map<string | undefined, Network>(networks.map((n) => [n.id, n]));
  const items = nodes.map((node) => {
    const shown = redactSecrets(node);
    const network = byId.get(node.network);
    return { label: shown.name ?? shown.id, description: joined(network?.name ?? node.network, shown.status), detail: shown.id, source: { node, network } };
  });
  if (!items.length) {
    void vscode.window.showInformationMessage('The organization has no nodes.');
    return undefined;
  }
  return (await pickOne(items, { title, placeholder: 'Choose a node' }))?.source;
}

async function pickProject(client: PlatformClient): Promise<Project | undefined> {
  const projects = await onView('Listing projects', () => client.listProjects());
  const items = projects.map((project) => {
    const shown = redactSecrets(project);
    return { label: shown.name ?? shown.id, description: shown.id, detail: shown.description || undefined, project };
  });
  if (!items.length) {
    void vscode.window.showInformationMessage('The organization has no projects.');
    return undefined;
  }
  return (await pickOne(items, { title: 'Import All Nodes of Project', placeholder: 'Choose a project' }))?.project;
}

/** Says what was imported, and redraws the Nodes view: a changed key alone changes no setting. */
function announce(f: PlatformFeature, report: ImportReport): void {
  f.nodes.tree.refresh();
  const message = describeImport(report);
  f.log.info(message);
  const imported = report.added.length + report.updated.length > 0;
  const shown = imported ? vscode.window.showInformationMessage(message, 'Show Nodes') : vscode.window.showWarningMessage(message);
  void shown.then((choice) => {
    if (choice) void vscode.commands.executeCommand(focusCommand(VIEWS.nodes));
  });
}

async function importNode(f: PlatformFeature, arg: unknown): Promise<void> {
  const client = await clientOrAsk(f);
  if (!client) return;
  const source = isElement(arg, 'node') ? (arg as NodeElement) : await pickNode(client, 'Import Node');
  if (!source) return;
  const report = await onView(`Importing ${source.node.name ?? source.node.id}`, async () =>
    importNodes(f.nodes.store, [{ node: await withDetails(client, source.node), network: source.network }]),
  );
  announce(f, report);
}

async function importProject(f: PlatformFeature, arg: unknown): Promise<void> {
  const client = await clientOrAsk(f);
  if (!client) return;
  const project = isElement(arg, 'project') ? (arg as ProjectElement).project : await pickProject(client);
  if (!project) return;
  const name = project.name ?? project.id;
  // Many nodes may mean many reads: a notification, with a cancel button that works.
  const report = await withProgress(`Importing the nodes of ${name}`, async (signal, progress) => {
    const [networks, nodes] = await Promise.all([client.listNetworks({ project: project.id }, { signal }), client.listNodes({ project: project.id }, { signal })]);
    const byId = new Map<string | undefined, Network>(networks.map((n) => [n.id, n]));
    const sources: ImportSource[] = [];
    for (const node of nodes) {
      progress(node.name ?? node.id, 100 / nodes.length);
      sources.push({ node: await withDetails(client, node, signal), network: byId.get(node.network) });
    }
    return importNodes(f.nodes.store, sources);
  });
  if (!report.added.length && !report.updated.length && !report.skipped.length) {
    void vscode.window.showInformationMessage(`The project ${name} has no nodes.`);
    return;
  }
  announce(f, report);
}

async function showEndpoints(f: PlatformFeature, arg: unknown): Promise<void> {
  const client = await clientOrAsk(f);
  if (!client) return;
  const source = isElement(arg, 'node') ? (arg as NodeElement) : await pickNode(client, 'Open Endpoints');
  if (!source) return;
  const node = await onView('Reading the node', () => withDetails(client, source.node));
  await openEndpoints({ node, network: source.network }, () => importNode(f, { kind: 'node', node, network: source.network } satisfies NodeElement));
}
