/**
 * The subgraph names graph-node knows, read from its own Postgres: every name given by
 * `graph create` (from Chaindeck, a terminal or another tool) with its current and pending
 * deployment. graph-node keeps them in `subgraphs.subgraph` (name, current_version,
 * pending_version) → `subgraphs.subgraph_version` (deployment); both tables keep old rows with
 * a closed block_range, so only the open ones count. Read through psql, the Postgres client of
 * the same installation, with the connection in its environment: the password never reaches a
 * command line other users can read, nor a message.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { REDACTED, redactKnownSecrets } from '../redact';
import { defaultPostgresDirs, type PostgresBinaries } from './postgres';

export interface SubgraphName {
  name: string;
  /** The deployment queries by this name go to. */
  current?: string;
  /** A newer deployment that becomes current once it has synced. */
  pending?: string;
}

/** At most this many names are read: a bounded answer from a database that may be anyone's. */
export const MAX_NAMES = 10_000;
const TIMEOUT_MS = 10_000;

export const SUBGRAPH_NAMES_SQL = `select coalesce(json_agg(json_build_object('name', s.name, 'current', c.deployment, 'pending', p.deployment) order by s.name), '[]')
from (select name, current_version, pending_version from subgraphs.subgraph where upper_inf(block_range) order by name limit ${MAX_NAMES}) s
left join subgraphs.subgraph_version c on c.id = s.current_version and upper_inf(c.block_range)
left join subgraphs.subgraph_version p on p.id = s.pending_version and upper_inf(p.block_range)`;

/** Reading the names failed: the message holds no password, database name or URL parameter. */
export class SubgraphNamesError extends Error {}

/** psql: beside the Postgres binaries found for the node, else on PATH or in the usual folders. */
export function findPsql(bins?: Pick<PostgresBinaries, 'pgCtl'>, env: NodeJS.ProcessEnv = process.env, extraDirs: readonly string[] = defaultPostgresDirs()): string | undefined {
  const file = `psql${process.platform === 'win32' ? '.exe' : ''}`;
  const dirs = [...(bins ? [path.dirname(bins.pgCtl)] : []), ...(env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean), ...extraDirs];
  return dirs.map((dir) => path.join(dir, file)).find((candidate) => existsSync(candidate));
}

/** URL parameters psql takes from its environment (libpq's names); others are left to their defaults. */
const PARAMETER_ENV: Record<string, string> = {
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  application_name: 'PGAPPNAME',
  target_session_attrs: 'PGTARGETSESSIONATTRS',
};

