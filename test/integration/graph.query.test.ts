/**
 * Queries against a real local graph-node (gnd, Postgres, the IPFS endpoint) serving the Emitter
 * subgraph's Ping records, indexed from real events on anvil, reached through a gateway that
 * demands the access key in the path, as the record keeps it ({key}) and puts it back for the call.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { RpcFailure } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { splitKeyFromUrl, withKey } from '../../src/core/subgraph/graphnode/records';
import { buildQuerySchema } from '../../src/core/subgraph/query/apiSchema';
import { defaultListQuery, pageVariables } from '../../src/core/subgraph/query/build';
import { entityModel } from '../../src/core/subgraph/query/entities';
import { postGraphql, querySubgraph, subgraphHealth, type GraphqlCallOptions } from '../../src/core/subgraph/query/client';
import { freePort, startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterFixture, emitterProject, type Emitter } from '../support/emitter';
import { removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';
import { startProxy, type Proxy } from '../support/proxy';

const KEY = '5c1d9e7f3a2b4c6d8e0f1a3b5c7d9e1f';
const NAME = 'test/pings';
const UINT256_MAX = 2n ** 256n - 1n;
const SCHEMA_TEXT = readFileSync(path.join(emitterFixture(), 'schema.graphql'), 'utf8');

let anvil: Devnet;
let graph: LocalGraph;
let emitter: Emitter;
let scratch: string;
let gateway: Proxy;
let url: string;
let schema: GraphQLSchema;
let defaultQuery: string;
/** Every Ping log's id as eth_getLogs gives them, sorted as graph-node orders ids. */
let logIds: string[];
let indexedBlock: number;
const options: GraphqlCallOptions = { timeoutMs: 10_000, secrets: [KEY] };

before(async () => {
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-query-');
  graph = await startLocalGraph(anvil.url);
  emitter = await deployEmitter(anvil.url);
  await emitter.ping(249);
  indexedBlock = await emitter.pingWith(UINT256_MAX);
  const { deployment } = await graph.deploy(emitterProject(scratch, emitter.address, emitter.block), NAME);
  await graph.waitSynced(deployment, indexedBlock);
  logIds = (await emitter.pingLogIds()).sort();
  gateway = await startProxy({ target: graph.urls.graphql, key: KEY, service: {} });
  // As settings keep it, then as the call needs it.
  const { template, key } = splitKeyFromUrl(`${gateway.url}/subgraphs/name/${NAME}`);
  assert.equal(key, KEY);
  url = withKey(template, key);
  const model = entityModel(SCHEMA_TEXT);
  schema = buildQuerySchema(model);
  defaultQuery = defaultListQuery(model.entities[0]);
});

after(async () => {
  closeIdleConnections();
  emitter?.close();
  await gateway?.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

beforeEach(() => gateway.clear());

async function rejects(promise: Promise<unknown>, kind: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof RpcFailure, String(err));
    assert.equal(err.kind, kind, err.message);
    assert.match(err.message, message);
    assert.ok(!err.message.includes(KEY), `the message leaks the key: ${err.message}`);
    return true;
  });
}

test('the default query returns the first page as table rows, big values whole', async () => {
  const outcome = await querySubgraph(url, { query: defaultQuery, variables: pageVariables(0) }, { ...options, schema });
  assert.equal(outcome.kind, 'answered');
  if (outcome.kind !== 'answered') return;
  assert.equal(outcome.response.status, 200);
  assert.equal(outcome.response.errors, undefined);
  assert.deepEqual(
    outcome.fields.map((t) => t.field),
    ['pings'],
  );
  const [table] = outcome.fields;
  assert.deepEqual(
    table.columns.map((c) => c.id),
    ['id', 'n', 'from', 'blockNumber', 'version'],
  );
  assert.equal(table.rows.length, 100);
  assert.deepEqual(
    table.rows.map((r) => r[0]),
    logIds.slice(0, 100),
    'the first 100 logs of eth_getLogs, by id',
  );
  const all = await postGraphql(url, { query: `{ pings(where: { n: "${UINT256_MAX}" }) { n } }` }, options);
  assert.deepEqual(all.data, { pings: [{ n: UINT256_MAX.toString() }] }, 'uint256 max kept as written');
  // On the wire: one JSON POST with the query and the paging variables.
  assert.equal(gateway.requests[0].contentType, 'application/json');
  assert.deepEqual(JSON.parse(gateway.requests[0].body), { query: defaultQuery, variables: { first: 100, skip: 0 } });
});

