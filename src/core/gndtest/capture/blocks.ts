/**
 * The blocks of a captured test, from what the recording gateway saw graph-node read: the logs
 * it was handed (by eth_getLogs, and in the receipts of blocks near the head) that its data
 * sources and templates watch, decoded with the manifest's ABIs, and the eth_calls,
 * balances and code checks its handlers made, with their answers.
 *
 * gnd gives each event the log index of its place in its block's list. A handler may read the
 * real one (ids like `<txHash>-<logIndex>` are common), so every gap before a captured log is
 * filled with FILLER events, an event no ABI declares from the zero address: no handler matches
 * them, and each captured event keeps its real log index.
 */
import type { EventFragment, Interface, LogDescription } from 'ethers';
import { eventSignature, functionSignature, gndValue, hashedIndexed, UnreplayableError, unnamedInputs } from './abiText';
import type { RecordedCall } from './gateway';

/** What fills a gap in a block's log indexes: its topic matches no handler's event. */
export const FILLER = { address: '0x0000000000000000000000000000000000000000', event: 'ChaindeckLogIndexFiller()', params: {} } as const;

export interface GndEvent {
  address: string;
  event: string;
  params: Record<string, unknown>;
  txHash?: string;
}

export interface GndEthCall {
  address: string;
  function: string;
  params: unknown[];
  returns: unknown[];
  reverts?: true;
}

