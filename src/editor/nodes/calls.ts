/**
 * Talking to nodes from the editor: clients built with the user's timeout, live facts, and
 * "send this payload and show the reply" with a cancellable progress notification. Errors are
 * reported here, once: shown to the user and logged, with messages core has already redacted.
 */
import * as vscode from 'vscode';
import type { NodeConfig } from '../../core/nodes/model';
import { liveFacts, type LiveFacts } from '../../core/nodes/protocols';
import { redactText } from '../../core/redact';
// Modules, not the rpc index: the index also brings the WebSocket client, which the editor does not use.
import { RpcClient, type ExchangeOptions } from '../../core/rpc/client';
import { RpcFailure } from '../../core/rpc/failure';
import { config } from '../config';
import type { Log } from '../log';
import type { ResponseView } from './responseView';
import type { NodeStore } from './store';

export async function clientFor(store: NodeStore, node: NodeConfig): Promise<RpcClient> {
  return new RpcClient(await store.resolve(node), { timeoutMs: config.requestTimeoutMs() });
}

/** The node's live facts; a node that cannot even be resolved (no key stored) rejects. */
export async function factsOf(store: NodeStore, node: NodeConfig, signal?: AbortSignal): Promise<LiveFacts> {
  const client = await clientFor(store, node);
  return liveFacts(node.protocol, client, { signal });
}

export interface Sending {
  store: NodeStore;
  log: Log;
  responses: ResponseView;
}

/**
 * Sends `payload` (or a GET when `options.httpMethod` says so) to the node and opens the reply
 * in the response view. Never throws: failures become an error message and a log line.
 */
export async function sendAndShow(
  { store, log, responses }: Sending,
  node: NodeConfig,
  label: string,
  payload: object | undefined,
  options: ExchangeOptions = {},
): Promise<void> {
  try {
    const exchange = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${label} on ${node.name}`, cancellable: true },
      async (_progress, token) => {
        const cancel = new AbortController();
        const subscription = token.onCancellationRequested(() => cancel.abort());
        try {
          const client = await clientFor(store, node);
          return await client.exchange(payload, { ...options, signal: cancel.signal });
        } finally {
          subscription.dispose();
        }
      },
    );
    log.info(`${label} on ${node.name}: HTTP ${exchange.status} in ${Math.round(exchange.timeMs)} ms, ${exchange.bytes} B`);
    await responses.show({ nodeName: node.name, label, exchange, methodOf: methodsOf(payload) });
  } catch (error) {
    reportError(log, `${label} on ${node.name}`, error);
  }
}

/** The method each request of `payload` (one call or a batch) asked for, by id. */
function methodsOf(payload: object | undefined): ((id: unknown) => string | undefined) | undefined {
  if (!payload) return undefined;
  const calls = (Array.isArray(payload) ? payload : [payload]) as { id?: unknown; method?: unknown }[];
  const byId = new Map(calls.filter((c) => c && typeof c.method === 'string').map((c) => [JSON.stringify(c.id ?? null), c.method as string]));
  return (id) => byId.get(JSON.stringify(id ?? null));
}

/** Shows and logs a failure. A cancellation the user asked for is only logged. */
export function reportError(log: Log, doing: string, error: unknown): void {
  // Core's messages are redacted already; anything else passes through redaction to be sure.
  const message = redactText(error instanceof Error ? error.message : String(error));
  if (error instanceof RpcFailure && error.kind === 'cancelled') {
    log.info(`${doing}: cancelled`);
    return;
  }
  log.error(`${doing}: ${message}`);
  void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => {
    if (choice) log.show();
  });
}