test('paging with first/skip walks every record once: exactly the logs eth_getLogs returns', async () => {
  const seen: string[] = [];
  for (let page = 0; ; page++) {
    const reply = await postGraphql(url, { query: defaultQuery, variables: pageVariables(page, 100) }, options);
    const rows = (reply.data as { pings: { id: string }[] }).pings;
    seen.push(...rows.map((r) => r.id));
    if (rows.length < 100) break;
  }
  assert.equal(seen.length, 250);
  assert.deepEqual(seen, logIds);
  assert.deepEqual(
    gateway.requests.map((r) => (JSON.parse(r.body) as { variables: unknown }).variables),
    [
      { first: 100, skip: 0 },
      { first: 100, skip: 100 },
      { first: 100, skip: 200 },
    ],
  );
});

test('an unknown field is flagged with its position and nothing is sent', async () => {
  const query = '{\n  pings(first: 5) {\n    id\n    ownerr\n  }\n}';
  const outcome = await querySubgraph(url, { query }, { ...options, schema });
  assert.equal(outcome.kind, 'invalid');
  if (outcome.kind !== 'invalid') return;
  assert.deepEqual(
    outcome.diagnostics.map((d) => [d.line, d.column, query.slice(d.start, d.end)]),
    [[4, 5, 'ownerr']],
  );
  assert.equal(gateway.requests.length, 0);
});

test("graph-node's errors come back exactly as it sent them", async () => {
  const reply = await postGraphql(url, { query: '{ pings { ownerr } }' }, options);
  assert.deepEqual(reply.errors, [{ message: 'Type `Ping` has no field `ownerr`', locations: [{ line: 1, column: 11 }] }]);
  assert.equal(reply.data, undefined);
  const limited = await postGraphql(url, { query: '{ pings(first: 5000) { id } }' }, options);
  assert.deepEqual(
    limited.errors?.map((e) => (e as { message: string }).message),
    ['The `first` argument must be between 0 and 1000, but is 5000'],
  );
  const unknown = await postGraphql(withKey(`${gateway.url.replace(KEY, '{key}')}/subgraphs/name/test/nope`, KEY), { query: '{ _meta { deployment } }' }, options);
  assert.deepEqual(unknown.errors, [{ message: 'deployment `test/nope` does not exist' }]);
});

test('health: the indexed block and indexing errors from _meta', async () => {
  const health = await subgraphHealth(url, options);
  assert.equal(health.hasIndexingErrors, false);
  assert.ok(health.blockNumber >= indexedBlock, `indexed ${health.blockNumber}, the last Ping in ${indexedBlock}`);
  assert.deepEqual(JSON.parse(gateway.requests[0].body), { query: '{ _meta { block { number } hasIndexingErrors } }' });
  // The gateway turns graph-node's answer into an error answer.
  gateway.fail({ rewrite: () => ({ errors: [{ message: 'indexing_error' }] }) });
  await rejects(subgraphHealth(url, options), 'rpc', /did not report its health: indexing_error/);
});

test('HTTP failures say what to check, without the key', async () => {
  // graph-node answers a path that is no subgraph's with 200 and a JSON body that is no GraphQL result.
  await rejects(
    postGraphql(withKey(`${gateway.url.replace(KEY, '{key}')}/subgraphs/nope`, KEY), { query: '{ _meta { deployment } }' }, options),
    'not-json',
    /answered with "\{\\"message\\":\\"Not found\\"\}", not a GraphQL result/,
  );
  gateway.fail({ status: 404, body: 'Not Found' });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'http', /No subgraph answers at .*\*\*\*.*\(HTTP 404\)/);
  await rejects(
    postGraphql(
      `${gateway.url.replace(KEY, 'wrong0000000000000000000000000000')}/subgraphs/name/${NAME}`,
      { query: '{ _meta { deployment } }' },
      { ...options, secrets: [KEY, 'wrong0000000000000000000000000000'] },
    ),
    'auth',
    /refused .*HTTP 401.*access key in the query URL/,
  );
  gateway.fail({ status: 502, body: 'bad gateway' });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'server', /HTTP 502.*"bad gateway"/);
  gateway.fail({ status: 200, body: '<html><body>GraphiQL</body></html>', headers: { 'content-type': 'text/html' } });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'not-json', /an HTML page, not a GraphQL result.*not the GraphQL UI URL/);
});

test('unreachable, slow and cancelled queries fail as such', async () => {
  await rejects(postGraphql(`http://127.0.0.1:${await freePort()}/${KEY}/subgraphs/name/x`, { query: '{ _meta { deployment } }' }, options), 'unreachable', /connection refused/);
  gateway.fail({ delayMs: 1000 });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, { ...options, timeoutMs: 200 }), 'timeout', /within 200 ms/);
  gateway.fail({ delayMs: 1000 });
  const controller = new AbortController();
  const pending = postGraphql(url, { query: '{ _meta { deployment } }' }, { ...options, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await rejects(pending, 'cancelled', /was cancelled/);
});
