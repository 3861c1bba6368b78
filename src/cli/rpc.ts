/**
 * `chaindeck rpc`: one JSON-RPC call (or a batch) to a node, printing the node's response. The
 * password only ever comes from the environment, and every secret is registered for redaction,
 * so nothing printed holds the key or the password.
 */
import { maskedLine } from '../core/redact';
import type { Params } from '../core/rpc/client';
import { RpcFailure } from '../core/rpc/failure';
import { parseParams } from '../core/rpc/params';
import type { RpcCall } from '../core/rpc/types';
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, type CliIO } from './command';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, parseTimeout, PASSWORD_ENV, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';

const options = {
  ...nodeOptions("the node's endpoint, with scheme https, http, wss or ws (an access key in the path, https://<network>.core.<host>/<KEY>, is used)"),
  timeout: TIMEOUT_OPTION,
  batch: { type: 'string', value: 'JSON', help: 'send a batch: a JSON array of {"method": ..., "params": [...]}; prints the responses as an array in the order of the calls' },
} satisfies OptionTable;

interface RpcArgs {
  target: NodeTarget;
  timeoutMs?: number;
  request: { batch: RpcCall[] } | { method: string; params: Params };
}

/** The batch as written: a JSON array of {method, params}. */
function parseBatch(text: string): RpcCall[] {
  const needed = '--batch needs a non-empty JSON array of {"method": ..., "params": [...]}';
  // Anything but an array is refused as such first: what is left to go wrong is the JSON, named as the batch's.
  if (!text.trim().startsWith('[')) throw new UsageError(needed);
  const calls = parseParams(text, 'The --batch calls');
  if (!Array.isArray(calls) || calls.length === 0) throw new UsageError(needed);
  return calls.map((c, i) => {
    const call = c as RpcCall;
    if (typeof call !== 'object' || call === null || typeof call.method !== 'string') {
      throw new UsageError(`--batch element ${i} needs a "method" string: ${JSON.stringify(c)}`);
    }
    return { method: call.method, params: call.params };
  });
}

async function call(args: RpcArgs, io: CliIO): Promise<number> {
  const { request } = args;
  return withNodeClient(args.target, args.timeoutMs, async (client) => {
    if ('batch' in request) {
      const items = await client.batch(request.batch);
      printJson(
        io,
        items.map((item) => item.response ?? null),
      );
      const failed = items.map((item, i) => ('error' in item ? `call ${i} (${maskedLine(request.batch[i].method)}): ${maskedLine(item.error.message)}` : '')).filter(Boolean);
      for (const line of failed) io.err(`chaindeck rpc: ${line}\n`);
      return failed.length ? 1 : 0;
    }
    const response = await client.callResponse(request.method, request.params);
    printJson(io, response);
    if (response.error) {
      io.err(`chaindeck rpc: JSON-RPC error ${response.error.code}: ${maskedLine(response.error.message)}\n`);
      return 1;
    }
    return 0;
  });
}

export const rpcCommand = defineCommand({
  name: 'rpc',
  summary: 'Call a JSON-RPC method on a node and print the response',
  usage: ['--rpc URL [--timeout MS] [--user NAME] METHOD [PARAMS_JSON]', '--rpc URL [--timeout MS] [--user NAME] --batch JSON'],
  description: "The node's whole response is printed as JSON, a JSON-RPC error object included.",
  arguments: [
    ['METHOD', 'the JSON-RPC method, e.g. eth_blockNumber'],
    ['PARAMS_JSON', 'its params: a JSON array (positional) or object (named); default []'],
  ],
  options,
  refused: REFUSED_PASSWORD,
  endOfOptions: true,
  environment: ENDPOINT_ENV,
  exit: {
    done: 'the node answered with a result (to every call of a batch)',
    failed: 'a JSON-RPC error object, or any other failure (the reason on stderr)',
  },
  examples: [
    'chaindeck rpc --rpc http://127.0.0.1:8545 eth_blockNumber',
    `chaindeck rpc --rpc "$NODE_URL" eth_getBalance '["0x0000000000000000000000000000000000000000", "latest"]'`,
    `${PASSWORD_ENV}=… chaindeck rpc --rpc https://nd-123-456-789.p2pify.com --user alice web3_clientVersion`,
  ],

  check({ values, positionals }, io): RpcArgs {
    const url = rpcFlag(values.rpc);
    const timeoutMs = parseTimeout(values.timeout);
    if (values.batch !== undefined && positionals.length) throw new UsageError('--batch takes the calls as its value: give no METHOD');
    if (values.batch === undefined && !positionals.length) throw new UsageError('METHOD is required');
    if (positionals.length > 2) throw new UsageError(`too many arguments: PARAMS_JSON must be one argument (quote it): ${positionals.slice(2).join(' ')}`);
    const target = endpointFromFlags(url, values.user, io.env);
    try {
      const request = values.batch !== undefined ? { batch: parseBatch(values.batch) } : { method: positionals[0], params: parseParams(positionals[1] ?? '') };
      return { target, timeoutMs, request };
    } catch (err) {
      if (err instanceof RpcFailure) throw new UsageError(err.message);
      throw err;
    }
  },

  work: call,
});
