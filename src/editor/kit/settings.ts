/**
 * The `chaindeck.*` settings, typed: the only file that reads or writes them. Each accessor reads
 * through its entry in settingsSchema.ts (id and default as package.json declares them). Entries
 * may be written by hand, so they are read leniently (a node without `id` gets one from its name,
 * without `auth` 'none'), and written back complete. Core is handed the values, never the names.
 */
import * as vscode from 'vscode';
import { PROTOCOLS } from '../../core/nodes/labels';
import type { NodeConfig, Protocol } from '../../core/nodes/model';
import { MAX_TIMEOUT_MS, setResponseLimitMB } from '../../core/rpc/deadline';
import type { AuthForm } from '../../core/rpc/endpoint';
import type { KnobHints } from '../../core/knobs';
import { isStorageModeChoice, type StorageModeChoice } from '../../core/storage/types';
import { TOOLCHAIN_PREFERENCES, type ToolchainPreference } from '../../core/subgraph/graphcli/toolchain';
import { KNOB_HINTS, SETTINGS, type SettingName } from './settingsSchema';

const AUTH_FORMS: readonly AuthForm[] = ['none', 'key', 'basic'];

const configuration = () => vscode.workspace.getConfiguration();

function read<T>(name: SettingName): T | undefined {
  return configuration().get<T>(SETTINGS[name].id);
}

/** The id an entry gets when it names none: stable as long as its name is. */
export function idFromName(name: string): string {
  return (
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'node'
  );
}

