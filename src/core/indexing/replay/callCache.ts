/**
 * The eth_calls graph-node cached for block N, read from its own call cache in the node's
 * Postgres: per chain a schema `chainN` (named in `public.chains.namespace`) with `call_cache`
 * (id, return_value, contract_address, block_number); older chains' shared storage keeps them in
 * `public.eth_call_cache`. graph-node keeps no call's input: the id is a hash of the address,
 * the call data and the block. So each row is a contract address and what it returned, from
 * any subgraph on this node that called at block N, and in no particular order. The return
 * data is decoded where the address's ABI has one output shape that re-encodes to exactly it.
 */
import { type FunctionFragment, type Interface } from 'ethers';
import type { CaptureManifest } from '../../gndtest/capture/manifest';
import { runPsql } from '../../localnode/names';
import { valueText, type DecodedValue } from './block';

/** The most calls of one block read. */
export const MAX_CACHED_CALLS = 200;
/** The most bytes of one return value read (longer ones are cut and not decoded). */
export const MAX_RETURN_BYTES = 4096;

export interface CachedCall {
  address: string;
  /** The data sources whose address it is (empty: not one of the manifest's). */
  sources: string[];
  /** `0x…`, at most MAX_RETURN_BYTES bytes. */
  returned: string;
  /** The whole return value's length in bytes. */
  returnedBytes: number;
  /** The ABI's decoding, when exactly one output shape of its functions re-encodes to the bytes. */
  decoded?: { functions: string[]; values: DecodedValue[] };
}

export interface CachedCalls {
  calls: CachedCall[];
  /** More than MAX_CACHED_CALLS were cached for the block. */
  truncated: boolean;
}

/** A network name as an SQL literal, or undefined when it is not a name graph-node takes. */
function networkLiteral(network: string): string | undefined {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(network) ? `'${network}'` : undefined;
}

export function namespaceSql(network: string): string | undefined {
  const literal = networkLiteral(network);
  return literal && `select namespace from public.chains where name = ${literal}`;
}

/** The call cache table of a chain's namespace; undefined for a namespace graph-node does not make. */
export function callCacheTable(namespace: string): string | undefined {
  if (/^chain\d{1,9}$/.test(namespace)) return `${namespace}.call_cache`;
  return namespace === 'public' ? 'public.eth_call_cache' : undefined;
}

export function cachedCallsSql(table: string, block: number): string {
  return `select coalesce(json_agg(json_build_object('address', '0x' || encode(contract_address, 'hex'), 'returned', '0x' || encode(substring(return_value from 1 for ${MAX_RETURN_BYTES}), 'hex'), 'bytes', length(return_value))), '[]')
from (select contract_address, return_value from ${table} where block_number = ${Math.trunc(block)} order by contract_address, id limit ${MAX_CACHED_CALLS + 1}) c`;
}

/**
 * The values `data` decodes to by `abi`'s functions: each function whose outputs decode it and
 * encode back to exactly the same bytes is a candidate; decoded when all candidates share one
 * output shape (the functions named), else undefined (raw hex is all that is known).
 */
export function decodeReturn(data: string, abi: Interface): CachedCall['decoded'] {
  const hex = data.toLowerCase();
  if (!/^0x([0-9a-f]{2})+$/.test(hex)) return undefined;
  const fits: { fn: FunctionFragment; values: unknown[] }[] = [];
  abi.forEachFunction((fn) => {
    if (!fn.outputs.length) return;
    try {
      const values = abi.decodeFunctionResult(fn, hex);
      if (abi.encodeFunctionResult(fn, values).toLowerCase() === hex) fits.push({ fn, values: [...values] });
    } catch {
      // not this function's answer
    }
  });
  const shapes = new Set(fits.map(({ fn }) => fn.outputs.map((o) => o.format('sighash')).join(',')));
  if (shapes.size !== 1) return undefined;
  const [first] = fits;
  const one = fits.length === 1;
  return {
    functions: fits.map(({ fn }) => fn.format('sighash')).sort(),
    values: first.fn.outputs.map((o, i) => ({ name: (one && o.name) || `out${i}`, type: o.format('sighash'), value: valueText(first.values[i]) })),
  };
}

/** Parses psql's JSON rows, each named and decoded by the manifest's data sources. */
export function parseCachedCalls(output: string, manifest: Pick<CaptureManifest, 'sources' | 'abis'>): CachedCalls {
  const rows = JSON.parse(output.trim() || '[]') as { address?: unknown; returned?: unknown; bytes?: unknown }[];
  if (!Array.isArray(rows)) throw new Error('psql answered something other than a list of calls');
  const calls = rows.slice(0, MAX_CACHED_CALLS).flatMap((row): CachedCall[] => {
    if (typeof row?.address !== 'string' || typeof row.returned !== 'string') return [];
    const address = row.address.toLowerCase();
    const returnedBytes = typeof row.bytes === 'number' ? row.bytes : (row.returned.length - 2) / 2;
    const owners = manifest.sources.filter((s) => !s.template && s.address === address);
    const abi = owners.map((s) => s.abi && manifest.abis.get(s.abi)).find((a) => a);
    const decoded = abi && returnedBytes <= MAX_RETURN_BYTES ? decodeReturn(row.returned, abi) : undefined;
    return [{ address, sources: owners.map((s) => s.name), returned: row.returned, returnedBytes, ...(decoded ? { decoded } : {}) }];
  });
  return { calls, truncated: rows.length > MAX_CACHED_CALLS };
}

/**
 * The calls graph-node cached for `block` on the chain it indexes as `network`, read through
 * psql (bounded by runPsql: 5 s a statement, 10 s a run).
 */
export async function readCachedCalls(
  psql: string,
  postgresUrl: string,
  network: string,
  block: number,
  manifest: Pick<CaptureManifest, 'sources' | 'abis'>,
  signal?: AbortSignal,
): Promise<CachedCalls> {
  const what = 'Reading graph-node’s call cache';
  const lookup = namespaceSql(network);
  if (!lookup) throw new Error(`${what} failed: the network name ${JSON.stringify(network.slice(0, 100))} is not one graph-node takes`);
  const namespace = (await runPsql(psql, postgresUrl, lookup, what, signal)).trim();
  if (!namespace) throw new Error(`${what} failed: graph-node's database has no chain named ${network}`);
  const table = callCacheTable(namespace);
  if (!table) throw new Error(`${what} failed: the chain ${network} is stored in ${namespace.slice(0, 64)}, a schema this version does not know`);
  return parseCachedCalls(await runPsql(psql, postgresUrl, cachedCallsSql(table, block), what, signal), manifest);
}
