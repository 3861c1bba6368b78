/**
 * Queries against a loopback GraphQL endpoint that serves the tutorial's ApprovalQuery records
 * as graph-node does (approvalQueries with first/skip, _meta), reached through a query URL with
 * the access key in its path, as the record keeps it ({key}) and puts it back for the call.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { RpcFailure } from '../../src/core/rpc/failure';
import { closeIdleConnections } from '../../src/core/rpc/http';
import { splitKeyFromUrl, withKey } from '../../src/core/subgraph/records';
import { buildQuerySchema } from '../../src/core/subgraph/query/apiSchema';
import { defaultListQuery, pageVariables } from '../../src/core/subgraph/query/build';
import { entityModel } from '../../src/core/subgraph/query/entities';
import { postGraphql, querySubgraph, subgraphHealth, type GraphqlCallOptions } from '../../src/core/subgraph/query/client';
import { freePort } from '../support/devnets';
import { approvalRecords, startGraphqlServer, type GraphqlServer } from '../support/graphNodeServer';

const KEY = '5c1d9e7f3a2b4c6d8e0f1a3b5c7d9e1f';
const SCHEMA_TEXT = readFileSync(path.join(__dirname, '../fixtures/subgraphs/tutorial/schema.graphql'), 'utf8');
const RECORDS = approvalRecords(250);

let server: GraphqlServer;
let url: string;
let schema: GraphQLSchema;
let defaultQuery: string;
const options: GraphqlCallOptions = { timeoutMs: 5000, secrets: [KEY] };

before(async () => {
  server = await startGraphqlServer(RECORDS, { key: KEY });
  // As settings keep it, then as the call needs it.
  const { template, key } = splitKeyFromUrl(server.url);
  assert.equal(key, KEY);
  url = withKey(template, key);
  const model = entityModel(SCHEMA_TEXT);
  schema = buildQuerySchema(model);
  defaultQuery = defaultListQuery(model.entities[0]);
});

after(async () => {
  closeIdleConnections();
  await server.close();
});

beforeEach(() => server.clear());

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
  assert.equal(outcome.table.field, 'approvalQueries');
  assert.deepEqual(
    outcome.table.columns.map((c) => c.id),
    ['id', 'owner', 'spender', 'value'],
  );
  assert.equal(outcome.table.rows.length, 100);
  const sorted = [...RECORDS].sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.deepEqual(outcome.table.rows[0], [sorted[0].id, sorted[0].owner, sorted[0].spender, sorted[0].value]);
  assert.ok(
    outcome.table.rows.some((r) => r[3] === (2n ** 256n - 1n).toString()),
    'uint256 max kept as written',
  );
  // On the wire: one JSON POST with the query and the paging variables.
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0].contentType, 'application/json');
  assert.deepEqual(server.requests[0].body, { query: defaultQuery, variables: { first: 100, skip: 0 } });
});

test('paging with first/skip walks every record once', async () => {
  const seen: string[] = [];
  for (let page = 0; ; page++) {
    const reply = await postGraphql(url, { query: defaultQuery, variables: pageVariables(page, 100) }, options);
    const rows = (reply.data as { approvalQueries: { id: string }[] }).approvalQueries;
    seen.push(...rows.map((r) => r.id));
    if (rows.length < 100) break;
  }
  assert.equal(seen.length, 250);
  assert.equal(new Set(seen).size, 250);
  assert.deepEqual(
    server.requests.map((r) => r.body.variables),
    [
      { first: 100, skip: 0 },
      { first: 100, skip: 100 },
      { first: 100, skip: 200 },
    ],
  );
});

test('an unknown field is flagged with its position and nothing is sent', async () => {
  const query = '{\n  approvalQueries(first: 5) {\n    id\n    ownerr\n  }\n}';
  const outcome = await querySubgraph(url, { query }, { ...options, schema });
  assert.equal(outcome.kind, 'invalid');
  if (outcome.kind !== 'invalid') return;
  assert.deepEqual(
    outcome.diagnostics.map((d) => [d.line, d.column, query.slice(d.start, d.end)]),
    [[4, 5, 'ownerr']],
  );
  assert.equal(server.requests.length, 0);
});

test("the endpoint's errors come back exactly as sent", async () => {
  const sent = [{ message: 'Type `ApprovalQuery` has no field `ownerr`', locations: [{ line: 1, column: 25 }] }];
  server.fail({ errors: sent });
  const reply = await postGraphql(url, { query: '{ approvalQueries { ownerr } }' }, options);
  assert.deepEqual(reply.errors, sent);
  assert.equal(reply.data, undefined);
  // A real execution error from the endpoint, with its data, passes through too.
  const limited = await postGraphql(url, { query: '{ approvalQueries(first: 5000) { id } }' }, options);
  assert.deepEqual(
    limited.errors?.map((e) => (e as { message: string }).message),
    ['The `first` argument must be between 0 and 1000, but is 5000'],
  );
  assert.deepEqual(limited.data, null);
});

test('health: the indexed block and indexing errors from _meta', async () => {
  assert.deepEqual(await subgraphHealth(url, options), { blockNumber: 19_000_000, hasIndexingErrors: false });
  assert.deepEqual(server.requests[0].body, { query: '{ _meta { block { number } hasIndexingErrors } }' });
  server.fail({ errors: [{ message: 'indexing_error' }] });
  await rejects(subgraphHealth(url, options), 'rpc', /did not report its health: indexing_error/);
});

test('HTTP failures say what to check, without the key', async () => {
  await rejects(
    postGraphql(withKey(server.url.replace(KEY, '{key}').replace('erc20-approvals', 'nope'), KEY), { query: '{ _meta { deployment } }' }, options),
    'http',
    /No subgraph answers at .*\*\*\*.*\(HTTP 404\)/,
  );
  server.fail({ status: 401, body: 'bad key' });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'auth', /refused .*HTTP 401.*access key in the query URL/);
  server.fail({ status: 502, body: 'bad gateway' });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'server', /HTTP 502.*"bad gateway"/);
  server.fail({ status: 200, body: '<html><body>GraphiQL</body></html>', contentType: 'text/html' });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, options), 'not-json', /an HTML page, not a GraphQL result.*not the GraphQL UI URL/);
});

test('unreachable, slow and cancelled queries fail as such', async () => {
  await rejects(postGraphql(`http://127.0.0.1:${await freePort()}/${KEY}/subgraphs/name/x`, { query: '{ _meta { deployment } }' }, options), 'unreachable', /connection refused/);
  server.fail({ delayMs: 1000 });
  await rejects(postGraphql(url, { query: '{ _meta { deployment } }' }, { ...options, timeoutMs: 200 }), 'timeout', /within 200 ms/);
  server.fail({ delayMs: 1000 });
  const controller = new AbortController();
  const pending = postGraphql(url, { query: '{ _meta { deployment } }' }, { ...options, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await rejects(pending, 'cancelled', /was cancelled/);
});
