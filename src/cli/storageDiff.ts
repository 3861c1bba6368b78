/**
 * `chaindeck storage-diff`: what changed in a contract's storage between the end of block FROM and
 * the end of block TO, or made by one transaction (--tx: just before it and just after it). With
 * --layout, one element per changed leaf ({path, slot, before, after}) in layout order; without,
 * one per changed raw slot ({slot, before, after}), found by the node's state-diff tracing. At an
 * ERC-1967 proxy whose implementation changed between FROM and TO, each side is decoded with the
 * layout of the implementation live there when FILE holds both.
 */
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, renderTable, warningLine } from './command';
import { ENDPOINT_ENV, endpointFromFlags, parseTimeout, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';
import { addressFlag, blockFlag, cell, formatFlag, LAYOUT_FILE_HELP, layoutsOf, readAsDeployed, sharedOptions, type OutputFormat } from './storageLayoutFlags';
import type { CliIO } from './command';
import type { StorageRpc } from '../core/storage/types';
import type { StorageReadOptions } from '../core/storage/decode/decode';

const options = {
  ...sharedOptions,
  from: { type: 'string', value: 'TAG', help: 'the earlier state: the end of this block (hash, decimal or 0x number, or latest)' },
  to: { type: 'string', value: 'TAG', help: 'the later state: the end of this block' },
  tx: { type: 'string', value: 'HASH', help: 'instead of --from and --to: the state just before this transaction and just after it (one trace of its block)' },
  layout: { type: 'string', value: 'FILE', help: `${LAYOUT_FILE_HELP}. Without it, raw slots are compared` },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

interface DiffArgs {
  target: NodeTarget;
  timeoutMs?: number;
  address: string;
  /** Blocks, or one transaction. */
  span: { from: string; to: string } | { tx: string };
  layout?: string;
  contract?: string;
  format: OutputFormat;
}

export const storageDiffCommand = defineCommand({
  name: 'storage-diff',
  summary: "Print what changed in a contract's storage between two blocks or in a transaction",
  usage: [
    '--rpc URL --address ADDR --from TAG --to TAG [--layout FILE] [--contract NAME]\n[--format json|table] [--timeout MS] [--user NAME]',
    '--rpc URL --address ADDR --tx HASH [--layout FILE] [--contract NAME]\n[--format json|table] [--timeout MS] [--user NAME]',
  ],
  description: `JSON: one array. With --layout, one element per changed leaf, in layout order:
  {"path": "balances[0xAbC…]", "slot": "0x8a3…", "before": "0", "after": "100"}
(a zero shows as its zero; null only for an array element missing at one block, beside a
"list.length" element). Without --layout, one element per changed slot, 32-byte hex:
  {"slot": "0x…02", "before": "0x…00", "after": "0x…2a"}`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --address ${word}`,
  notes:
    "Without --layout the node must trace state diffs (debug_traceBlockByNumber with the prestateTracer in diffMode, or trace_replayBlockTransactions with stateDiff: anvil, geth, Erigon, Nethermind have them; ganache does not). With --layout, mapping keys come from the contract's event logs up to the later block. --tx traces the transaction's block once with the prestateTracer in diffMode: the state before it is its parent block's with the block's earlier transactions' writes laid over; writes made through delegatecall are the proxy's. At an ERC-1967 proxy whose implementation changed between --from and --to (see proxy-history), each side is decoded with the layout in FILE whose code is the implementation live there; a leaf only one of the two layouts has shows null on the other side, named in a warning.",
  environment: ENDPOINT_ENV,
  exit: {
    done: 'the changes were printed (an empty array when nothing changed)',
    failed:
      'an error, one line on stderr (the layout file, no code at the address, an unknown block or transaction, an unreachable node, a node that cannot trace state diffs, an upgrade between the blocks whose layouts FILE does not hold)',
  },
  examples: [
    'chaindeck storage-diff --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --from 10 --to latest --layout out/Token.sol/Token.json',
    'chaindeck storage-diff --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --from 0x10 --to 0x14 --format table',
    'chaindeck storage-diff --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --tx 0x3f1c…e2 --layout out/Token.sol/Token.json',
  ],

  check({ values }, io): DiffArgs {
    const rpc = rpcFlag(values.rpc);
    const address = addressFlag(values.address);
    const span = spanFlags(values);
    if (values.contract !== undefined && values.layout === undefined) throw new UsageError('--contract names a contract of --layout FILE: give --layout too');
    const format = formatFlag(values.format);
    const timeoutMs = parseTimeout(values.timeout);
    return { target: endpointFromFlags(rpc, values.user, io.env), timeoutMs, address, span, layout: values.layout, contract: values.contract, format };
  },

  async work(args, io) {
    const warn = (line: string) => io.err(warningLine(line));
    const changes = await withNodeClient(args.target, args.timeoutMs, async (client) => {
      if ('tx' in args.span) {
        if (args.layout === undefined) return (await import('../core/storage/decode/txDiff')).rawTxDiff(client, args.span.tx, { address: args.address }).then((d) => d.changes);
        const file = args.layout;
        const { txStorageDiff } = await import('../core/storage/decode/txDiff');
        // As deployed: through a proxy, by the layout picked at the parent block, read there with the block's writes laid over.
        const read = (blocks: string[], options: StorageReadOptions) => readAsDeployed(client, file, args.contract, blocks, options).then((d) => d.reading);
        return (await txStorageDiff(client, read, args.span.tx, { address: args.address, onWarning: warn })).changes;
      }
      const { from, to } = args.span;
      if (args.layout !== undefined) return layoutDiff(client, args, from, to, args.layout, warn);
      const { rawStorageDiff } = await import('../core/storage/decode/rawDiff');
      return (await rawStorageDiff(client, from, to, { address: args.address })).changes;
    });
    printChanges(io, args.format, changes, args.layout !== undefined);
    return 0;
  },
});

/** --from/--to or --tx, not both. */
function spanFlags(values: { from?: string; to?: string; tx?: string }): DiffArgs['span'] {
  if (values.tx !== undefined) {
    if (values.from !== undefined || values.to !== undefined) throw new UsageError('--tx diffs one transaction: give it instead of --from and --to, not with them');
    if (!/^0x[0-9a-fA-F]{64}$/.test(values.tx.trim())) throw new UsageError(`--tx: '${values.tx.slice(0, 80)}' is not a transaction hash (0x followed by 64 hex digits)`);
    return { tx: values.tx.trim() };
  }
  if (values.from === undefined && values.to === undefined) throw new UsageError('--from and --to are required (or --tx HASH)');
  return { from: blockFlag('from', values.from), to: blockFlag('to', values.to) };
}

type Change = { path: string; slot: string; before: unknown; after: unknown } | { slot: string; before: string; after: string };

/** The changes as JSON, or as a table: by path with a layout (`decoded`), by raw slot without. */
function printChanges(io: CliIO, format: OutputFormat, changes: readonly Change[], decoded: boolean): void {
  // The values are the contract's data, shown whole (a base URI keeps its path); the endpoint's secrets are registered and still masked.
  const print = (text: string) => (io.outRevealed ? io.outRevealed(text) : io.out(text));
  if (format === 'json') return printJson(io, changes, true);
  print(
    decoded
      ? renderTable(
          ['PATH', 'SLOT', 'BEFORE', 'AFTER'],
          changes.map((c) => ['path' in c ? c.path : '', c.slot, cell(c.before), cell(c.after)]),
        )
      : renderTable(
          ['SLOT', 'BEFORE', 'AFTER'],
          changes.map((c) => [c.slot, String(c.before), String(c.after)]),
        ),
  );
}

/**
 * A decoded diff between two blocks, as deployed (through a proxy, by the layout picked by code).
 * At a proxy whose implementation changed between them, each side with the layout in FILE whose
 * code is the implementation live there; when FILE lacks one, the layout picked at the later block
 * for both sides with a warning, or (none picked) a failure that says so.
 */
async function layoutDiff(client: StorageRpc, args: DiffArgs, from: string, to: string, file: string, warn: (line: string) => void): Promise<Change[]> {
  const [{ layoutName }, { diffOfReading }, { implementationChange, changeLine, diffAcrossUpgrade }] = await Promise.all([
    import('../core/storage/layout'),
    import('../core/storage/decode/decode'),
    import('../core/storage/deployed/upgradeDiff'),
  ]);
  const read = await layoutsOf(file, args.contract);
  const change = await implementationChange(client, args.address, from, to, read.layouts, { chosen: read.chosen });
  const options = { address: args.address, onWarning: warn };
  if (!change) return diffOfReading((await readAsDeployed(client, file, args.contract, [from, to], options, read)).reading).changes;
  for (const w of change.warnings) warn(w);
  const { before, after } = change;
  if (before.layout && after.layout) {
    warn(`${changeLine(change)}: block ${before.block.number} is decoded with ${layoutName(before.layout)}, block ${after.block.number} with ${layoutName(after.layout)}`);
    const diff = await diffAcrossUpgrade(client, change, options);
    const only = (paths: string[], side: string, layout: string) => {
      if (paths.length)
        warn(
          `${paths.length} changed ${paths.length === 1 ? 'leaf' : 'leaves'} only in the layout of ${layout} (${side} is null): ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''}`,
        );
    };
    only(diff.onlyAfter, 'before', layoutName(after.layout));
    only(diff.onlyBefore, 'after', layoutName(before.layout));
    return diff.changes;
  }
  const missing = [before, after].filter((s) => !s.layout).map((s) => s.implementation);
  const line = `${changeLine(change)}, and the layouts to decode both sides are not at hand: no contract in ${file} has the code of ${missing.join(' or ')}`;
  let deployed;
  try {
    deployed = await readAsDeployed(client, file, args.contract, [from, to], options, read);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const { StorageDecodeError } = await import('../core/storage/decode/errors');
    throw new StorageDecodeError(`${line}; give a FILE that holds both implementations, or --contract NAME to decode both sides with one layout`, 'read');
  }
  warn(`${line}: both sides are decoded with ${deployed.deployed.picked.map(layoutName).join(' + ')}`);
  return diffOfReading(deployed.reading).changes;
}
