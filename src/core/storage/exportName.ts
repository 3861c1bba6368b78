/**
 * The file name an exported storage page is offered under: it says which contract and which
 * block, so two exports never look alike, e.g. `storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-123.csv`
 * or, with a matched storage layout, `storage-Counter-0x5fbdb231-block-123-page-2.json`.
 */

export interface ExportNameInput {
  address: string;
  /** The matched layout's contract, e.g. "Counter (src/Counter.sol)": its first word is used. */
  contract?: string;
  block: string | number | bigint;
  /** 1-based; only pages after the first are named. */
  page?: number;
  format: 'csv' | 'json';
}

export function storageExportName({ address, contract, block, page = 1, format }: ExportNameInput): string {
  const hex = address.trim().toLowerCase();
  // Only characters that are safe in a file name on every system, at a bounded length.
  const name = contract
    ?.split(' (')[0]
    .replace(/[^A-Za-z0-9_$-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  const who = name ? `${name}-${hex.slice(0, 10)}` : hex;
  const at = String(block).replace(/[^0-9A-Za-z]/g, '');
  return `storage-${who}-block-${at}${page > 1 ? `-page-${page}` : ''}.${format}`;
}
