/**
 * `chaindeck storage-decode`: a contract's state variables at a block, decoded by the compiler's
 * storage layout — one JSON array in layout order ({label, type, slot, offset, value}), or a
 * table of every leaf. Mapping keys come from the contract's event logs and from --keys.
 */
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, renderTable, warningLine } from './command';
import { CLI_HINTS } from './knobs';
import { ENDPOINT_ENV, endpointFromFlags, parseTimeout, PASSWORD_ENV, REFUSED_PASSWORD, rpcFlag, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';
import { addressFlag, blockFlag, cell, formatFlag, LAYOUT_FILE_HELP, readAsDeployed, sharedOptions, type OutputFormat } from './storageLayoutFlags';

const options = {
  ...sharedOptions,
  layout: { type: 'string', value: 'FILE', help: LAYOUT_FILE_HELP },
  block: { type: 'string', value: 'TAG', help: 'block hash, block number (decimal or 0x-hex), or latest (default)' },
  keys: {
    type: 'string',
    value: 'KEY,…',
    help: 'mapping keys to try besides those found in the logs, comma-separated (at most 1000): addresses, integers (decimal or 0x), true/false, 0x-hex for bytesN and bytes, text for string keys',
  },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

interface DecodeArgs {
  target: NodeTarget;
  timeoutMs?: number;
  address: string;
  layout: string;
  contract?: string;
  block: string;
  keys: string[];
  format: OutputFormat;
}

/** --keys as a list: comma-separated, none empty. */
export function keysFlag(value: string | undefined): string[] {
  if (value === undefined) return [];
  const keys = value.split(',').map((k) => k.trim());
  if (keys.some((k) => k === '')) throw new UsageError(`--keys is a comma-separated list of keys without empty ones, not '${value}'`);
  if (keys.length > 1000) throw new UsageError(`--keys takes at most 1000 keys, not ${keys.length}`);
  const long = keys.find((k) => k.length > 1024);
  if (long) throw new UsageError(`--keys: a key is at most 1024 characters, not ${long.length}`);
  return keys;
}

export const storageDecodeCommand = defineCommand({
  name: 'storage-decode',
  summary: "Print a contract's state variables at a block, decoded by its storage layout",
  usage: ['--rpc URL --address ADDR --layout FILE [--contract NAME|PATH:NAME]\n[--block TAG] [--keys KEY,…] [--format json|table] [--timeout MS] [--user NAME]'],
  description: `JSON: one array, one element per state variable in layout order:
  {"label": "total", "type": "uint256", "slot": "0x2", "offset": 0, "value": "42"}
Integers and enums are decimal strings, bool true/false, addresses EIP-55, bytesN and bytes
0x-hex, strings text; arrays are arrays, structs objects by member, mappings objects by key.
Proxies are read through: at an ERC-1967, beacon, ERC-1822 (UUPS) or zeppelinos proxy, an
ERC-1167 clone or an ERC-2535 diamond, the proxy's storage is decoded with the implementation's
layout (a diamond's: every facet's, merged). Without --contract, FILE's contract is the one whose
deployed code is the implementation's (elsewhere the address's), metadata and immutables aside.
On an ERC-1967 proxy three address elements come last, after the implementation's variables:
  {"label": "eip1967.proxy.implementation", "type": "address", "slot": "0x3608…2bbc", "offset": 0, "value": "0x…"}
and likewise eip1967.proxy.admin and eip1967.proxy.beacon (the zero address when unset).`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --address ${word}`,
  notes:
    "Mapping keys are found in the contract's own event logs up to the block (every topic and every 32-byte data word, tried in the key's type) and taken from --keys; an entry is shown where any slot of its value is non-zero. Nested mappings try the keys one log names together first (an Approval's owner and spender), then each --keys key with every other, then every combination, up to 100,000 combinations; a warning says when that bound stopped the search. Reads are pinned to the block's number and checked against its hash. Warnings go to stderr.",
  environment: ENDPOINT_ENV,
  exit: {
    done: 'the variables were printed',
    failed: 'an error, one line on stderr (a missing or unreadable FILE, no layout in it, a --contract not in it, no code at the address, an unknown block, an unreachable node)',
    usageExample: 'a missing --layout, or several contracts in FILE, no --contract, and none whose code is deployed there (the candidates are listed)',
  },
  examples: [
    'chaindeck storage-decode --rpc http://127.0.0.1:8545 --address 0x5FbDB2315678afecb367f032d93F642f64180aa3 --layout out/Token.sol/Token.json',
    'chaindeck storage-decode --rpc "$NODE_URL" --address 0xA0b8… --layout artifacts/build-info/3f2a….json --contract contracts/Token.sol:Token --block 19000000 --keys 0xAbC…,0xDeF… --format table',
    `${PASSWORD_ENV}=… chaindeck storage-decode --rpc https://nd-123-456-789.p2pify.com --user alice --address 0xA0b8… --layout out/Vault.sol/Vault.json`,
  ],

  check({ values }, io): DecodeArgs {
    const rpc = rpcFlag(values.rpc);
    const address = addressFlag(values.address);
    if (values.layout === undefined) throw new UsageError('--layout is required: the compiler output that holds the storage layout');
    const block = blockFlag('block', values.block, 'latest');
    const keys = keysFlag(values.keys);
    const format = formatFlag(values.format);
    const timeoutMs = parseTimeout(values.timeout);
    return { target: endpointFromFlags(rpc, values.user, io.env), timeoutMs, address, layout: values.layout, contract: values.contract, block, keys, format };
  },

  async work(args, io) {
    // The values are the contract's data, shown whole (a base URI keeps its path); the endpoint's secrets are registered and still masked.
    const print = (text: string) => (io.outRevealed ? io.outRevealed(text) : io.out(text));
    const { decodedJson, leaves } = await import('../core/storage/decode/decode');
    const { reading } = await withNodeClient(args.target, args.timeoutMs, (client) =>
      readAsDeployed(client, args.layout, args.contract, [args.block], { address: args.address, keys: args.keys, hints: CLI_HINTS, onWarning: (line) => io.err(warningLine(line)) }),
    );
    if (args.format === 'json') printJson(io, decodedJson(reading), true);
    else {
      const rows = reading.variables.flatMap((v) => leaves(v.node, v.label).map((l) => [l.path, l.type, l.slot, cell(l.values[0], l.type === 'string')]));
      print(renderTable(['PATH', 'TYPE', 'SLOT', 'VALUE'], rows));
    }
    return 0;
  },
});
