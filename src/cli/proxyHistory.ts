/**
 * `chaindeck proxy-history`: a proxy's implementation history from its ERC-1967 events
 * (Upgraded, BeaconUpgraded, and the Upgraded events of the beacons it pointed at), one element per
 * upgrade in chain order; the blocks to give storage-diff around an upgrade, and the transaction.
 */
import type { OptionTable } from './args';
import { defineCommand, printJson, renderTable } from './command';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, parseTimeout, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';
import { addressFlag, blockFlag, formatFlag, sharedOptions, type OutputFormat } from './storageLayoutFlags';

const options = {
  ...nodeOptions("the node's endpoint; an access key in the path is used"),
  address: { type: 'string', value: 'ADDR', help: 'the proxy (any case; a mixed-case address must carry a valid EIP-55 checksum)' },
  format: sharedOptions.format,
  block: { type: 'string', value: 'TAG', help: 'the last block searched: hash, decimal or 0x number, or latest (default)' },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

interface UpgradesArgs {
  target: NodeTarget;
  timeoutMs?: number;
  address: string;
  block: string;
  format: OutputFormat;
}

export const proxyHistoryCommand = defineCommand({
  name: 'proxy-history',
  summary: "Print a proxy's implementation history from its upgrade events",
  usage: ['--rpc URL --address ADDR [--block TAG] [--format json|table] [--timeout MS] [--user NAME]'],
  description: `JSON: one array, one element per upgrade in chain order:
  {"block": 12, "tx": "0x5e1…", "kind": "implementation", "address": "0xAbC…"}
kind "implementation" is an Upgraded event (the proxy runs address from then on), "beacon" a
BeaconUpgraded event (the proxy asks beacon address); an implementation set on a beacon the proxy
pointed at carries "beacon": "0x…" too. The implementation live at a block is the last one at or
before it.`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --address ${word}`,
  notes:
    "The events are read with eth_getLogs from block 0, ranges halved where the node caps them; what could not be read is a warning on stderr. An address without such events prints an empty array and a warning. To see storage across an upgrade: storage-diff --from BLOCK-1 --to BLOCK --layout FILE with both implementations in FILE, or storage-diff --tx of the upgrade's transaction.",
  environment: ENDPOINT_ENV,
  exit: {
    done: 'the history was printed (an empty array when the address logged no upgrade)',
    failed: 'an error, one line on stderr (an unknown block, an unreachable node)',
  },
  examples: [
    'chaindeck proxy-history --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3',
    'chaindeck proxy-history --rpc "$NODE_URL" --address 0xA0b8… --block 19000000 --format table',
  ],

  check({ values }, io): UpgradesArgs {
    const rpc = rpcFlag(values.rpc);
    const address = addressFlag(values.address);
    const block = blockFlag('block', values.block, 'latest');
    const format = formatFlag(values.format);
    const timeoutMs = parseTimeout(values.timeout);
    return { target: endpointFromFlags(rpc, values.user, io.env), timeoutMs, address, block, format };
  },

  async work(args, io) {
    const [{ upgradeHistory }, { resolveBlocks }] = await Promise.all([import('../core/storage/deployed/upgrades'), import('../core/storage/decode/decode')]);
    const history = await withNodeClient(args.target, args.timeoutMs, async (client) => {
      const [block] = await resolveBlocks(client, [args.block], { roundTrips: 0, requests: 0, reads: 0 });
      return upgradeHistory(client, args.address, block.number);
    });
    for (const w of history.warnings) io.err(`Warning: ${w}\n`);
    if (history.upgrades.length === 0)
      io.err(`Warning: ${history.proxy} logged no Upgraded or BeaconUpgraded event up to block ${history.toBlock}: no ERC-1967 proxy, or one that does not log its upgrades\n`);
    const rows = history.upgrades.map((u) => ({ block: u.block, tx: u.tx, kind: u.kind, address: u.address, ...(u.beacon ? { beacon: u.beacon } : {}) }));
    if (args.format === 'json') printJson(io, rows);
    else
      io.out(
        renderTable(
          ['BLOCK', 'TX', 'KIND', 'ADDRESS', 'BEACON'],
          rows.map((r) => [String(r.block), r.tx, r.kind, r.address, r.beacon ?? '']),
        ),
      );
    return 0;
  },
});
