/**
 * The Storage feature: "Browse Storage…" (a panel with the query form, the table of entries,
 * paging, export) and the slot tools (mapping, nested mapping and array element slots, EIP-1967
 * slots, reading one slot).
 */
import { COMMANDS } from '../ids';
import { registerCommand } from '../kit/commands';
import type { EditorContextWithNodes } from '../kit/context';
import { reportError } from '../kit/errors';
import { browse, Panels } from './browse';
import type { StorageFeature } from './feature';
import { Layouts } from './layouts';
import { arraySlotCommand, eip1967Command, mappingSlotCommand, readSlotCommand } from './slotTools';

export function registerStorage({ extension, log, settings, nodes }: EditorContextWithNodes): void {
  const layouts = new Layouts(nodes.store);
  const f: StorageFeature = {
    extensionUri: extension.extensionUri,
    store: nodes.store,
    log,
    settings,
    layouts,
    selectedNode: () => nodes.statusBar.node(),
    report: (doing, error) => reportError(log, doing, error),
  };
  const panels = new Panels();
  // What a command resolves with is for callers passing options (tests, other extensions).
  const command = (id: string, run: (arg?: unknown) => Promise<unknown>) => registerCommand(log, id, run);
  extension.subscriptions.push(
    layouts,
    panels,
    command(COMMANDS.storage.browse, (arg) => browse(f, panels, arg)),
    command(COMMANDS.storage.mappingSlot, (arg) => mappingSlotCommand(f, arg)),
    command(COMMANDS.storage.arraySlot, (arg) => arraySlotCommand(f, arg)),
    command(COMMANDS.storage.eip1967Slots, (arg) => eip1967Command(f, arg)),
    command(COMMANDS.storage.readSlot, (arg) => readSlotCommand(f, arg)),
  );
}
