/**
 * `chaindeck platform`: lists (or gets by id) the organization, projects, networks, nodes and
 * identities of the platform API, as an aligned table or as JSON. The API key only ever comes
 * from the environment and is registered for redaction, so nothing printed holds it; node
 * credentials are masked too unless --show-secrets is given.
 */
import { DEFAULT_API_URL, normaliseApiUrl } from '../core/platform/apiUrl';
import type { PlatformClientOptions } from '../core/platform/client';
import { isPlatformId, PLATFORM_ID_RULE } from '../core/platform/ids';
import { PlatformError } from '../core/platform/errors';
import { maskValues, redactSecrets, secretsOf } from '../core/platform/secrets';
import {
  LIST_FILTERS,
  PLATFORM_KINDS,
  type FilterName,
  type Identity,
  type ListKind,
  type ListQuery,
  type Network,
  type Organization,
  type PlatformKind,
  type PlatformNode,
  type Project,
} from '../core/platform/types';
import { registerSecret } from '../core/redact';
import { inertText } from '../core/inert';
import { UsageError, type OptionTable } from './args';
import { defineCommand, printJson, renderTable } from './command';
import { commandDeadline, parseTimeout, RESPONSE_CAP_ENV, TIMEOUT_OPTION } from './endpointFlags';
import { CLI_HINTS } from './knobs';

const KEY_ENV = 'CHAINDECK_API_KEY';

const refusedKey = (flag: string) => `--${flag} is not accepted: a key on the command line shows in the process list and the shell history. Set the environment variable ${KEY_ENV}.`;

/** A filter option: its help names the lists it filters, as LIST_FILTERS has them. */
function filterOption(name: FilterName, value: string, which: string) {
  const lists = (Object.keys(LIST_FILTERS) as ListKind[]).filter((kind) => LIST_FILTERS[kind].includes(name));
  return { type: 'string', value, help: `list only those ${which} (${lists.join(', ')})` } as const;
}

const options = {
  'api-url': { type: 'string', value: 'URL', help: `the API's base URL (default ${DEFAULT_API_URL})` },
  format: { type: 'string', value: 'table|json', help: 'aligned columns (default) or the objects as JSON' },
  'show-secrets': { type: 'boolean', help: 'show node credentials (access keys, passwords, endpoints with their keys); the API key never' },
  timeout: TIMEOUT_OPTION,
  'order-by': { type: 'string', value: 'FIELD', help: 'name or created_at; a leading - for descending (e.g. -created_at)' },
  organization: filterOption('organization', 'ID', 'of this organization'),
  project: filterOption('project', 'ID', 'in this project'),
  network: filterOption('network', 'ID', 'on this network'),
  protocol: filterOption('protocol', 'NAME', 'of this protocol, e.g. ethereum'),
  status: filterOption('status', 'STATUS', 'with this status, e.g. running'),
} satisfies OptionTable;

type Format = 'table' | 'json';

interface PlatformArgs {
  kind: PlatformKind;
  id?: string;
  apiUrl: string;
  format: Format;
  showSecrets: boolean;
  timeoutMs?: number;
  query: ListQuery;
}

const FILTER_FLAGS: readonly FilterName[] = ['organization', 'project', 'network', 'protocol', 'status'];

/** One column of a table: a title and how to get a cell from an object. */
interface Column<T> {
  title: string;
  cell(item: T): unknown;
}

/** A column whose cell is the object's field as it is. */
const field = <T>(title: string, key: keyof T): Column<T> => ({ title, cell: (item) => item[key] });

// Inert before the widths are measured, so stripped sequences do not skew the columns.
const cellText = (v: unknown): string => inertText(v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s+/g, ' ');
const count = (v: unknown[] | undefined) => (v ? String(v.length) : '');
const date = (v: string | undefined) => (v ? v.replace(/T(\d\d:\d\d).*$/, ' $1') : '');

/** Aligned columns: a header, then one line per object. */
export function renderColumns<T>(columns: readonly Column<T>[], items: readonly T[]): string {
  return renderTable(
    columns.map((c) => c.title),
    items.map((item) => columns.map((c) => cellText(c.cell(item)))),
  );
}

