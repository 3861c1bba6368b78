/**
 * The slot tools: where a mapping value, a nested mapping value or a dynamic array's element
 * lives, the EIP-1967 proxy slots, and reading one slot with eth_getStorageAt. The math and the
 * decoding are core's; this file asks for the inputs and shows results to copy.
 *
 * Given an options object (tests, other extensions), each command computes without asking and
 * returns its result; otherwise it asks, shows the result in a quick pick (accept copies) and
 * offers the next steps: add a nested key, read this slot.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { lookupBlock } from '../../core/storage/block';
import { interpretRead, readCall } from '../../core/storage/emulate';
import { normaliseAddress, parseBlockRef } from '../../core/storage/inputs';
import {
  arrayElementSlot,
  computeMappingSlot,
  MAPPING_KEY_TYPES,
  typedKeyValue,
  type MappingKey,
  decodeWord,
  dynamicDataSlot,
  EIP1967_ADMIN_SLOT,
  EIP1967_BEACON_SLOT,
  EIP1967_IMPLEMENTATION_SLOT,
  mappingKeyBytes,
  toSlot,
  type DecodedWord,
  type MappingKeyType,
} from '../../core/storage/slots';
import { problemOf } from '../kit/errors';
import { withProgress } from '../kit/progress';
import { nodeOf, pickOne } from '../nodes/pickers';
import type { StorageFeature } from './feature';

const EIP1967 = [
  { name: 'implementation', label: 'Implementation', slot: EIP1967_IMPLEMENTATION_SLOT, detail: "bytes32(uint256(keccak256('eip1967.proxy.implementation')) - 1)" },
  { name: 'admin', label: 'Admin', slot: EIP1967_ADMIN_SLOT, detail: "bytes32(uint256(keccak256('eip1967.proxy.admin')) - 1)" },
  { name: 'beacon', label: 'Beacon', slot: EIP1967_BEACON_SLOT, detail: "bytes32(uint256(keccak256('eip1967.proxy.beacon')) - 1)" },
] as const;

/** What `check` throws about an input, without the ethers detail it may append (`(argument=…)`). */
const problem = (check: () => unknown) => problemOf(check)?.replace(/ \(argument=.*$/, '');

const decimal = (hex: string) => BigInt(hex).toString(10);

// ---- mapping ----------------------------------------------------------------------------------

export async function mappingSlotCommand(f: StorageFeature, arg?: unknown): Promise<{ slot: string } | undefined> {
  const given = arg as { slot?: string | number; keys?: MappingKey[]; key?: string; keyType?: MappingKeyType } | undefined;
  if (given && given.slot !== undefined) {
    const keys = given.keys ?? (given.key !== undefined ? [{ key: given.key, type: given.keyType ?? 'uint256' }] : []);
    return { slot: computeMappingSlot(given.slot, keys) };
  }
  const title = 'Compute Mapping Slot';
  const slot = await askSlot(title, 'The slot the mapping is declared at (its position in storage), e.g. 0 or 0x3');
  if (slot === undefined) return undefined;
  const keys: MappingKey[] = [];
  for (;;) {
    const key = await askKey(title, keys.length);
    if (!key) return undefined;
    keys.push(key);
    const result = computeMappingSlot(slot, keys);
    const expression = `mapping@${slot}${keys.map((k) => `[${k.key}]`).join('')}`;
    const next = await showSlot(f, `${title}: ${expression}`, result, [
      { label: '$(add) Add a Nested Key…', detail: `The value is itself a mapping: compute ${expression}[key]`, id: 'nest' },
    ]);
    if (next !== 'nest') return { slot: result };
  }
}

async function askKey(title: string, depth: number): Promise<MappingKey | undefined> {
  const items = MAPPING_KEY_TYPES.map((t) => ({ label: t.type, detail: t.detail || undefined, type: t.type }));
  const level = depth ? ` (nested key ${depth + 1})` : '';
  const chosen = await pickOne(items, { title: `${title}${level}`, placeholder: 'The type of the mapping’s key', active: items[0] });
  if (!chosen) return undefined;
  const type = chosen.type;
  const examples: Partial<Record<MappingKeyType, string>> = {
    address: '0x… (40 hex digits)',
    bool: 'true or false',
    string: 'the text itself, without quotes',
    bytes: '0x… hex bytes',
    bytes32: '0x… (64 hex digits)',
  };
  const key = await vscode.window.showInputBox({
    title: `${title}${level}`,
    prompt: `The ${type} key: ${examples[type] ?? 'a decimal or 0x-hex number'}`,
    ignoreFocusOut: true,
    validateInput: (text) => problem(() => mappingKeyBytes(typedKeyValue(text, type), type)),
  });
  return key === undefined ? undefined : { key: type === 'string' ? key : key.trim(), type };
}

// ---- array ------------------------------------------------------------------------------------

export async function arraySlotCommand(f: StorageFeature, arg?: unknown): Promise<{ slot: string; dataSlot: string } | undefined> {
  const given = arg as { slot?: string | number; index?: string | number; elementSlots?: number } | undefined;
  if (given && given.slot !== undefined) {
    return { slot: arrayElementSlot(given.slot, given.index ?? 0, given.elementSlots ?? 1), dataSlot: dynamicDataSlot(given.slot) };
  }
  const title = 'Compute Array Element Slot';
  const slot = await askSlot(title, 'The slot the dynamic array is declared at (it holds the length), e.g. 2');
  if (slot === undefined) return undefined;
  const index = await ask(title, 'The element’s index, e.g. 0', toSlot, '0');
  if (index === undefined) return undefined;
  const size = await ask(
    title,
    'Slots per element: 1 for a value type (uint256, address…), the struct’s slot count for a struct',
    (text) => arrayElementSlot(slot, index, Number(text)),
    '1',
  );
  if (size === undefined) return undefined;
  const result = arrayElementSlot(slot, index, Number(size));
  const dataSlot = dynamicDataSlot(slot);
  await showSlot(f, `${title}: array@${slot.trim()}[${index.trim()}]`, result, [], [{ label: dataSlot, description: 'Data start: keccak256(slot), where element 0 lives' }]);
  return { slot: result, dataSlot };
}

// ---- EIP-1967 ---------------------------------------------------------------------------------

export type Eip1967Slots = Record<(typeof EIP1967)[number]['name'], string>;

export async function eip1967Command(f: StorageFeature, arg?: unknown): Promise<Eip1967Slots | undefined> {
  const slots = Object.fromEntries(EIP1967.map((s) => [s.name, s.slot])) as Eip1967Slots;
  if (arg && typeof arg === 'object' && !nodeOf(arg)) return slots;
  type Item = vscode.QuickPickItem & { slot?: string; read?: boolean };
  const items: Item[] = [
    ...EIP1967.map((s) => ({ label: s.slot, description: s.label, detail: s.detail, slot: s.slot })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(database) Read These Slots on a Contract…', detail: 'See which implementation, admin and beacon a proxy points at', read: true },
  ];
  const chosen = await copyPick('EIP-1967 Proxy Slots', 'Accept a slot to copy it', items, (item) => item.slot);
  if (chosen?.read) await readEip1967(f, nodeOf(arg));
  return slots;
}

async function readEip1967(f: StorageFeature, given?: NodeConfig): Promise<void> {
  const target = await askTarget(f, 'Read EIP-1967 Slots', given);
  if (!target) return;
  const values = await withReadProgress(f, target, 'EIP-1967 slots', (signal) => Promise.all(EIP1967.map((s) => readSlot(f, target.node, target.address, s.slot, 'latest', signal))));
  if (!values) return;
  const items = EIP1967.map((s, i) => ({
    label: values[i].address ?? (BigInt(values[i].hex) === 0n ? 'not set' : values[i].hex),
    description: s.label,
    detail: values[i].hex,
    copy: values[i].address ?? values[i].hex,
  }));
  await copyPick(`EIP-1967 Slots of ${target.address} on ${target.node.name}`, 'Accept a value to copy it', items, (item) => item.copy);
}

// ---- reading one slot -------------------------------------------------------------------------

export interface ReadSlotArgs {
  node?: string;
  address?: string;
  slot?: string | number;
  block?: string;
}

export async function readSlotCommand(f: StorageFeature, arg?: unknown): Promise<DecodedWord | undefined> {
  const given = arg as ReadSlotArgs | undefined;
  if (given?.address && given.slot !== undefined) {
    const node = given.node ? (f.store.byName(given.node) ?? f.store.byId(given.node)) : selectedNode(f);
    if (!node) throw new Error(given.node ? `No node named '${given.node}'.` : 'No node is configured.');
    return readSlot(f, node, given.address, given.slot, given.block ?? 'latest');
  }
  const title = 'Read Storage Slot';
  const target = await askTarget(f, title, nodeOf(arg));
  if (!target) return undefined;
  const slot = await askSlot(title, 'The slot to read, e.g. 0, 0x5 or a 32-byte hashed slot');
  if (slot === undefined) return undefined;
  return showRead(f, target, slot);
}

/** Reads `slot` of `address` on `node` with eth_getStorageAt, at `block` (latest by default). */
async function readSlot(f: StorageFeature, node: NodeConfig, address: string, slot: string | number, block: string, signal?: AbortSignal): Promise<DecodedWord> {
  const client = await f.store.client(node);
  const { number } = await lookupBlock(client, parseBlockRef(block), signal);
  const call = readCall({ address: normaliseAddress(address), blockNumber: number, start: 0n, maxResults: 1 }, toSlot(slot));
  const outcome = interpretRead(await client.call(call.method, call.params, { signal }));
  if (!outcome.ok) throw new Error(`Reading slot ${slot}: ${outcome.reason}`);
  return decodeWord(outcome.value);
}

/** Reads a slot with progress, then shows the value and its decodings to copy. */
async function showRead(f: StorageFeature, target: Target, slot: string): Promise<DecodedWord | undefined> {
  const value = await withReadProgress(f, target, `slot ${slot}`, (signal) => readSlot(f, target.node, target.address, slot, 'latest', signal));
  if (!value) return undefined;
  const items = [
    { label: value.hex, description: 'Value (hex)', copy: value.hex },
    { label: value.decimal, description: 'Decimal', copy: value.decimal },
    ...(value.address ? [{ label: value.address, description: 'Address', copy: value.address }] : []),
    ...(value.text !== undefined ? [{ label: value.text, description: 'Text', copy: value.text }] : []),
  ];
  await copyPick(`Slot ${short(slot)} of ${short(target.address)} on ${target.node.name} (latest block)`, 'Accept a value to copy it', items, (item) => item.copy);
  f.log.info(`Read slot ${slot} of ${target.address} on ${target.node.name}: ${value.hex}`);
  return value;
}

// ---- shared steps -----------------------------------------------------------------------------

interface Target {
  node: NodeConfig;
  address: string;
}

/** The node the slot tools read on: the one given, else the status bar's (selected) node. */
function selectedNode(f: StorageFeature): NodeConfig | undefined {
  return f.selectedNode() ?? f.store.all().find((n) => n.protocol === 'evm');
}

/** Asks for the contract (the last one used prefilled); the node is the given or selected one. */
async function askTarget(f: StorageFeature, title: string, given?: NodeConfig): Promise<Target | undefined> {
  const node = given ?? selectedNode(f);
  if (!node) {
    void vscode.window.showWarningMessage('No node is configured: add one in the Nodes view first.');
    return undefined;
  }
  const address = await ask(`${title} on ${node.name}`, 'The contract address (0x followed by 40 hex digits)', normaliseAddress, f.lastAddress);
  if (address === undefined) return undefined;
  f.lastAddress = normaliseAddress(address);
  return { node, address: f.lastAddress };
}

/** An input box whose text `check` judges as it is typed; resolves with the text trimmed, or undefined when dismissed. */
function ask(title: string, prompt: string, check: (text: string) => unknown, value?: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({ title, prompt, value, ignoreFocusOut: true, validateInput: (text) => problem(() => check(text)) }).then((text) => text?.trim());
}

function askSlot(title: string, prompt: string): Thenable<string | undefined> {
  return ask(title, prompt, toSlot);
}

/** Runs a read in a cancellable notification; failures are shown and logged, never thrown. */
async function withReadProgress<T>(f: StorageFeature, target: Target, what: string, read: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  try {
    return await withProgress(`Reading ${what} of ${short(target.address)} on ${target.node.name}`, read);
  } catch (error) {
    f.report(`Reading ${what} of ${target.address} on ${target.node.name}`, error);
    return undefined;
  }
}

type Action = { label: string; detail?: string; id: string };

/** Shows a computed slot (hex and decimal to copy) and the follow-up actions; resolves with the action chosen. */
async function showSlot(f: StorageFeature, title: string, slot: string, actions: Action[], extra: { label: string; description: string }[] = []): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { copy?: string; action?: string };
  const items: Item[] = [
    { label: slot, description: 'Slot (hex)', copy: slot },
    { label: decimal(slot), description: 'Slot (decimal)', copy: decimal(slot) },
    ...extra.map((e) => ({ ...e, copy: e.label })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    ...actions.map((a) => ({ label: a.label, detail: a.detail, action: a.id })),
    { label: '$(database) Read This Slot…', detail: 'eth_getStorageAt on the selected node, at the latest block', action: 'read' },
  ];
  const chosen = await copyPick(title, 'Accept a value to copy it, or choose what to do next', items, (item) => item.copy);
  if (chosen?.action === 'read') {
    const target = await askTarget(f, 'Read This Slot');
    if (target) await showRead(f, target, slot);
  }
  return chosen?.action;
}

/**
 * A quick pick of values: accepting one copies it and keeps the pick open (to copy another);
 * accepting an item without a value closes it and resolves with that item.
 */
function copyPick<T extends vscode.QuickPickItem>(title: string, placeholder: string, items: T[], valueOf: (item: T) => string | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = title;
    pick.placeholder = placeholder;
    pick.items = items;
    pick.matchOnDescription = true;
    pick.ignoreFocusOut = true;
    let result: T | undefined;
    pick.onDidAccept(() => {
      const item = pick.activeItems[0];
      if (!item) return;
      const value = valueOf(item);
      if (value === undefined) {
        result = item;
        pick.hide();
        return;
      }
      void vscode.env.clipboard.writeText(value).then(() => {
        pick.placeholder = `Copied ${short(value)} — accept another value to copy it, Escape to close`;
        vscode.window.setStatusBarMessage(`$(check) Copied ${short(value)}`, 3000);
      });
    });
    pick.onDidHide(() => {
      resolve(result);
      pick.dispose();
    });
    pick.show();
  });
}

function short(text: string): string {
  return text.length > 24 ? `${text.slice(0, 12)}…${text.slice(-8)}` : text;
}