export interface GndBlock {
  number: number;
  hash: string;
  timestamp: number;
  events: (GndEvent | typeof FILLER)[];
  ethCalls?: GndEthCall[];
  getBalanceCalls?: { address: string; value: string }[];
  hasCodeCalls?: { address: string; hasCode: boolean }[];
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

/** A captured log, decoded. */
export interface CapturedEvent {
  block: number;
  blockHash: string;
  logIndex: number;
  event: GndEvent;
}

function isLog(v: unknown): v is RawLog {
  const l = v as RawLog;
  return typeof l === 'object' && l !== null && typeof l.address === 'string' && Array.isArray(l.topics) && typeof l.blockNumber === 'string' && typeof l.logIndex === 'string';
}

/** The first of the ABIs that decodes the log (one with the same event but other `indexed` places fails to). */
function decodeLog(log: RawLog, abis: readonly Interface[]): LogDescription | undefined {
  for (const abi of abis) {
    try {
      const parsed = abi.parseLog({ topics: log.topics, data: log.data });
      if (parsed) return parsed;
    } catch {
      // another ABI's event with this topic
    }
  }
  return undefined;
}

/** An event as gnd's test file writes it; throws UnreplayableError for one gnd cannot encode back. */
export function gndEvent(address: string, parsed: Pick<LogDescription, 'fragment' | 'args'>, txHash?: string): GndEvent {
  const fragment: EventFragment = parsed.fragment;
  const hashed = hashedIndexed(fragment);
  if (hashed.length) throw new UnreplayableError(`${fragment.format('sighash')} has indexed ${hashed.join(', ')}, whose logs hold only a hash of the value: gnd test cannot replay it.`);
  if (unnamedInputs(fragment)) throw new UnreplayableError(`${fragment.format('sighash')} has unnamed or repeated parameter names in its ABI: gnd test finds params by name.`);
  const params: Record<string, unknown> = {};
  fragment.inputs.forEach((p, i) => (params[p.name] = gndValue(p, parsed.args[i])));
  return { address: address.toLowerCase(), event: eventSignature(fragment), params, ...(txHash ? { txHash: txHash.toLowerCase() } : {}) };
}

/**
 * Which logs a test replays: those of a data source's address with an event it handles, and
 * any log with an event a template handles (which instances exist is graph-node's to know; a
 * log of another contract matches none of them, in gnd as on the chain).
 */
export interface Watched {
  sources: Map<string, Set<string>>;
  templateTopics: Set<string>;
}

function watched(log: RawLog, watch: Watched): boolean {
  const topic = log.topics[0]?.toLowerCase();
  return !!topic && (watch.sources.get(log.address.toLowerCase())?.has(topic) === true || watch.templateTopics.has(topic));
}

/** The watched logs graph-node was handed for blocks from..to, once each, decoded; logs no ABI decodes are left out (no handler takes them). */
export function capturedEvents(records: readonly RecordedCall[], from: number, to: number, abis: readonly Interface[], watch: Watched): CapturedEvent[] {
  const seen = new Map<string, CapturedEvent>();
  const list = abis;
  for (const record of records) {
    if ((record.method !== 'eth_getLogs' && record.method !== 'eth_getBlockReceipts') || !Array.isArray(record.result)) continue;
    for (const log of record.result) {
      if (!isLog(log) || log.removed || !watched(log, watch)) continue;
      const block = Number(BigInt(log.blockNumber));
      const logIndex = Number(BigInt(log.logIndex));
      const key = `${log.blockHash}:${logIndex}`;
      if (block < from || block > to || seen.has(key)) continue;
      const parsed = decodeLog(log, list);
      if (!parsed) continue;
      seen.set(key, { block, blockHash: log.blockHash.toLowerCase(), logIndex, event: gndEvent(log.address, parsed, log.transactionHash) });
    }
  }
  return [...seen.values()].sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}

/** A block's events in log-index order, with fillers where other logs stood. */
export function withFillers(events: readonly CapturedEvent[]): (GndEvent | typeof FILLER)[] {
  const out: (GndEvent | typeof FILLER)[] = [];
  for (const e of events) {
    while (out.length < e.logIndex) out.push(FILLER);
    out.push(e.event);
  }
  return out;
}

/** The block a recorded call was made at: a number, or a hash (EIP-1898), as graph-node sent it. */
export function callBlock(record: RecordedCall): { number?: number; hash?: string } {
  const ref = record.params[record.params.length - 1];
  if (typeof ref === 'string' && /^0x[0-9a-f]+$/i.test(ref)) return { number: Number(BigInt(ref)) };
  if (typeof ref === 'object' && ref !== null) {
    const r = ref as { blockHash?: unknown; blockNumber?: unknown };
    if (typeof r.blockHash === 'string') return { hash: r.blockHash.toLowerCase() };
    if (typeof r.blockNumber === 'string') return { number: Number(BigInt(r.blockNumber)) };
  }
  return {};
}

/** A recorded eth_call as a gnd ethCall, decoded by the first ABI that knows its selector; throws UnreplayableError when none does. */
export function gndEthCall(record: RecordedCall, abis: readonly Interface[]): GndEthCall {
  const tx = (record.params[0] ?? {}) as { to?: unknown; data?: unknown; input?: unknown };
  const to = typeof tx.to === 'string' ? tx.to.toLowerCase() : '';
  const data = typeof tx.data === 'string' ? tx.data : typeof tx.input === 'string' ? tx.input : '0x';
  const selector = data.slice(0, 10).toLowerCase();
  for (const abi of abis) {
    const fn = abi.getFunction(selector);
    if (!fn) continue;
    let args;
    try {
      args = abi.decodeFunctionData(fn, data);
    } catch {
      continue;
    }
    // gnd encodes the call again from these params: it must come out as graph-node sent it.
    if (abi.encodeFunctionData(fn, args).toLowerCase() !== data.toLowerCase()) continue;
    const params = fn.inputs.map((p, i) => gndValue(p, args[i]));
    const call = { address: to, function: functionSignature(fn), params };
    const result = typeof record.result === 'string' ? record.result : undefined;
    // An error, or no data where outputs were expected, is a revert to graph-node.
    if (record.error || result === undefined || (result === '0x' && fn.outputs.length > 0)) return { ...call, returns: [], reverts: true };
    let decoded;
    try {
      decoded = abi.decodeFunctionResult(fn, result);
    } catch {
      return { ...call, returns: [], reverts: true };
    }
    return { ...call, returns: fn.outputs.map((p, i) => gndValue(p, decoded[i])) };
  }
  throw new UnreplayableError(`A handler called ${selector} on ${to}, a function none of the manifest's ABIs declares: add its ABI to the data source's abis.`);
}

/** The mocks of one block: its eth_calls, balances and code checks, each once. */
export function blockMocks(records: readonly RecordedCall[], abis: readonly Interface[]): Pick<GndBlock, 'ethCalls' | 'getBalanceCalls' | 'hasCodeCalls'> {
  const calls = new Map<string, GndEthCall>();
  const balances = new Map<string, { address: string; value: string }>();
  const code = new Map<string, { address: string; hasCode: boolean }>();
  const list = abis;
  for (const r of records) {
    const address = String(r.params[0] && typeof r.params[0] === 'object' ? (r.params[0] as { to?: unknown }).to : r.params[0]).toLowerCase();
    if (r.method === 'eth_call') {
      const key = JSON.stringify(r.params[0]);
      if (!calls.has(key)) calls.set(key, gndEthCall(r, list));
    } else if (r.method === 'eth_getBalance' && typeof r.result === 'string') balances.set(address, { address, value: BigInt(r.result).toString() });
    else if (r.method === 'eth_getCode' && typeof r.result === 'string') code.set(address, { address, hasCode: r.result !== '0x' && r.result !== '0x0' });
  }
  return {
    ...(calls.size ? { ethCalls: [...calls.values()] } : {}),
    ...(balances.size ? { getBalanceCalls: [...balances.values()] } : {}),
    ...(code.size ? { hasCodeCalls: [...code.values()] } : {}),
  };
}
