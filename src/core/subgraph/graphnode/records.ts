/**
 * The subgraph record: the console's fields (spec "Subgraph record in the console") plus the four
 * URLs a graph-node host hands out. What settings keep never holds a credential:
 *  - the access key that sits in the URL paths (Authentication 3) is written `{key}`, as for
 *    nodes, and kept in SecretStorage;
 *  - a deploy key (sent as `Authorization: Bearer`, `graph deploy --deploy-key`) lives only in
 *    SecretStorage too.
 */
import { KEY_PLACEHOLDER } from '../../nodes/model';
import { redactUrl } from '../../redact';

export { KEY_PLACEHOLDER };

/** One subgraph as kept in settings (`chaindeck.subgraphs`). */
export interface SubgraphRecord {
  /** Stable reference for SecretStorage; survives renames. */
  id: string;
  /** The subgraph's name on the graph-node host (the `graph deploy` argument), e.g. my/erc20. */
  name: string;
  /** The project the subgraph belongs to (required by the console). */
  project: string;
  /** Blockchain protocol, chosen from a list in the console (e.g. ethereum). */
  protocol: string;
  /** Network, chosen from a list in the console (e.g. mainnet). */
  network: string;
  /** Type, chosen from a list in the console; free text here. */
  type: string;
  /** graph-node admin JSON-RPC URL ({deploy_url}); may hold KEY_PLACEHOLDER. */
  deployUrl: string;
  /** IPFS API URL ({ipfs_url}); may hold KEY_PLACEHOLDER. */
  ipfsUrl: string;
  /** GraphQL HTTP query URL ({subgraph_query_url}); may hold KEY_PLACEHOLDER. */
  queryUrl: string;
  /** Browser GraphQL UI URL ({graphql_ui_url}); may hold KEY_PLACEHOLDER. */
  graphqlUiUrl: string;
  /** The version label last used (Versioning 3); offered again on the next deploy. */
  versionLabel?: string;
  lastDeployment?: DeploymentRecord;
}

/** What the last successful `graph deploy` printed, URLs templated like the record's. */
export interface DeploymentRecord {
  versionLabel: string;
  /** ISO time of the deploy. */
  at: string;
  /** `Build completed: <CID>`: the manifest's IPFS hash. */
  ipfsHash?: string;
  /** `Deployed to <url>`: the GraphQL UI (playground) of this deployment. */
  deployedTo?: string;
  /** `Queries (HTTP): <url>`. */
  queriesUrl?: string;
}

/** The credentials of one subgraph, kept only in SecretStorage under the record's id. */
export interface SubgraphSecrets {
  /** The key that stands for KEY_PLACEHOLDER in the URL paths. */
  accessKey?: string;
  /** The deploy key, sent as `Authorization: Bearer <key>` by `graph deploy`. */
  deployKey?: string;
}

/** Which secrets a subgraph can have, where each travels: for the record form and the docs. */
export const SUBGRAPH_SECRET_KINDS: readonly { name: keyof SubgraphSecrets; travels: string }[] = [
  { name: 'accessKey', travels: 'in the path of the deploy, IPFS, query and GraphQL UI URLs' },
  { name: 'deployKey', travels: 'as Authorization: Bearer on the deploy call (graph deploy --deploy-key)' },
];

export const SUBGRAPH_URL_FIELDS = ['deployUrl', 'ipfsUrl', 'queryUrl', 'graphqlUiUrl'] as const;
export type SubgraphUrlField = (typeof SUBGRAPH_URL_FIELDS)[number];

const URL_LABELS: Record<SubgraphUrlField, string> = {
  deployUrl: 'deploy URL',
  ipfsUrl: 'IPFS URL',
  queryUrl: 'query URL',
  graphqlUiUrl: 'GraphQL UI URL',
};

