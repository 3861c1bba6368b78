/**
 * The Storage feature: "Browse Storage…" (a panel with the query form, the table of entries,
 * paging, export), the slot tools (mapping, nested mapping and array element slots, EIP-1967
 * slots, reading one slot), and the Contract Storage view (variables decoded by the compiler
 * layout, opened from the palette, a node, or a Solidity contract's CodeLens).
 */
import * as vscode from 'vscode';
import { COMMANDS, VIEWS } from '../ids';
import { registerCommand } from '../kit/commands';
import type { EditorContextWithNodes } from '../nodes/feature';
import { reportError } from '../kit/errors';
import { browse, Panels } from './browse';
import { StorageCodeLens } from './codeLens';
import { ContractStorageView } from './contractStorage';
import { DecodeCommands } from './decodeCommands';
import type { StorageFeature } from './feature';
import { Layouts } from './layouts';
import { UpgradeCheck } from './upgradeCheck';
import { arraySlotCommand, eip1967Command, mappingSlotCommand, readSlotCommand } from './slotTools';

export function registerStorage({ extension, log, settings, nodes, milestones }: EditorContextWithNodes): ContractStorageView {
  const layouts = new Layouts(nodes.store);
  const f: StorageFeature = {
    extensionUri: extension.extensionUri,
    store: nodes.store,
    log,
    settings,
    layouts,
    milestones,
    selectedNode: () => nodes.statusBar.node(),
    report: (doing, error) => reportError(log, doing, error),
  };
  const panels = new Panels();
  const view = new ContractStorageView(f, VIEWS.contractStorage);
  const decode = new DecodeCommands(f, view, extension.workspaceState);
  const upgrade = new UpgradeCheck(f);
  const cs = COMMANDS.contractStorage;
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
    upgrade,
    command(COMMANDS.storage.checkUpgrade, (arg) => upgrade.check(arg)),
    view,
    command(cs.decode, (arg) => decode.decode(arg)),
    command(cs.refresh, () => decode.refresh()),
    command(cs.diffWithBlock, (arg) => decode.diffWithBlock(arg)),
    command(cs.diffWithTransaction, (arg) => decode.diffWithTransaction(arg)),
    command(cs.clearDiff, async () => (view.clearDiff(), decode.summary())),
    command(cs.showChangedOnly, async () => view.setChangedOnly(true)),
    command(cs.showAll, async () => view.setChangedOnly(false)),
    command(cs.addKey, (arg) => decode.addKey(arg)),
    command(cs.watch, async (arg) => decode.watch(arg, true)),
    command(cs.unwatch, async (arg) => decode.watch(arg, false)),
    command(cs.copyPath, (arg) => decode.copy(arg, 'path')),
    command(cs.copySlot, (arg) => decode.copy(arg, 'slot')),
    command(cs.copyValue, (arg) => decode.copy(arg, 'value')),
    command(cs.loadMore, async (arg) => typeof arg === 'string' && view.loadMore(arg)),
    vscode.languages.registerCodeLensProvider([{ language: 'solidity' }, { scheme: 'file', pattern: '**/*.sol' }], new StorageCodeLens(layouts)),
  );
  return view;
}
