/**
 * The node commands: add, edit, rename, remove, copy the endpoint, set the default, refresh, and
 * choose the status bar's node. Each is a small function over the store; parsing and
 * redaction of endpoints are core's.
 */
import * as vscode from 'vscode';
import { deriveWsUrl, displayUrl, isLoopback, parseEndpoint, urlWithUserinfo, type ParsedEndpoint } from '../../core/nodes/endpoint';
import { PROTOCOL_LABELS } from '../../core/nodes/labels';
import { KEY_PLACEHOLDER, type NodeConfig, type NodeSecret } from '../../core/nodes/model';
import { describeAuth } from '../../core/rpc/failure';
import { COMMANDS } from '../ids';
import { registerCommand, type CommandRun } from '../kit/commands';
import { problemOf, reportError } from '../kit/errors';
import type { NodesFeature } from './feature';
import { askBasicCredentials, askNodeName, pickOne, pickProtocol, resolveNode } from './pickers';

export function registerNodeCommands(f: NodesFeature): vscode.Disposable[] {
  const command = (id: string, run: CommandRun) => registerCommand(f.log, id, run);

  return [
    command(COMMANDS.nodes.add, () => addNode(f)),
    command(COMMANDS.nodes.edit, async (arg) => editNode(f, await resolveNode(f.store, arg, 'Edit Which Node?'))),
    command(COMMANDS.nodes.rename, async (arg) => renameNode(f, await resolveNode(f.store, arg, 'Rename Which Node?'))),
    command(COMMANDS.nodes.remove, async (arg) => removeNode(f, await resolveNode(f.store, arg, 'Remove Which Node?'))),
    command(COMMANDS.nodes.copyEndpoint, async (arg) => copyEndpoint(await resolveNode(f.store, arg, 'Copy the Endpoint of Which Node?'))),
    command(COMMANDS.nodes.copyEndpointWithKey, async (arg) => copyEndpointWithKey(f, await resolveNode(f.store, arg, 'Copy the Endpoint (with Key) of Which Node?'))),
    command(COMMANDS.nodes.setDefault, async (arg) => {
      const node = await resolveNode(f.store, arg, 'Set Which Node as Default?');
      if (node) await f.store.setDefault(node);
    }),
    command(COMMANDS.nodes.refresh, () => {
      f.tree.refresh();
      f.statusBar.update();
    }),
    command(COMMANDS.nodes.refreshNode, async (arg) => {
      const node = await resolveNode(f.store, arg, 'Refresh Which Node?');
      if (node) f.tree.refresh(node);
    }),
    command(COMMANDS.nodes.select, async (arg) => {
      const node = await resolveNode(f.store, arg, 'Show Which Node in the Status Bar?', f.statusBar.node());
      if (node) await f.statusBar.select(node);
    }),
  ];
}

/** A message for the endpoint box, live as the user types; undefined when it parses. */
function endpointProblem(text: string): string | undefined {
  return problemOf(() => parseEndpoint(text));
}

async function askEndpoint(title: string, value = ''): Promise<ParsedEndpoint | undefined> {
  const pasted = await vscode.window.showInputBox({
    title,
    prompt: "Paste the node's HTTPS or WSS endpoint from your provider's console. A key in it goes to the system's secret storage, not to settings.",
    placeHolder: 'https://ethereum-mainnet.core.example.com/<key>',
    value,
    ignoreFocusOut: true,
    validateInput: endpointProblem,
  });
  return pasted === undefined ? undefined : parseEndpoint(pasted);
}

/** The WS URL worth keeping in settings: only one that differs from what would be derived. */
function keptWsUrl(endpoint: ParsedEndpoint): string | undefined {
  return endpoint.wsUrl === deriveWsUrl(endpoint.url) ? undefined : endpoint.wsUrl;
}

/**
 * The credentials of a pasted endpoint. A plain URL may still need a username and password
 * (form B): ask, unless it is a local node (or `ask` says to ask anyway).
 */
async function credentialsFor(
  title: string,
  endpoint: ParsedEndpoint,
  { current, ask = false }: { current?: NodeSecret; ask?: boolean } = {},
): Promise<{ auth: NodeConfig['auth']; secret: NodeSecret } | undefined> {
  if (endpoint.auth === 'key') return { auth: 'key', secret: endpoint.secret };
  if (endpoint.auth === 'basic' && endpoint.secret.password) return { auth: 'basic', secret: endpoint.secret };
  if (endpoint.auth === 'none' && isLoopback(endpoint.url) && !ask) return { auth: 'none', secret: {} };
  if (endpoint.auth === 'none') {
    const items = [
      { label: 'No credentials', detail: 'The endpoint is open, or the key is already in its URL', basic: false },
      { label: 'Username and password', detail: 'HTTP Basic authentication, with credentials from the console', basic: true },
    ];
    const chosen = await pickOne(items, { title, placeholder: 'How does this node check who is calling?', active: items[0] });
    if (!chosen) return undefined;
    if (!chosen.basic) return { auth: 'none', secret: {} };
  }
  const basic = await askBasicCredentials(title, endpoint.secret.username ?? current?.username);
  // A secret path or query stays with the node next to the Basic credentials.
  return basic && { auth: 'basic', secret: { ...basic, ...(endpoint.secret.tail ? { tail: endpoint.secret.tail } : {}) } };
}

