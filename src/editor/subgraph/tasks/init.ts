/**
 * "Initialise Subgraph…": the prompts of `graph init` (spec: protocol, product, slug, directory,
 * network, contract address, contract name, index events, add another contract) as quick picks
 * and input boxes, each checked live by core's validateGraphInit, then `graph init` run by core
 * with every prompt answered by a flag, with progress and cancel. The ABI comes from a local
 * file. One contract only: more are added afterwards with `graph add`, and the flow says so.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EVM_NETWORKS } from '../../../core/subgraph/manifest/networks';
import { graphInitCommand, normalizeSlug, validateGraphInit, type GraphInitInput } from '../../../core/subgraph/graphcli/commands';
import { withProgress } from '../../kit/progress';
import type { Log } from '../../log';
import { pickOne, pickOrType } from '../pickers';
import type { GraphToolchain } from './toolchain';
import { toolchainName } from '../../../core/subgraph/graphcli/toolchain';

/** The message core has for one field of the form (given what is filled in so far). */
function problemOf(input: GraphInitInput, cwd: string, field: keyof GraphInitInput): string | undefined {
  return validateGraphInit(input, cwd).find((p) => p.field === field)?.message;
}

export async function initSubgraph(f: { log: Log; toolchain: GraphToolchain }): Promise<vscode.Uri | undefined> {
  if (!f.toolchain.requireTrust()) return undefined;
  const title = 'Initialise Subgraph';

  const protocols = [
    { label: 'Ethereum', detail: 'Ethereum and EVM-compatible chains: scaffolded from a contract address and its ABI', protocol: 'ethereum' },
    { label: 'NEAR, Cosmos, Arweave, Substreams…', detail: 'Not scaffolded here: run graph init in a terminal for these', protocol: 'other' },
  ];
  const protocol = await pickOne(protocols, { title, placeholder: 'Blockchain protocol' });
  if (!protocol) return undefined;
  if (protocol.protocol !== 'ethereum') {
    void vscode.window.showInformationMessage(
      'Chaindeck scaffolds Ethereum (EVM) subgraphs from a contract ABI. For other protocols, run `graph init` in a terminal; Chaindeck builds and deploys the result all the same.',
    );
    return undefined;
  }

  // The product decides where a scaffold's own `npm run deploy` points; the files are the same.
  const products = [
    { label: 'A graph-node host', detail: "Deploy with the host's deploy and IPFS URLs (a subgraph record in Chaindeck)", hosted: true },
    { label: 'Subgraph Studio', detail: "The Graph's studio: deploy with its own deploy key and URL", hosted: false },
  ];
  const product = await pickOne(products, { title, placeholder: 'Product to deploy to' });
  if (!product) return undefined;

  const parent = await chooseParent(title);
  if (!parent) return undefined;
  const cwd = parent.fsPath;
  const input: GraphInitInput = { slug: '', directory: '', contractAddress: '', abiPath: '', network: 'mainnet', contractName: '', startBlock: 0, indexEvents: true, protocol: 'ethereum' };
  const ask = (field: keyof GraphInitInput, prompt: string, value: string, placeHolder?: string) =>
    vscode.window.showInputBox({ title, prompt, value, placeHolder, ignoreFocusOut: true, validateInput: (v) => problemOf({ ...input, [field]: v }, cwd, field) });

  // The spec's order: the slug (may be empty: the folder's name is used then), then the folder.
  const slug = await vscode.window.showInputBox({
    title,
    prompt: "The subgraph's slug; may be empty: the folder's name is used then",
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? problemOf({ ...input, slug: v, directory: 'subgraph' }, cwd, 'slug') : undefined),
  });
  if (slug === undefined) return undefined;
  input.slug = slug.trim();
  const directory = await ask('directory', `The folder to create in ${cwd} (graph init creates it; it must not exist yet)`, normalizeSlug(input.slug) || 'my-subgraph');
  if (directory === undefined) return undefined;
  input.directory = directory.trim();

  const network = await pickNetwork(title);
  if (!network) return undefined;
  input.network = network;
  const address = await ask(
    'contractAddress',
    "The contract address (0x…). For a proxy, enter the proxy's address (its events are the ones indexed) and, next, the implementation's ABI.",
    '',
    '0x…',
  );
  if (address === undefined) return undefined;
  input.contractAddress = address.trim();

  const abi = await chooseAbi(title, cwd, (abiPath) => problemOf({ ...input, abiPath }, cwd, 'abiPath'));
  if (!abi) return undefined;
  input.abiPath = abi;
  const name = await ask(
    'contractName',
    'The contract name: it names the data source and the generated classes',
    path
      .basename(abi)
      .replace(/\.(abi\.)?json$/i, '')
      .replace(/[^A-Za-z0-9_]/g, '') || 'Contract',
  );
  if (name === undefined) return undefined;
  input.contractName = name.trim();
  const start = await ask('startBlock', "The first block to index (earlier blocks are skipped: use the contract's deployment block)", '0');
  if (start === undefined) return undefined;
  input.startBlock = start.trim();

  const yesNo = [
    { label: 'Yes', detail: 'One entity per event, with a handler that saves it', yes: true },
    { label: 'No', detail: 'Only the schema and handler stubs', yes: false },
  ];
  const indexEvents = await pickOne(yesNo, { title, placeholder: 'Index contract events as entities?' });
  if (!indexEvents) return undefined;
  input.indexEvents = indexEvents.yes;
  const another = await pickOne(
    [
      { label: 'No', detail: 'Create the subgraph with this one contract', more: false },
      { label: 'Yes', detail: 'Chaindeck sets up one contract; add more afterwards with `graph add <address> --abi <file>` in the new folder', more: true },
    ],
    { title, placeholder: 'Add another contract?' },
  );
  if (!another) return undefined;

  // No project yet: a missing CLI is offered globally.
  const found = await f.toolchain.resolve(cwd, 'global');
  if ('missing' in found) {
    void vscode.window.showErrorMessage(found.missing);
    return undefined;
  }
  const tool = toolchainName(found.toolchain);
  const command = graphInitCommand(input, cwd);
  f.log.info(`${tool} init ${input.directory} in ${cwd}`);
  const run = await withProgress(`${tool} init`, (signal, progress) => {
    for (const note of command.notes) progress(note);
    return f.toolchain.run(command, {
      toolchain: found.toolchain,
      cwd,
      signal,
      out: (text) => {
        const line = text.trim().split('\n').pop()?.trim();
        if (line) progress(line.slice(0, 120));
      },
    });
  });
  if (!run.outcome.ok) {
    f.log.error(`${tool} init: ${run.outcome.summary}\n${run.output}`);
    if (!run.cancelled) void vscode.window.showErrorMessage(run.outcome.summary, 'Show Log').then((c) => c && f.log.show());
    return undefined;
  }
  f.log.info(run.outcome.summary);
  const folder = vscode.Uri.file(path.resolve(cwd, input.directory));
  const next = another.more ? ` Add the other contracts with \`${tool} add <address> --abi <file>\` in ${input.directory}.` : '';
  const deploy = product.hosted ? " Add a subgraph record with your host's URLs to deploy it." : '';
  const open = await vscode.window.showInformationMessage(
    `${run.outcome.summary} Install its dependencies (npm install) before building.${next}${deploy}`,
    'Open Folder',
    'Open in New Window',
    'Add to Workspace',
  );
  if (open === 'Open Folder') await vscode.commands.executeCommand('vscode.openFolder', folder);
  else if (open === 'Open in New Window') await vscode.commands.executeCommand('vscode.openFolder', folder, { forceNewWindow: true });
  else if (open === 'Add to Workspace') vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri: folder });
  return folder;
}

