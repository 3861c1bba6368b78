/**
 * `chaindeck storage-range`: a contract's storage at a block, natively (debug_storageRangeAt) or
 * by the eth_getStorageAt emulation, printed as exactly one JSON object in the spec's output
 * form (pretty-printed with two spaces, like `chaindeck rpc`). Warnings go to stderr.
 */
import { EndpointError } from '../core/nodes/endpoint';
import { RpcClient } from '../core/rpc/client';
import { inertJson } from '../core/inert';
import { closeIdleConnections } from '../core/rpc/http';
import { WsRpcClient } from '../core/rpc/ws';
import { StorageRangeError } from '../core/storage/errors';
import { MAX_RESULTS_LIMIT } from '../core/storage/inputs';
import { storageRange, toSpecOutput } from '../core/storage/range';
import { commandDeadline, ENDPOINT_HELP, endpointFromFlags, parseTimeout, PASSWORD_ENV, refusePasswordFlag, UsageError } from './endpointFlags';
import type { CliCommand, CliIO } from './main';

const usage = `Usage: chaindeck storage-range --rpc URL --block HASH|NUMBER|latest --address ADDR
         [--start KEY] [--max N] [--tx-index N] [--mode auto|native|emulate]
         [--timeout MS] [--user NAME]

Prints a contract's storage at a block as one JSON object (pretty-printed):
  {"jsonrpc": "2.0", "id": 1, "result": {"storage": {...}, "nextKey": ...}}
or, on failure,
  {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "..."}}

  --rpc URL       the node's endpoint (--url is the same). An access key in the path is used.
                  ${ENDPOINT_HELP}
  --block B       block hash, block number (decimal or 0x-hex), or latest
  --address A     the contract (any case; checksummed before use)
  --start KEY     start key, hex with or without 0x (default 32 zero bytes). Emulation: the
                  first slot number; native: a hashed key (use the previous page's nextKey)
  --max N         entries wanted, 1 to ${MAX_RESULTS_LIMIT} (default 10); the emulation reads at
                  most 10 × N slots. For more, read the next page from nextKey
  --tx-index N    native only: state before transaction N of the block (default 0); the
                  emulation ignores it and reads the state at the end of the block
  --mode M        auto (default): native debug_storageRangeAt where the node has it, the
                  emulation where it does not; native; or emulate
  --timeout MS    give up the whole command after MS milliseconds, 1 to 86400000 (24 h):
                  every read, retry and Retry-After wait counts against it (default: 15000
                  for each request)
  --user NAME     HTTP Basic username; the password is read from the environment variable
                  ${PASSWORD_ENV}

Native results are keyed by hashed slot, with the preimage in "key". Emulated results are keyed
by slot number in minimal hex (0x0, 0xb), "key" is null, and nextKey is null when fewer than
--max entries were found. A slot that cannot be read is skipped with a warning on stderr.

Exit status: 0 with a result, 1 with an error (the JSON error object is still printed on
stdout, the reason on stderr), 2 on a usage error.

Examples:
  chaindeck storage-range --rpc http://127.0.0.1:8545 --block latest --address 0x5FbDB2315678afecb367f032d93F642f64180aa3
  chaindeck storage-range --rpc "$NODE_URL" --block 19000000 --address 0xA0b8… --start 0xa --max 20 --mode emulate
`;

interface StorageArgs {
  url: string;
  user?: string;
  timeoutMs?: number;
  block: string;
  address: string;
  start?: string;
  max?: number;
  txIndex?: number;
  mode: 'auto' | 'native' | 'emulate';
}

const FLAGS = ['rpc', 'url', 'block', 'address', 'start', 'max', 'tx-index', 'mode', 'timeout', 'user'];

function integerFlag(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  // A documented maximum is named whenever it is passed, however many digits the value has.
  if (max < Number.MAX_SAFE_INTEGER && /^\d+$/.test(value.trim()) && n > max) throw new UsageError(`--${name} is at most ${max}, not ${value}: read a larger range page by page, starting each page at the previous nextKey`);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name} needs ${min > 0 ? 'a positive' : 'a non-negative'} integer, not '${value}'`);
  }
  return n;
}

function parseArgs(args: string[]): StorageArgs {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}': every value follows its option, e.g. --address ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    refusePasswordFlag(name);
    if (!FLAGS.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags[name === 'url' ? 'rpc' : name] = value;
  }
  for (const required of ['rpc', 'block', 'address']) if (flags[required] === undefined) throw new UsageError(`--${required} is required`);
  const mode = flags.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'native' && mode !== 'emulate') throw new UsageError(`--mode is auto, native or emulate, not '${mode}'`);
  return {
    url: flags.rpc,
    user: flags.user,
    timeoutMs: parseTimeout(flags.timeout),
    block: flags.block,
    address: flags.address,
    start: flags.start,
    max: integerFlag('max', flags.max, 1, MAX_RESULTS_LIMIT),
    txIndex: integerFlag('tx-index', flags['tx-index'], 0),
    mode,
  };
}

async function run(argv: string[], io: CliIO): Promise<number> {
  let args: StorageArgs;
  let target: ReturnType<typeof endpointFromFlags>;
  try {
    args = parseArgs(argv);
    target = endpointFromFlags(args.url, args.user, io.env);
  } catch (err) {
    if (err instanceof UsageError || err instanceof EndpointError) {
      io.err(`chaindeck storage-range: ${err.message}\n\n${usage}`);
      return 2;
    }
    throw err;
  }

  const options = { timeoutMs: args.timeoutMs, deadline: commandDeadline(args.timeoutMs) };
  const client = target.isWs ? new WsRpcClient(target.endpoint, { ...options, pingIntervalMs: 0 }) : new RpcClient(target.endpoint, options);
  let outcome: unknown;
  try {
    outcome = await storageRange(client, {
      block: args.block,
      address: args.address,
      startKey: args.start,
      maxResults: args.max,
      txIndex: args.txIndex,
      mode: args.mode,
      onWarning: (line) => io.err(`${line}\n`),
    });
  } catch (err) {
    // Every failure, expected or not, still ends as the one JSON object on stdout.
    outcome = err instanceof Error ? err : new Error(String(err));
  } finally {
    if (client instanceof WsRpcClient) await client.close();
    closeIdleConnections();
  }
  io.out(`${inertJson(toSpecOutput(outcome))}\n`);
  if (outcome instanceof Error) {
    const detail = outcome instanceof StorageRangeError && outcome.detail && !outcome.message.includes(outcome.detail) ? `: ${outcome.detail}` : '';
    io.err(`chaindeck storage-range: ${outcome.message}${detail}\n`);
    return 1;
  }
  return 0;
}

export const storageCommand: CliCommand = {
  name: 'storage-range',
  summary: "Print a contract's storage at a block (debug_storageRangeAt, or its emulation)",
  usage,
  run,
};
