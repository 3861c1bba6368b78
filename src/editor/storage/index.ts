/**
 * The Storage feature: "Browse Storage…" (a panel with the query form, the table of entries,
 * paging, export) and the slot tools (mapping, nested mapping and array element slots, EIP-1967
 * slots, reading one slot).
 */
import * as vscode from 'vscode';
import type { Log } from '../log';
import { reportError } from '../nodes/calls';
import type { NodesFeature } from '../nodes/feature';
import { browse, BROWSE_COMMAND, Panels } from './browse';
import type { StorageFeature } from './feature';
import { Layouts } from './layouts';
import { arraySlotCommand, eip1967Command, mappingSlotCommand, readSlotCommand, SLOT_COMMANDS } from './slotTools';

export interface StorageContext {
  extension: vscode.ExtensionContext;
  log: Log;
}

export function registerStorage({ extension, log }: StorageContext, nodes: NodesFeature): void {
  const layouts = new Layouts(nodes.store);
  const f: StorageFeature = {
    extensionUri: extension.extensionUri,
    store: nodes.store,
    log,
    layouts,
    selectedNode: () => nodes.statusBar.node(),
    report: (doing, error) => reportError(log, doing, error),
  };
  const panels = new Panels();
  // Each command reports its own failures; what it resolves with is for callers passing options.
  const command = (id: string, run: (arg?: unknown) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        return await run(arg);
      } catch (error) {
        f.report(id, error);
        return undefined;
      }
    });
  extension.subscriptions.push(
    layouts,
    panels,
    command(BROWSE_COMMAND, (arg) => browse(f, panels, arg)),
    command(SLOT_COMMANDS.mapping, (arg) => mappingSlotCommand(f, arg)),
    command(SLOT_COMMANDS.array, (arg) => arraySlotCommand(f, arg)),
    command(SLOT_COMMANDS.eip1967, (arg) => eip1967Command(f, arg)),
    command(SLOT_COMMANDS.read, (arg) => readSlotCommand(f, arg)),
  );
}
