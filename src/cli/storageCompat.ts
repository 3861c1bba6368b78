/**
 * `chaindeck storage-compat`: whether an upgrade keeps the state where the old code left it, by
 * OpenZeppelin's layout rules on the two compiler layouts, and (with a node) whether the storage
 * the new layout adds is still zero at the deployed contract.
 */
import { statSync } from 'node:fs';
import { inertLine } from '../core/inert';
import { findingText } from '../core/storage/compat/locate';
import type { CompatFinding } from '../core/storage/compat/rules';
import type { ContractLayout } from '../core/storage/layout';
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson } from './command';
import { ENDPOINT_ENV, endpointFromFlags, nodeOptions, parseTimeout, REFUSED_PASSWORD, TIMEOUT_OPTION, withNodeClient, type NodeTarget } from './endpointFlags';
import { addressFlag, LAYOUT_FILE_HELP } from './storageLayoutFlags';

const FILE_HELP = `FILE is ${LAYOUT_FILE_HELP}; CONTRACT is NAME or PATH:NAME, needed when FILE holds several contracts with state`;

const options = {
  from: { type: 'string', value: 'FILE[:CONTRACT]', help: `the layout the upgrade starts from (the deployed version). ${FILE_HELP}` },
  to: { type: 'string', value: 'FILE[:CONTRACT]', help: 'the layout the upgrade installs (the new version)' },
  ...nodeOptions('with --address: the node where the contract runs, to check that the storage the new layout adds is zero there'),
  address: { type: 'string', value: 'ADDR', help: 'the deployed contract (the proxy, for a proxied one), with --rpc' },
  format: { type: 'string', value: 'F', help: 'text (default): one line per finding and a summary; json: one JSON array of {kind, path, before, after, severity}' },
  timeout: TIMEOUT_OPTION,
} satisfies OptionTable;

export const FORMATS = ['text', 'json'] as const;

interface CompatArgs {
  from: LayoutSpec;
  to: LayoutSpec;
  node?: { target: NodeTarget; address: string };
  timeoutMs?: number;
  format: (typeof FORMATS)[number];
}

export interface LayoutSpec {
  file: string;
  contract?: string;
}

/**
 * FILE[:CONTRACT] as a file and a contract: the whole value when it is a file, else the shortest
 * part before a colon that is one (so CONTRACT may be PATH:NAME, and C:\… stays a path); the whole
 * value when no part is a file (reading it then says so).
 */
export function splitLayoutSpec(value: string, isFile: (path: string) => boolean = fileExists): LayoutSpec {
  if (isFile(value)) return { file: value };
  for (let i = value.indexOf(':'); i > 0; i = value.indexOf(':', i + 1)) {
    const file = value.slice(0, i);
    const contract = value.slice(i + 1);
    if (isFile(file) && contract) return { file, contract };
  }
  return { file: value };
}

function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function specFlag(name: 'from' | 'to', value: string | undefined): LayoutSpec {
  if (!value) throw new UsageError(`--${name} is required: a compiler output with the storage layout, as FILE or FILE:CONTRACT`);
  return splitLayoutSpec(value);
}

/** The layout a spec names; a contract missing or not in FILE is a usage error (exit 2), an unreadable FILE a failure. */
async function layoutOf(spec: LayoutSpec, flag: string): Promise<ContractLayout> {
  const { LayoutFileError, readLayoutFile, selectLayout } = await import('../core/storage/layout');
  const { layouts } = readLayoutFile(spec.file);
  try {
    return selectLayout(layouts, spec.contract, spec.file);
  } catch (err) {
    if (err instanceof LayoutFileError && (err.reason === 'ambiguous' || err.reason === 'no-contract')) {
      throw new UsageError(`--${flag}: ${err.message.replace('choose one with --contract NAME or PATH:NAME', `write --${flag} FILE:NAME or FILE:PATH:NAME`).replace(/^--contract /, '')}`);
    }
    throw err;
  }
}

/** One line of a finding: "error: inserted fee: nothing → uint256 fee at slot 1". */
export function findingLine(f: CompatFinding): string {
  return inertLine(`${f.severity}: ${findingText(f)}`);
}

