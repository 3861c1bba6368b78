/**
 * The configured nodes: their settings (`chaindeck.nodes`, `chaindeck.defaultNode`) and their
 * credentials (SecretStorage, under a key built from the node id). The one place that writes
 * either, so a credential can never end up in settings by another path.
 */
import * as vscode from 'vscode';
import { deriveWsUrl, moveSecretsOut, parseEndpoint, resolveEndpoint, settingsHoldSecret } from '../../core/nodes/endpoint';
import { KEY_PLACEHOLDER, type NodeConfig, type NodeSecret } from '../../core/nodes/model';
import type { ResolvedEndpoint } from '../../core/rpc/endpoint';
import { registerPublicUrl } from '../../core/redact';
import { RpcClient } from '../../core/rpc/client';
import { idFromName, uniqueId, type Settings } from '../kit/settings';
import type { Secrets } from '../secrets';

export type NewNode = Omit<NodeConfig, 'id'>;

const secretKey = (id: string) => `chaindeck.node.${id}`;

export class NodeStore {
  /** Fires when nodes are added, changed or removed, or the default changes: every change goes through the settings. */
  readonly onDidChange: vscode.Event<void>;

  constructor(
    private readonly secrets: Secrets,
    private readonly settings: Settings,
  ) {
    this.onDidChange = settings.changes('nodes', 'defaultNode');
  }

  all(): NodeConfig[] {
    return this.settings.nodes();
  }

  byId(id: string): NodeConfig | undefined {
    return this.all().find((n) => n.id === id);
  }

  byName(name: string): NodeConfig | undefined {
    const wanted = name.trim().toLowerCase();
    return this.all().find((n) => n.name.toLowerCase() === wanted);
  }

  /** The node named by `chaindeck.defaultNode`, or the only node when there is just one. */
  defaultNode(): NodeConfig | undefined {
    const name = this.settings.defaultNode();
    const nodes = this.all();
    return (name ? this.byName(name) : undefined) ?? (nodes.length === 1 ? nodes[0] : undefined);
  }

  isDefault(node: NodeConfig): boolean {
    return this.defaultNode()?.id === node.id;
  }

  /** A message when `name` cannot be used for a node (empty, or taken by another node). */
  nameProblem(name: string, exceptId?: string): string | undefined {
    if (!name.trim()) return 'Give the node a name.';
    const other = this.byName(name);
    if (other && other.id !== exceptId) return `A node named "${other.name}" already exists.`;
    return undefined;
  }

  /**
   * Adds a node. A credential left in its URL is moved into its secret, never into settings.
   * `id` asks for that id (made unique); by default it is derived from the name.
   */
  async add(node: NewNode, secret: NodeSecret = {}, id?: string): Promise<NodeConfig> {
    const nodes = this.all();
    const wanted: NodeConfig = { ...node, name: node.name.trim(), id: uniqueId(id ?? idFromName(node.name), nodes) };
    const clean = moveSecretsOut(wanted, secret) ?? { config: wanted, secret };
    // The secret first: a node in settings whose secret is missing would fail confusingly.
    await this.secrets.set(secretKey(clean.config.id), clean.secret);
    await this.settings.setNodes([...nodes, clean.config]);
    if (!this.settings.defaultNode()) await this.settings.setDefaultNode(clean.config.name);
    return clean.config;
  }

  /**
   * Changes a node's settings; `secret`, when given, replaces its credentials. A secret in
   * a changed URL is moved into the secret storage, as in `add`.
   */
  async update(id: string, changes: Partial<NewNode>, secret?: NodeSecret): Promise<NodeConfig> {
    const nodes = this.all();
    const old = nodes.find((n) => n.id === id);
    if (!old) throw new Error('This node is no longer in the settings.');
    const wanted: NodeConfig = { ...old, ...changes, id };
    const moved = moveSecretsOut(wanted, secret ?? (await this.secretOf(old)));
    const updated = moved?.config ?? wanted;
    if (moved) await this.secrets.set(secretKey(id), moved.secret);
    else if (secret) await this.secrets.set(secretKey(id), secret);
    // Writing every entry back also records derived ids, which keeps secrets attached on rename.
    await this.settings.setNodes(nodes.map((n) => (n.id === id ? updated : n)));
    if (old.name !== updated.name && this.settings.defaultNode()?.toLowerCase() === old.name.toLowerCase()) {
      await this.settings.setDefaultNode(updated.name);
    }
    return updated;
  }

