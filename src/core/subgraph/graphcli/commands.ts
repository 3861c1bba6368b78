/**
 * The graph CLI's command lines as argument vectors (never shell strings), each input checked
 * before the CLI sees it. Secrets never appear here: URLs keep the record's `{key}` placeholder
 * and a deploy key is the DEPLOY_KEY_PLACEHOLDER; launch.ts puts the real values in only inside
 * the CLI's own process.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { getAddress } from 'ethers';
import { KEY_PLACEHOLDER } from '../graphnode/records';
import { FILE_CAPS, fileErrorOf, readTextFile } from '../../files';

/** Stands for the deploy key in a deploy command line; replaced inside the CLI's process only. */
export const DEPLOY_KEY_PLACEHOLDER = '{deployKey}';

export type GraphSubcommand = 'init' | 'codegen' | 'build' | 'deploy' | 'create' | 'remove';

export interface GraphCommand {
  subcommand: GraphSubcommand;
  /** Arguments after `graph`, placeholders included: safe to show, log and store. */
  args: readonly string[];
  /** The manifest the command reads (relative to the subgraph folder), for problem locations. */
  manifest: string;
  /** Notes for the user about how inputs were adjusted (e.g. the slug the CLI will use). */
  notes: readonly string[];
  /** The subgraph's name on the host, for deploy and create. */
  subgraphName?: string;
}

/** One input that cannot be used, named by the form field it came from. */
export interface InputProblem {
  field: string;
  message: string;
}

export class GraphInputError extends Error {
  override readonly name = 'GraphInputError';
  constructor(readonly problems: readonly InputProblem[]) {
    super(problems.map((p) => p.message).join(' '));
  }
}

const DEFAULT_MANIFEST = 'subgraph.yaml';

/** The CLI's command line as a user would type it, for terminals and logs. */
export function displayCommand(command: Pick<GraphCommand, 'args'>): string {
  return ['graph', ...command.args].map(shellQuoteForDisplay).join(' ');
}

function shellQuoteForDisplay(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------------
// graph init

export interface GraphInitInput {
  /** Subgraph slug; may be empty (the spec's prompt allows it): the folder's name is used then. */
  slug: string;
  /** Folder to create; relative paths are taken from `cwd`. Must not exist. */
  directory: string;
  /** Contract address: for a proxy, the address whose events are indexed (the proxy's). */
  contractAddress: string;
  /** ABI file (JSON array); for a proxy, the implementation contract's ABI. */
  abiPath: string;
  network: string;
  contractName: string;
  startBlock: number | string;
  /** Index every event as an entity (the CLI's --index-events); default true. */
  indexEvents?: boolean;
  /** Only 'ethereum' scaffolds from a contract with a local ABI. */
  protocol?: string;
}

/**
 * What `graph init` does to a slug (formatSubgraphName in graph-cli 0.98): lower case, spaces to
 * '-', anything but a-z, 0-9, '_' and '-' dropped, so 'my-team/erc20' becomes 'my-teamerc20'.
 */
export function normalizeSlug(slug: string): string {
  return slug
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9_-]/g, '');
}

/** An address the CLI and graph-node accept: 0x and 40 hex digits, with a right checksum if mixed case. */
export function addressProblem(address: string): string | undefined {
  const text = address.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) {
    return `Contract address '${text}' is not an address: 0x followed by 40 hex digits. For a proxy, enter the proxy's address (its events are indexed) and use the implementation's ABI.`;
  }
  if (/[a-f]/.test(text.slice(2)) && /[A-F]/.test(text.slice(2))) {
    try {
      getAddress(text);
    } catch {
      return `Contract address '${text}' has a wrong EIP-55 checksum (mixed case that does not match): check for a typo, or enter it all in lower case.`;
    }
  }
  return undefined;
}

function abiProblem(abiPath: string): string | undefined {
  if (!abiPath.trim()) return 'Choose the contract ABI file (JSON).';
  let text: string;
  try {
    text = readTextFile(abiPath, FILE_CAPS.abi);
  } catch (err) {
    return `ABI file: ${fileErrorOf(abiPath, err).message}.`;
  }
  let abi: unknown;
  try {
    abi = JSON.parse(text);
  } catch (err) {
    return `ABI file ${abiPath} is not JSON: ${(err as Error).message}`;
  }
  // Hardhat and Foundry artifacts wrap the ABI in an object: the CLI wants the array itself.
  const list = Array.isArray(abi) ? abi : undefined;
  if (!list) return `ABI file ${abiPath} is not an ABI: expected a JSON array (for a compiler artifact, use its "abi" array).`;
  if (!list.some((e) => (e as { type?: unknown })?.type === 'event')) {
    return `ABI file ${abiPath} declares no events: a subgraph indexes events, so there would be nothing to index.`;
  }
  return undefined;
}