export const storageCompatCommand = defineCommand({
  name: 'storage-compat',
  summary: "Check that an upgrade keeps the storage layout, by OpenZeppelin's rules",
  usage: ['--from FILE[:CONTRACT] --to FILE[:CONTRACT] [--rpc URL --address ADDR]\n[--format text|json] [--timeout MS] [--user NAME]'],
  description: `Compares the storage layouts of the deployed version (--from) and the new one (--to):
variables, the members of ERC-7201 namespaces (erc7201:<id>) and of structs may be appended,
not inserted, removed, retyped, renamed or reordered; a __gap may shrink by exactly the slots
added before it. Types are compared by what they lay out (a struct's members, a mapping's key
and value, an array's base and length, an enum's members when FILE carries the AST), not by the
compiler's ids. With --rpc and --address, the storage the new layout adds
must still be zero at the contract (the proxy, for a proxied one), at the latest block.
JSON: one array, one element per finding:
  {"kind": "inserted", "path": "fee", "before": null, "after": "uint256 fee at slot 1", "severity": "error"}
kinds: inserted, removed, retyped, renamed, reordered, moved (same name and type at another
slot, nothing above explaining it), gap-resized, namespace-removed, nonzero-slot (before says
what the slot holds on chain), all errors; unchecked-slots (added storage over 10,000 slots, not
read), a warning. A path inside a namespace is erc7201:<id>.member; inside a struct var.member;
inside a mapping's value or an array's element var[].member (slots there are "+N" from its start).`,
  options,
  refused: REFUSED_PASSWORD,
  refuseArgument: (word) => `unexpected argument '${word}': every value follows its option, e.g. --from ${word}`,
  notes: 'A slot is shown in decimal, or in hex when it is a namespace\u2019s hashed slot. The text form ends with one summary line; warnings do not fail the check.',
  environment: ENDPOINT_ENV,
  exit: {
    done: 'no error finding (the upgrade keeps the layout; warnings may be printed)',
    failed: 'an error finding, or an error in one line on stderr (an unreadable FILE, no layout in it, no code at the address, an unreachable node)',
    usageExample: 'a missing --from or --to, a CONTRACT not in FILE, several contracts in FILE and no CONTRACT, --address without --rpc',
  },
  examples: [
    'chaindeck storage-compat --from out/BoxV1.sol/BoxV1.json --to out/BoxV2.sol/BoxV2.json',
    'chaindeck storage-compat --from deployed/build-info.json:contracts/Box.sol:Box --to artifacts/build-info/3f2a….json:Box --rpc http://127.0.0.1:8545 --address 0x5FbD… --format json',
  ],

  check({ values }, io): CompatArgs {
    const from = specFlag('from', values.from);
    const to = specFlag('to', values.to);
    const format = FORMATS.find((f) => f === (values.format ?? 'text'));
    if (!format) throw new UsageError(`--format is text or json, not '${values.format}'`);
    if ((values.rpc === undefined) !== (values.address === undefined)) throw new UsageError('--rpc and --address go together: the contract whose storage the upgrade will use, on that node');
    if (values.user !== undefined && values.rpc === undefined) throw new UsageError('--user is for the node of --rpc');
    const timeoutMs = parseTimeout(values.timeout);
    const node = values.rpc !== undefined ? { target: endpointFromFlags(values.rpc, values.user, io.env), address: addressFlag(values.address) } : undefined;
    return { from, to, node, timeoutMs, format };
  },

  async work(args, io) {
    const before = await layoutOf(args.from, 'from');
    const after = await layoutOf(args.to, 'to');
    const { compareLayouts } = await import('../core/storage/compat/rules');
    const result = compareLayouts(before, after);
    const findings = [...result.findings];
    if (args.node) {
      const { address } = args.node;
      const { checkAddedStorage } = await import('../core/storage/compat/onchain');
      findings.push(...(await withNodeClient(args.node.target, args.timeoutMs, (client) => checkAddedStorage(client, address, result.added))));
    }
    const errors = findings.filter((f) => f.severity === 'error').length;
    if (args.format === 'json') printJson(io, findings);
    else {
      for (const f of findings) io.out(`${findingLine(f)}\n`);
      const warnings = findings.length - errors;
      const counts = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
      const names = `${before.contractName} → ${after.contractName}`;
      const added = result.added.length
        ? `${result.added.length} added (${result.added.map((a) => a.path).join(', ')})${args.node ? `, zero at ${args.node.address}` : ''}`
        : 'nothing added';
      io.out(`${inertLine(errors ? `${counts}: ${names} does not keep the storage layout` : `${counts}: ${names} keeps the storage layout; ${added}`)}\n`);
    }
    return errors ? 1 : 0;
  },
});
