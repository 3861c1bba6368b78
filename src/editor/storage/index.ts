/**
 * The Storage feature: "Browse Storage…" (a panel with the query form, the table of entries,
 * paging, export) and the slot tools (mapping, nested mapping and array element slots, EIP-1967
 * slots, reading one slot).
 */
import { registerCommand } from '../kit/commands';
import type { EditorContextWithNodes } from '../kit/context';
import { reportError } from '../kit/errors';
import { browse, BROWSE_COMMAND, Panels } from './browse';
import type { StorageFeature } from './feature';
import { Layouts } from './layouts';
import { arraySlotCommand, eip1967Command, mappingSlotCommand, readSlotCommand, SLOT_COMMANDS } from './slotTools';

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
    command(BROWSE_COMMAND, (arg) => browse(f, panels, arg)),
    command(SLOT_COMMANDS.mapping, (arg) => mappingSlotCommand(f, arg)),
    command(SLOT_COMMANDS.array, (arg) => arraySlotCommand(f, arg)),
    command(SLOT_COMMANDS.eip1967, (arg) => eip1967Command(f, arg)),
    command(SLOT_COMMANDS.read, (arg) => readSlotCommand(f, arg)),
  );
}
