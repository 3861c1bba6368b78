/**
 * Reading graph-node's subgraph names: a Postgres URL as psql's environment (the password and the
 * database never on a command line, and known as the secrets a message must not show), psql's
 * JSON answer parsed strictly, and which files are inside the local node's data folder.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { isInside } from '../../../../src/core/files';
import { maskWords, parseSubgraphNames, postgresEnv, SubgraphNamesError } from '../../../../src/core/localnode/names';

test('a Postgres URL becomes libpq environment variables, percent-decoded, with its secret parts listed', () => {
  const { env, secrets } = postgresEnv('postgresql://gr%40ph:p%3Ass@db.example:6543/graph%2Dnode?sslmode=require&connect_timeout=99&x=secret-q');
  assert.equal(env.PGHOST, 'db.example');
  assert.equal(env.PGPORT, '6543');
  assert.equal(env.PGUSER, 'gr@ph');
  assert.equal(env.PGPASSWORD, 'p:ss');
  assert.equal(env.PGDATABASE, 'graph-node');
  assert.equal(env.PGSSLMODE, 'require');
  assert.equal(env.PGCONNECT_TIMEOUT, '5', 'the bound is ours, not the URL’s');
  assert.match(env.PGOPTIONS, /statement_timeout=\d+/);
  for (const secret of ['p:ss', 'p%3Ass', 'graph-node', 'secret-q']) assert.ok(secrets.includes(secret), secret);
  assert.ok(!secrets.includes('db.example'));
});

test('defaults: host, port; an IPv6 host loses its brackets; empty parts are left to psql', () => {
  assert.deepEqual({ host: postgresEnv('postgresql://[::1]/db').env.PGHOST, port: postgresEnv('postgres://h/db').env.PGPORT }, { host: '::1', port: '5432' });
  const { env } = postgresEnv('postgresql://127.0.0.1:5432/');
  assert.ok(!('PGPASSWORD' in env) && !('PGUSER' in env) && !('PGDATABASE' in env));
});

test('a URL that is not Postgres’s is refused with a message holding none of it', () => {
  assert.throws(
    () => postgresEnv('mysql://u:hunter22@h/db'),
    (err: Error) => err instanceof SubgraphNamesError && !err.message.includes('hunter22'),
  );
  assert.throws(
    () => postgresEnv('not a url hunter22'),
    (err: Error) => err instanceof SubgraphNamesError && !err.message.includes('hunter22'),
  );
});

test('psql’s answer: names with their current and pending deployments, anything else an error', () => {
  const id = 'QmTkzT9S3FJxVXN4y5NTwuWNBzrHmdYPG9uSDbCuEdvGds';
  assert.deepEqual(parseSubgraphNames(`[{"name":"a/b","current":"${id}","pending":null},{"name":"c","current":null,"pending":"${id}"},{"name":3}]\n`), [
    { name: 'a/b', current: id },
    { name: 'c', pending: id },
  ]);
  assert.deepEqual(parseSubgraphNames('[]'), []);
  assert.throws(() => parseSubgraphNames('ERROR: something'), SubgraphNamesError);
  assert.throws(() => parseSubgraphNames('{"name":"a"}'), SubgraphNamesError);
});

test('inside a folder: the folder and below, not a sibling starting with its name, not above', () => {
  const folder = path.resolve('/w/.graph-node');
  assert.equal(isInside(path.join(folder, 'dev', 'subgraph.yaml'), folder), true);
  assert.equal(isInside(folder, folder), true);
  assert.equal(isInside(path.resolve('/w/.graph-node-2/subgraph.yaml'), folder), false);
  assert.equal(isInside(path.resolve('/w/subgraph.yaml'), folder), false);
  assert.equal(isInside(path.resolve('/w/..graph/x'), path.resolve('/w')), true, 'a name starting with two dots is below');
});

test('secrets are masked where they stand as words: a quoted database, not the `graph` inside `subgraphs`', () => {
  assert.equal(maskWords('relation "subgraphs.subgraph" does not exist', ['graph', 'graphnode']), 'relation "subgraphs.subgraph" does not exist');
  assert.equal(maskWords('FATAL: database "graphnode" does not exist', ['graph', 'graphnode']), 'FATAL: database "***" does not exist');
  assert.equal(maskWords('password a.b*c failed for x', ['a.b*c', 'x']), 'password *** failed for ***');
});
