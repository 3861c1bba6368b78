/**
 * The platform API's five objects as Chaindeck reads them. The API documents some fields and
 * leaves others unconfirmed, so every field but `id` is optional, and whatever the API sends
 * that is not listed here (or not of the listed type) is kept, unchanged, in `extra`.
 * Field names are the API's own (snake_case), so `extra` and the typed fields read alike.
 */

/** The kinds of object, as the CLI and the editor name them (and as the API's paths spell them). */
export type PlatformKind = 'organization' | 'projects' | 'networks' | 'nodes' | 'identities';

/** Fields the API sent that Chaindeck does not know, or sent with an unexpected type. */
export type Extra = Record<string, unknown>;

interface PlatformObject {
  id: string;
  /** Unknown fields, and known fields whose type was not the expected one, as sent. */
  extra: Extra;
}

export interface Organization extends PlatformObject {
  name?: string;
}

export interface Project extends PlatformObject {
  name?: string;
  description?: string;
  type?: string;
  /** Members as the API lists them (ids or objects: not confirmed). */
  members?: unknown[];
  /** Networks of the project as the API lists them (ids or objects: not confirmed). */
  networks?: unknown[];
  creator?: unknown;
  created_at?: string;
}

export interface NetworkConfiguration {
  /** The network within the protocol, e.g. "mainnet" or "sepolia". */
  network?: string;
  extra: Extra;
}

export interface Network extends PlatformObject {
  name?: string;
  /** The project's id (PR-…). */
  project?: string;
  /** e.g. "ethereum", "polygon-pos", "bitcoin", "solana", "starknet". */
  protocol?: string;
  configuration?: NetworkConfiguration;
  status?: string;
  /** The network's nodes as the API lists them (ids or objects: not confirmed). */
  nodes?: unknown[];
  created_at?: string;
}

export interface NodeConfiguration {
  archive?: boolean;
  extra: Extra;
}

/** Where and how to reach a node. The `auth_*` fields are given to the node's owner only. */
export interface NodeDetails {
  mode?: string;
  version?: string;
  api_namespaces?: string[];
  https_endpoint?: string;
  wss_endpoint?: string;
  beacon_endpoint?: string;
  graphql_endpoint?: string;
  auth_username?: string;
  auth_password?: string;
  auth_key?: string;
  extra: Extra;
}

/** Documented node states; the API may add others, so `status` stays a string. */
export const NODE_STATUSES = ['pending', 'running', 'maintenance', 'failed', 'error', 'stopping', 'stopped', 'starting'] as const;

export interface PlatformNode extends PlatformObject {
  name?: string;
  /** The network's id (NW-…). */
  network?: string;
  organization?: string;
  /** shared or dedicated. */
  type?: string;
  role?: string;
  provider?: string;
  region?: string;
  status?: string;
  configuration?: NodeConfiguration;
  details?: NodeDetails;
  created_at?: string;
  creator?: unknown;
}

/** Identities: fields unconfirmed by the documentation. */
export interface Identity extends PlatformObject {
  name?: string;
  type?: string;
  status?: string;
  created_at?: string;
}

/** The object type of each kind. */
export interface PlatformObjects {
  organization: Organization;
  projects: Project;
  networks: Network;
  nodes: PlatformNode;
  identities: Identity;
}

/** The kinds that are lists (everything but the organization). */
export type ListKind = Exclude<PlatformKind, 'organization'>;

/** List filters and ordering; each kind accepts the ones in LIST_FILTERS. */
export interface ListQuery {
  organization?: string;
  project?: string;
  network?: string;
  protocol?: string;
  status?: string;
  /** A field name (`name`, `created_at`); a leading `-` for descending. */
  order_by?: string;
}

export type FilterName = Exclude<keyof ListQuery, 'order_by'>;

/**
 * The filters each list takes, after the documentation's list (project, organization, network,
 * protocol, status) applied where the object has something to filter on. Others are refused
 * before sending, so a typo does not silently list everything.
 */
export const LIST_FILTERS: Readonly<Record<ListKind, readonly FilterName[]>> = {
  projects: ['organization'],
  networks: ['organization', 'project', 'protocol', 'status'],
  nodes: ['organization', 'project', 'network', 'protocol', 'status'],
  identities: ['organization'],
};

/** What one object is called in messages ("no such node ND-1"). */
export const SINGULAR: Readonly<Record<PlatformKind, string>> = {
  organization: 'organization',
  projects: 'project',
  networks: 'network',
  nodes: 'node',
  identities: 'identity',
};

export const PLATFORM_KINDS: readonly PlatformKind[] = ['organization', 'projects', 'networks', 'nodes', 'identities'];
