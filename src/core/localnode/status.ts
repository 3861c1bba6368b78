/**
 * What graph-node's index-node API says of each deployment: the chain head against the block
 * indexed, synced, health, and a fatal error with its handler and block.
 */
import { httpExchange, type HttpReply } from '../rpc/http';

export interface DeploymentStatus {
  /** The deployment id (Qm…; gnd's own placeholder has a path). */
  deployment: string;
  synced: boolean;
  health: 'healthy' | 'unhealthy' | 'failed' | string;
  network?: string;
  chainHead?: number;
  indexed?: number;
  entityCount?: number;
  fatalError?: { message: string; handler?: string; block?: number; deterministic?: boolean };
}

export const INDEXING_STATUSES_QUERY = `{ indexingStatuses { subgraph synced health entityCount fatalError { message handler deterministic block { number } } chains { network chainHeadBlock { number } latestBlock { number } } } }`;

interface RawStatus {
  subgraph: string;
  synced: boolean;
  health: string;
  entityCount?: string;
  fatalError?: { message: string; handler?: string | null; deterministic?: boolean; block?: { number: string } | null } | null;
  chains?: { network?: string; chainHeadBlock?: { number: string } | null; latestBlock?: { number: string } | null }[];
}

const num = (v: string | undefined | null) => (v === undefined || v === null ? undefined : Number(v));

export function parseStatuses(body: unknown): DeploymentStatus[] {
  const data = (body as { data?: { indexingStatuses?: RawStatus[] }; errors?: { message: string }[] }) ?? {};
  if (!data.data?.indexingStatuses) throw new Error(`the index node answered no statuses${data.errors?.length ? `: ${data.errors.map((e) => e.message).join('; ')}` : ''}`);
  return data.data.indexingStatuses.map((s) => {
    const chain = s.chains?.[0];
    const fatal = s.fatalError;
    return {
      deployment: s.subgraph,
      synced: s.synced,
      health: s.health,
      network: chain?.network,
      chainHead: num(chain?.chainHeadBlock?.number),
      indexed: num(chain?.latestBlock?.number),
      entityCount: num(s.entityCount),
      fatalError: fatal ? { message: fatal.message, handler: fatal.handler ?? undefined, block: num(fatal.block?.number), deterministic: fatal.deterministic } : undefined,
    };
  });
}

/**
 * A deployment's row in a narrow side bar, what matters first and short: its state (failed or
 * unhealthy, else synced or syncing), the block indexed as the Nodes view writes blocks (of the
 * chain head while behind it), the entities. "synced · #14 · 3 entities", "syncing · #12/14",
 * "failed · #9/14 · 2 entities".
 */
export function deploymentSummary(s: Pick<DeploymentStatus, 'synced' | 'health' | 'indexed' | 'chainHead' | 'entityCount'>): string {
  const state = s.health !== 'healthy' ? s.health : s.synced ? 'synced' : 'syncing';
  const behind = s.chainHead !== undefined && s.indexed !== undefined && s.chainHead > s.indexed;
  const block = s.indexed === undefined ? 'no block yet' : `#${s.indexed}${behind ? `/${s.chainHead}` : ''}`;
  return [state, block, s.entityCount !== undefined ? `${s.entityCount} ${s.entityCount === 1 ? 'entity' : 'entities'}` : undefined].filter(Boolean).join(' · ');
}

/** Bounds of an exchange with gnd's loopback ports: every body is read through core's HTTP layer, capped in size and time. */
export const STATUSES_MAX_BYTES = 4 * 1024 * 1024;
export const PROBE_MAX_BYTES = 1024 * 1024;

/** One bounded request to one of gnd's ports (POST when there is a body); rejects with an RpcFailure. */
export function askGnd(url: string, body: string | undefined, bounds: { timeoutMs: number; maxBytes: number; signal?: AbortSignal; peer: string }): Promise<HttpReply> {
  return httpExchange(
    {
      url,
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
      timeoutMs: bounds.timeoutMs,
      maxBytes: bounds.maxBytes,
      signal: bounds.signal,
      idempotent: true,
    },
    { url, auth: 'none', secrets: [], timeoutMs: bounds.timeoutMs, peer: bounds.peer },
  );
}

/** Every deployment's status from the index node's GraphQL URL. */
export async function fetchStatuses(indexNodeUrl: string, signal?: AbortSignal): Promise<DeploymentStatus[]> {
  const res = await askGnd(indexNodeUrl, JSON.stringify({ query: INDEXING_STATUSES_QUERY }), { timeoutMs: 5000, maxBytes: STATUSES_MAX_BYTES, signal, peer: 'the index node' });
  if (res.status < 200 || res.status >= 300) throw new Error(`the index node answered HTTP ${res.status}`);
  return parseStatuses(JSON.parse(res.text));
}

/** The current deployment of each subgraph name (names graph-node does not know are left out). */
export async function fetchCurrentDeployments(indexNodeUrl: string, names: readonly string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!names.length) return found;
  const fields = names.map((name, i) => `n${i}: indexingStatusForCurrentVersion(subgraphName: ${JSON.stringify(name)}) { subgraph }`).join(' ');
  const res = await askGnd(indexNodeUrl, JSON.stringify({ query: `{ ${fields} }` }), { timeoutMs: 5000, maxBytes: STATUSES_MAX_BYTES, signal, peer: 'the index node' });
  if (res.status < 200 || res.status >= 300) throw new Error(`the index node answered HTTP ${res.status}`);
  const body = JSON.parse(res.text) as { data?: Record<string, { subgraph?: string } | null> | null };
  names.forEach((name, i) => {
    const id = body.data?.[`n${i}`]?.subgraph;
    if (typeof id === 'string') found.set(name, id);
  });
  return found;
}

/** Whether a deployment id is gnd's own placeholder (its id is the placeholder manifest's path, not a CID). */
export function isPlaceholderDeployment(deployment: string): boolean {
  return !/^(Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,})$/.test(deployment);
}
