import type * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import type { Milestones } from '../kit/milestones';
import type { Settings } from '../kit/settings';
import type { Log } from '../log';
import type { NodeStore } from '../nodes/store';
import type { Layouts } from './layouts';

/** What the Storage feature's commands and panels work with. */
export interface StorageFeature {
  extensionUri: vscode.Uri;
  store: NodeStore;
  log: Log;
  settings: Settings;
  layouts: Layouts;
  milestones: Milestones;
  /** The node the status bar shows (the user's pick, else the default). */
  selectedNode(): NodeConfig | undefined;
  /** Shows and logs a failure (a cancellation only logged). */
  report(doing: string, error: unknown): void;
  /** The contract the slot tools read last: prefilled next time. */
  lastAddress?: string;
}