const PROJECT_COLUMNS: Column<Project>[] = [
  field('ID', 'id'),
  field('NAME', 'name'),
  field('TYPE', 'type'),
  { title: 'NETWORKS', cell: (p) => count(p.networks) },
  { title: 'CREATED', cell: (p) => date(p.created_at) },
  field('DESCRIPTION', 'description'),
];

const NETWORK_COLUMNS: Column<Network>[] = [
  field('ID', 'id'),
  field('NAME', 'name'),
  field('PROTOCOL', 'protocol'),
  { title: 'NETWORK', cell: (n) => n.configuration?.network },
  field('PROJECT', 'project'),
  field('STATUS', 'status'),
  { title: 'NODES', cell: (n) => count(n.nodes) },
];

/** The endpoint column shows what it is given: redacted, unless the user asked for secrets. */
const NODE_COLUMNS: Column<PlatformNode>[] = [
  field('ID', 'id'),
  field('NAME', 'name'),
  field('STATUS', 'status'),
  field('TYPE', 'type'),
  field('REGION', 'region'),
  field('NETWORK', 'network'),
  { title: 'HTTPS ENDPOINT', cell: (n) => n.details?.https_endpoint },
];

const NODE_SECRET_COLUMNS: Column<PlatformNode>[] = [
  { title: 'ACCESS KEY', cell: (n) => n.details?.auth_key },
  { title: 'USERNAME', cell: (n) => n.details?.auth_username },
  { title: 'PASSWORD', cell: (n) => n.details?.auth_password },
];

const IDENTITY_COLUMNS: Column<Identity>[] = [
  field('ID', 'id'),
  field('NAME', 'name'),
  field('TYPE', 'type'),
  field('STATUS', 'status'),
  { title: 'CREATED', cell: (i) => date(i.created_at) },
];

const ORGANIZATION_COLUMNS: Column<Organization>[] = [field('ID', 'id'), field('NAME', 'name')];

function table(kind: PlatformKind, items: readonly unknown[], showSecrets: boolean): string {
  switch (kind) {
    case 'organization':
      return renderColumns(ORGANIZATION_COLUMNS, items as Organization[]);
    case 'projects':
      return renderColumns(PROJECT_COLUMNS, items as Project[]);
    case 'networks':
      return renderColumns(NETWORK_COLUMNS, items as Network[]);
    case 'nodes':
      return renderColumns(showSecrets ? [...NODE_COLUMNS, ...NODE_SECRET_COLUMNS] : NODE_COLUMNS, items as PlatformNode[]);
    case 'identities':
      return renderColumns(IDENTITY_COLUMNS, items as Identity[]);
  }
}

