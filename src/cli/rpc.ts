/**
 * `chaindeck rpc`: one JSON-RPC call (or a batch) to a node, printing the node's response. The
 * password only ever comes from the environment, and every secret is registered for redaction,
 * so nothing printed holds the key or the password.
 */
import { EndpointError } from '../core/nodes/endpoint';
import { RpcClient } from '../core/rpc/client';
import { RpcFailure } from '../core/rpc/failure';
import { inertJson } from '../core/inert';
import { closeIdleConnections } from '../core/rpc/http';
import { parseParams } from '../core/rpc/params';
import type { BatchItem } from '../core/rpc/jsonrpc';
import type { JsonRpcResponse, RpcCall } from '../core/rpc/types';
import { WsRpcClient } from '../core/rpc/ws';
import { commandDeadline, ENDPOINT_HELP, endpointFromFlags, parseTimeout, PASSWORD_ENV, refusePasswordFlag, UsageError } from './endpointFlags';
import type { CliCommand, CliIO } from './main';

const usage = `Usage: chaindeck rpc --url URL [--timeout MS] [--user NAME] METHOD [PARAMS_JSON]
       chaindeck rpc --url URL [--timeout MS] [--user NAME] --batch BATCH_JSON

Calls a JSON-RPC method on a node and prints the node's whole response as JSON.

  --url URL       the node's endpoint, with scheme https, http, wss or ws (an access key in
                  the path, https://<network>.core.<host>/<KEY>, is used).
                  ${ENDPOINT_HELP}
  --timeout MS    give up after MS milliseconds, 1 to 86400000 (24 h); retries and
                  Retry-After waits count against it (default 15000)
  --user NAME     HTTP Basic username; the password is read from the environment variable
                  ${PASSWORD_ENV} (never from a flag or the URL)
  --batch JSON    send a batch: a JSON array of {"method": ..., "params": [...]}; prints the
                  responses as an array in the order of the calls
  PARAMS_JSON     a JSON array (positional) or object (named); default []

Exit status: 0 when the node answered with a result, 1 on a JSON-RPC error object or any
failure (message on stderr), 2 on a usage error.

Examples:
  chaindeck rpc --url http://127.0.0.1:8545 eth_blockNumber
  chaindeck rpc --url "$NODE_URL" eth_getBalance '["0x0000000000000000000000000000000000000000", "latest"]'
  ${PASSWORD_ENV}=… chaindeck rpc --url https://nd-123-456-789.p2pify.com --user alice web3_clientVersion
`;

interface RpcArgs {
  url: string;
  timeoutMs?: number;
  user?: string;
  batch?: string;
  method?: string;
  params?: string;
}

function parseArgs(args: string[]): RpcArgs {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(...(arg === '--' ? args.slice(i + 1) : [arg]));
      if (arg === '--') break;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    refusePasswordFlag(name);
    if (!['url', 'timeout', 'user', 'batch'].includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  if (!flags.url) throw new UsageError('--url is required');
  const timeoutMs = parseTimeout(flags.timeout);
  if (flags.batch !== undefined && positional.length) throw new UsageError('--batch takes the calls as its value: give no METHOD');
  if (flags.batch === undefined && !positional.length) throw new UsageError('METHOD is required');
  if (positional.length > 2) throw new UsageError(`too many arguments: PARAMS_JSON must be one argument (quote it): ${positional.slice(2).join(' ')}`);
  return { url: flags.url, timeoutMs, user: flags.user, batch: flags.batch, method: positional[0], params: positional[1] };
}

/** The batch as written: a JSON array of {method, params}. */
function parseBatch(text: string): RpcCall[] {
  const calls = parseParams(text);
  if (!Array.isArray(calls) || calls.length === 0) throw new UsageError('--batch needs a non-empty JSON array of {"method": ..., "params": [...]}');
  return calls.map((c, i) => {
    const call = c as RpcCall;
    if (typeof call !== 'object' || call === null || typeof call.method !== 'string') {
      throw new UsageError(`--batch element ${i} needs a "method" string: ${JSON.stringify(c)}`);
    }
    return { method: call.method, params: call.params };
  });
}

function printJson(io: CliIO, value: unknown): void {
  io.out(`${inertJson(value)}\n`);
}

async function run(argv: string[], io: CliIO): Promise<number> {
  let args: RpcArgs;
  let target: ReturnType<typeof endpointFromFlags>;
  let calls: RpcCall[] | undefined;
  let params;
  try {
    args = parseArgs(argv);
    target = endpointFromFlags(args.url, args.user, io.env);
    if (args.batch !== undefined) calls = parseBatch(args.batch);
    else params = parseParams(args.params ?? '');
  } catch (err) {
    if (err instanceof UsageError || err instanceof EndpointError || err instanceof RpcFailure) {
      io.err(`chaindeck rpc: ${err.message}\n\n${usage}`);
      return 2;
    }
    throw err;
  }

  const options = { timeoutMs: args.timeoutMs, deadline: commandDeadline(args.timeoutMs) };
  const client = target.isWs ? new WsRpcClient(target.endpoint, { ...options, pingIntervalMs: 0 }) : new RpcClient(target.endpoint, options);
  try {
    if (calls) {
      const items: BatchItem[] = await client.batch(calls);
      printJson(io, items.map((item) => item.response ?? null));
      const failed = items.map((item, i) => ('error' in item ? `call ${i} (${calls![i].method}): ${item.error.message}` : '')).filter(Boolean);
      for (const line of failed) io.err(`chaindeck rpc: ${line}\n`);
      return failed.length ? 1 : 0;
    }
    const response: JsonRpcResponse = await client.callResponse(args.method!, params);
    printJson(io, response);
    if (response.error) {
      io.err(`chaindeck rpc: JSON-RPC error ${response.error.code}: ${response.error.message}\n`);
      return 1;
    }
    return 0;
  } catch (err) {
    if (!(err instanceof RpcFailure)) throw err;
    io.err(`chaindeck rpc: ${err.message}\n`);
    return 1;
  } finally {
    if (client instanceof WsRpcClient) await client.close();
    closeIdleConnections();
  }
}

export const rpcCommand: CliCommand = {
  name: 'rpc',
  summary: 'Call a JSON-RPC method on a node and print the response',
  usage,
  run,
};