/** Checks every init input; empty when the command can run. */
export function validateGraphInit(input: GraphInitInput, cwd: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const protocol = input.protocol ?? 'ethereum';
  if (protocol !== 'ethereum') {
    problems.push({ field: 'protocol', message: `Scaffolding from a contract with a local ABI works for protocol 'ethereum' (EVM chains), not '${protocol}'.` });
  }
  const directory = input.directory.trim();
  if (!directory) {
    problems.push({ field: 'directory', message: 'Choose the folder to create the subgraph in.' });
  } else if (existsSync(path.resolve(cwd, directory))) {
    // The CLI would ask whether to overwrite, and fail without a terminal to answer.
    problems.push({ field: 'directory', message: `Folder ${directory} already exists: choose a new folder (graph init creates it).` });
  }
  if (!normalizeSlug(input.slug || path.basename(directory))) {
    problems.push({ field: 'slug', message: 'The subgraph slug is empty once reduced to a-z, 0-9, - and _: enter a slug.' });
  }
  const address = addressProblem(input.contractAddress);
  if (address) problems.push({ field: 'contractAddress', message: address });
  const abi = abiProblem(input.abiPath.trim() ? path.resolve(cwd, input.abiPath) : '');
  if (abi) problems.push({ field: 'abiPath', message: abi });
  if (!/^[a-z0-9][a-z0-9-]*$/.test(input.network.trim())) {
    problems.push({ field: 'network', message: `Network '${input.network}' is not a network name (e.g. mainnet, sepolia, matic).` });
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(input.contractName.trim())) {
    problems.push({
      field: 'contractName',
      message: `Contract name '${input.contractName}' must be an identifier (letters, digits, _; not starting with a digit): it names the data source and generated classes.`,
    });
  }
  if (!/^\d+$/.test(String(input.startBlock).trim())) {
    problems.push({ field: 'startBlock', message: `Start block '${input.startBlock}' must be a whole block number (0 or more).` });
  }
  return problems;
}

/**
 * `graph init` with every prompt answered by a flag, so it runs without a terminal. An empty
 * slug would make the CLI fall back to its interactive form (and fail without a terminal), so
 * the folder's name stands in, as the CLI itself suggests in that form.
 */
export function graphInitCommand(input: GraphInitInput, cwd: string): GraphCommand {
  const problems = validateGraphInit(input, cwd);
  if (problems.length) throw new GraphInputError(problems);
  const directory = input.directory.trim();
  const given = input.slug.trim();
  const slug = normalizeSlug(given || path.basename(directory));
  const notes: string[] = [];
  if (!given) notes.push(`No slug given: using '${slug}', from the folder name.`);
  else if (slug !== given) notes.push(`The graph CLI turns the slug '${given}' into '${slug}'.`);
  const args = [
    'init',
    slug,
    directory,
    '--protocol',
    'ethereum',
    '--from-contract',
    input.contractAddress.trim(),
    '--abi',
    input.abiPath,
    '--network',
    input.network.trim(),
    '--contract-name',
    input.contractName.trim(),
    '--start-block',
    String(input.startBlock).trim(),
    ...(input.indexEvents === false ? [] : ['--index-events']),
    '--skip-install',
    '--skip-git',
  ];
  return { subcommand: 'init', args, manifest: path.join(directory, DEFAULT_MANIFEST), notes };
}

// ---------------------------------------------------------------------------------------------
// graph codegen / build

/** `graph codegen`; migrations skipped so the CLI never rewrites the user's manifest. */
export function graphCodegenCommand(manifest = DEFAULT_MANIFEST): GraphCommand {
  return { subcommand: 'codegen', args: ['codegen', ...manifestArg(manifest), '--skip-migrations'], manifest, notes: [] };
}

/** `graph build --skip-migrations` (without it the CLI may bump apiVersion in subgraph.yaml). */
export function graphBuildCommand(manifest = DEFAULT_MANIFEST): GraphCommand {
  return { subcommand: 'build', args: ['build', ...manifestArg(manifest), '--skip-migrations'], manifest, notes: [] };
}

