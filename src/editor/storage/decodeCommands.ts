/**
 * The Contract Storage view's commands: "Decode Contract Storage…" (from the palette, a node's
 * context menu, or a Solidity contract's CodeLens: asks the node, the address and the layout),
 * refresh, "Diff with Block…", "Diff with Transaction…" (just before and just after it), the
 * changed-leaves filter, "Add Key…" for a mapping (checked by its key type, remembered per
 * contract), Watch, and the copies. Each also takes options (tests,
 * other extensions) so that nothing is asked.
 */
import * as vscode from 'vscode';
import { decodedJson, readStorage, type StorageReading } from '../../core/storage/decode/decode';
import { MAX_USER_KEYS, keyFromText } from '../../core/storage/decode/keys';
import { mappingKeyProblem, mappingKeyType } from '../../core/storage/decode/tree';
import { parseTxHash, txStorageDiff, type TxStorageDiff } from '../../core/storage/decode/txDiff';
import { normaliseAddress, parseBlockRef } from '../../core/storage/inputs';
import { candidates, choicesByCode, deployedLayout, matchLogic, type DeployedLayout } from '../../core/storage/deployed/pick';
import { describeProxy, type ProxyInfo } from '../../core/storage/deployed/proxy';
import { detectAt } from '../../core/storage/deployed/read';
import { layoutName, readLayoutFile, selectLayout, type ContractLayout } from '../../core/storage/layout';
import type { NodeConfig } from '../../core/nodes/model';
import { CONTEXT_KEYS, focusCommand, VIEWS } from '../ids';
import { problemOf } from '../kit/errors';
import { withProgress } from '../kit/progress';
import { nodeOf, pickOne } from '../nodes/pickers';
import type { ContractStorageView, StorageElement, StorageSession } from './contractStorage';
import type { StorageFeature } from './feature';
import { layoutTitle } from './layouts';

/** Options of "Decode Contract Storage…"; what is not given is asked. */
export interface DecodeOptions {
  /** Name or id of the node. */
  node?: string;
  address?: string;
  /** A layout file (solc output, Foundry artifact, Hardhat build-info); default: the workspace's artifacts. */
  layoutFile?: string;
  /** NAME or PATH:NAME of the contract among the layouts. */
  contract?: string;
  block?: string;
}

/** What the decode commands resolve with: the storage-decode JSON of what is shown. */
export interface DecodeSummary {
  contract: string;
  address: string;
  block: number;
  diffFrom?: number;
  /** The transaction whose before and after are shown. */
  tx?: string;
  /** What the address is when a proxy, as the view says it: "ERC-1967 proxy → implementation 0x… (Points)". */
  proxy?: string;
  variables: ReturnType<typeof decodedJson>;
}

const KEYS_STATE = 'chaindeck.contractStorage.keys';

export class DecodeCommands {
  constructor(
    private readonly f: StorageFeature,
    private readonly view: ContractStorageView,
    private readonly state: vscode.Memento,
  ) {}

  async decode(arg?: unknown): Promise<DecodeSummary | undefined> {
    const treeNode = nodeOf(arg);
    const options = treeNode ? {} : ((arg ?? {}) as DecodeOptions);
    const title = 'Decode Contract Storage';
    const node = treeNode ?? (await this.nodeFrom(options.node));
    if (!node) return undefined;
    if (node.protocol !== 'evm') {
      void vscode.window.showWarningMessage(`${node.name} is not an EVM node: contract storage is read with eth_getStorageAt.`);
      return undefined;
    }
    const address = options.address ? normaliseAddress(options.address) : await this.askAddress(`${title} on ${node.name}`);
    if (!address) return undefined;
    this.f.lastAddress = address;
    const block = options.block ?? 'latest';
    parseBlockRef(block);
    const deployed = await this.layoutFor(node, address, options, title);
    if (!deployed) return undefined;
    const { layout, description } = deployed;
    const keys = this.keysOf(node, address);
    const reading = await this.read(node, address, layout, keys, [block]);
    if (!reading) return undefined;
    this.view.show({ node, address, layout, description, keys, reading, block: reading.blocks[0], changedOnly: false });
    this.f.milestones.reached(CONTEXT_KEYS.storageBrowsed);
    void vscode.commands.executeCommand(focusCommand(VIEWS.contractStorage));
    return this.summary();
  }

  /** Decodes the contract shown again, at the latest block. */
  async refresh(): Promise<DecodeSummary | undefined> {
    const s = this.require();
    const reading = await this.read(s.node, s.address, s.layout, s.keys, ['latest']);
    if (!reading) return undefined;
    this.view.show({ ...s, reading, block: reading.blocks[0], diffFrom: undefined, tx: undefined, changedOnly: false });
    return this.summary();
  }

