/**
 * What happened on chain in the replayed block, decoded with the subgraph's ABIs (ethers): the
 * logs its handlers take (a data source's address and event, or a template's event from any
 * address), each log's transaction (from, to, value, the call decoded where an ABI knows its
 * selector), and the block handlers that run on it.
 */
import { Interface, type LogDescription, type ParamType, type Result } from 'ethers';
import type { CaptureManifest } from '../../gndtest/capture/manifest';
import type { RpcClient } from '../../rpc/client';

/** The most logs of one block shown. */
export const MAX_BLOCK_LOGS = 1000;

export interface DecodedValue {
  name: string;
  type: string;
  value: string;
}

export interface BlockEvent {
  logIndex: number;
  address: string;
  transaction: string;
  /** The data source (or template) whose handler takes it. */
  source: string;
  /** `Ping(uint256,address)` when an ABI decodes it, else topic0. */
  signature: string;
  args: DecodedValue[];
}

export interface BlockTransaction {
  hash: string;
  from: string;
  to?: string;
  /** In wei, decimal. */
  value: string;
  /** `ping(uint256)` and its arguments when an ABI knows the selector. */
  call?: { signature: string; args: DecodedValue[] };
  /** The first 4 bytes of input, when no ABI knows them. */
  selector?: string;
}

export interface BlockView {
  number: number;
  hash?: string;
  events: BlockEvent[];
  transactions: BlockTransaction[];
  blockHandlers: string[];
  /** More logs matched than MAX_BLOCK_LOGS. */
  truncated: boolean;
}

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  transactionHash: string;
  blockHash?: string;
}

interface RawTx {
  hash: string;
  from: string;
  to?: string | null;
  value: string;
  input: string;
}

/** A value as text: bigints in decimal, nested tuples and arrays as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return JSON.stringify(value.map(valueText));
  return String(value);
}

function argsOf(description: { args: Result; fragment: { inputs: readonly ParamType[] } }): DecodedValue[] {
  return description.fragment.inputs.map((input, i) => ({ name: input.name || `arg${i}`, type: input.type, value: valueText(description.args[i]) }));
}

/** The block's logs, transactions and block handlers as the subgraph sees them. */
export async function readBlock(client: RpcClient, manifest: CaptureManifest, number: number, signal?: AbortSignal): Promise<BlockView> {
  const tag = `0x${number.toString(16)}`;
  const logs = await client.call<RawLog[]>('eth_getLogs', [{ fromBlock: tag, toBlock: tag }], { signal });
  const interfaces = [...manifest.abis.values()];
  const events: BlockEvent[] = [];
  for (const log of logs) {
    const address = log.address.toLowerCase();
    const topic = log.topics[0]?.toLowerCase();
    const source = manifest.sources.find((s) => (s.template || s.address === address) && topic && s.topics.has(topic));
    if (!source) continue;
    if (events.length >= MAX_BLOCK_LOGS) return finish(true);
    let parsed: LogDescription | null = null;
    for (const abi of interfaces) {
      try {
        parsed = abi.parseLog({ topics: log.topics, data: log.data });
      } catch {
        parsed = null;
      }
      if (parsed) break;
    }
    events.push({
      logIndex: Number(log.logIndex),
      address: log.address,
      transaction: log.transactionHash,
      source: source.name,
      signature: parsed ? parsed.signature : (topic ?? '(no topic)'),
      args: parsed ? argsOf(parsed) : [],
    });
  }
  return finish(false);

  async function finish(truncated: boolean): Promise<BlockView> {
    const hashes = [...new Set(events.map((e) => e.transaction))];
    const transactions = await Promise.all(hashes.map((h) => client.call<RawTx>('eth_getTransactionByHash', [h], { signal }).then((tx) => transactionView(tx, interfaces))));
    const header = await client.call<{ hash?: string } | null>('eth_getBlockByNumber', [tag, false], { signal });
    return {
      number,
      hash: header?.hash,
      events,
      transactions,
      blockHandlers: manifest.sources.filter((s) => s.blockHandlers && !s.template).map((s) => s.name),
      truncated,
    };
  }
}

export function transactionView(tx: RawTx, interfaces: readonly Interface[]): BlockTransaction {
  const view: BlockTransaction = { hash: tx.hash, from: tx.from, ...(tx.to ? { to: tx.to } : {}), value: BigInt(tx.value).toString() };
  if (!tx.input || tx.input.length < 10) return view;
  for (const abi of interfaces) {
    try {
      const parsed = abi.parseTransaction({ data: tx.input, value: BigInt(tx.value) });
      if (parsed) return { ...view, call: { signature: parsed.signature, args: argsOf(parsed) } };
    } catch {
      // not this ABI's function
    }
  }
  return { ...view, selector: tx.input.slice(0, 10) };
}
