/**
 * Storage layouts from the workspace's compiler artifacts (Hardhat artifacts/build-info, Foundry
 * out/), matched to a deployed contract by its code, so the table can name variables. Parsing,
 * matching and labelling are core's; this file finds the files, caches, and forgets on change.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { layoutsForAddress, parseFoundryArtifact, parseHardhatBuildInfo, slotLabeller, type ContractLayout } from '../../core/storage/layout';
import type { NodeStore } from '../nodes/store';
import { FILE_CAPS } from '../../core/files';
import { readWorkspaceText } from '../readFile';

const HARDHAT = '**/artifacts/build-info/*.json';
const FOUNDRY = '**/out/*.sol/*.json';
const EXCLUDE = '**/node_modules/**';

export interface MatchedLayout {
  /** e.g. "Token (contracts/Token.sol)". */
  name: string;
  label: (slot: string) => string | undefined;
}

export class Layouts implements vscode.Disposable {
  private all: Promise<ContractLayout[]> | undefined;
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
  labelsFor(node: NodeConfig, address: string): Promise<MatchedLayout | undefined> {
    const key = `${node.id}:${address.toLowerCase()}`;
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
    const layouts = await (this.all ??= this.load());
    if (!layouts.length) return undefined;
    const [layout] = await layoutsForAddress(await this.store.client(node), address, layouts);
    if (!layout) return undefined;
    const label = slotLabeller(layout);
    return { name: `${layout.contractName} (${layout.source})`, label };
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
    this.all = undefined;
    this.matched.clear();
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
  }
}