/** The folder the new subgraph folder goes in: a workspace folder, or one browsed to. */
async function chooseParent(title: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const items = [
    ...folders.map((folder) => ({ label: `$(root-folder) ${folder.name}`, detail: folder.uri.fsPath, uri: folder.uri as vscode.Uri | undefined })),
    { label: '$(folder-opened) Browse…', detail: 'Another folder', uri: undefined },
  ];
  const chosen = items.length === 1 ? items[0] : await pickOne(items, { title, placeholder: 'Create the subgraph folder in…' });
  if (!chosen) return undefined;
  if (chosen.uri) return chosen.uri;
  const [picked] = (await vscode.window.showOpenDialog({ title, canSelectFolders: true, canSelectFiles: false, openLabel: 'Create Subgraph Here' })) ?? [];
  return picked;
}

/** An EVM network of graph-cli's list, or another name typed. */
function pickNetwork(title: string): Promise<string | undefined> {
  const networks = EVM_NETWORKS.map((n) => ({ id: n, label: n }));
  return pickOrType(title, 'Network (type to filter, or to enter another name)', networks, 'mainnet');
}

/** An ABI file: one found in the workspace (abis folders, *.abi.json), or one picked from disk. */
async function chooseAbi(title: string, cwd: string, problem: (abiPath: string) => string | undefined): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles('{**/abis/*.json,**/abi/*.json,**/*.abi.json}', '{**/node_modules/**,**/build/**}', 200);
  const items = [
    ...found.map((uri) => ({ label: `$(json) ${path.basename(uri.fsPath)}`, detail: vscode.workspace.asRelativePath(uri), file: uri.fsPath as string | undefined })),
    { label: '$(folder-opened) Browse…', detail: "A JSON file with the contract's ABI (an array); for a proxy, the implementation's", file: undefined },
  ];
  for (;;) {
    const chosen = await pickOne(items, { title, placeholder: "The contract's ABI" });
    if (!chosen) return undefined;
    let file = chosen.file;
    if (!file) {
      const [picked] =
        (await vscode.window.showOpenDialog({ title, canSelectFiles: true, filters: { 'ABI (JSON)': ['json'] }, defaultUri: vscode.Uri.file(cwd), openLabel: 'Use This ABI' })) ?? [];
      if (!picked) continue;
      file = picked.fsPath;
    }
    const wrong = problem(file);
    if (!wrong) return file;
    // Core says why (not an array, no events…): pick again.
    void vscode.window.showWarningMessage(wrong);
  }
}
