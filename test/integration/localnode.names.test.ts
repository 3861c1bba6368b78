/**
 * The subgraph names a real local graph-node knows, read from its Postgres: a name created and a
 * subgraph deployed by the real graph CLI from outside the supervisor (as from a terminal) come
 * back with their deployment; the same through a Postgres of the user's given by URL with a
 * password (a node started on it too); a database that is not there, or a port where nothing listens, fails within its bound
 * with a message holding neither the password nor the database's name.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../../src/cli/graphNode';
import { findPsql, readSubgraphNames } from '../../src/core/localnode/names';
import { findPostgres, startPostgres, type RunningPostgres } from '../../src/core/localnode/postgres';
import { isPlaceholderDeployment } from '../../src/core/localnode/status';
import { LocalGraphNode } from '../../src/core/localnode/supervisor';
import { freePort, startDevnet, type Devnet } from '../support/devnets';
import { copyProject, graphCli, removeScratch, repoRoot, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';

const TUTORIAL = path.join(repoRoot(), 'test', 'fixtures', 'subgraphs', 'tutorial');
const PASSWORD = 'pw-Secret-4f9d2';

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph | undefined;
let usersPostgres: RunningPostgres | undefined;

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-names-');
});

after(async () => {
  await graph?.stop().catch(() => undefined);
  await usersPostgres?.stop().catch(() => undefined);
  await anvil?.stop();
  removeScratch(scratch);
});

test('names created and deployed by the graph CLI from outside, with their current deployment', async () => {
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  const project = copyProject(TUTORIAL, scratch);
  // From block 0 of anvil: graph-node finds the start block on this chain.
  const manifest = path.join(project, 'subgraph.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/startBlock: \d+/, 'startBlock: 0'));

  await graphCli(['create', '--node', graph.urls.admin, 'demo/empty'], project);
  const { deployment } = await graph.deploy(project, 'demo/token');

  const names = await graph.node.subgraphNames();
  const byName = new Map(names.map((n) => [n.name, n]));
  assert.deepEqual(byName.get('demo/token'), { name: 'demo/token', current: deployment });
  assert.deepEqual(byName.get('demo/empty'), { name: 'demo/empty' }, 'a name without a deployment has none');
  // gnd's own placeholder is a name too; its deployment is a path, not a CID.
  const placeholder = names.filter((n) => n.current && isPlaceholderDeployment(n.current));
  assert.deepEqual(
    placeholder.map((n) => n.name),
    ['subgraph-0'],
  );
  assert.deepEqual(
    names.map((n) => n.name),
    [...names.map((n) => n.name)].sort(),
    'sorted by name',
  );
});

test('through a Postgres URL of the user’s with a password; failures bounded and without the password or database', async () => {
  const bins = findPostgres();
  assert.ok(bins, 'Postgres is installed (scripts/setup.sh)');
  const psql = findPsql(bins);
  assert.ok(psql, 'psql beside pg_ctl');
  const postgres = await startPostgres(bins, path.join(scratch, 'users-pg'), await freePort());
  usersPostgres = postgres;
  // The cluster trusts local TCP: any password is accepted, and it must still never show.
  const url = (database: string, port = postgres.port) => `postgresql://graph:${PASSWORD}@127.0.0.1:${port}/${database}?sslmode=disable`;

  // A database graph-node has not set up yet: its tables are missing, which is said.
  await assert.rejects(readSubgraphNames(psql, url('graphnode')), (err: Error) => {
    assert.match(err.message, /^Reading the subgraph names from Postgres failed: .*subgraphs\.subgraph.* does not exist/);
    assert.ok(!err.message.includes(PASSWORD));
    return true;
  });

  const missingDatabase = 'no_such_db_7c1e';
  await assert.rejects(readSubgraphNames(psql, url(missingDatabase)), (err: Error) => {
    assert.match(err.message, /^Reading the subgraph names from Postgres failed: .*database "\*\*\*" does not exist/);
    assert.ok(!err.message.includes(PASSWORD) && !err.message.includes(missingDatabase), err.message);
    return true;
  });

  const started = Date.now();
  await assert.rejects(readSubgraphNames(psql, url('graphnode', await freePort())), (err: Error) => {
    assert.match(err.message, /^Reading the subgraph names from Postgres failed: .*(refused|could not connect)/i);
    assert.ok(!err.message.includes(PASSWORD));
    return true;
  });
  assert.ok(Date.now() - started < 12_000, 'within the bound');

  await assert.rejects(readSubgraphNames(psql, 'http://127.0.0.1/x'), /does not start with postgresql:\/\//);

  // A node on that Postgres reads its names through the same URL.
  const node = new LocalGraphNode({ rpcUrl: anvil.url, cacheDir: userCacheDir(process.env), postgresUrl: url('graphnode') });
  try {
    await node.start();
    assert.deepEqual(
      (await node.subgraphNames()).map((n) => n.name),
      ['subgraph-0'],
    );
  } finally {
    await node.stop();
  }
  await assert.rejects(node.subgraphNames(), /not running/);
});
