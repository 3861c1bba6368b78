/**
 * JSON-RPC 2.0 envelopes: building requests, recognising responses, and matching replies to
 * requests by id, for single calls and for batches (whose replies may come in any order).
 * Transport-free, so HTTP and WebSocket share it and unit tests reach it directly.
 */
import { maskedLine } from '../redact';
import { failure, mismatchFailure, rpcErrorFailure, type FailureContext, type RpcFailure } from './failure';
import type { JsonRpcErrorObject, JsonRpcRequest, JsonRpcResponse, RpcCall } from './types';

/** The answer to one element of a batch: its own result or its own failure. */
export type BatchItem =
  | { result: unknown; response: JsonRpcResponse }
  /** `response` is absent when the node's reply held no answer for this element. */
  | { error: RpcFailure; response?: JsonRpcResponse };

export function makeRequest(id: number, call: RpcCall): JsonRpcRequest {
  return { jsonrpc: '2.0', method: call.method, params: call.params ?? [], id };
}

function isErrorObject(v: unknown): v is JsonRpcErrorObject {
  const e = v as JsonRpcErrorObject | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'number' && typeof e.message === 'string';
}

/**
 * A JSON-RPC response: an object with an id and a result or an error. Lenient where real nodes
 * differ (Bitcoin-style nodes send `"error": null` beside the result, some omit `jsonrpc`).
 */
export function isResponse(v: unknown): v is JsonRpcResponse {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  // An error may come without any id (ganache, for a batch element it could not read).
  if (isErrorObject(r.error)) return true;
  return 'id' in r && 'result' in r && (r.error === undefined || r.error === null);
}

/** The response's error object, if it carries one. */
export function errorOf(response: JsonRpcResponse): JsonRpcErrorObject | undefined {
  return isErrorObject(response.error) ? response.error : undefined;
}

/** The response's result, or its error object as a failure (kind 'rpc'): what every call returns. */
export function resultOf<T>(response: JsonRpcResponse, ctx: FailureContext): T {
  const error = errorOf(response);
  if (error) throw rpcErrorFailure(error, ctx);
  return response.result as T;
}

/**
 * Checks that `reply` answers `sent`. A different id is a mismatch, except an error with a null
 * id: JSON-RPC's answer when the node could not read the request's id at all.
 */
export function checkSingle(sent: JsonRpcRequest, reply: JsonRpcResponse, ctx: FailureContext): JsonRpcResponse {
  if (reply.id === sent.id) return reply;
  if (reply.id == null && errorOf(reply)) return reply;
  throw mismatchFailure(sent.id, reply.id, ctx);
}

/**
 * Matches a batch reply to the requests by id, whatever order it came in, and returns one item per
 * request in request order. A request the reply does not answer gets its own 'mismatch' failure.
 * A reply that is one error object instead of an array means the node rejected the whole batch.
 */
export function matchBatch(sent: readonly JsonRpcRequest[], reply: unknown, ctx: FailureContext): BatchItem[] {
  if (!Array.isArray(reply)) {
    if (isResponse(reply) && errorOf(reply)) {
      throw rpcErrorFailure(errorOf(reply)!, ctx, undefined, 'The node rejected the whole batch: ');
    }
    throw failure('mismatch', `The node answered a batch of ${sent.length} calls with something other than a JSON array: ${JSON.stringify(reply).slice(0, 80)}`, ctx);
  }
  const byId = new Map<unknown, JsonRpcResponse>();
  const unattributed: JsonRpcErrorObject[] = [];
  for (const element of reply) {
    if (!isResponse(element)) continue;
    if (element.id == null && errorOf(element)) unattributed.push(errorOf(element)!);
    else if (!byId.has(element.id)) byId.set(element.id, element);
  }
  const stray = unattributed.length ? `; the reply holds an error without an id: JSON-RPC error ${unattributed[0].code}: ${maskedLine(unattributed[0].message, ctx.secrets)}` : '';
  return sent.map((request): BatchItem => {
    const response = byId.get(request.id);
    if (!response) {
      return { error: failure('mismatch', `The node's batch reply has no answer for request id ${request.id} (${request.method})${stray}.`, ctx) };
    }
    const error = errorOf(response);
    return error ? { error: rpcErrorFailure(error, ctx), response } : { result: response.result, response };
  });
}

/** The method each request of `payload` (one call or a batch) asked for, by id. */
export function methodsOf(payload: object | undefined): ((id: unknown) => string | undefined) | undefined {
  if (!payload) return undefined;
  const calls = (Array.isArray(payload) ? payload : [payload]) as { id?: unknown; method?: unknown }[];
  const byId = new Map(calls.filter((c) => c && typeof c.method === 'string').map((c) => [JSON.stringify(c.id ?? null), c.method as string]));
  return (id) => byId.get(JSON.stringify(id ?? null));
}