/** A name for a new node: the network from the host, else "Local node" or the host name. */
function suggestedName(f: NodesFeature, endpoint: ParsedEndpoint): string {
  const base = endpoint.network ?? (isLoopback(endpoint.url) ? 'Local node' : new URL(endpoint.url).hostname);
  let name = base;
  for (let n = 2; f.store.byName(name); n++) name = `${base} ${n}`;
  return name;
}

async function addNode(f: NodesFeature): Promise<void> {
  const title = 'Add Node';
  const endpoint = await askEndpoint(title);
  if (!endpoint) return;
  const name = await askNodeName(f.store, title, suggestedName(f, endpoint));
  if (!name) return;
  const protocol = await pickProtocol(title, endpoint.protocol);
  if (!protocol) return;
  const credentials = await credentialsFor(title, endpoint);
  if (!credentials) return;
  const node = await f.store.add({ name, protocol, network: endpoint.network, url: endpoint.url, wsUrl: keptWsUrl(endpoint), auth: credentials.auth }, credentials.secret);
  f.log.info(`Added node ${node.name} (${protocol}) at ${displayUrl(node)}; credentials: ${describeAuth(node.auth)}`);
  // The path is secret by default; Edit Node → Path marks it public when it holds no key.
  const where = node.auth === 'none' ? '' : ` Its ${node.auth === 'key' ? 'key (the URL path and query)' : 'password'} is in the system's secret storage.`;
  void vscode.window.showInformationMessage(`Added node "${node.name}".${where}`);
}

async function editNode(f: NodesFeature, node: NodeConfig | undefined): Promise<void> {
  if (!node) return;
  const title = `Edit ${node.name}`;
  const items = [
    { label: '$(link) Endpoint URL', detail: displayUrl(node), edit: editEndpoint },
    { label: '$(key) Credentials', detail: describeAuth(node.auth), edit: editCredentials },
    { label: '$(eye) Path', detail: node.publicPath ? 'public: kept in settings and shown' : "secret: in the system's secret storage, shown as ***", edit: editPath },
    { label: '$(symbol-interface) Protocol', detail: PROTOCOL_LABELS[node.protocol].label, edit: editProtocol },
    { label: '$(globe) Network label', detail: node.network ?? 'none', edit: editNetwork },
  ];
  const chosen = await pickOne(items, { title, placeholder: 'What do you want to change?' });
  if (!chosen) return;
  if (await chosen.edit(f, node, title)) f.log.info(`Edited node ${node.name}: ${chosen.label.replace(/^\$\([^)]*\) /, '')}`);
}

async function editEndpoint(f: NodesFeature, node: NodeConfig, title: string): Promise<boolean> {
  const pasted = await vscode.window.showInputBox({
    title,
    prompt: `Paste the new endpoint. Keep ${KEY_PLACEHOLDER} where the stored key goes, or paste the URL with a new key.`,
    value: node.url,
    ignoreFocusOut: true,
    validateInput: (text) => endpointProblem(text.split(KEY_PLACEHOLDER).join('stored-key')),
  });
  if (pasted === undefined) return false;
  if (pasted.includes(KEY_PLACEHOLDER)) {
    // Still the stored secret: only the rest of the URL changes (a literal secret in it is moved out by the store).
    const url = pasted.trim();
    await f.store.update(node.id, { url, wsUrl: undefined, auth: node.auth === 'basic' ? 'basic' : 'key' });
    return true;
  }
  const endpoint = parseEndpoint(pasted, { publicPath: node.publicPath });
  const keepsBasic = endpoint.auth !== 'basic' && node.auth === 'basic';
  const credentials = keepsBasic ? { auth: 'basic' as const, secret: { ...(await f.store.secretOf(node)), tail: endpoint.secret.tail } } : await credentialsFor(title, endpoint);
  if (!credentials) return false;
  await f.store.update(node.id, { url: endpoint.url, wsUrl: keptWsUrl(endpoint), auth: credentials.auth }, credentials.secret);
  return true;
}

/** Whether the URL path is a secret (the default) or public, e.g. /rpc on a node that takes no key there. */
async function editPath(f: NodesFeature, node: NodeConfig, title: string): Promise<boolean> {
  const items = [
    { label: 'The path holds a key', detail: "Kept in the system's secret storage and shown as ***, like the query", publicPath: false },
    { label: 'The path is public', detail: 'e.g. /rpc or /v1/mainnet: kept in settings and shown; the query stays secret', publicPath: true },
  ];
  const chosen = await pickOne(items, { title, placeholder: `Is the path of ${displayUrl(node)} a secret?`, active: items[node.publicPath ? 1 : 0] });
  if (!chosen || chosen.publicPath === (node.publicPath === true)) return false;
  await f.store.setPublicPath(node, chosen.publicPath);
  return true;
}

