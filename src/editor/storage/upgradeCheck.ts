/**
 * "Check Upgrade Against…" (the CodeLens over `contract X`, or the palette): X's layout from the
 * workspace's artifacts compared by the upgrade rules with the layout of what it replaces — the
 * one live at a deployed address (the artifact whose code is there, or at the implementation of a
 * proxy or clone, a diamond's facets; then the storage X adds must be zero there too), the one committed
 * at a git ref, or a layout file. Findings go to Problems on the lines they name.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkAddedStorage } from '../../core/storage/compat/onchain';
import { findingText, placeFindings } from '../../core/storage/compat/locate';
import { layoutsAtRef } from '../../core/storage/compat/gitRef';
import { compareLayouts, type CompatFinding } from '../../core/storage/compat/rules';
import { candidates, matchLogic, mergeLayouts, pickedOf } from '../../core/storage/deployed/pick';
import { describeProxy } from '../../core/storage/deployed/proxy';
import { detectAt } from '../../core/storage/deployed/read';
import { normaliseAddress } from '../../core/storage/inputs';
import { layoutName, readLayoutFile, selectLayout, type ContractLayout } from '../../core/storage/layout';
import { contractDeclarations } from '../../core/storage/soliditySource';
import type { NodeConfig } from '../../core/nodes/model';
import { problemOf } from '../kit/errors';
import { withProgress } from '../kit/progress';
import { pickOne, resolveNode } from '../nodes/pickers';
import type { StorageFeature } from './feature';
import { layoutTitle } from './layouts';

/** What the check compares with: a deployed address on a node, a git ref, or a layout file. */
export type UpgradeBase = { node?: string; address: string } | { ref: string } | { layoutFile: string; contract?: string };

/** Options of "Check Upgrade Against…"; what is not given is asked. */
export interface CheckUpgradeOptions {
  /** The new version: NAME or PATH:NAME among the workspace's layouts (the CodeLens passes it). */
  contract?: string;
  /** The Solidity file whose lines get the findings (a URI); default: the active editor's. */
  file?: string;
  against?: UpgradeBase;
}

/** What the check resolves with: what it compared and found, and where Problems shows it. */
export interface UpgradeCheckSummary {
  contract: string;
  against: string;
  findings: CompatFinding[];
  problems: { line: number; message: string; severity: 'error' | 'warning' }[];
}

interface Base {
  layout: ContractLayout;
  /** "Box (contracts/Box.sol) at 0x… on Local anvil", "Box at v1.2.0". */
  label: string;
  /** Where the new layout's added storage must be zero. */
  chain?: { node: NodeConfig; address: string };
}

export class UpgradeCheck implements vscode.Disposable {
  private readonly problems = vscode.languages.createDiagnosticCollection('chaindeck-upgrade');

  constructor(
    private readonly f: StorageFeature,
    private readonly isTrusted: () => boolean = () => vscode.workspace.isTrusted,
  ) {}

  async check(arg?: unknown): Promise<UpgradeCheckSummary | undefined> {
    const options = (arg ?? {}) as CheckUpgradeOptions;
    const file = options.file ? vscode.Uri.parse(options.file) : vscode.window.activeTextEditor?.document.uri;
    const target = await this.target(options.contract, file);
    if (!target) return undefined;
    const title = `Check ${target.contractName}'s Upgrade`;
    const against = options.against ?? (await this.askBase(title));
    if (!against) return undefined;
    const base = 'address' in against ? await this.deployed(against, target, title) : 'ref' in against ? await this.atRef(against.ref, target, file) : this.fromFile(against, target);
    if (!base) return undefined;
    this.problems.clear();
    const result = compareLayouts(base.layout, target);
    const findings = [...result.findings];
    const chain = base.chain;
    if (chain) {
      const onChain = await withProgress(`Checking the storage ${target.contractName} adds at ${chain.address}`, async (signal) =>
        checkAddedStorage(await this.f.store.client(chain.node), chain.address, result.added, signal),
      );
      findings.push(...onChain);
    }
    const summary: UpgradeCheckSummary = { contract: layoutName(target), against: base.label, findings, problems: [] };
    if (file) summary.problems = await this.show(file, target.contractName, findings);
    for (const f of findings) this.f.log.info(`Upgrade check of ${target.contractName} against ${base.label}: ${f.severity}: ${findingText(f)}`);
    const errors = findings.filter((f) => f.severity === 'error').length;
    const counts = `${errors} error${errors === 1 ? '' : 's'}, ${findings.length - errors} warning${findings.length - errors === 1 ? '' : 's'}`;
    if (errors) void vscode.window.showErrorMessage(`${target.contractName} does not keep the storage layout of ${base.label}: ${counts}, in Problems.`);
    else
      void vscode.window.showInformationMessage(
        `${target.contractName} keeps the storage layout of ${base.label} (${counts}; ${result.added.length} added${chain ? ', zero on chain' : ''}).`,
      );
    return summary;
  }

