/**
 * Rules on single values, keyed by where they sit in the manifest (run by the shape pass once
 * the value has the right type): versions, kinds, networks, addresses, block numbers, features.
 */
import type { ValueRule } from './checkShape';
import { label } from './checkShape';
import type { Context } from './context';
import { EVM_NETWORK_ALIASES, EVM_NETWORKS, OTHER_PROTOCOL_NETWORKS } from '../manifest/networks';
import { closest, didYouMean } from '../text';
import type { Fix } from '../types';
import { API_VERSIONS, compareVersions, MIN_API_VERSION, parseVersion, SPEC_VERSIONS } from './versions';
import { get, isMap, items, pairOf, str, type YScalar } from '../ynode';

/** graph-node stores block numbers as 32-bit signed integers. */
const MAX_BLOCK = 2 ** 31 - 1;
export const KNOWN_FEATURES = ['nonFatalErrors', 'fullTextSearch', 'grafting', 'ipfsOnEthereumContracts'];
const ETHEREUM_KINDS = ['ethereum', 'ethereum/contract'];
const FILE_KINDS = ['file/ipfs', 'file/arweave'];
/** Kinds graph-node knows that Chaindeck leaves to their own tools. */
const OTHER_KINDS = ['subgraph', 'near', 'cosmos', 'arweave', 'substreams'];

/** The text to write for a new scalar value, quoted the way the old one was. */
function scalarText(ctx: Context, node: YScalar, value: string): string {
  if (!node.quoted) return value;
  const q = ctx.doc.text[node.start];
  return `${q}${value}${q}`;
}

function replaceValue(ctx: Context, node: YScalar, value: string, title: string): Fix {
  return ctx.replace(node, scalarText(ctx, node, value), title);
}

interface VersionRule {
  key: 'specVersion' | 'apiVersion';
  code: string;
  known: readonly string[];
  /** Why versions below the known ones fail, with its own code. */
  tooOld: { code: string; message: (v: string) => string };
}

function version({ key, code, known, tooOld }: VersionRule): ValueRule {
  const latest = known[known.length - 1];
  return (ctx, node) => {
    const v = str(node)!;
    if (known.includes(v)) return;
    const near = closest(v, known);
    const fix = near ? { fix: replaceValue(ctx, node as YScalar, near, `Change to ${near}`) } : {};
    if (!parseVersion(v)) {
      ctx.flag(node, 'error', code, `${key} '${v}' is not a version like ${latest}`, fix);
    } else if (compareVersions(v, known[0]) < 0) {
      ctx.flag(node, 'error', tooOld.code, tooOld.message(v));
    } else if (compareVersions(v, latest) > 0) {
      ctx.flag(node, 'warning', code, `${key} ${v} is newer than ${latest}, the newest graph-cli 0.98 knows; check that your graph-node host supports it`);
    } else {
      ctx.flag(node, 'error', code, `${key} ${v} does not exist; known versions: ${known.join(', ')}${didYouMean(v, known)}`, fix);
    }
  };
}

const dataSourceKind: ValueRule = (ctx, node, path) => {
  const kind = str(node);
  const list = path[0];
  const known = list === 'templates' ? [...ETHEREUM_KINDS, ...FILE_KINDS] : ETHEREUM_KINDS;
  if (kind === undefined || known.includes(kind)) return;
  // Checked with their own shapes and rules (protocols.ts), templates of them included.
  if (OTHER_KINDS.includes(kind)) return;
  const all = [...known, ...OTHER_KINDS];
  const near = closest(kind, all);
  ctx.flag(node, 'error', 'unknown-kind', `Unknown data source kind '${kind}'; expected ${known.join(' or ')}${near ? `; did you mean '${near}'?` : ''}`, {
    fix: near ? replaceValue(ctx, node as YScalar, near, `Change to ${near}`) : undefined,
  });
};