function manifestArg(manifest: string): string[] {
  return manifest === DEFAULT_MANIFEST ? [] : [manifest];
}

// ---------------------------------------------------------------------------------------------
// graph deploy / create

export interface GraphDeployInput {
  /** The subgraph's name on the host (positional argument). */
  name: string;
  versionLabel: string;
  /** Deploy URL template from the record ({key} stays a placeholder). */
  deployUrl: string;
  /** IPFS URL template from the record. */
  ipfsUrl: string;
  /** Send the stored deploy key (as DEPLOY_KEY_PLACEHOLDER here). */
  useDeployKey: boolean;
  manifest?: string;
}

const NAME = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

function urlProblem(value: string, field: string, label: string): InputProblem | undefined {
  let url: URL;
  try {
    url = new URL(value.split(KEY_PLACEHOLDER).join('KEY'));
  } catch {
    return { field, message: `The ${label} is not a valid URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { field, message: `The ${label} must be an http(s) URL.` };
  return undefined;
}

export function validateGraphDeploy(input: GraphDeployInput): InputProblem[] {
  const problems: InputProblem[] = [];
  if (!NAME.test(input.name)) {
    problems.push({ field: 'name', message: `Subgraph name '${input.name}': use letters, digits, '-', '_' and '/' between parts.` });
  }
  const label = input.versionLabel;
  // Free text per the spec, but it becomes part of the query URL and a command-line argument.
  if (!label.trim()) problems.push({ field: 'versionLabel', message: 'Enter a version label (e.g. v0.0.1).' });
  else if (/[\s{}]/.test(label) || label.length > 100) {
    problems.push({ field: 'versionLabel', message: `Version label '${label}': no spaces or braces, at most 100 characters (it becomes part of the query URL).` });
  }
  const deploy = urlProblem(input.deployUrl, 'deployUrl', 'deploy URL');
  if (deploy) problems.push(deploy);
  const ipfs = urlProblem(input.ipfsUrl, 'ipfsUrl', 'IPFS URL');
  if (ipfs) problems.push(ipfs);
  return problems;
}

/** `graph deploy --node <deploy_url> --ipfs <ipfs_url> <name> --version-label <label> [--deploy-key …]`. */
export function graphDeployCommand(input: GraphDeployInput): GraphCommand {
  const problems = validateGraphDeploy(input);
  if (problems.length) throw new GraphInputError(problems);
  const manifest = input.manifest ?? DEFAULT_MANIFEST;
  const args = [
    'deploy',
    '--node',
    input.deployUrl,
    '--ipfs',
    input.ipfsUrl,
    input.name,
    ...manifestArg(manifest),
    '--version-label',
    input.versionLabel,
    '--skip-migrations',
    ...(input.useDeployKey ? ['--deploy-key', DEPLOY_KEY_PLACEHOLDER] : []),
  ];
  return { subcommand: 'deploy', args, manifest, notes: [], subgraphName: input.name };
}

/** `graph create --node <deploy_url> <name>` (graph-node's subgraph_create): what a 404 on deploy asks for. */
export function graphCreateCommand(input: Pick<GraphDeployInput, 'name' | 'deployUrl' | 'useDeployKey'>): GraphCommand {
  return nameCommand('create', input);
}

/** `graph remove --node <deploy_url> <name>` (graph-node's subgraph_remove): the name and its versions go. */
export function graphRemoveCommand(input: Pick<GraphDeployInput, 'name' | 'deployUrl' | 'useDeployKey'>): GraphCommand {
  return nameCommand('remove', input);
}

function nameCommand(subcommand: 'create' | 'remove', input: Pick<GraphDeployInput, 'name' | 'deployUrl' | 'useDeployKey'>): GraphCommand {
  const problems = [
    ...(NAME.test(input.name) ? [] : [{ field: 'name', message: `Subgraph name '${input.name}': use letters, digits, '-', '_' and '/' between parts.` }]),
    ...[urlProblem(input.deployUrl, 'deployUrl', 'deploy URL')].filter((p): p is InputProblem => !!p),
  ];
  if (problems.length) throw new GraphInputError(problems);
  const args = [subcommand, '--node', input.deployUrl, input.name, ...(input.useDeployKey ? ['--access-token', DEPLOY_KEY_PLACEHOLDER] : [])];
  return { subcommand, args, manifest: DEFAULT_MANIFEST, notes: [], subgraphName: input.name };
}
