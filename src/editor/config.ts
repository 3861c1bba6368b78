/**
 * Typed access to the `chaindeck.*` settings. Node entries may be written by hand, so they are
 * read leniently (no `id`: derived from the name; no `auth`: 'none'), and written back complete.
 */
import * as vscode from 'vscode';
import type { NodeConfig, Protocol } from '../core/nodes/model';
import type { AuthForm } from '../core/rpc/endpoint';
import { DEFAULT_MAX_RESPONSE_MB, MAX_TIMEOUT_MS, setResponseLimitMB } from '../core/rpc/deadline';
import { DEFAULT_TIMEOUT_MS } from '../core/rpc/types';

const SECTION = 'chaindeck';
const PROTOCOLS: readonly Protocol[] = ['evm', 'beacon', 'utxo', 'solana', 'starknet', 'other'];
const AUTH_FORMS: readonly AuthForm[] = ['none', 'key', 'basic'];

const settings = () => vscode.workspace.getConfiguration(SECTION);

/** The id a node gets when its entry names none: stable as long as the name is. */
export function idFromName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'node';
}

export const config = {
  /** Configured nodes; entries without a name or URL are skipped. */
  nodes(): NodeConfig[] {
    const raw = settings().get<unknown[]>('nodes') ?? [];
    return raw.flatMap((entry) => {
      const node = toNodeConfig(entry);
      return node ? [node] : [];
    });
  },

  defaultNode(): string | undefined {
    return settings().get<string>('defaultNode')?.trim() || undefined;
  },

  /** Seconds between status-bar updates; 0 hides the item. */
  statusBarRefreshSeconds(): number {
    return Math.max(0, settings().get<number>('statusBar.refreshSeconds') ?? 15);
  },

  /** The setting, or its default when it is not a whole number from 1 ms to 24 h. */
  requestTimeoutMs(): number {
    const ms = settings().get<number>('requestTimeoutMs');
    return Number.isInteger(ms) && ms! >= 1 && ms! <= MAX_TIMEOUT_MS ? ms! : DEFAULT_TIMEOUT_MS;
  },

  maxResponseMB(): number {
    return settings().get<number>('maxResponseMB') ?? DEFAULT_MAX_RESPONSE_MB;
  },

  setNodes(nodes: readonly NodeConfig[]): Thenable<void> {
    return settings().update('nodes', nodes.map(withoutEmptyFields), targetOf('nodes'));
  },

  setDefaultNode(name: string | undefined): Thenable<void> {
    return settings().update('defaultNode', name, targetOf('defaultNode'));
  },

  affects(event: vscode.ConfigurationChangeEvent, key: 'nodes' | 'defaultNode' | 'statusBar' | 'requestTimeoutMs'): boolean {
    return event.affectsConfiguration(`${SECTION}.${key}`);
  },
};

/** Applies the response cap setting now and whenever it changes; a bad value keeps the cap and is reported. */
export function watchResponseLimit(warn: (message: string) => void): vscode.Disposable {
  const apply = () => {
    const problem = setResponseLimitMB(config.maxResponseMB());
    if (problem) warn(`The setting ${SECTION}.maxResponseMB is ignored: ${problem}.`);
  };
  apply();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${SECTION}.maxResponseMB`)) apply();
  });
}

function toNodeConfig(entry: unknown): NodeConfig | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const name = text(e.name);
  const url = text(e.url);
  if (!name || !url) return undefined;
  return {
    id: text(e.id) ?? idFromName(name),
    name,
    protocol: PROTOCOLS.includes(e.protocol as Protocol) ? (e.protocol as Protocol) : 'evm',
    network: text(e.network),
    url,
    wsUrl: text(e.wsUrl),
    auth: AUTH_FORMS.includes(e.auth as AuthForm) ? (e.auth as AuthForm) : 'none',
    ...(e.publicPath === true ? { publicPath: true } : {}),
  };
}

/** Keeps hand-edited settings tidy: no `"network": undefined` style leftovers. */
function withoutEmptyFields(node: NodeConfig): NodeConfig {
  return Object.fromEntries(Object.entries(node).filter(([, v]) => v !== undefined && v !== '')) as unknown as NodeConfig;
}

/** Writes go where the value is set now (workspace or user), so one scope never hides another. */
function targetOf(key: string): vscode.ConfigurationTarget {
  const where = settings().inspect(key);
  return where?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}
