/**
 * The entity changes a deployment wrote in one block, by time-travel queries: per entity type of
 * the schema, the versions current at block N that were written at N or later
 * (`block: { number: N }, where: { _change_block: { number_gte: N } }`), against the same ids at
 * N−1 on the base (the failed deployment, whose data is right up to N−1). Bounded: at most
 * MAX_CHANGED per type. Removals are not seen (a removed entity has no version at N).
 */
import { postGraphql } from '../../subgraph/query/client';
import { listQueryName } from '../../subgraph/query/naming';
import type { SchemaTables, Table } from './schemaTables';

export const MAX_CHANGED = 100;
const TIMEOUT_MS = 10_000;

export type EntityValues = Record<string, unknown>;

export interface EntityChange {
  entity: string;
  id: string;
  kind: 'created' | 'updated' | 'unchanged';
  before?: EntityValues;
  after: EntityValues;
  /** The fields whose value differs (all of them for a created entity). */
  changed: string[];
}

export interface EntityChanges {
  changes: EntityChange[];
  /** Entity types with more than MAX_CHANGED changes (only the first were read). */
  truncated: string[];
  /** Entity types whose query failed, with graph-node's words. */
  errors: string[];
}

/** `field` or `field { id }` for each stored field of the table. */
function selection(table: Table): string {
  return [...table.columns.values()].map((c) => (c.reference ? `${c.name} { id }` : c.name)).join(' ');
}

/** A reference's `{ id }` as its id, so before and after compare as values. */
function flatten(row: EntityValues): EntityValues {
  const out: EntityValues = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = Array.isArray(v)
      ? v.map((x) => (x && typeof x === 'object' && 'id' in x ? (x as { id: unknown }).id : x))
      : v && typeof v === 'object' && 'id' in v
        ? (v as { id: unknown }).id
        : v;
  }
  return out;
}

/** The diff of one entity between its two versions. */
export function diffEntity(entity: string, before: EntityValues | undefined, after: EntityValues): EntityChange {
  const id = String(after.id);
  if (!before) return { entity, id, kind: 'created', after, changed: Object.keys(after) };
  const changed = Object.keys(after).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]));
  return { entity, id, kind: changed.length ? 'updated' : 'unchanged', before, after, changed };
}

async function query(url: string, text: string, signal?: AbortSignal): Promise<Record<string, EntityValues[]>> {
  const res = await postGraphql(url, { query: text }, { timeoutMs: TIMEOUT_MS, signal });
  if (res.errors?.length) throw new Error(res.errors.map((e) => (e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e))).join('; '));
  return (res.data ?? {}) as Record<string, EntityValues[]>;
}

/**
 * The changes `afterUrl` (a deployment's query URL) wrote at `block`, each against `beforeUrl`
 * at block − 1 (absent: no before, every entity counts as created).
 */
export async function entityChanges(schema: SchemaTables, block: number, afterUrl: string, beforeUrl: string | undefined, signal?: AbortSignal): Promise<EntityChanges> {
  const result: EntityChanges = { changes: [], truncated: [], errors: [] };
  const tables = [...schema.tables.values()];
  if (!tables.length) return result;
  // One request per side: each type an aliased field (t0, t1, …).
  const after = await query(
    afterUrl,
    `{ ${tables.map((t, i) => `t${i}: ${listQueryName(t.entity)}(first: ${MAX_CHANGED + 1}, orderBy: id, block: { number: ${block} }, where: { _change_block: { number_gte: ${block} } }, subgraphError: allow) { ${selection(t)} }`).join(' ')} }`,
    signal,
  ).catch((err: unknown) => {
    result.errors.push(err instanceof Error ? err.message : String(err));
    return undefined;
  });
  if (!after) return result;
  const ids = tables.map((_, i) => (after[`t${i}`] ?? []).slice(0, MAX_CHANGED).map((r) => String(r.id)));
  tables.forEach((t, i) => (after[`t${i}`]?.length ?? 0) > MAX_CHANGED && result.truncated.push(t.entity));
  let before: Record<string, EntityValues[]> = {};
  const asked = tables.map((t, i) => ({ t, i })).filter(({ i }) => ids[i].length);
  if (beforeUrl && block > 0 && asked.length) {
    before = await query(
      beforeUrl,
      `{ ${asked.map(({ t, i }) => `t${i}: ${listQueryName(t.entity)}(first: ${MAX_CHANGED}, block: { number: ${block - 1} }, where: { id_in: ${JSON.stringify(ids[i])} }, subgraphError: allow) { ${selection(t)} }`).join(' ')} }`,
      signal,
    ).catch((err: unknown) => {
      result.errors.push(`before block ${block}: ${err instanceof Error ? err.message : String(err)}`);
      return {};
    });
  }
  tables.forEach((t, i) => {
    const earlier = new Map((before[`t${i}`] ?? []).map((r) => [String(r.id), flatten(r)]));
    for (const row of (after[`t${i}`] ?? []).slice(0, MAX_CHANGED)) result.changes.push(diffEntity(t.entity, earlier.get(String(row.id)), flatten(row)));
  });
  return result;
}
