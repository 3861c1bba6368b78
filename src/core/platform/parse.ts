/**
 * Tolerant reading of the API's objects: each kind has a small schema of the fields Chaindeck
 * uses. A listed field of the listed type is taken; null counts as missing; everything else
 * (unknown fields, and listed fields of another type) goes to `extra` unchanged, so nothing the
 * API sent is lost and nothing unexpected breaks a listing. Only `id` is required.
 */
import type { Extra, PlatformKind, PlatformObjects } from './types';

type Field = 'string' | 'boolean' | 'strings' | 'array' | 'any' | { object: Schema };
type Schema = Readonly<Record<string, Field>>;

const SCHEMAS: Readonly<Record<PlatformKind, Schema>> = {
  organization: { name: 'string' },
  projects: { name: 'string', description: 'string', type: 'string', members: 'array', networks: 'array', creator: 'any', created_at: 'string' },
  networks: {
    name: 'string',
    project: 'string',
    protocol: 'string',
    configuration: { object: { network: 'string' } },
    status: 'string',
    nodes: 'array',
    created_at: 'string',
  },
  nodes: {
    name: 'string',
    network: 'string',
    organization: 'string',
    type: 'string',
    role: 'string',
    provider: 'string',
    region: 'string',
    status: 'string',
    configuration: { object: { archive: 'boolean' } },
    details: {
      object: {
        mode: 'string',
        version: 'string',
        api_namespaces: 'strings',
        https_endpoint: 'string',
        wss_endpoint: 'string',
        beacon_endpoint: 'string',
        graphql_endpoint: 'string',
        auth_username: 'string',
        auth_password: 'string',
        auth_key: 'string',
      },
    },
    created_at: 'string',
    creator: 'any',
  },
  identities: { name: 'string', type: 'string', status: 'string', created_at: 'string' },
};

/** The object is not one at all (not a JSON object, or no id): the caller adds where it was. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it has the field's type; undefined when it does not. */
function typed(field: Field, value: unknown): unknown {
  if (field === 'any') return value;
  if (field === 'string') return typeof value === 'string' ? value : undefined;
  if (field === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (field === 'array') return Array.isArray(value) ? value : undefined;
  if (field === 'strings') return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
  return isRecord(value) ? readFields(value, field.object) : undefined;
}

function readFields(raw: Record<string, unknown>, schema: Schema): Record<string, unknown> & { extra: Extra } {
  const out: Record<string, unknown> = {};
  const extra: Extra = {};
  for (const [name, value] of Object.entries(raw)) {
    const field = Object.hasOwn(schema, name) ? schema[name] : undefined;
    if (!field) {
      extra[name] = value;
      continue;
    }
    if (value === null || value === undefined) continue;
    const taken = typed(field, value);
    if (taken === undefined) extra[name] = value;
    else out[name] = taken;
  }
  return { ...out, extra };
}

/** A number id is taken as its decimal text; anything else but a non-empty string is no id. */
function idOf(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.id === 'string' && raw.id.trim()) return raw.id;
  if (typeof raw.id === 'number' && Number.isFinite(raw.id)) return String(raw.id);
  return undefined;
}

/** Reads one object of a kind; throws ShapeError when it is not an object or has no id. */
export function parseObject<K extends PlatformKind>(kind: K, raw: unknown): PlatformObjects[K] {
  if (!isRecord(raw)) throw new ShapeError(`expected a JSON object, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`);
  const id = idOf(raw);
  if (id === undefined) throw new ShapeError(`the object has no id${'id' in raw ? ` (id is ${JSON.stringify(raw.id)})` : ''}`);
  const { id: _id, ...rest } = raw;
  return { id, ...readFields(rest, SCHEMAS[kind]) } as unknown as PlatformObjects[K];
}

/** One page of a list, as the API sends it: `{count, next, previous, results}`. */
export interface ListPage {
  count?: number;
  next?: string;
  previous?: string;
  results: unknown[];
}

/** Reads a list page; throws ShapeError when `results` is missing. */
export function parsePage(raw: unknown): ListPage {
  if (!isRecord(raw)) throw new ShapeError(`expected a JSON object with results, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`);
  if (!Array.isArray(raw.results)) throw new ShapeError(`expected a page {count, next, previous, results}, got an object with ${Object.keys(raw).join(', ') || 'no fields'}`);
  return {
    count: typeof raw.count === 'number' ? raw.count : undefined,
    next: typeof raw.next === 'string' && raw.next ? raw.next : undefined,
    previous: typeof raw.previous === 'string' && raw.previous ? raw.previous : undefined,
    results: raw.results,
  };
}