/** `table[key]` for the table's own keys only: a network named `constructor` or `__proto__` is no alias. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

const network: ValueRule = (ctx, node) => {
  const name = str(node)!;
  if (EVM_NETWORKS.includes(name)) return;
  const alias = own(EVM_NETWORK_ALIASES, name);
  if (alias) {
    ctx.flag(node, 'info', 'network-alias', `'${name}' is an alias: graph-node hosts call this network '${alias}'`, { fix: replaceValue(ctx, node as YScalar, alias, `Change to ${alias}`) });
    return;
  }
  const protocol = own(OTHER_PROTOCOL_NETWORKS, name);
  if (protocol) {
    ctx.flag(node, 'error', 'network-protocol', `'${name}' is a ${protocol} network; an Ethereum data source needs an EVM network such as mainnet`);
    return;
  }
  const near = closest(name, EVM_NETWORKS);
  ctx.flag(
    node,
    'info',
    'unknown-network',
    `Unknown network '${name}': not in The Graph's networks registry${near ? `; did you mean '${near}'?` : ' (fine for a graph-node of your own that names it so)'}`,
    {
      fix: near ? replaceValue(ctx, node as YScalar, near, `Change to ${near}`) : undefined,
    },
  );
};

/**
 * Chains whose addresses carry an EIP-1191 checksum (the chain id mixed into the hash), by their
 * network names in The Graph's registry: Rootstock (RSK) mainnet and testnet, its adopters.
 */
const EIP1191_CHAIN_IDS: Readonly<Record<string, number>> = { rootstock: 30, 'rootstock-testnet': 31 };

const address: ValueRule = (ctx, node, path) => {
  const value = str(node)!;
  if (!/^(0x)?[0-9a-fA-F]{40}$/.test(value)) {
    const digits = value.replace(/^0x/i, '').length;
    ctx.flag(node, 'error', 'invalid-address', `Contract address is invalid: ${value}: must be 40 hexadecimal digits after 0x (found ${digits} characters)`);
    return;
  }
  const hex = value.replace(/^0x/, '');
  // All-lower and all-upper addresses carry no checksum; mixed case must be EIP-55 (or EIP-1191 on its chains).
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return;
  const eip55 = ctx.cache.checksum(value);
  const networkName = str(get(items(get(ctx.doc.root, String(path[0])))[Number(path[1])], 'network')) ?? '';
  const chainId = own(EIP1191_CHAIN_IDS, own(EVM_NETWORK_ALIASES, networkName) ?? networkName);
  const eip1191 = chainId === undefined ? undefined : ctx.cache.checksum(value, chainId);
  // Wallets and libraries on an EIP-1191 chain write either form.
  if (`0x${hex}` === eip55 || `0x${hex}` === eip1191) return;
  const checksummed = eip1191 ?? eip55;
  const rule = eip1191 ? `neither EIP-1191 for chain ${chainId} (${networkName}) nor EIP-55` : 'EIP-55';
  ctx.flag(node, 'info', 'address-checksum', `Address checksum (${rule}) is wrong: the mixed-case form is ${checksummed}; a typo in the address?`, {
    fix: replaceValue(ctx, node as YScalar, value.startsWith('0x') ? checksummed : checksummed.slice(2), 'Use the checksummed address'),
  });
};

function blockNumber(what: string): ValueRule {
  return (ctx, node, path) => {
    const n = (node as YScalar).value as number;
    if (!Number.isInteger(n) || n < 0 || n > MAX_BLOCK) {
      ctx.flag(node, 'error', 'invalid-block-number', `${label(path)} must be a ${what} between 0 and ${MAX_BLOCK}, not ${ctx.text(node)}`);
    }
  };
}

function oneOf(code: string, what: string, allowed: string[]): ValueRule {
  return (ctx, node) => {
    const value = str(node)!;
    if (allowed.includes(value)) return;
    // Documented values that neither graph-cli nor graph-node checks: a hint, never an error.
    ctx.flag(node, 'info', code, `${what} is documented as ${allowed.map((a) => `'${a}'`).join(' or ')}, not '${value}' (graph-cli and graph-node do not check it)`, {
      fix: replaceValue(ctx, node as YScalar, allowed[0], `Change to ${allowed[0]}`),
    });
  };
}