async function editCredentials(f: NodesFeature, node: NodeConfig, title: string): Promise<boolean> {
  if (node.auth === 'key') {
    const key = await vscode.window.showInputBox({
      title,
      prompt: `The new access key; it replaces ${KEY_PLACEHOLDER} in the URL and is kept in the system's secret storage`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (k) => (k.trim() ? undefined : 'Enter the access key.'),
    });
    if (key === undefined) return false;
    // Typed as it goes in the URL: it replaces {key} verbatim.
    await f.store.update(node.id, {}, { ...(await f.store.secretOf(node)), key: undefined, tail: key.trim() });
    return true;
  }
  const endpoint = parseEndpoint(node.url);
  const current = await f.store.secretOf(node);
  const credentials = await credentialsFor(title, { ...endpoint, auth: 'none', secret: {} }, { current, ask: true });
  if (!credentials) return false;
  // The secret end of the URL is not a credential the user changes here: keep it.
  const { tail, wsTail, key } = current;
  const auth = credentials.auth === 'none' && node.url.includes(KEY_PLACEHOLDER) ? 'key' : credentials.auth;
  await f.store.update(node.id, { auth }, { ...credentials.secret, ...(tail ? { tail } : {}), ...(wsTail ? { wsTail } : {}), ...(key ? { key } : {}) });
  return true;
}

async function editProtocol(f: NodesFeature, node: NodeConfig, title: string): Promise<boolean> {
  const protocol = await pickProtocol(title, node.protocol);
  if (!protocol || protocol === node.protocol) return false;
  await f.store.update(node.id, { protocol });
  return true;
}

async function editNetwork(f: NodesFeature, node: NodeConfig, title: string): Promise<boolean> {
  const network = await vscode.window.showInputBox({ title, prompt: 'Network label, e.g. ethereum-mainnet (empty for none)', value: node.network ?? '' });
  if (network === undefined) return false;
  await f.store.update(node.id, { network: network.trim() || undefined });
  return true;
}

async function renameNode(f: NodesFeature, node: NodeConfig | undefined): Promise<void> {
  if (!node) return;
  const name = await askNodeName(f.store, `Rename ${node.name}`, node.name, node.id);
  if (!name || name === node.name) return;
  await f.store.update(node.id, { name });
  f.log.info(`Renamed node ${node.name} to ${name}`);
}

async function removeNode(f: NodesFeature, node: NodeConfig | undefined): Promise<void> {
  if (!node) return;
  const detail = node.auth === 'none' ? undefined : `Its ${describeAuth(node.auth)} will be deleted from the system's secret storage.`;
  const remove = await vscode.window.showWarningMessage(`Remove node "${node.name}"?`, { modal: true, detail }, 'Remove');
  if (remove !== 'Remove') return;
  await f.store.remove(node.id);
  f.log.info(`Removed node ${node.name}`);
}

async function copyEndpoint(node: NodeConfig | undefined): Promise<void> {
  if (!node) return;
  const url = displayUrl(node);
  await vscode.env.clipboard.writeText(url);
  void vscode.window.showInformationMessage(`Copied ${url}${node.auth === 'none' ? '' : ' (credentials hidden)'}.`);
}

async function copyEndpointWithKey(f: NodesFeature, node: NodeConfig | undefined): Promise<void> {
  if (!node) return;
  if (node.auth === 'none') return copyEndpoint(node);
  const what = node.auth === 'key' ? 'its access key' : 'its username and password';
  const copy = await vscode.window.showWarningMessage(
    `Copy the endpoint of "${node.name}" with ${what}?`,
    { modal: true, detail: 'Anyone who sees the copied URL can use your node and its quota. Paste it only where it stays private, and never into a shared file or chat.' },
    'Copy with Key',
  );
  if (copy !== 'Copy with Key') return;
  // Form B as one URL, user:password@host, the way consoles show it.
  const url = urlWithUserinfo(await f.store.resolve(node));
  await vscode.env.clipboard.writeText(url);
  f.log.info(`Copied the endpoint of ${node.name} with its credentials to the clipboard`);
  void vscode.window.showInformationMessage(`Copied the endpoint of "${node.name}" with ${what}.`);
}

/**
 * A secret typed into `chaindeck.nodes` by hand (or left there by an earlier version, whose rule
 * missed short keys and query keys) must not stay there: on activation and on every change of
 * the setting it is moved to secret storage, the URL rewritten with {key}, and the move logged.
 */
export function migrateSecretsInSettings(f: NodesFeature): vscode.Disposable {
  let queue = Promise.resolve();
  // One pass at a time: each rewrites the setting, which fires the next change.
  const check = () =>
    (queue = queue.then(async () => {
      for (const node of f.store.withCredentialInSettings()) {
        const before = displayUrl(node);
        try {
          const moved = await f.store.moveCredentialToSecrets(node);
          f.log.info(`Moved the secret parts of node ${node.name}'s URL (${before}) from settings to secret storage; settings now hold ${displayUrl(moved)}`);
        } catch (error) {
          reportError(f.log, `Moving the secrets of node ${node.name} out of settings`, error);
        }
      }
    }));
  void check();
  return f.store.onDidChange(() => void check());
}
