/**
 * Hex quantities in a JSON-RPC reply read as numbers: `0x1bc16d674ec80000` is 2 ETH, `0x5208` is
 * 21000 gas. The response view shows these as summary lines above the reply, which itself stays
 * exactly as the node sent it. A scalar result is known by its method (eth_getBalance is wei),
 * a field of a block, transaction or receipt by its name. Pure, and bounded: a reply with
 * thousands of transactions costs a fixed number of steps and lines.
 */
import { formatUnits } from 'ethers';
import { inertJson } from '../inert';

/** How a quantity reads: a plain count, gas, wei shown as ether, wei shown as gwei, seconds since 1970. */
export type QuantityUnit = 'number' | 'gas' | 'ether' | 'gwei' | 'time';

/** A JSON-RPC quantity: 0x and minimal hex digits, at most 256 bits. */
const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/;

/** Scalar results, by the method that answers them. */
const METHOD_UNITS: Record<string, QuantityUnit> = {
  eth_getBalance: 'ether',
  eth_gasPrice: 'gwei',
  eth_maxPriorityFeePerGas: 'gwei',
  eth_blobBaseFee: 'gwei',
  eth_blockNumber: 'number',
  eth_estimateGas: 'gas',
  eth_getTransactionCount: 'number',
  eth_getBlockTransactionCountByNumber: 'number',
  eth_getBlockTransactionCountByHash: 'number',
  eth_chainId: 'number',
  eth_newFilter: 'number',
  net_peerCount: 'number',
  starknet_blockNumber: 'number',
};

/** Fields of blocks, transactions, receipts and fee histories, by name. */
const FIELD_UNITS: Record<string, QuantityUnit> = {
  number: 'number',
  blockNumber: 'number',
  transactionIndex: 'number',
  logIndex: 'number',
  chainId: 'number',
  size: 'number',
  oldestBlock: 'number',
  timestamp: 'time',
  gas: 'gas',
  gasUsed: 'gas',
  gasLimit: 'gas',
  cumulativeGasUsed: 'gas',
  blobGasUsed: 'gas',
  excessBlobGas: 'gas',
  baseFeePerGas: 'gwei',
  gasPrice: 'gwei',
  effectiveGasPrice: 'gwei',
  maxFeePerGas: 'gwei',
  maxPriorityFeePerGas: 'gwei',
  maxFeePerBlobGas: 'gwei',
  blobGasPrice: 'gwei',
  value: 'ether',
  balance: 'ether',
};

export interface QuantityNote {
  /** Where in the reply: `result`, `result.gasUsed`, `[1].result.baseFeePerGas`. */
  path: string;
  hex: string;
  unit: QuantityUnit;
  /** e.g. `21000 gas`, `2000000000000000000 wei = 2.0 ETH`, `1700000000 = 2023-11-14T22:13:20Z`. */
  text: string;
}

export interface QuantityOptions {
  /** The method a single call (or a batch element, by its id) asked for. */
  methodOf?: (id: unknown) => string | undefined;
  /** At most this many notes (default 20). */
  limit?: number;
}

/** How one quantity reads, e.g. `0x5208` as gas → `21000 gas`. */
export function describeQuantity(hex: string, unit: QuantityUnit): string {
  const value = BigInt(hex);
  const decimal = value.toString(10);
  switch (unit) {
    case 'number':
      return decimal;
    case 'gas':
      return `${decimal} gas`;
    case 'ether':
      return `${decimal} wei = ${formatUnits(value, 18)} ETH`;
    case 'gwei':
      return `${decimal} wei = ${formatUnits(value, 9)} gwei`;
    case 'time': {
      // Only plausible dates (up to year 9999) become one; a bigger "timestamp" stays a number.
      const ms = value * 1000n;
      return ms <= 253402300799000n ? `${decimal} = ${new Date(Number(ms)).toISOString().replace('.000Z', 'Z')}` : decimal;
    }
  }
}

/**
 * `.key` for a plain name, else `["…"]` escaped: the node chooses its keys, and a line break or
 * control character in one would end the comment line and write text of its own into the view.
 */
function member(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${inertJson(key, 0)}]`;
}

/** Nodes visited at most: a block with every transaction stays cheap to summarize. */
const MAX_VISITS = 5000;
const MAX_DEPTH = 6;

/**
 * The quantities of a reply (a single response, or a batch's array of them) that a person reads
 * as numbers, in document order, at most `limit` of them. Anything else (hashes, addresses,
 * data, storage words) is left alone.
 */
export function quantityNotes(body: unknown, options: QuantityOptions = {}): { notes: QuantityNote[]; more: number } {
  const limit = options.limit ?? 20;
  const notes: QuantityNote[] = [];
  let more = 0;
  let visits = 0;
  const add = (path: string, hex: string, unit: QuantityUnit) => {
    if (notes.length >= limit) more++;
    else notes.push({ path, hex, unit, text: describeQuantity(hex, unit) });
  };
  const walk = (value: unknown, path: string, depth: number) => {
    if (++visits > MAX_VISITS || depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1));
      return;
    }
    for (const [key, field] of Object.entries(value)) {
      const unit = FIELD_UNITS[key];
      if (unit && typeof field === 'string' && QUANTITY.test(field)) add(`${path}.${key}`, field, unit);
      else walk(field, `${path}${member(key)}`, depth + 1);
    }
  };
  const response = (reply: unknown, prefix: string) => {
    if (reply === null || typeof reply !== 'object' || !('result' in reply)) return;
    const { result, id } = reply as { result: unknown; id?: unknown };
    const method = options.methodOf?.(id);
    const unit = method ? METHOD_UNITS[method] : undefined;
    const path = `${prefix}result`;
    if (typeof result === 'string') {
      if (unit && QUANTITY.test(result)) add(path, result, unit);
    } else if (method === 'eth_feeHistory' && result && typeof result === 'object') {
      // Per-block lists: the oldest block is the one figure worth reading as a number here.
      const oldest = (result as { oldestBlock?: unknown }).oldestBlock;
      if (typeof oldest === 'string' && QUANTITY.test(oldest)) add(`${path}.oldestBlock`, oldest, 'number');
    } else {
      walk(result, path, 0);
    }
  };
  if (Array.isArray(body)) body.slice(0, MAX_VISITS).forEach((reply, i) => response(reply, `[${i}].`));
  else response(body, '');
  return { notes, more };
}

/** The notes as comment lines for a JSONC document, `// result.gasUsed: 0x5208 = 21000 gas`. */
export function quantityComments(body: unknown, options: QuantityOptions = {}): string[] {
  const { notes, more } = quantityNotes(body, options);
  const lines = notes.map((n) => `// ${n.path}: ${n.hex} = ${n.text}`);
  if (more) lines.push(`// … and ${more} more quantit${more === 1 ? 'y' : 'ies'}`);
  return lines;
}
