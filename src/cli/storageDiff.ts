/**
 * `chaindeck storage-diff`: what changed in a contract's storage between the end of block FROM and
 * the end of block TO. With --layout, one element per changed leaf ({path, slot, before, after})
 * in layout order; without, one per changed raw slot ({slot, before, after}), found by the node's
 * state-diff tracing.
 */
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, renderTable, warningLine } from './command';
import { ENDPOINT_ENV, endpointFromFlags, parseTimeout, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';
import { addressFlag, blockFlag, cell, formatFlag, LAYOUT_FILE_HELP, readAsDeployed, sharedOptions, type OutputFormat } from './storageLayoutFlags';

const options = {
  ...sharedOptions,
  from: { type: 'string', value: 'TAG', help: 'the earlier state: the end of this block (hash, decimal or 0x number, or latest)' },
  to: { type: 'string', value: 'TAG', help: 'the later state: the end of this block' },
  layout: { type: 'string', value: 'FILE', help: `${LAYOUT_FILE_HELP}. Without it, raw slots are compared` },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

interface DiffArgs {
  target: NodeTarget;
  timeoutMs?: number;
  address: string;
  from: string;
  to: string;
  layout?: string;
  contract?: string;
  format: OutputFormat;
}

export const storageDiffCommand = defineCommand({
  name: 'storage-diff',
  summary: "Print what changed in a contract's storage between two blocks",
  usage: ['--rpc URL --address ADDR --from TAG --to TAG [--layout FILE] [--contract NAME]\n[--format json|table] [--timeout MS] [--user NAME]'],
  description: `JSON: one array. With --layout, one element per changed leaf, in layout order:
  {"path": "balances[0xAbC…]", "slot": "0x8a3…", "before": "0", "after": "100"}
(a zero shows as its zero; null only for an array element missing at one block, beside a
"list.length" element). Without --layout, one element per changed slot, 32-byte hex:
  {"slot": "0x…02", "before": "0x…00", "after": "0x…2a"}`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --address ${word}`,
  notes:
    "Without --layout the node must trace state diffs (debug_traceBlockByNumber with the prestateTracer in diffMode, or trace_replayBlockTransactions with stateDiff: anvil, geth, Erigon, Nethermind have them; ganache does not). With --layout, mapping keys come from the contract's event logs up to the later block.",
  environment: ENDPOINT_ENV,
  exit: {
    done: 'the changes were printed (an empty array when nothing changed)',
    failed: 'an error, one line on stderr (the layout file, no code at the address, an unknown block, an unreachable node, a node that cannot trace state diffs)',
  },
  examples: [
    'chaindeck storage-diff --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --from 10 --to latest --layout out/Token.sol/Token.json',
    'chaindeck storage-diff --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --from 0x10 --to 0x14 --format table',
  ],

  check({ values }, io): DiffArgs {
    const rpc = rpcFlag(values.rpc);
    const address = addressFlag(values.address);
    const from = blockFlag('from', values.from);
    const to = blockFlag('to', values.to);
    if (values.contract !== undefined && values.layout === undefined) throw new UsageError('--contract names a contract of --layout FILE: give --layout too');
    const format = formatFlag(values.format);
    const timeoutMs = parseTimeout(values.timeout);
    return { target: endpointFromFlags(rpc, values.user, io.env), timeoutMs, address, from, to, layout: values.layout, contract: values.contract, format };
  },

  async work(args, io) {
    // The values are the contract's data, shown whole (a base URI keeps its path); the endpoint's secrets are registered and still masked.
    const print = (text: string) => (io.outRevealed ? io.outRevealed(text) : io.out(text));
    const file = args.layout;
    if (file !== undefined) {
      // As deployed: through a proxy, by the layout picked at the later block (storageLayoutFlags.ts).
      const { diffOfReading } = await import('../core/storage/decode/decode');
      const { reading } = await withNodeClient(args.target, args.timeoutMs, (client) =>
        readAsDeployed(client, file, args.contract, [args.from, args.to], { address: args.address, onWarning: (line) => io.err(warningLine(line)) }),
      );
      const diff = diffOfReading(reading);
      if (args.format === 'json') printJson(io, diff.changes, true);
      else
        print(
          renderTable(
            ['PATH', 'SLOT', 'BEFORE', 'AFTER'],
            diff.changes.map((c) => [c.path, c.slot, cell(c.before), cell(c.after)]),
          ),
        );
      return 0;
    }
    const { rawStorageDiff } = await import('../core/storage/decode/rawDiff');
    const diff = await withNodeClient(args.target, args.timeoutMs, (client) => rawStorageDiff(client, args.from, args.to, { address: args.address }));
    if (args.format === 'json') printJson(io, diff.changes, true);
    else
      print(
        renderTable(
          ['SLOT', 'BEFORE', 'AFTER'],
          diff.changes.map((c) => [c.slot, c.before, c.after]),
        ),
      );
    return 0;
  },
});
