/** JSON-RPC 2.0 wire shapes (spec: "JSON-RPC request", "JSON-RPC response"). */
import type { Deadline } from './deadline';

export type JsonRpcId = number | string | null;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  params: unknown[] | Record<string, unknown>;
  id: number;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

/** One call of a batch, or the method and params of a single call. */
export interface RpcCall {
  method: string;
  /** Omitted means no params: sent as an empty array. */
  params?: unknown[] | Record<string, unknown>;
}

/** What a raw exchange shows in the response view: the reply as it came, and its measurements. */
export interface RawExchange {
  status: number;
  statusText: string;
  /** From sending the request to the last byte of the reply. */
  timeMs: number;
  /** Size of the reply body. */
  bytes: number;
  contentType: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  text: string;
  headers: Record<string, string>;
}

/** Limits of one call; unset fields take the client's defaults. */
export interface CallOptions {
  /** Give up the call after this long, retries and their waits included (default 15 000 ms). */
  timeoutMs?: number;
  /** A limit shared with other calls (the CLI's --timeout covers the whole command). */
  deadline?: Deadline;
  signal?: AbortSignal;
  /** Retries of an idempotent read after HTTP 429 or 5xx (default 2). Writes are never retried. */
  retries?: number;
}

/** The default of `CallOptions.timeoutMs`, the same as the editor setting's default. */
export const DEFAULT_TIMEOUT_MS = 15_000;