  /** Reads the contract at an earlier block and the block shown together, and marks what changed. */
  async diffWithBlock(arg?: unknown): Promise<DecodeSummary | undefined> {
    const s = this.require();
    const given = (arg as { block?: string | number } | undefined)?.block;
    const from =
      given !== undefined
        ? String(given)
        : await vscode.window
            .showInputBox({
              title: `Diff ${s.layout.contractName} with Block`,
              prompt: `The earlier block to compare block ${s.block.number} with: a number (decimal or 0x), a block hash, or a tag`,
              value: String(Math.max(0, s.block.number - 1)),
              ignoreFocusOut: true,
              validateInput: (text) => problemOf(() => parseBlockRef(text.trim())),
            })
            .then((text) => text?.trim());
    if (!from) return undefined;
    parseBlockRef(from);
    const reading = await this.read(s.node, s.address, s.layout, s.keys, [from, String(s.block.number)]);
    if (!reading) return undefined;
    this.view.show({ ...s, reading, diffFrom: reading.blocks[0], block: reading.blocks[1], tx: undefined, changedOnly: s.changedOnly });
    return this.summary();
  }

  /** Reads the contract just before and just after one transaction (one trace of its block) and marks what it changed. */
  async diffWithTransaction(arg?: unknown): Promise<DecodeSummary | undefined> {
    const s = this.require();
    const given = (arg as { tx?: string } | undefined)?.tx;
    const hash =
      given ??
      (await vscode.window
        .showInputBox({
          title: `Diff ${s.layout.contractName} with Transaction`,
          prompt: `A transaction hash: the storage of ${s.address} just before it and just after it (the node must trace with the prestateTracer)`,
          ignoreFocusOut: true,
          validateInput: (text) => problemOf(() => parseTxHash(text)),
        })
        .then((text) => text?.trim()));
    if (!hash) return undefined;
    const diff = await this.readTx(s.node, s.address, s.layout, s.keys, parseTxHash(hash));
    if (!diff) return undefined;
    const tx = { hash: diff.trace.tx, index: diff.trace.index };
    this.view.show({ ...s, reading: diff.reading, diffFrom: diff.trace.parent, block: diff.trace.block, tx, changedOnly: s.changedOnly });
    return this.summary();
  }

  /** Adds a key to a mapping (the element's, or `{path, key}`), remembers it for the contract, and reads the contract again. */
  async addKey(arg?: unknown): Promise<{ path: string; found: boolean } | undefined> {
    const s = this.require();
    const options = (arg ?? {}) as { path?: string; key?: string };
    const element = isElement(arg) ? arg : options.path ? this.view.find(options.path) : undefined;
    if (!element || element.kind !== 'item' || element.item.kind !== 'mapping')
      throw new Error(options.path ? `No mapping at '${options.path}' in the view.` : 'Choose a mapping in the Contract Storage view.');
    const keyType = mappingKeyType(s.layout.types, element.item);
    if (!keyType) throw new Error(`The layout does not describe the key type of ${element.item.type}.`);
    const text =
      options.key ??
      (await vscode.window
        .showInputBox({
          title: `Add Key to ${element.item.path}`,
          prompt: `A key of type ${keyType.label}; it is remembered for this contract and tried in every mapping it fits`,
          ignoreFocusOut: true,
          validateInput: (t) => mappingKeyProblem(keyType, t),
        })
        .then((t) => (keyType.encoding === 'bytes' && keyType.label === 'string' ? t : t?.trim())));
    if (text === undefined) return undefined;
    const problem = mappingKeyProblem(keyType, text);
    if (problem) throw new Error(problem);
    const key = keyFromText(keyType, text)!;
    const keys = s.keys.includes(text) ? s.keys : [...s.keys, text].slice(-MAX_USER_KEYS);
    await this.saveKeys(s.node, s.address, keys);
    const blocks = s.diffFrom ? [String(s.diffFrom.number), String(s.block.number)] : [String(s.block.number)];
    const reading = s.tx ? (await this.readTx(s.node, s.address, s.layout, keys, s.tx.hash))?.reading : await this.read(s.node, s.address, s.layout, keys, blocks);
    if (!reading) return undefined;
    this.view.show({ ...s, keys, reading });
    const path = `${element.item.path}[${key.text}]`;
    const found = this.view.find(path) !== undefined;
    if (!found) void vscode.window.showInformationMessage(`${path} holds zero at block ${s.block.number}: an entry is shown only where its value is non-zero.`);
    return { path, found };
  }

