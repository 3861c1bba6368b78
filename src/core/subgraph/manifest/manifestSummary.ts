/**
 * What the Subgraphs view shows of a subgraph.yaml: its data sources (contract, network, start
 * block) and their handlers, read from the parsed tree. No validation here: validateSubgraph
 * says what is wrong; this only lists what is there.
 */
import { parseManifest } from './manifestDoc';
import { blankComments } from '../code/mappingScan';
import { get, items, str, type YNode } from '../ynode';

export interface HandlerSummary {
  kind: 'event' | 'call' | 'block';
  handler: string;
  /** The event or call signature; undefined for block handlers. */
  trigger?: string;
}

export interface DataSourceSummary {
  name?: string;
  kind?: string;
  network?: string;
  address?: string;
  startBlock?: number;
  /** The mapping file as written (relative to the manifest's folder). */
  mappingFile?: string;
  handlers: HandlerSummary[];
  template: boolean;
}

export interface ManifestSummary {
  /** The schema file as written (relative to the manifest's folder). */
  schemaFile?: string;
  dataSources: DataSourceSummary[];
}

const HANDLER_LISTS = [
  ['eventHandlers', 'event', 'event'],
  ['callHandlers', 'call', 'function'],
  ['blockHandlers', 'block', undefined],
] as const;

function dataSource(node: YNode, template: boolean): DataSourceSummary {
  const source = get(node, 'source');
  const mapping = get(node, 'mapping');
  const start = get(source, 'startBlock');
  const handlers = HANDLER_LISTS.flatMap(([list, kind, triggerKey]) =>
    items(get(mapping, list)).flatMap((entry): HandlerSummary[] => {
      const handler = str(get(entry, 'handler'));
      return handler ? [{ kind, handler, trigger: triggerKey && str(get(entry, triggerKey)) }] : [];
    }),
  );
  return {
    name: str(get(node, 'name')),
    kind: str(get(node, 'kind')),
    network: str(get(node, 'network')),
    address: str(get(source, 'address')),
    startBlock: start?.kind === 'scalar' && typeof start.value === 'number' ? start.value : undefined,
    mappingFile: str(get(mapping, 'file')),
    handlers,
    template,
  };
}

/** The summary of a manifest's text; a manifest that does not parse gives what could be read. */
export function summarizeManifest(text: string): ManifestSummary {
  const root = parseManifest(text).root;
  return {
    schemaFile: str(get(get(root, 'schema'), 'file')),
    dataSources: [...items(get(root, 'dataSources')).map((n) => dataSource(n, false)), ...items(get(root, 'templates')).map((n) => dataSource(n, true))],
  };
}

/**
 * Where a mapping defines the function `name` (`export function name(`), as an offset into
 * `text`; undefined when it does not. Comments are skipped, so a commented-out handler is not found.
 */
export function functionOffset(text: string, name: string): number | undefined {
  const escaped = name.replace(/[$]/g, '\\$');
  const match = new RegExp(`\\bfunction\\s+(${escaped})\\s*\\(`).exec(blankComments(text));
  return match ? match.index + match[0].indexOf(name) : undefined;
}
