/**
 * What graph-node's metrics say of each deployment (graph-node's docs/metrics.md; names checked on
 * gnd 0.45.0): the block it reached (`deployment_head`), the triggers it handled
 * (`deployment_block_trigger_count`'s sum), each handler's count and time
 * (`deployment_handler_execution_time`), the eth_calls its mappings made
 * (`deployment_eth_call_execution_time{contract_name,method}`, calls answered from graph-node's
 * in-memory cache not counted) and the time its declared eth_calls took before the handlers
 * (`deployment_sync_secs{section="declared_ethereum_call"}`); and each network's chain head
 * (`ethereum_chain_head_number`).
 */
import { askGnd } from '../../localnode/status';
import { parsePrometheusText, type MetricSample } from './prometheus';

export interface TimedCount {
  count: number;
  seconds: number;
}

export interface HandlerTime extends TimedCount {
  handler: string;
}

export interface EthCallTime extends TimedCount {
  /** The ABI name the mapping bound the contract with. */
  contract: string;
  method: string;
}

export interface DeploymentMetrics {
  deployment: string;
  network?: string;
  /** The last block it processed. */
  head?: number;
  /** Triggers handled since gnd started (events, calls, blocks matched by a handler). */
  triggers?: number;
  synced?: boolean;
  handlers: HandlerTime[];
  ethCalls: EthCallTime[];
  /** Seconds spent running declared eth_calls (`calls:` in the manifest) before the handlers. */
  declaredCallSeconds: number;
}

export interface NodeMetrics {
  deployments: Map<string, DeploymentMetrics>;
  /** Each network's chain head as graph-node last saw it. */
  chainHeads: Map<string, number>;
}

/** The metrics endpoint serves a few hundred lines per deployment; a node with hundreds of them stays far below. */
export const METRICS_MAX_BYTES = 16 * 1024 * 1024;

export function readNodeMetrics(samples: readonly MetricSample[]): NodeMetrics {
  const deployments = new Map<string, DeploymentMetrics>();
  const chainHeads = new Map<string, number>();
  const of = (id: string): DeploymentMetrics => {
    let d = deployments.get(id);
    if (!d) deployments.set(id, (d = { deployment: id, handlers: [], ethCalls: [], declaredCallSeconds: 0 }));
    return d;
  };
  const handlers = new Map<string, HandlerTime>();
  const calls = new Map<string, EthCallTime>();
  const timed = <T extends TimedCount>(map: Map<string, T>, key: string, make: () => T, list: T[], sample: MetricSample, part: 'count' | 'sum') => {
    let entry = map.get(key);
    if (!entry) {
      map.set(key, (entry = make()));
      list.push(entry);
    }
    if (part === 'count') entry.count = sample.value;
    else entry.seconds = sample.value;
  };
  for (const s of samples) {
    // NaN and ±Inf are valid in the format but no block, count or time: they would show as "NaN blocks/s".
    if (!Number.isFinite(s.value)) continue;
    const id = s.labels.deployment;
    if (s.name === 'ethereum_chain_head_number' && s.labels.network !== undefined && isWhole(s.value)) chainHeads.set(s.labels.network, s.value);
    if (id === undefined) continue;
    switch (s.name) {
      case 'deployment_head':
        of(id).head = isWhole(s.value) ? s.value : undefined;
        of(id).network = s.labels.network;
        break;
      case 'deployment_block_trigger_count_sum':
        of(id).triggers = isWhole(s.value) ? s.value : undefined;
        break;
      case 'deployment_synced':
        of(id).synced = s.value === 1;
        break;
      case 'deployment_handler_execution_time_count':
      case 'deployment_handler_execution_time_sum': {
        const handler = s.labels.handler ?? '';
        timed(handlers, `${id}\n${handler}`, () => ({ handler, count: 0, seconds: 0 }), of(id).handlers, s, s.name.endsWith('_count') ? 'count' : 'sum');
        break;
      }
      case 'deployment_eth_call_execution_time_count':
      case 'deployment_eth_call_execution_time_sum': {
        const contract = s.labels.contract_name ?? '';
        const method = s.labels.method ?? '';
        timed(calls, `${id}\n${contract}\n${method}`, () => ({ contract, method, count: 0, seconds: 0 }), of(id).ethCalls, s, s.name.endsWith('_count') ? 'count' : 'sum');
        break;
      }
      case 'deployment_sync_secs':
        if (s.labels.section === 'declared_ethereum_call') of(id).declaredCallSeconds += s.value;
        break;
    }
  }
  return { deployments, chainHeads };
}

/** A block number or a count: a chain head of 1e300 would read as an ETA of 10^295 days. */
const isWhole = (value: number) => Number.isSafeInteger(value) && value >= 0;

/** Reads a graph-node's metrics endpoint (GET, bounded in time and size). */
export async function fetchNodeMetrics(metricsUrl: string, signal?: AbortSignal, timeoutMs = 5000): Promise<NodeMetrics> {
  const res = await askGnd(metricsUrl, undefined, { timeoutMs, maxBytes: METRICS_MAX_BYTES, signal, peer: 'the metrics endpoint' });
  if (res.status < 200 || res.status >= 300) throw new Error(`the metrics endpoint answered HTTP ${res.status}`);
  return readNodeMetrics(parsePrometheusText(res.text).samples);
}