const feature: ValueRule = (ctx, node) => {
  const name = str(node)!;
  if (KNOWN_FEATURES.includes(name)) return;
  const near = closest(name, KNOWN_FEATURES);
  ctx.flag(node, 'error', 'unknown-feature', `Unknown feature '${name}'; graph-node knows ${KNOWN_FEATURES.join(', ')}${near ? `; did you mean '${near}'?` : ''}`, {
    fix: near ? replaceValue(ctx, node as YScalar, near, `Change to ${near}`) : undefined,
  });
};

const prune: ValueRule = (ctx, node) => {
  const value = (node as YScalar).value;
  if (value === 'auto' || value === 'never' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return;
  ctx.flag(node, 'error', 'invalid-prune', `indexerHints.prune must be 'auto', 'never' or a number of blocks, not ${ctx.text(node)}`);
};

const deploymentId: ValueRule = (ctx, node) => {
  const value = str(node)!;
  if (!/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(value)) {
    ctx.flag(node, 'warning', 'invalid-deployment-id', `graft.base '${value}' does not look like a deployment id (Qm… , 46 characters)`);
  }
};

/** Polling block handlers need `every`; the other filters ignore it. */
const blockFilter: ValueRule = (ctx, node) => {
  if (!isMap(node)) return;
  const kind = str(get(node, 'kind'));
  const every = pairOf(node, 'every');
  if (kind === 'polling' && !every) ctx.flag(node, 'error', 'polling-needs-every', 'A polling block filter needs `every`: the number of blocks between two runs');
  if (kind !== 'polling' && every)
    ctx.flag({ start: every.keyStart, end: every.keyEnd }, 'info', 'every-without-polling', `\`every\` only applies to polling filters; this one is '${kind}'`);
};

const every: ValueRule = (ctx, node) => {
  const n = (node as YScalar).value as number;
  if (!Number.isInteger(n) || n < 1) ctx.flag(node, 'error', 'invalid-block-number', `every must be a whole number of blocks, at least 1, not ${ctx.text(node)}`);
};

/** The same rule under dataSources and templates. */
function both(rest: string, rule: ValueRule): Record<string, ValueRule> {
  return { [`dataSources.*.${rest}`]: rule, [`templates.*.${rest}`]: rule };
}

export const VALUE_RULES: Readonly<Record<string, ValueRule>> = {
  specVersion: version({
    key: 'specVersion',
    code: 'unknown-spec-version',
    known: SPEC_VERSIONS,
    tooOld: { code: 'unknown-spec-version', message: (v) => `specVersion ${v} is older than ${SPEC_VERSIONS[0]}, the oldest graph-node accepts` },
  }),
  'features.*': feature,
  'graft.base': deploymentId,
  'graft.block': blockNumber('block number'),
  'indexerHints.prune': prune,
  'dataSources.*.source.address': address,
  'dataSources.*.source.startBlock': blockNumber('block number'),
  'dataSources.*.source.endBlock': blockNumber('block number'),
  ...both('kind', dataSourceKind),
  ...both('network', network),
  ...both('mapping.kind', oneOf('unknown-mapping-kind', 'mapping.kind', ['ethereum/events'])),
  ...both('mapping.language', oneOf('unknown-language', 'mapping.language', ['wasm/assemblyscript'])),
  ...both(
    'mapping.apiVersion',
    version({
      key: 'apiVersion',
      code: 'unknown-api-version',
      known: API_VERSIONS,
      tooOld: {
        code: 'api-version-too-old',
        message: (v) => `apiVersion ${v} is older than ${MIN_API_VERSION}, the oldest graph-cli 0.98 generates code for; migrate the mapping to ${MIN_API_VERSION} or newer`,
      },
    }),
  ),
  ...both('mapping.blockHandlers.*.filter', blockFilter),
  ...both('mapping.blockHandlers.*.filter.every', every),
};