  /**
   * The node with `node.id` updated (settings and credentials replaced), or added under that id
   * when there is none: a node imported twice stays one node.
   */
  async upsert(node: NodeConfig, secret: NodeSecret): Promise<{ node: NodeConfig; added: boolean }> {
    const { id, ...fields } = node;
    // Optional fields the new config lacks are cleared, not kept from the old one.
    if (this.byId(id)) return { node: await this.update(id, { network: undefined, wsUrl: undefined, ...fields }, secret), added: false };
    return { node: await this.add(fields, secret, id), added: true };
  }

  /**
   * Marks the node's URL path public (kept in settings, shown) or secret again (moved to secret
   * storage). The query and Basic credentials stay secret either way.
   */
  async setPublicPath(node: NodeConfig, publicPath: boolean): Promise<NodeConfig> {
    if (!publicPath) return this.update(node.id, { publicPath: undefined });
    const secret = await this.secretOf(node);
    const resolved = resolveEndpoint(node, secret);
    const http = parseEndpoint(resolved.httpUrl, { publicPath: true });
    const ws = node.wsUrl === undefined ? undefined : parseEndpoint(resolved.wsUrl, { publicPath: true });
    const next: NodeSecret = {
      ...(node.auth === 'basic' ? { username: secret.username, password: secret.password } : {}),
      tail: http.secret.tail,
      wsTail: ws?.secret.tail !== http.secret.tail ? ws?.secret.tail : undefined,
    };
    const auth = node.auth === 'basic' ? 'basic' : next.tail || next.wsTail ? 'key' : 'none';
    return this.update(node.id, { url: http.url, wsUrl: ws?.wsUrl, auth, publicPath: true }, next);
  }

  async remove(id: string): Promise<void> {
    const node = this.byId(id);
    await this.settings.setNodes(this.all().filter((n) => n.id !== id));
    await this.secrets.delete(secretKey(id));
    if (node && this.settings.defaultNode()?.toLowerCase() === node.name.toLowerCase()) await this.settings.setDefaultNode(undefined);
  }

  setDefault(node: NodeConfig): Thenable<void> {
    return this.settings.setDefaultNode(node.name);
  }

  async secretOf(node: NodeConfig): Promise<NodeSecret> {
    return (await this.secrets.get<NodeSecret>(secretKey(node.id))) ?? {};
  }

  /** The URLs and headers to call the node with, credentials included. */
  async resolve(node: NodeConfig): Promise<ResolvedEndpoint> {
    // A path the user marked public is shown wherever the URL appears (logs, errors).
    if (node.publicPath) for (const url of [node.url, node.wsUrl ?? deriveWsUrl(node.url)]) registerPublicUrl(url.split(KEY_PLACEHOLDER).join(''));
    return resolveEndpoint(node, await this.secretOf(node));
  }

  /** A client to call the node with: its endpoint resolved, the user's limits. */
  async client(node: NodeConfig): Promise<RpcClient> {
    return new RpcClient(await this.resolve(node), this.settings.limits());
  }

  /** Nodes whose URL in settings holds a secret in the clear (written by hand, or by an earlier version). */
  withCredentialInSettings(): NodeConfig[] {
    return this.all().filter((n) => settingsHoldSecret(n));
  }

  /** Moves the secrets out of a node's URLs in settings into SecretStorage. */
  async moveCredentialToSecrets(node: NodeConfig): Promise<NodeConfig> {
    return this.update(node.id, {});
  }
}