  /** The findings on their lines in `file`, replacing the last check's. */
  private async show(file: vscode.Uri, contract: string, findings: CompatFinding[]): Promise<UpgradeCheckSummary['problems']> {
    const text = (await vscode.workspace.openTextDocument(file)).getText();
    const diagnostics = placeFindings(text, contract, findings).map((p) => {
      const message = `${findingText(p.finding)}${p.exact ? '' : ' (not declared in this contract)'}`;
      const d = new vscode.Diagnostic(
        new vscode.Range(p.line, p.start, p.line, p.end),
        message,
        p.finding.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'chaindeck-upgrade';
      d.code = p.finding.kind;
      return d;
    });
    this.problems.set(file, diagnostics);
    return diagnostics.map((d) => ({ line: d.range.start.line, message: d.message, severity: d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning' }));
  }

  /** The new version: the contract named, else the one (or the chosen one) of the file that has a layout. */
  private async target(contract: string | undefined, file: vscode.Uri | undefined): Promise<ContractLayout | undefined> {
    const withState = (ls: ContractLayout[]) => ls.filter((l) => l.storage.length > 0);
    const isNamed = (l: ContractLayout) => layoutName(l) === contract || l.contractName === contract;
    let all = withState(await this.f.layouts.all());
    // A build may have written files no watcher reported yet: read them again before saying there is none.
    if (contract && !all.some(isNamed)) all = withState(await this.f.layouts.reload());
    if (contract) {
      const found = all.filter(isNamed);
      if (!found.length) throw new Error(`No layout of ${contract} in the workspace's artifacts (out/, artifacts/build-info/): build it with the storage layout first.`);
      return found[0];
    }
    const text = file ? (await vscode.workspace.openTextDocument(file)).getText() : '';
    const names = new Set(contractDeclarations(text).map((d) => d.name));
    const here = all.filter((l) => names.has(l.contractName));
    if (!here.length) throw new Error('Open a Solidity file whose contract the workspace has built (out/, artifacts/build-info/), or use the CodeLens over `contract X`.');
    if (here.length === 1) return here[0];
    return (
      await pickOne(
        here.map((layout) => ({ label: layoutTitle(layout), layout })),
        { title: 'Check Upgrade', placeholder: 'The new version to check' },
      )
    )?.layout;
  }

  private async askBase(title: string): Promise<UpgradeBase | undefined> {
    type Item = vscode.QuickPickItem & { base: 'address' | 'ref' | 'file' };
    const items: Item[] = [
      { label: '$(server) A Deployed Address…', detail: 'The layout live there (its code, or its ERC-1967 implementation’s), and its storage checked', base: 'address' },
      { label: '$(git-commit) A Git Ref…', detail: this.isTrusted() ? 'The compiler output committed at a branch, tag or commit' : 'Only in a trusted workspace', base: 'ref' },
      { label: '$(file) A Layout File…', detail: 'A solc standard-JSON output, a Foundry artifact or a Hardhat build-info of the old version', base: 'file' },
    ];
    const chosen = await pickOne(items, { title, placeholder: 'What the upgrade replaces' });
    if (!chosen) return undefined;
    if (chosen.base === 'address') {
      const address = await vscode.window.showInputBox({
        title,
        prompt: 'The deployed contract (the proxy, for a proxied one)',
        value: this.f.lastAddress,
        ignoreFocusOut: true,
        validateInput: (t) => problemOf(() => normaliseAddress(t.trim())),
      });
      return address === undefined ? undefined : { address: address.trim() };
    }
    if (chosen.base === 'ref') {
      const ref = await vscode.window.showInputBox({ title, prompt: 'A branch, tag or commit (e.g. main, v1.2.0, HEAD~1)', value: 'HEAD', ignoreFocusOut: true });
      return ref?.trim() ? { ref: ref.trim() } : undefined;
    }
    const [uri] = (await vscode.window.showOpenDialog({ title: 'Layout File of the Old Version', canSelectMany: false, filters: { JSON: ['json'] } })) ?? [];
    return uri ? { layoutFile: uri.fsPath } : undefined;
  }

  /** The layout live at a deployed address: the artifact whose code is there, or at its implementation (any proxy kind the decode knows). */
  private async deployed(against: { node?: string; address: string }, target: ContractLayout, title: string): Promise<Base | undefined> {
    const named = against.node ? (this.f.store.byName(against.node) ?? this.f.store.byId(against.node)) : undefined;
    if (against.node && !named) throw new Error(`No node named '${against.node}'.`);
    const node = named ?? (await resolveNode(this.f.store, undefined, title, this.f.selectedNode() ?? this.f.store.defaultNode()));
    if (!node) return undefined;
    if (node.protocol !== 'evm') throw new Error(`${node.name} is not an EVM node: contract storage is read with eth_getStorageAt.`);
    const address = normaliseAddress(against.address);
    this.f.lastAddress = address;
    // At a proxy, clone or diamond the state is the logic's: the implementation's (facets') code picks the layout.
    // The address is looked at once; the artifacts are read again only when none has that code.
    const client = await this.f.store.client(node);
    const { proxy, block } = await withProgress(`Reading the code at ${address} on ${node.name}`, (signal) => detectAt(client, address, 'latest', signal));
    if (/^0x0*$/.test(proxy.code)) throw new Error(`No contract at ${address} on ${node.name}.`);
    const match = (layouts: ContractLayout[]) =>
      withProgress(`Matching ${address} on ${node.name} with the workspace's artifacts`, (signal) => matchLogic(client, proxy, layouts, block.number, signal));
    let matched = await match(candidates(await this.f.layouts.all()));
    if (!matched.some((m) => m.length)) matched = await match(candidates(await this.f.layouts.reload()));
    const where = describeProxy(proxy) ? `${address} (${describeProxy(proxy)})` : address;
    const found = [...new Set(matched.flatMap((m) => m))];
    if (!found.length) {
      throw new Error(`No layout in the workspace's artifacts has the code deployed at ${where} on ${node.name}: build the deployed version, or check against a git ref or a layout file.`);
    }
    // Each logic address (a diamond's facets) gives its layout; for one, the same contract as the new version's first, else the user's choice.
    const layout =
      matched.length > 1
        ? mergeLayouts(pickedOf(matched))
        : found.length === 1 || found.some((l) => l.contractName === target.contractName)
          ? (found.find((l) => l.contractName === target.contractName) ?? found[0])
          : (
              await pickOne(
                found.map((l) => ({ label: layoutTitle(l), layout: l })),
                { title, placeholder: `The artifacts with the code at ${where}` },
              )
            )?.layout;
    if (!layout) return undefined;
    const proxied = describeProxy(proxy, [layout.contractName]);
    return { layout, label: `${layout.contractName} at ${address} on ${node.name}${proxied ? ` — ${proxied}` : ''}`, chain: { node, address } };
  }

  /** X's layout as committed at a git ref (read in the repository holding the file; never in an untrusted workspace). */
  private async atRef(ref: string, target: ContractLayout, file: vscode.Uri | undefined): Promise<Base> {
    if (!this.isTrusted())
      throw new Error('A git ref is read only in a trusted workspace (Chaindeck runs git there): trust the workspace, or check against a deployed address or a layout file.');
    const folder = file && file.scheme === 'file' ? path.dirname(file.fsPath) : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error('Open the workspace folder that holds the repository to check against a git ref.');
    const { commit, layouts } = await withProgress(`Reading the layouts committed at ${ref}`, (signal) => layoutsAtRef(folder, ref, { signal }));
    const layout = sameContract(layouts, target);
    if (!layout) throw new Error(`${ref} (${commit.slice(0, 10)}) has compiler output, but none of ${target.contractName}: it did not exist there, or was not built.`);
    return { layout, label: `${target.contractName} at ${ref}` };
  }

  private fromFile(against: { layoutFile: string; contract?: string }, target: ContractLayout): Base {
    const { layouts } = readLayoutFile(against.layoutFile);
    const layout = against.contract ? selectLayout(layouts, against.contract, against.layoutFile) : (sameContract(layouts, target) ?? selectLayout(layouts, undefined, against.layoutFile));
    return { layout, label: `${layout.contractName} of ${path.basename(against.layoutFile)}` };
  }

  dispose(): void {
    this.problems.dispose();
  }
}

/** The layout of the same contract among others: by name, from the same source when several. */
function sameContract(layouts: readonly ContractLayout[], target: ContractLayout): ContractLayout | undefined {
  const named = layouts.filter((l) => l.contractName === target.contractName && l.storage.length > 0);
  const bare = (s: string) => s.replace(/\\/g, '/').replace(/^project\//, '');
  return named.find((l) => bare(l.source) === bare(target.source)) ?? named[0];
}
