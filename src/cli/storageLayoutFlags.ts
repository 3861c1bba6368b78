/**
 * What `storage-decode` and `storage-diff` share: their options (the node, the contract, the
 * layout file and the contract in it, the output format), the layout read from the file, and the
 * table output.
 */
import type { ContractLayout } from '../core/storage/layout';
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
  contract: { type: 'string', value: 'NAME', help: 'the contract in FILE, as NAME or PATH:NAME; needed when FILE holds several' },
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

/**
 * The layout FILE holds for `contract`; a LayoutFileError when it cannot, or a UsageError (exit 2)
 * when only a --contract choice is missing.
 */
export async function layoutFromFile(file: string, contract: string | undefined): Promise<ContractLayout> {
  const { readLayoutFile } = await import('../core/storage/layout');
  return chooseLayout(readLayoutFile(file).layouts, contract, file);
}

/** The layout `contract` names among a file's layouts (selectLayout), a missing --contract choice as a UsageError. */
export async function chooseLayout(layouts: readonly ContractLayout[], contract: string | undefined, file: string): Promise<ContractLayout> {
  const { LayoutFileError, selectLayout } = await import('../core/storage/layout');
  try {
    return selectLayout(layouts, contract, file);
  } catch (err) {
    if (err instanceof LayoutFileError && err.reason === 'ambiguous') throw new UsageError(err.message);
    throw err;
  }
}

const MAX_CELL = 120;

/** A value as a table cell: text as it is (a string type in JSON quotes, so spaces show), the rest as JSON; long cells cut. */
export function cell(value: unknown, quote = false): string {
  const text = typeof value === 'string' && !quote ? value : JSON.stringify(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}
