/**
 * Talking to nodes from the editor: live facts, and "send this payload and show the reply" with a
 * cancellable progress notification. Failures are reported once: shown to the user and logged.
 */
import type { NodeConfig } from '../../core/nodes/model';
import { liveFacts, type LiveFacts } from '../../core/nodes/protocols';
import type { ExchangeOptions } from '../../core/rpc/client';
import { methodsOf } from '../../core/rpc/jsonrpc';
import { reportError } from '../kit/errors';
import { withProgress } from '../kit/progress';
import { CONTEXT_KEYS } from '../ids';
import type { Milestones } from '../kit/milestones';
import type { Log } from '../log';
import type { ResponseView } from './responseView';
import type { NodeStore } from './store';

/** The node's live facts; a node that cannot even be resolved (no key stored) rejects. */
export async function factsOf(store: NodeStore, node: NodeConfig, signal?: AbortSignal): Promise<LiveFacts> {
  return liveFacts(node.protocol, await store.client(node), { signal });
}

export interface Sending {
  store: NodeStore;
  log: Log;
  responses: ResponseView;
  milestones: Milestones;
}

/**
 * Sends `payload` (or a GET when `options.httpMethod` says so) to the node and opens the reply
 * in the response view. Never throws: failures become an error message and a log line.
 */
export async function sendAndShow(
  { store, log, responses, milestones }: Sending,
  node: NodeConfig,
  label: string,
  payload: object | undefined,
  options: ExchangeOptions = {},
): Promise<void> {
  try {
    const exchange = await withProgress(`${label} on ${node.name}`, async (signal) => (await store.client(node)).exchange(payload, { ...options, signal }));
    milestones.reached(CONTEXT_KEYS.callSent);
    log.info(`${label} on ${node.name}: HTTP ${exchange.status} in ${Math.round(exchange.timeMs)} ms, ${exchange.bytes} B`);
    await responses.show({ nodeName: node.name, label, exchange, methodOf: methodsOf(payload) });
  } catch (error) {
    reportError(log, `${label} on ${node.name}`, error);
  }
}