export class SubgraphRecordError extends Error {
  override readonly name = 'SubgraphRecordError';
  constructor(
    message: string,
    /** The record field the message is about, for a form to point at. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** An IPFS content id (CIDv0 Qm…, CIDv1 bafy…): in query URLs it names a deployment, not a key. */
export function isIpfsCid(segment: string): boolean {
  return /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(segment) || /^baf[a-z2-7]{50,}$/.test(segment);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a URL path segment is an access key. Hosts put keys in paths as long hex or
 * alphanumeric tokens (or UUIDs); the same paths carry deployment ids (CIDs) and subgraph names
 * with dashes (erc20-approvals-mainnet), which must not be mistaken for keys.
 */
export function isAccessKeySegment(segment: string): boolean {
  if (isIpfsCid(segment)) return false;
  if (UUID.test(segment)) return true;
  return /^[A-Za-z0-9_]+$/.test(segment) && segment.length >= 16 && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}

/** The parts of a URL's path, with the position after `/name/` (subgraph names) marked. */
function pathSegments(url: URL): { segment: string; isName: boolean }[] {
  const raw = url.pathname.split('/');
  const nameStart = raw.findIndex((s, i) => s === 'name' && raw[i - 1] === 'subgraphs');
  return raw.map((segment, i) => ({ segment, isName: nameStart >= 0 && i > nameStart }));
}

function parseHttpUrl(text: string, label: string, field?: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SubgraphRecordError(`The ${label} ${redactUrl(text)} is not a valid URL.`, field);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SubgraphRecordError(`The ${label} must start with https:// (http:// for a local graph-node), not ${url.protocol}//.`, field);
  }
  if (url.username || url.password) {
    throw new SubgraphRecordError(`The ${label} holds a user name or password (user:pass@); graph-node hosts take the key in the path or as a deploy key.`, field);
  }
  return url;
}

/** A pasted URL split into what settings keep and the key that was in its path. */
export interface SplitUrl {
  /** The URL with the key replaced by KEY_PLACEHOLDER (unchanged when it held none). */
  template: string;
  key?: string;
}

/**
 * Splits a pasted URL into a template and the access key in its path (https://host/<KEY>/…).
 * `knownKey`, when given, is the key to look for (found in another URL of the same record);
 * otherwise the first key-like segment outside a subgraph name is taken.
 */
export function splitKeyFromUrl(pasted: string, knownKey?: string, label = 'URL', field?: string): SplitUrl {
  const text = pasted.trim();
  if (text.includes(KEY_PLACEHOLDER)) return { template: text };
  const url = parseHttpUrl(text, label, field);
  const parts = pathSegments(url);
  const index = parts.findIndex(({ segment, isName }) => {
    const decoded = safeDecode(segment);
    return knownKey !== undefined ? decoded === knownKey : !isName && isAccessKeySegment(decoded);
  });
  if (index < 0) return { template: text };
  const key = safeDecode(parts[index].segment);
  // Rebuild from the original text so the rest keeps its exact spelling.
  const segments = parts.map((p) => p.segment);
  segments[index] = KEY_PLACEHOLDER;
  const template = `${url.protocol}//${url.host}${segments.join('/')}${url.search}${url.hash}`;
  return { template, key };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The four URLs of a record as pasted from the console. */
export type SubgraphUrls = Record<SubgraphUrlField, string>;

/**
 * Turns the four pasted URLs into templates plus the one access key they share. The deploy and
 * IPFS URLs are searched first (their keys are the surest to be keys); the key found is then
 * templated wherever it appears. Two different keys are an error: one record, one access key.
 */
export function templateSubgraphUrls(pasted: SubgraphUrls): { urls: SubgraphUrls; accessKey?: string } {
  let accessKey: string | undefined;
  const urls = {} as SubgraphUrls;
  for (const field of SUBGRAPH_URL_FIELDS) {
    const text = pasted[field]?.trim() ?? '';
    if (!text) {
      urls[field] = '';
      continue;
    }
    const split = splitKeyFromUrl(text, accessKey, URL_LABELS[field], field);
    if (!split.key && accessKey) {
      // The known key is absent here; a different key in this URL would be a second key.
      const other = splitKeyFromUrl(text, undefined, URL_LABELS[field], field);
      if (other.key) {
        throw new SubgraphRecordError(`The ${URL_LABELS[field]} holds a different access key than the deploy URL; paste the URLs of one subgraph (one key).`, field);
      }
    }
    accessKey ??= split.key;
    urls[field] = split.template;
  }
  return { urls, accessKey };
}

/** Puts the key back into a template; throws when the template needs a key that is missing. */
export function withKey(template: string, key: string | undefined, label = 'URL'): string {
  if (!template.includes(KEY_PLACEHOLDER)) return template;
  if (!key) throw new SubgraphRecordError(`The ${label} needs the subgraph's access key (it holds ${KEY_PLACEHOLDER}), but none is stored: enter it again.`);
  return template.split(KEY_PLACEHOLDER).join(encodeURIComponent(key));
}

/** A record's URL as it may be shown: the template's path holds {key} where the key was, so it is shown; userinfo and query masked. */
export function displaySubgraphUrl(template: string): string {
  return redactUrl(template, [], { publicPath: true });
}

/** Which of a record's fields are missing or malformed, one message per field. */
export function validateSubgraphRecord(record: Partial<SubgraphRecord>): SubgraphRecordError[] {
  const problems: SubgraphRecordError[] = [];
  const required: [keyof SubgraphRecord, string][] = [
    ['name', 'A subgraph needs a name.'],
    ['project', 'A subgraph must belong to a project.'],
    ['protocol', 'Choose the blockchain protocol.'],
    ['network', 'Choose the network.'],
  ];
  for (const [field, message] of required) {
    if (!String(record[field] ?? '').trim()) problems.push(new SubgraphRecordError(message, field));
  }
  if (record.name && !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(record.name)) {
    problems.push(new SubgraphRecordError(`Subgraph name '${record.name}': use letters, digits, '-', '_' and '/' between parts (e.g. my-team/erc20).`, 'name'));
  }
  for (const field of SUBGRAPH_URL_FIELDS) {
    const value = record[field];
    if (!value) continue;
    try {
      parseHttpUrl(value.split(KEY_PLACEHOLDER).join('KEY'), URL_LABELS[field], field);
      const leaked = splitKeyFromUrl(value, undefined, URL_LABELS[field], field);
      if (leaked.key) problems.push(new SubgraphRecordError(`The ${URL_LABELS[field]} holds an access key; settings keep ${KEY_PLACEHOLDER} in its place.`, field));
    } catch (err) {
      problems.push(err as SubgraphRecordError);
    }
  }
  return problems;
}

/** The record's URLs with the key put back: for calls and for the graph CLI's wrapper only. */
export function resolveSubgraphUrls(record: Pick<SubgraphRecord, SubgraphUrlField>, secrets: SubgraphSecrets): SubgraphUrls {
  const out = {} as SubgraphUrls;
  for (const field of SUBGRAPH_URL_FIELDS) out[field] = record[field] ? withKey(record[field], secrets.accessKey, URL_LABELS[field]) : '';
  return out;
}

/** Every secret value of a subgraph (and its URL-encoded form), for redaction. */
export function subgraphSecretValues(secrets: SubgraphSecrets): string[] {
  const values = [secrets.accessKey, secrets.deployKey].filter((s): s is string => !!s);
  return [...new Set(values.flatMap((s) => [s, encodeURIComponent(s)]))];
}

/**
 * A URL printed by graph-node or the CLI (e.g. `Queries (HTTP): …`) in the record's form: the
 * access key, if the host put it there, replaced by KEY_PLACEHOLDER.
 */
export function templateFromPrinted(url: string, accessKey: string | undefined): string {
  if (!accessKey) return url;
  return url.split(encodeURIComponent(accessKey)).join(KEY_PLACEHOLDER).split(accessKey).join(KEY_PLACEHOLDER);
}
