/**
 * What `storage-decode` and `storage-diff` share: their options (the node, the contract, the
 * layout file and the contract in it, the output format), the layout read from the file, and the
 * table output.
 */
import type { DeployedOptions, DeployedReading } from '../core/storage/deployed/read';
import type { ContractLayout } from '../core/storage/layout';
import type { StorageRpc } from '../core/storage/types';
import { normaliseAddress, parseBlockRef } from '../core/storage/inputs';
import { UsageError, type OptionSpec } from './args';
import { nodeOptions } from './endpointFlags';

export const FORMATS = ['json', 'table'] as const;
export type OutputFormat = (typeof FORMATS)[number];

export const LAYOUT_FILE_HELP =
  'a solc standard-JSON output, a Foundry artifact (out/<File>.sol/<Name>.json, built with --extra-output storageLayout), a Hardhat 2 build-info (artifacts/build-info/<id>.json) or a Hardhat 3 build-info output (<id>.output.json); the compiler must have been asked for storageLayout';

export const sharedOptions = {
  ...nodeOptions("the node's endpoint; an access key in the path is used"),
  address: { type: 'string', value: 'ADDR', help: 'the contract (any case; a mixed-case address must carry a valid EIP-55 checksum)' },
  contract: { type: 'string', value: 'NAME', help: "the contract in FILE, as NAME or PATH:NAME; without it, the one whose code is deployed at ADDR (at a proxy, the implementation's)" },
  format: { type: 'string', value: 'F', help: 'json (default): one JSON array; table: aligned columns for reading' },
} satisfies Record<string, OptionSpec>;

/** The address flag, checked: a usage error when it is no address. */
export function addressFlag(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--address is required');
  try {
    return normaliseAddress(value);
  } catch (err) {
    throw new UsageError(`--address: ${(err as Error).message}`);
  }
}

/** A block flag, checked (hash, decimal or 0x number, or a tag). */
export function blockFlag(name: string, value: string | undefined, fallback?: string): string {
  const v = value ?? fallback;
  if (v === undefined) throw new UsageError(`--${name} is required`);
  try {
    parseBlockRef(v);
  } catch (err) {
    throw new UsageError(`--${name}: ${(err as Error).message}`);
  }
  return v;
}

export function formatFlag(value: string | undefined): OutputFormat {
  const format = FORMATS.find((f) => f === (value ?? 'json'));
  if (!format) throw new UsageError(`--format is json or table, not '${value}'`);
  return format;
}

/** A LayoutFileError that only a missing --contract choice caused, as the UsageError (exit 2) it is. */
function usageOf(err: unknown, isLayoutFileError: (e: unknown) => e is { reason: string; message: string }): unknown {
  return isLayoutFileError(err) && err.reason === 'ambiguous' ? new UsageError(err.message) : err;
}

/**
 * The storage at ADDR decoded as deployed: FILE's contract named by --contract, or else the one
 * whose code is there (at a proxy or clone, the implementation's; at a diamond, the facets').
 * None matching is a UsageError (exit 2) that lists the candidates.
 */
export async function readAsDeployed(
  client: StorageRpc,
  file: string,
  contract: string | undefined,
  blocks: string[],
  options: Omit<DeployedOptions, 'chosen' | 'file'>,
  /** FILE's layouts, when already read (layoutsOf). */
  read?: { layouts: ContractLayout[]; chosen?: ContractLayout },
): Promise<DeployedReading> {
  const [{ LayoutFileError }, { readDeployed }] = await Promise.all([import('../core/storage/layout'), import('../core/storage/deployed/read')]);
  const isLayoutFileError = (e: unknown): e is InstanceType<typeof LayoutFileError> => e instanceof LayoutFileError;
  const { layouts, chosen } = read ?? (await layoutsOf(file, contract));
  try {
    return await readDeployed(client, layouts, blocks, { ...options, chosen, file });
  } catch (err) {
    throw usageOf(err, isLayoutFileError);
  }
}

/** FILE's layouts and the one --contract names (a missing choice among several of that name a UsageError). */
export async function layoutsOf(file: string, contract: string | undefined): Promise<{ layouts: ContractLayout[]; chosen?: ContractLayout }> {
  const { LayoutFileError, readLayoutFile, selectLayout } = await import('../core/storage/layout');
  const isLayoutFileError = (e: unknown): e is InstanceType<typeof LayoutFileError> => e instanceof LayoutFileError;
  try {
    const { layouts } = readLayoutFile(file);
    return { layouts, chosen: contract === undefined ? undefined : selectLayout(layouts, contract, file) };
  } catch (err) {
    throw usageOf(err, isLayoutFileError);
  }
}

const MAX_CELL = 120;

/** A value as a table cell: text as it is (a string type in JSON quotes, so spaces show), the rest as JSON; long cells cut. */
export function cell(value: unknown, quote = false): string {
  const text = typeof value === 'string' && !quote ? value : JSON.stringify(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}