  watch(arg: unknown, on: boolean): void {
    const label = isElement(arg) && arg.kind === 'item' ? arg.variable : (arg as { variable?: string } | undefined)?.variable;
    if (!label) throw new Error('Choose a variable in the Contract Storage view.');
    if (on) this.view.watch(label);
    else this.view.unwatch(label);
  }

  /** Copies the element's path, slot or value; resolves with what was copied. */
  async copy(arg: unknown, what: 'path' | 'slot' | 'value'): Promise<string | undefined> {
    if (!isElement(arg) || arg.kind !== 'item') return undefined;
    const { item } = arg;
    const text = what === 'path' ? item.path : what === 'slot' ? item.slot : item.copyValue;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`$(check) Copied the ${what} of ${item.path.length > 40 ? `${item.path.slice(0, 39)}…` : item.path}`, 3000);
    return text;
  }

  summary(): DecodeSummary | undefined {
    const s = this.view.session;
    if (!s) return undefined;
    const state = s.reading.blocks.length - 1;
    return {
      contract: layoutName(s.layout),
      address: s.address,
      block: s.block.number,
      diffFrom: s.diffFrom?.number,
      tx: s.tx?.hash,
      proxy: s.description,
      variables: decodedJson(s.reading, state),
    };
  }

  private require(): StorageSession {
    const s = this.view.session;
    if (!s) throw new Error('No contract is shown in the Contract Storage view: run "Decode Contract Storage…" first.');
    return s;
  }

  private async nodeFrom(name: string | undefined): Promise<NodeConfig | undefined> {
    if (name) {
      const named = this.f.store.byName(name) ?? this.f.store.byId(name);
      if (!named) throw new Error(`No node named '${name}'.`);
      return named;
    }
    const evm = this.f.store.all().filter((n) => n.protocol === 'evm');
    const preferred = [this.f.selectedNode(), this.f.store.defaultNode()].find((n) => n?.protocol === 'evm');
    if (evm.length <= 1 || preferred) {
      const node = preferred ?? evm[0];
      if (!node) void vscode.window.showWarningMessage('No EVM node is configured: add one in the Nodes view first.');
      return node;
    }
    const items = evm.map((node) => ({ label: node.name, node }));
    return (await pickOne(items, { title: 'Decode Contract Storage', placeholder: 'Choose the node to read from' }))?.node;
  }

  private askAddress(title: string): Thenable<string | undefined> {
    return vscode.window
      .showInputBox({
        title,
        prompt: 'The contract address (0x followed by 40 hex digits)',
        value: this.f.lastAddress,
        ignoreFocusOut: true,
        validateInput: (t) => problemOf(() => normaliseAddress(t)),
      })
      .then((t) => (t === undefined ? undefined : normaliseAddress(t)));
  }

  /**
   * The layout, as the CLI finds it: the contract named, else the one whose code is deployed there
   * (at a proxy or clone, the implementation's; at a diamond, every facet's), from the file given
   * or the workspace's artifacts; else the user's choice, those whose code matches first.
   */
  private async layoutFor(node: NodeConfig, address: string, options: DecodeOptions, title: string): Promise<DeployedLayout | undefined> {
    const client = await this.f.store.client(node);
    // At the block decoded, as the CLI does: the implementation live there picks the layout.
    const { proxy, block } = await withProgress(`Looking at ${address} on ${node.name}`, (signal) => detectAt(client, address, options.block ?? 'latest', signal));
    if (/^0x0*$/.test(proxy.code)) throw new Error(`${address} has no code at block ${block.number} on ${node.name}: no contract there to decode.`);
    const match = async (pool: readonly ContractLayout[]) =>
      pool.length ? await withProgress(`Matching ${address} on ${node.name} with the layouts`, (signal) => matchLogic(client, proxy, pool, block.number, signal)) : [];
    if (options.layoutFile) {
      const { layouts } = readLayoutFile(options.layoutFile);
      if (options.contract) return deployedLayout(proxy, [selectLayout(layouts, options.contract, options.layoutFile)]);
      if (candidates(layouts).length === 1) return deployedLayout(proxy, candidates(layouts));
      return this.choose(proxy, layouts, await match(layouts), title, address, match);
    }
    let all = await this.f.layouts.all();
    const isNamed = (l: ContractLayout) => l.contractName === options.contract || layoutName(l) === options.contract;
    if (options.contract && !all.some(isNamed)) all = await this.f.layouts.reload();
    if (options.contract) {
      const named = all.filter(isNamed);
      if (named.length === 0) throw new Error(`No layout of a contract named '${options.contract}' in the workspace's artifacts (out/, artifacts/build-info/).`);
      if (named.length === 1) return deployedLayout(proxy, named);
    }
    let pool = options.contract ? all.filter(isNamed) : all;
    let matched = await match(pool);
    if (matched.every((m) => m.length === 0) && !options.contract) matched = await match((pool = await this.f.layouts.reload()));
    return this.choose(proxy, pool, matched, title, address, match);
  }

  /** The layout by code when the code says (one contract, or a diamond's facets); else asked, the matching ones listed first. */
  private async choose(
    proxy: ProxyInfo,
    pool: readonly ContractLayout[],
    matched: ContractLayout[][],
    title: string,
    address: string,
    /** Matches another pool (a layout file the user opens); without it, no file is offered. */
    match?: (pool: readonly ContractLayout[]) => Promise<ContractLayout[][]>,
  ): Promise<DeployedLayout | undefined> {
    const { picked, matching, others } = choicesByCode(proxy, pool, matched);
    if (picked) return deployedLayout(proxy, picked);
    const what = proxy.kind === 'none' ? 'matches the deployed code' : "matches the implementation's code";
    type Item = vscode.QuickPickItem & { layout?: ContractLayout; file?: boolean };
    const items: Item[] = [
      ...matching.map((layout) => ({ label: layoutTitle(layout), description: what, layout })),
      ...others.map((layout) => ({ label: layoutTitle(layout), description: layout.artifact ? vscode.workspace.asRelativePath(layout.artifact) : undefined, layout })),
      ...(match ? [{ label: '$(file) Choose a Layout File…', detail: 'A solc standard-JSON output, a Foundry artifact, or a Hardhat build-info with the storage layout', file: true }] : []),
    ];
    const placeholder = `The layout of ${describeProxy(proxy) ?? address}`;
    const chosen = await pickOne(items, { title, placeholder });
    if (!chosen) return undefined;
    if (chosen.layout) return deployedLayout(proxy, [chosen.layout]);
    const [uri] = (await vscode.window.showOpenDialog({ title: 'Storage Layout File', canSelectMany: false, filters: { JSON: ['json'] } })) ?? [];
    if (!uri) return undefined;
    const { layouts } = readLayoutFile(uri.fsPath);
    // The file's contracts as the workspace's: by code, else asked with the matching ones first.
    if (candidates(layouts).length === 1) return deployedLayout(proxy, candidates(layouts));
    return match && this.choose(proxy, candidates(layouts), await match(layouts), title, address);
  }

  private async read(node: NodeConfig, address: string, layout: ContractLayout, keys: readonly string[], blocks: string[]): Promise<StorageReading | undefined> {
    const what = `storage of ${address} on ${node.name}`;
    const reading = await withProgress(`Decoding ${what}`, async (signal) =>
      readStorage(await this.f.store.client(node), layout, blocks, {
        address,
        keys,
        signal,
        hints: this.f.settings.limits().hints,
        onWarning: (line) => this.f.log.warn(`Decoding ${what}: ${line}`),
      }),
    );
    this.f.log.info(`Decoded ${what} at block ${reading.blocks.map((b) => b.number).join(' and ')}: ${reading.stats.reads} slot reads in ${reading.stats.roundTrips} round trip(s)`);
    return reading;
  }

  private async readTx(node: NodeConfig, address: string, layout: ContractLayout, keys: readonly string[], hash: string): Promise<TxStorageDiff | undefined> {
    const what = `storage of ${address} on ${node.name}`;
    const diff = await withProgress(`Tracing transaction ${hash.slice(0, 10)}… and decoding ${what}`, async (signal) =>
      txStorageDiff(await this.f.store.client(node), layout, hash, {
        address,
        keys,
        signal,
        hints: this.f.settings.limits().hints,
        onWarning: (line) => this.f.log.warn(`Decoding ${what} around transaction ${hash}: ${line}`),
      }),
    );
    this.f.log.info(
      `Decoded ${what} just before and after transaction ${hash} (block ${diff.trace.block.number}): ${diff.stats.reads} slot reads in ${diff.stats.roundTrips} round trip(s), one trace`,
    );
    return diff;
  }

  private keysOf(node: NodeConfig, address: string): string[] {
    return this.state.get<Record<string, string[]>>(KEYS_STATE)?.[`${node.id}:${address.toLowerCase()}`] ?? [];
  }

  private saveKeys(node: NodeConfig, address: string, keys: string[]): Thenable<void> {
    const all = { ...(this.state.get<Record<string, string[]>>(KEYS_STATE) ?? {}), [`${node.id}:${address.toLowerCase()}`]: keys };
    return this.state.update(KEYS_STATE, all);
  }
}

function isElement(arg: unknown): arg is StorageElement {
  const kind = (arg as { kind?: unknown } | undefined)?.kind;
  return (kind === 'item' && typeof (arg as { item?: unknown }).item === 'object') || kind === 'more';
}