export const platformCommand = defineCommand({
  name: 'platform',
  summary: 'List the organization, projects, networks, nodes or identities of the platform API',
  usage: [`<${PLATFORM_KINDS.join('|')}> [ID] [options]`],
  description: `A list is read to its last page; given an ID, only that object is shown. The API key is read from the environment variable ${KEY_ENV} (never from a flag).`,
  arguments: [['ID', 'show this one object instead of the list']],
  options,
  refused: { 'api-key': refusedKey('api-key'), key: refusedKey('key') },
  noOptionAsValue: true,
  notes: `An ID (and the value of --organization, --project, --network) is ${PLATFORM_ID_RULE}.`,
  environment: [[KEY_ENV, "the platform API key: create one in the provider's console, under Settings → API keys"], RESPONSE_CAP_ENV],
  exit: { done: 'the objects were printed', failed: 'any failure, no API key included (the reason on stderr)' },
  examples: [
    `${KEY_ENV}=… chaindeck platform nodes --status running`,
    `${KEY_ENV}=… chaindeck platform networks --project PR-123-456 --format json`,
    `${KEY_ENV}=… chaindeck platform nodes ND-123-456-789`,
  ],

  check({ values, positionals }): PlatformArgs {
    const [kindText, id, ...extra] = positionals;
    if (!kindText) throw new UsageError(`name what to list: ${PLATFORM_KINDS.join(', ')}`);
    const kind = PLATFORM_KINDS.find((k) => k === kindText);
    if (!kind) throw new UsageError(`unknown object '${kindText}': choose ${PLATFORM_KINDS.join(', ')}`);
    if (extra.length) throw new UsageError(`too many arguments: ${extra.join(' ')}`);
    if (id !== undefined && kind === 'organization') throw new UsageError('organization takes no ID: the API key belongs to one organization');
    if (id !== undefined && !isPlatformId(id)) throw new UsageError(`'${id}' is not an ID: an ID is ${PLATFORM_ID_RULE}`);

    const format = values.format ?? 'table';
    if (format !== 'table' && format !== 'json') throw new UsageError(`--format is table or json, not '${format}'`);
    const timeoutMs = parseTimeout(values.timeout);
    if (values['api-url'] !== undefined) {
      try {
        normaliseApiUrl(values['api-url']);
      } catch (err) {
        if (err instanceof PlatformError) throw new UsageError(`--api-url: ${err.message}`);
        throw err;
      }
    }

    const query: ListQuery = {};
    for (const filter of FILTER_FLAGS) {
      const value = values[filter];
      if (value === undefined) continue;
      if (kind === 'organization' || id !== undefined) throw new UsageError(`--${filter} filters a list; it does not apply to ${id !== undefined ? 'one object by ID' : 'the organization'}`);
      const allowed = LIST_FILTERS[kind];
      if (!allowed.includes(filter)) throw new UsageError(`${kind} cannot be filtered by --${filter}; ${kind} take ${allowed.map((f) => `--${f}`).join(', ') || 'no filter'}`);
      if (filter !== 'protocol' && filter !== 'status' && !isPlatformId(value)) throw new UsageError(`--${filter} takes an ID (${PLATFORM_ID_RULE}), not '${value}'`);
      query[filter] = value;
    }
    const orderBy = values['order-by'];
    if (orderBy !== undefined) {
      if (kind === 'organization' || id !== undefined) throw new UsageError('--order-by orders a list');
      if (!/^-?[A-Za-z_]+$/.test(orderBy)) throw new UsageError(`--order-by takes a field name such as name or -created_at, not '${orderBy}'`);
      query.order_by = orderBy;
    }
    return { kind, id, apiUrl: values['api-url'] ?? DEFAULT_API_URL, format, showSecrets: values['show-secrets'] === true, timeoutMs, query };
  },

  async work(args, io) {
    // Loaded here, not at the start: the help and the argument checks need no HTTP stack.
    const [{ PlatformClient }, { closeIdleConnections }] = await Promise.all([import('../core/platform/client'), import('../core/rpc/http')]);
    const apiKey = io.env[KEY_ENV]?.trim();
    if (!apiKey) {
      io.err(`chaindeck platform: no API key: set the environment variable ${KEY_ENV} to your platform API key (create one in the provider's console, under Settings → API keys).\n`);
      return 1;
    }
    registerSecret(apiKey);

    const options: PlatformClientOptions = {
      apiKey,
      apiUrl: args.apiUrl,
      timeoutMs: args.timeoutMs,
      deadline: commandDeadline(args.timeoutMs),
      hints: CLI_HINTS,
      keyHint: `set a new one in the environment variable ${KEY_ENV}`,
    };
    try {
      const client = new PlatformClient(options);
      const found: unknown =
        args.kind === 'organization' ? await client.organization() : args.id !== undefined ? await client.get(args.kind, args.id) : await client.list(args.kind as ListKind, args.query);
      const items = Array.isArray(found) ? found : [found];
      if (!args.showSecrets) {
        // Belt and braces: the printed text is masked of these too, wherever they might appear.
        for (const secret of secretsOf(items)) registerSecret(secret);
      }
      // The API key is never shown; node credentials only when asked for.
      const shown = args.showSecrets ? maskValues(items, [apiKey]) : redactSecrets(items, [apiKey]);
      // Asked for: endpoints with their keys too, which the default output masks as URLs.
      const print = args.showSecrets && io.outRevealed ? io.outRevealed.bind(io) : io.out.bind(io);
      if (args.format === 'json') {
        printJson(io, Array.isArray(found) ? shown : shown[0], args.showSecrets);
      } else if (shown.length === 0) {
        io.out(`No ${args.kind} found.\n`);
      } else {
        print(table(args.kind, shown, args.showSecrets));
      }
      return 0;
    } finally {
      closeIdleConnections();
    }
  },
});
