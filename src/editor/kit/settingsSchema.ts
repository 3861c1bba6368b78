/**
 * Every `chaindeck.*` setting as package.json's contributes.configuration declares it: id, type,
 * default and bounds. A unit test holds this table and package.json to each other both ways, so
 * this file must not import `vscode`; settings.ts reads each setting through its entry here.
 */
import type { KnobHints } from '../../core/knobs';
import { DEFAULT_API_URL } from '../../core/platform/apiUrl';
import { DEFAULT_MAX_RESPONSE_MB } from '../../core/rpc/deadline';
import { DEFAULT_TIMEOUT_MS } from '../../core/rpc/types';
import { STORAGE_MODES } from '../../core/storage/types';
import { TOOLCHAIN_PREFERENCES } from '../../core/subgraph/graphcli/toolchain';

interface Schema {
  id: string;
  type: 'number' | 'integer' | 'string' | 'array' | 'boolean' | 'object';
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
}

export const SETTINGS = {
  requestTimeoutMs: { id: 'chaindeck.requestTimeoutMs', type: 'number', default: DEFAULT_TIMEOUT_MS, minimum: 100, maximum: 86_400_000 },
  maxResponseMB: { id: 'chaindeck.maxResponseMB', type: 'integer', default: DEFAULT_MAX_RESPONSE_MB, minimum: 1, maximum: 4096 },
  nodes: { id: 'chaindeck.nodes', type: 'array', default: [] },
  defaultNode: { id: 'chaindeck.defaultNode', type: 'string', default: '' },
  statusBarRefreshSeconds: { id: 'chaindeck.statusBar.refreshSeconds', type: 'number', default: 15, minimum: 0 },
  storagePageSize: { id: 'chaindeck.storage.pageSize', type: 'number', default: 10, minimum: 1, maximum: 10_000 },
  storageMode: { id: 'chaindeck.storage.mode', type: 'string', default: 'auto', enum: STORAGE_MODES },
  platformApiUrl: { id: 'chaindeck.platform.apiUrl', type: 'string', default: DEFAULT_API_URL },
  subgraphs: { id: 'chaindeck.subgraphs', type: 'array', default: [] },
  graphNodePath: { id: 'chaindeck.graph.nodePath', type: 'string', default: '' },
  subgraphToolchain: { id: 'chaindeck.subgraph.toolchain', type: 'string', default: 'auto', enum: TOOLCHAIN_PREFERENCES },
  localGraphNodeAutoStart: { id: 'chaindeck.localGraphNode.autoStart', type: 'boolean', default: false },
  localGraphNodeDataFolder: { id: 'chaindeck.localGraphNode.dataFolder', type: 'string', default: '' },
  localGraphNodeGndPath: { id: 'chaindeck.localGraphNode.gndPath', type: 'string', default: '' },
  localGraphNodeChain: { id: 'chaindeck.localGraphNode.chain', type: 'string', default: '' },
  localGraphNodeRedeployOnSave: { id: 'chaindeck.localGraphNode.redeployOnSave', type: 'boolean', default: false },
  subgraphTestsRunOnSave: { id: 'chaindeck.subgraph.tests.runOnSave', type: 'boolean', default: false },
} as const satisfies Record<string, Schema>;

export type SettingName = keyof typeof SETTINGS;

/**
 * How the editor's failure messages say to change a limit: the setting, and the CLI's way beside
 * it (the CLI's messages say the same words, so a message reads alike wherever it is shown).
 */
export const KNOB_HINTS: Required<KnobHints> = {
  timeout: `the setting ${SETTINGS.requestTimeoutMs.id} (CLI: --timeout MS)`,
  timeoutBrief: `--timeout, or the setting ${SETTINGS.requestTimeoutMs.id}`,
  responseCap: `the setting ${SETTINGS.maxResponseMB.id} (CLI: the environment variable CHAINDECK_MAX_RESPONSE_MB)`,
  apiUrl: `setting ${SETTINGS.platformApiUrl.id}, CLI: --api-url`,
  // Not a setting: the Contract Storage view's own command, so the editor's words differ from the CLI's here.
  mappingKeys: '"Add Key…" on the mapping in the Contract Storage view',
};
