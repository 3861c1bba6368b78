/**
 * `chaindeck storage-range`: a contract's storage at a block, natively (debug_storageRangeAt) or
 * by the eth_getStorageAt emulation, printed as exactly one JSON object in the spec's output
 * form (pretty-printed with two spaces, like `chaindeck rpc`). Warnings go to stderr.
 */
import { MAX_RESULTS_LIMIT } from '../core/storage/inputs';
import { STORAGE_MODES, type StorageModeChoice } from '../core/storage/types';
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, reportFailure } from './command';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, parseTimeout, PASSWORD_ENV, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';

const options = {
  ...nodeOptions("the node's endpoint; an access key in the path is used"),
  block: { type: 'string', value: 'B', help: 'block hash, block number (decimal or 0x-hex), or latest' },
  address: { type: 'string', value: 'A', help: 'the contract (any case; checksummed before use)' },
  start: {
    type: 'string',
    value: 'KEY',
    help: "start key, hex with or without 0x (default 32 zero bytes). Emulation: the first slot number; native: a hashed key (use the previous page's nextKey)",
  },
  max: {
    type: 'string',
    value: 'N',
    help: `entries wanted, 1 to ${MAX_RESULTS_LIMIT} (default 10); at most N are printed, also from a node that sends more, and the emulation reads at most 10 × N slots. For more, read the next page from nextKey`,
  },
  'tx-index': { type: 'string', value: 'N', help: 'native only: state before transaction N of the block (default 0); the emulation ignores it and reads the state at the end of the block' },
  mode: { type: 'string', value: 'M', help: 'auto (default): native debug_storageRangeAt where the node has it, the emulation where it does not; native; or emulate' },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

interface StorageArgs {
  target: NodeTarget;
  timeoutMs?: number;
  block: string;
  address: string;
  start?: string;
  max?: number;
  txIndex?: number;
  mode: StorageModeChoice;
}

function integerFlag(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  // A documented maximum is named whenever it is passed, however many digits the value has.
  if (max < Number.MAX_SAFE_INTEGER && /^\d+$/.test(value.trim()) && n > max)
    throw new UsageError(`--${name} is at most ${max}, not ${value}: read a larger range page by page, starting each page at the previous nextKey`);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${name} needs ${min > 0 ? 'a positive' : 'a non-negative'} integer, not '${value}'`);
  }
  return n;
}

export const storageRangeCommand = defineCommand({
  name: 'storage-range',
  summary: "Print a contract's storage at a block (debug_storageRangeAt, or its emulation)",
  usage: ['--rpc URL --block HASH|NUMBER|latest --address ADDR\n[--start KEY] [--max N] [--tx-index N] [--mode auto|native|emulate]\n[--timeout MS] [--user NAME]'],
  description: `It is printed as one JSON object (pretty-printed):
  {"jsonrpc": "2.0", "id": 1, "result": {"storage": {...}, "nextKey": ...}}
or, on failure,
  {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "..."}}`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --address ${word}`,
  notes:
    'Native results are keyed by hashed slot, with the preimage in "key". Emulated results are keyed by slot number in minimal hex (0x0, 0xb), "key" is null, and nextKey is null when fewer than --max entries were found. A slot that cannot be read is skipped with a warning on stderr.',
  environment: ENDPOINT_ENV,
  exit: { done: 'a result was printed', failed: 'an error: its JSON error object is still printed on stdout, the reason on stderr' },
  examples: [
    'chaindeck storage-range --rpc http://127.0.0.1:8545 --block latest --address 0x5FbDB2315678afecb367f032d93F642f64180aa3',
    'chaindeck storage-range --rpc "$NODE_URL" --block 19000000 --address 0xA0b8… --start 0xa --max 20 --mode emulate',
    `${PASSWORD_ENV}=… chaindeck storage-range --rpc https://nd-123-456-789.p2pify.com --user alice --block latest --address 0xA0b8…`,
  ],

  check({ values }, io): StorageArgs {
    const { block, address } = values;
    const rpc = rpcFlag(values.rpc);
    if (block === undefined) throw new UsageError('--block is required');
    if (address === undefined) throw new UsageError('--address is required');
    const mode = STORAGE_MODES.find((m) => m === (values.mode ?? 'auto'));
    if (!mode) throw new UsageError(`--mode is auto, native or emulate, not '${values.mode}'`);
    const timeoutMs = parseTimeout(values.timeout);
    const max = integerFlag('max', values.max, 1, MAX_RESULTS_LIMIT);
    const txIndex = integerFlag('tx-index', values['tx-index'], 0);
    return { target: endpointFromFlags(rpc, values.user, io.env), timeoutMs, block, address, start: values.start, max, txIndex, mode };
  },

  async work(args, io) {
    const { storageRange, toSpecOutput } = await import('../core/storage/range');
    const outcome: unknown = await withNodeClient(args.target, args.timeoutMs, (client) =>
      storageRange(client, {
        block: args.block,
        address: args.address,
        startKey: args.start,
        maxResults: args.max,
        txIndex: args.txIndex,
        mode: args.mode,
        onWarning: (line) => io.err(`${line}\n`),
      })
        // Every failure of the call, expected or not, still ends as the one JSON object on stdout;
        // a failure to load or build the client is not the call's and is not turned into it.
        .catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
    );
    printJson(io, toSpecOutput(outcome));
    return outcome instanceof Error ? reportFailure(io, 'storage-range', outcome) : 0;
  },
});
