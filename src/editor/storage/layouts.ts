/**
 * Storage layouts from the workspace's compiler artifacts (Hardhat artifacts/build-info, Foundry
 * out/), matched to a deployed contract by its code (at a proxy, its implementation's), so the
 * table can name variables. Parsing, matching and labelling are core's; this file finds the
 * files, caches, and forgets on change.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { toSlot } from '../../core/storage/slots';
import { deployedLayout, pickedOf } from '../../core/storage/deployed/pick';
import { matchDeployed } from '../../core/storage/deployed/read';
import { parseFoundryArtifact, parseHardhatBuildInfo, type ContractLayout } from '../../core/storage/layout';
import { slotLabeller } from '../../core/storage/slotLabels';
import type { NodeStore } from '../nodes/store';
import { FILE_CAPS } from '../../core/files';
import { readWorkspaceText } from '../readFile';

/** How a layout is named to the user: "Token (contracts/Token.sol)". */
export function layoutTitle(layout: Pick<ContractLayout, 'contractName' | 'source'>): string {
  return `${layout.contractName} (${layout.source})`;
}

function contractKey(node: NodeConfig, address: string): string {
  return `${node.id}:${address.toLowerCase()}`;
}

const HARDHAT = '**/artifacts/build-info/*.json';
const FOUNDRY = '**/out/*.sol/*.json';
const EXCLUDE = '**/node_modules/**';

export interface MatchedLayout {
  /** e.g. "Token (contracts/Token.sol)". */
  name: string;
  label: (slot: string) => string | undefined;
}

export class Layouts implements vscode.Disposable {
  private loaded: Promise<ContractLayout[]> | undefined;
  /** By node and address: what the last decode of that contract explained (mapping entries too). */
  private readonly decoded = new Map<string, MatchedLayout>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when artifacts change on disk: the layouts are read again when next asked for. */
  readonly onDidChange = this.changed.event;
  /** By node and address: code does not change between pages, so eth_getCode is asked once. */
  private readonly matched = new Map<string, Promise<MatchedLayout | undefined>>();
  private readonly watchers: vscode.FileSystemWatcher[];

  constructor(private readonly store: NodeStore) {
    this.watchers = [HARDHAT, FOUNDRY].map((glob) => {
      const watcher = vscode.workspace.createFileSystemWatcher(glob);
      const forget = () => this.forget();
      watcher.onDidCreate(forget);
      watcher.onDidChange(forget);
      watcher.onDidDelete(forget);
      return watcher;
    });
  }

  /** The layout of the contract at `address` on `node`, when a workspace artifact has its code. */
  async labelsFor(node: NodeConfig, address: string): Promise<MatchedLayout | undefined> {
    const key = contractKey(node, address);
    const decoded = this.decoded.get(key);
    const matched = await this.matchedFor(key, node, address).catch((error: unknown) => {
      if (!decoded) throw error;
      return undefined; // the decode's names still serve
    });
    if (!decoded) return matched;
    // The decode's names add mapping entries (and anything of a layout not in the workspace).
    return { name: matched?.name ?? decoded.name, label: (slot) => matched?.label(slot) ?? decoded.label(slot) };
  }

  /** What a decode of the contract at `address` on `node` named, for the raw table's Variable column. */
  remember(node: NodeConfig, address: string, layout: ContractLayout, slotNames: ReadonlyMap<string, string>): void {
    const plain = slotLabeller(layout);
    this.decoded.set(contractKey(node, address), {
      name: layoutTitle(layout),
      label: (slot) => plain(slot) ?? slotNames.get(`0x${toSlot(slot).toString(16)}`),
    });
  }

  /** Every layout of the workspace's artifacts. */
  all(): Promise<ContractLayout[]> {
    return (this.loaded ??= this.load());
  }

  /** The artifacts read again: for an explicit request that found nothing, as a build may have written files no watcher reported. */
  reload(): Promise<ContractLayout[]> {
    this.forget();
    return this.all();
  }

  private matchedFor(key: string, node: NodeConfig, address: string): Promise<MatchedLayout | undefined> {
    let found = this.matched.get(key);
    if (!found) {
      found = this.match(node, address);
      // A failure (node down) is not remembered: the next page tries again.
      found.catch(() => this.matched.delete(key));
      this.matched.set(key, found);
    }
    return found;
  }

  private async match(node: NodeConfig, address: string): Promise<MatchedLayout | undefined> {
    const layouts = await this.all();
    if (!layouts.length) return undefined;
    // As the decode finds it: at a proxy, the implementation's layout (and the eip1967 slots).
    const { proxy, matched } = await matchDeployed(await this.store.client(node), address, layouts);
    const picked = pickedOf(matched);
    if (!picked.length) return undefined;
    const deployed = deployedLayout(proxy, picked);
    return { name: deployed.description ?? layoutTitle(deployed.layout), label: slotLabeller(deployed.layout) };
  }

  private async load(): Promise<ContractLayout[]> {
    const [hardhat, foundry] = await Promise.all([HARDHAT, FOUNDRY].map((glob) => vscode.workspace.findFiles(glob, EXCLUDE, 5000)));
    const read = async (uri: vscode.Uri) => {
      try {
        return JSON.parse(await readWorkspaceText(uri, FILE_CAPS.artifact)) as unknown;
      } catch {
        return undefined; // half-written by a running build, or not JSON: skip it
      }
    };
    const out: ContractLayout[] = [];
    for (const uri of hardhat) out.push(...parseHardhatBuildInfo(await read(uri), uri.fsPath));
    for (const uri of foundry) {
      const layout = parseFoundryArtifact(await read(uri), uri.fsPath);
      if (layout) out.push(layout);
    }
    return out;
  }

  private forget(): void {
    this.loaded = undefined;
    this.matched.clear();
    this.changed.fire();
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    this.changed.dispose();
  }
}
