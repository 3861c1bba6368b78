/** The JSON-RPC client: import from here. */
export * from './types';
export { RpcFailure, describeAuth, type FailureContext } from './failure';
export { RpcClient, checkParams, joinPath, type ClientOptions, type ExchangeOptions, type Params } from './client';
export { WsRpcClient, type Subscription, type SubscribeOptions, type WsClientOptions, type WsStatus } from './ws';
export { parseParams } from './params';
export { toCurl, type CurlOptions } from './curl';
export { matchBatch, isResponse } from './jsonrpc';
export { closeIdleConnections } from './http';
export { DEFAULT_RETRY, type RetryPolicy } from './retry';
