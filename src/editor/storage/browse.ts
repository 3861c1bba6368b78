/**
 * "Chaindeck: Browse Storage…": opens a Storage panel with its form prefilled (the node it was
 * run on, else the default; latest block; start 0; the page size and mode from settings). With
 * options `{node, address, block, txIndex, start, max, mode}` (tests, other extensions) it reads
 * the first page at once and resolves with core's result and the page shown.
 */
import * as vscode from 'vscode';
import { isStorageModeChoice, type StorageModeChoice } from '../../core/storage/types';
import type { StorageForm } from '../../webview/storage/protocol';
import { nodeOf } from '../nodes/pickers';
import type { StorageFeature } from './feature';
import { StoragePanel, type Shown } from './panel';

export interface BrowseOptions {
  /** Name or id of the node; default: the default node. */
  node?: string;
  address?: string;
  block?: string | number;
  txIndex?: number;
  start?: string;
  max?: number;
  mode?: StorageModeChoice;
}

/** The open panels: a request for a contract already shown reuses its panel. */
export class Panels implements vscode.Disposable {
  private readonly open = new Set<StoragePanel>();

  add(panel: StoragePanel): StoragePanel {
    this.open.add(panel);
    panel.onDidDispose(() => this.open.delete(panel));
    return panel;
  }

  showing(form: StorageForm): StoragePanel | undefined {
    return [...this.open].find((p) => p.shows(form));
  }

  dispose(): void {
    for (const p of this.open) p.dispose();
  }
}

export async function browse(f: StorageFeature, panels: Panels, arg?: unknown): Promise<Shown | undefined> {
  const treeNode = nodeOf(arg);
  const options = treeNode ? {} : ((arg ?? {}) as BrowseOptions);
  const named = options.node ? (f.store.byName(options.node) ?? f.store.byId(options.node)) : undefined;
  if (options.node && !named) throw new Error(`No node named '${options.node}'.`);
  const node = treeNode ?? named;
  if (node && node.protocol !== 'evm') {
    void vscode.window.showWarningMessage(`${node.name} is not an EVM node: contract storage is read with eth_getStorageAt or debug_storageRangeAt.`);
    return undefined;
  }
  const evm = f.store.all().filter((n) => n.protocol === 'evm');
  const fallback = [f.selectedNode(), f.store.defaultNode()].find((n) => n?.protocol === 'evm') ?? evm[0];
  const form: StorageForm = {
    nodeId: (node ?? fallback)?.id ?? '',
    address: options.address?.trim() ?? '',
    block: String(options.block ?? 'latest'),
    // Empty unless given: native mode then reads before transaction 0, and no note speaks of an index nobody set.
    txIndex: options.txIndex === undefined ? '' : String(options.txIndex),
    start: options.start ?? '0',
    max: String(options.max ?? f.settings.storagePageSize()),
    // A mode given by a caller is checked here; the setting's, by settings.
    mode: options.mode === undefined ? f.settings.storageMode() : isStorageModeChoice(options.mode) ? options.mode : 'auto',
  };
  const existing = form.address ? panels.showing(form) : undefined;
  existing?.reveal();
  const panel = existing ?? panels.add(new StoragePanel(f, form));
  return panel.open(form, form.address !== '');
}