/** A Postgres URL as libpq's environment variables, and the parts of it no message may show. */
export function postgresEnv(postgresUrl: string): { env: Record<string, string>; secrets: string[] } {
  let url: URL;
  try {
    url = new URL(postgresUrl);
  } catch {
    throw new SubgraphNamesError('The Postgres URL is not a URL (postgresql://USER:PASSWORD@HOST:PORT/DATABASE).');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') throw new SubgraphNamesError('The Postgres URL does not start with postgresql://.');
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const password = decode(url.password);
  const database = decode(url.pathname.replace(/^\//, ''));
  const env: Record<string, string> = {
    PGHOST: url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    PGPORT: url.port || '5432',
    PGUSER: decode(url.username),
    PGPASSWORD: password,
    PGDATABASE: database,
    PGCONNECT_TIMEOUT: '5',
    // Bounded on the server too: a slow or locked catalog ends the statement.
    PGOPTIONS: '-c statement_timeout=5000',
  };
  for (const [key, value] of url.searchParams) if (PARAMETER_ENV[key]) env[PARAMETER_ENV[key]] = value;
  const secrets = [password, url.password, database, url.pathname.slice(1), ...[...url.searchParams.values()]];
  return { env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')), secrets: secrets.filter((s) => s.length > 0) };
}

/**
 * Masks each secret where it stands as a word of its own: psql quotes a database's name
 * (`database "x" does not exist`), while our own cluster's password, `graph`, must not mask
 * `subgraphs` in the same message. Short secrets count too.
 */
export function maskWords(text: string, secrets: readonly string[]): string {
  return [...secrets]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((out, secret) => out.replace(new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g'), REDACTED), text);
}

/** Parses psql's one-line JSON answer; anything else is an error. */
export function parseSubgraphNames(output: string): SubgraphName[] {
  let rows: unknown;
  try {
    rows = JSON.parse(output.trim());
  } catch {
    throw new SubgraphNamesError(`psql answered something other than the names (${output.trim().slice(0, 80)}).`);
  }
  if (!Array.isArray(rows)) throw new SubgraphNamesError('psql answered something other than a list of names.');
  return rows.flatMap((row: { name?: unknown; current?: unknown; pending?: unknown }) => {
    if (typeof row?.name !== 'string') return [];
    const name: SubgraphName = { name: row.name };
    if (typeof row.current === 'string') name.current = row.current;
    if (typeof row.pending === 'string') name.pending = row.pending;
    return [name];
  });
}

/**
 * One statement through psql, the connection in its environment (only what psql needs of ours: no
 * PGSERVICE or PGPASSFILE of the user's changes it); resolves with its unaligned, tuples-only
 * output. Bounded: connect 5 s, statement 5 s, the whole run 10 s, `maxBuffer` bytes. A failure
 * says that `what` failed, with no password, database name or URL parameter.
 */
export function runPsql(psql: string, postgresUrl: string, sql: string, what: string, signal?: AbortSignal, maxBuffer = 4 * 1024 * 1024): Promise<string> {
  const { env, secrets } = postgresEnv(postgresUrl);
  const clean = (text: string) => redactKnownSecrets(maskWords(text, secrets));
  return new Promise((resolve, reject) => {
    execFile(
      psql,
      ['--no-psqlrc', '--no-align', '--tuples-only', '--quiet', '--set', 'ON_ERROR_STOP=1', '--command', sql],
      { env: { PATH: process.env.PATH ?? '', LANG: 'C', ...env }, timeout: TIMEOUT_MS, maxBuffer, signal, windowsHide: true },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const why = (err as { killed?: boolean }).killed ? `no answer within ${TIMEOUT_MS / 1000} s` : stderr.trim().split('\n')[0] || err.message;
        reject(new SubgraphNamesError(`${what} failed: ${clean(why)}`));
      },
    );
  });
}

/**
 * Every subgraph name of the graph-node whose database `postgresUrl` names, with its current and
 * pending deployment (gnd's own placeholder, `subgraph-0`, included: callers leave it out by its
 * deployment). Bounded as runPsql, at most MAX_NAMES names.
 */
export async function readSubgraphNames(psql: string, postgresUrl: string, signal?: AbortSignal): Promise<SubgraphName[]> {
  const { secrets } = postgresEnv(postgresUrl);
  const output = await runPsql(psql, postgresUrl, SUBGRAPH_NAMES_SQL, 'Reading the subgraph names from Postgres', signal);
  try {
    return parseSubgraphNames(output);
  } catch (parseError) {
    throw new SubgraphNamesError(redactKnownSecrets(maskWords((parseError as Error).message, secrets)));
  }
}

/**
 * Checks a Postgres the user gives, before gnd gets it (gnd panics on a URL it cannot use and
 * goes on running without answering): a postgresql:// URL with a user, a password (gnd needs
 * one) and a database, and a server that accepts it and has that database. With psql the
 * connection is tried; without it, only that something listens on the host and port.
 */
export async function checkPostgresUrl(postgresUrl: string, psql: string | undefined, signal?: AbortSignal): Promise<void> {
  const FORM = 'postgresql://USER:PASSWORD@HOST:PORT/DATABASE';
  let parsed: ReturnType<typeof postgresEnv>;
  try {
    parsed = postgresEnv(postgresUrl);
  } catch (err) {
    throw new SubgraphNamesError(`${(err as Error).message.replace(/\.$/, '')}: give it as ${FORM}.`);
  }
  const { env, secrets } = parsed;
  if (!env.PGUSER || !env.PGPASSWORD || !env.PGDATABASE)
    throw new SubgraphNamesError(`The Postgres URL needs a user, a password (gnd refuses a URL without one) and a database: give it as ${FORM}.`);
  const where = `${env.PGHOST}:${env.PGPORT}`;
  if (!psql) {
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: env.PGHOST, port: Number(env.PGPORT), timeout: 5000 });
      const fail = (why: string) => {
        socket.destroy();
        reject(new SubgraphNamesError(`The Postgres at ${where} cannot be reached (${why}): check that it runs and the URL's host and port.`));
      };
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('timeout', () => fail('no answer within 5 s'));
      socket.once('error', (err) => fail(err.message));
    });
    return;
  }
  await new Promise<void>((resolve, reject) => {
    execFile(
      psql,
      ['--no-psqlrc', '--no-align', '--tuples-only', '--quiet', '--set', 'ON_ERROR_STOP=1', '--command', 'select 1'],
      { env: { PATH: process.env.PATH ?? '', LANG: 'C', ...env }, timeout: TIMEOUT_MS, signal, windowsHide: true },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        const why = (err as { killed?: boolean }).killed
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : stderr
              .trim()
              .split('\n')[0]
              .replace(/^psql: (error: )?/, '') || err.message;
        reject(new SubgraphNamesError(`The Postgres at ${where} refused the connection gnd would make: ${redactKnownSecrets(maskWords(why, secrets))}`));
      },
    );
  });
}
