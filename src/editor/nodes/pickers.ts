/** Quick picks and input boxes shared by the node commands. */
import * as vscode from 'vscode';
import { basicUsernameProblem, displayUrl } from '../../core/nodes/endpoint';
import { nodeDescription, PROTOCOL_LABELS, PROTOCOLS } from '../../core/nodes/labels';
import type { NodeConfig, Protocol } from '../../core/nodes/model';
import { COMMANDS } from '../ids';
import type { NodeStore } from './store';

/** What a command receives: a tree element (context menu), a node, or nothing (palette). */
export function nodeOf(arg: unknown): NodeConfig | undefined {
  const candidate = (arg as { node?: unknown } | undefined)?.node ?? arg;
  const node = candidate as NodeConfig | undefined;
  return node && typeof node.id === 'string' && typeof node.url === 'string' ? node : undefined;
}

/** Shows a pick with `items`, `active` preselected; resolves with the accepted item. */
export function pickOne<T extends vscode.QuickPickItem>(items: readonly T[], options: { title: string; placeholder?: string; active?: T }): Promise<T | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.items = items;
    if (options.active) pick.activeItems = [options.active];
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0] ?? pick.activeItems[0]);
      pick.hide();
    });
    pick.onDidHide(() => {
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

/**
 * The node a command works on: the one it was invoked on, else the user's pick (the preferred
 * node preselected). Offers to add one when there is none.
 */
export async function resolveNode(store: NodeStore, arg: unknown, title: string, preferred = store.defaultNode()): Promise<NodeConfig | undefined> {
  const given = nodeOf(arg);
  if (given) return store.byId(given.id) ?? given;
  const nodes = store.all();
  if (nodes.length === 0) {
    const add = await vscode.window.showInformationMessage('No nodes are configured yet.', 'Add Node…');
    if (add) await vscode.commands.executeCommand(COMMANDS.nodes.add);
    return undefined;
  }
  const items = nodes.map((node) => ({
    label: `$(${PROTOCOL_LABELS[node.protocol].icon}) ${node.name}`,
    description: nodeDescription(node, store.isDefault(node)),
    detail: displayUrl(node),
    node,
  }));
  const chosen = await pickOne(items, { title, placeholder: 'Choose a node', active: items.find((i) => i.node.id === preferred?.id) });
  return chosen?.node;
}

/** The node to send to: the one given, else the only one configured (nothing to ask), else the user's pick. */
export function nodeToCall(store: NodeStore, arg: unknown, title: string): Promise<NodeConfig | undefined> {
  const nodes = store.all();
  if (!nodeOf(arg) && nodes.length === 1) return Promise.resolve(nodes[0]);
  return resolveNode(store, arg, title);
}

export async function pickProtocol(title: string, current: Protocol): Promise<Protocol | undefined> {
  const items = PROTOCOLS.map((protocol) => ({ label: PROTOCOL_LABELS[protocol].label, detail: PROTOCOL_LABELS[protocol].detail, protocol }));
  const chosen = await pickOne(items, { title, placeholder: 'Which protocol does the node speak?', active: items.find((i) => i.protocol === current) });
  return chosen?.protocol;
}

export function askNodeName(store: NodeStore, title: string, value: string, exceptId?: string): Thenable<string | undefined> {
  return vscode.window
    .showInputBox({
      title,
      prompt: 'A name for the node, shown in Chaindeck and used by "# @node" in request files',
      value,
      ignoreFocusOut: true,
      validateInput: (name) => store.nameProblem(name, exceptId),
    })
    .then((name) => name?.trim());
}

/** Asks for HTTP Basic credentials; the password box hides what is typed. */
export async function askBasicCredentials(title: string, username = ''): Promise<{ username: string; password: string } | undefined> {
  const user = await vscode.window.showInputBox({
    title,
    prompt: 'Username for HTTP Basic authentication (from the console)',
    value: username,
    ignoreFocusOut: true,
    validateInput: (u) => basicUsernameProblem(u.trim()),
  });
  if (user === undefined) return undefined;
  const password = await vscode.window.showInputBox({
    title,
    prompt: `Password for ${user.trim()}; kept in the system's secret storage`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (p) => (p ? undefined : 'Enter the password.'),
  });
  return password === undefined ? undefined : { username: user.trim(), password };
}