/** `base`, or `base-2`, `base-3`… : the first that no entry has as its id yet. */
export function uniqueId(base: string, entries: readonly { id: string }[]): string {
  const taken = new Set(entries.map((e) => e.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

export const settings = {
  /** Configured nodes; entries without a name or URL are skipped. */
  nodes(): NodeConfig[] {
    return (read<unknown[]>('nodes') ?? []).flatMap((entry) => {
      const node = toNodeConfig(entry);
      return node ? [node] : [];
    });
  },

  setNodes(nodes: readonly NodeConfig[]): Thenable<void> {
    return write('nodes', nodes.map(withoutEmptyFields), whereSet('nodes'));
  },

  defaultNode(): string | undefined {
    return read<string>('defaultNode')?.trim() || undefined;
  },

  setDefaultNode(name: string | undefined): Thenable<void> {
    return write('defaultNode', name, whereSet('defaultNode'));
  },

  /** Seconds between status-bar updates; 0 hides the item. */
  statusBarRefreshSeconds(): number {
    return Math.max(0, read<number>('statusBarRefreshSeconds') ?? SETTINGS.statusBarRefreshSeconds.default);
  },

  /** The setting, or its default when it is not a whole number of ms that core accepts (1 ms to 24 h, as the CLI's --timeout). */
  requestTimeoutMs(): number {
    const ms = read<number>('requestTimeoutMs');
    return Number.isInteger(ms) && ms! >= 1 && ms! <= MAX_TIMEOUT_MS ? ms! : SETTINGS.requestTimeoutMs.default;
  },

  maxResponseMB(): number {
    return read<number>('maxResponseMB') ?? SETTINGS.maxResponseMB.default;
  },

  /** What every client is built with: the timeout, and the words its failures end with. */
  limits(): { timeoutMs: number; hints: KnobHints } {
    return { timeoutMs: settings.requestTimeoutMs(), hints: KNOB_HINTS };
  },

  /** Entries per page Browse Storage starts with (core checks the number). */
  storagePageSize(): number {
    return read<number>('storagePageSize') ?? SETTINGS.storagePageSize.default;
  },

  storageMode(): StorageModeChoice {
    const mode = read<unknown>('storageMode');
    return isStorageModeChoice(mode) ? mode : SETTINGS.storageMode.default;
  },

  /** The platform API's base URL. */
  platformApiUrl(): string {
    return read<string>('platformApiUrl')?.trim() || SETTINGS.platformApiUrl.default;
  },

  /** The subgraph records as written (the records store reads them leniently). */
  subgraphEntries(): unknown[] {
    return read<unknown[]>('subgraphs') ?? [];
  },

  /** Records are per project: a workspace keeps its own, unless they are already kept in user settings. */
  setSubgraphEntries(entries: readonly object[]): Thenable<void> {
    const where = configuration().inspect(SETTINGS.subgraphs.id);
    const global = where?.workspaceValue === undefined && (where?.globalValue !== undefined || !vscode.workspace.workspaceFolders?.length);
    return write('subgraphs', entries, global ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace);
  },

  /** Node.js to run the graph CLI with; undefined: the usual one. */
  graphNodePath(): string | undefined {
    return read<string>('graphNodePath')?.trim() || undefined;
  },

  /** Which toolchain builds and deploys subgraphs: graph-cli when the project has it, else gnd (auto), or one of them. */
  subgraphToolchain(): ToolchainPreference {
    const value = read<string>('subgraphToolchain');
    return (TOOLCHAIN_PREFERENCES as readonly string[]).includes(value ?? '') ? (value as ToolchainPreference) : 'auto';
  },

  /** The local graph-node: start it when the workspace opens. */
  localGraphNodeAutoStart(): boolean {
    return read<boolean>('localGraphNodeAutoStart') === true;
  },

  /** Its data folder as written ('' = the extension's workspace storage). */
  localGraphNodeDataFolder(): string {
    return read<string>('localGraphNodeDataFolder')?.trim() ?? '';
  },

  /** A gnd of the user's; undefined: the pinned one, installed into the extension's storage. */
  localGraphNodeGndPath(): string | undefined {
    return read<string>('localGraphNodeGndPath')?.trim() || undefined;
  },

  /** The name of the node whose chain it indexes; undefined: the devnet that fits the manifests. */
  localGraphNodeChain(): string | undefined {
    return read<string>('localGraphNodeChain')?.trim() || undefined;
  },

  localGraphNodeRedeployOnSave(): boolean {
    return read<boolean>('localGraphNodeRedeployOnSave') === true;
  },

  /** Run a subgraph's tests again when one of its files is saved. */
  subgraphTestsRunOnSave(): boolean {
    return read<boolean>('subgraphTestsRunOnSave') === true;
  },

  /** Whether the change touches any of the settings named. */
  affects(event: vscode.ConfigurationChangeEvent, ...names: SettingName[]): boolean {
    return names.some((name) => event.affectsConfiguration(SETTINGS[name].id));
  },

  /** An event that fires whenever one of the settings named changes. */
  changes(...names: SettingName[]): vscode.Event<void> {
    return (listener, thisArgs, disposables) => {
      const subscription = vscode.workspace.onDidChangeConfiguration((event) => {
        if (settings.affects(event, ...names)) listener.call(thisArgs);
      });
      disposables?.push(subscription);
      return subscription;
    };
  },

  /** Calls `listener` whenever one of the settings named changes. */
  onDidChange(names: readonly SettingName[], listener: () => void): vscode.Disposable {
    return settings.changes(...names)(listener);
  },

  /** Applies the response cap setting now and whenever it changes; a bad value keeps the cap and is reported. */
  watchResponseLimit(warn: (message: string) => void): vscode.Disposable {
    const apply = () => {
      const problem = setResponseLimitMB(settings.maxResponseMB());
      if (problem) warn(`The setting ${SETTINGS.maxResponseMB.id} is ignored: ${problem}.`);
    };
    apply();
    return settings.onDidChange(['maxResponseMB'], apply);
  },
};

export type Settings = typeof settings;

function write(name: SettingName, value: unknown, target: vscode.ConfigurationTarget): Thenable<void> {
  return configuration().update(SETTINGS[name].id, value, target);
}

/** Writes go where the value is set now (workspace or user), so one scope never hides another. */
function whereSet(name: SettingName): vscode.ConfigurationTarget {
  return configuration().inspect(SETTINGS[name].id)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
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
