/**
 * compareEndpoints against two GraphQL endpoints on loopback that answer as graph-node does
 * (graphql-js over a graph-node-shaped schema, so every document sent is checked by a real
 * GraphQL validator): the block chosen, collections read whole page by page, the planted
 * differences found, and each endpoint's failure as its one redacted line.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { compareEndpoints } from '../../../../../src/core/indexing/compare/compare';
import { closeIdleConnections } from '../../../../../src/core/rpc/http';
import { pings, startSubgraphEndpoint as endpoint, store, type Store } from '../../../../support/subgraphEndpoint';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  closeIdleConnections();
  await Promise.all(closers.map((c) => c()));
});
async function pair(a: Store, b: Store, pathB?: string) {
  const [ea, eb] = await Promise.all([endpoint(a), endpoint(b, pathB)]);
  closers.push(ea.close, eb.close);
  return { a: { url: ea.url }, b: { url: eb.url } };
}

test('2,500 entities each side, read whole in pages of 1000 at the lower head; the planted differences, and nothing else', async () => {
  const a = store(9, pings(2500));
  const list = pings(2500);
  list[1200] = { ...list[1200], version: 'v2' };
  list.splice(2400, 1);
  list.push({ id: '0xfffff-0', n: '1', version: 'v1', block: 1 }, { id: '0xfffff-1', n: '2', version: 'v1', block: 12 });
  const b = store(12, list);
  const result = await compareEndpoints(await pair(a, b), { query: '{ pings { n version } _meta { deployment } }' });
  assert.equal(result.block, 9);
  assert.equal(result.blockFrom, 'heads');
  assert.equal(result.equal, false);
  const [diff] = result.fields;
  assert.equal(diff.field, 'pings');
  assert.deepEqual([diff.countA, diff.countB, diff.truncated], [2500, 2500, false]);
  assert.deepEqual(
    diff.onlyInA.map((e) => e.id),
    [pings(2500)[2400].id],
  );
  // The one at block 12 is past the block compared.
  assert.deepEqual(
    diff.onlyInB.map((e) => e.id),
    ['0xfffff-0'],
  );
  assert.deepEqual(diff.changed, [{ id: list[1200].id, changes: [{ path: 'version', a: 'v1', b: 'v2' }] }]);
  // 3 pages each (1000, 1000, 500) after the probe; every one at block 9.
  assert.equal(a.documents.length, 4);
  for (const d of a.documents.slice(1)) assert.match(d, /block: \{number: 9\}/);
});

test('equal endpoints are equal; --block given is used; the bound on entities cuts both sides alike', async () => {
  const pair1 = await pair(store(5, pings(30)), store(5, pings(30)));
  const equal = await compareEndpoints(pair1, { query: 'query { pings(where: { n: "3" }) { id n } ping(id: "0x00002-0") { n } }', block: 4 });
  assert.equal(equal.equal, true);
  assert.equal(equal.block, 4);
  assert.deepEqual(
    equal.fields.map((f) => [f.field, f.countA]),
    [
      ['pings', 1],
      ['ping', 1],
    ],
  );
  const longer = pings(40);
  const bounded = await compareEndpoints(await pair(store(5, pings(30)), store(5, longer)), { query: '{ pings { id } }', maxEntities: 20, pageSize: 10 });
  assert.equal(bounded.fields[0].truncated, true);
  assert.equal(bounded.equal, true);
  const unbounded = await compareEndpoints(await pair(store(5, pings(30)), store(5, longer)), { query: '{ pings { id } }', pageSize: 10 });
  assert.equal(unbounded.fields[0].onlyInB.length, 10);
});

test("each endpoint's failure is its own one line, its key never shown", async () => {
  const KEY = 'k3y0123456789abcdef';
  const cases: [Partial<Store>, RegExp][] = [
    [{ raw: { status: 401, body: 'no' } }, /refused the request \(HTTP 401/],
    [{ raw: { status: 403, body: 'no' } }, /HTTP 403/],
    [{ raw: { status: 429, body: 'slow down' } }, /Rate limited/],
    [{ raw: { status: 502, body: 'bad gateway' } }, /failed \(HTTP 502/],
    [{ raw: { status: 200, body: '<html>hi</html>' } }, /an HTML page, not a GraphQL result/],
    [{ head: 2 }, /indexed only to block 2, behind block 4/],
  ];
  for (const [broken, message] of cases) {
    const b = { ...store(8, pings(3)), ...broken };
    const endpoints = await pair(store(8, pings(3)), b, `/api/${KEY}/subgraphs/id/Qm1`);
    const result = await compareEndpoints({ ...endpoints, b: { url: endpoints.b.url, secrets: [KEY] } }, { query: '{ pings { id } }', block: 4 });
    assert.equal(result.equal, false);
    assert.equal(result.a.failure, undefined);
    assert.match(result.b.failure ?? '', message);
    assert.doesNotMatch(`${result.b.failure} ${result.b.shown}`, new RegExp(KEY));
    assert.doesNotMatch(result.b.failure ?? '', /\n/);
  }
  // GraphQL errors: graph-node's own words.
  const result = await compareEndpoints(await pair(store(8, pings(3)), store(8, pings(3))), { query: '{ pings { id nope } }' });
  assert.match(result.a.failure ?? '', /^GraphQL error: Cannot query field "nope"/);
  assert.match(result.b.failure ?? '', /^GraphQL error/);
});

test('a query that cannot be compared rejects before anything is sent', async () => {
  const a = store(1, []);
  const endpoints = await pair(a, store(1, []));
  await assert.rejects(compareEndpoints(endpoints, { query: '{ _meta { deployment } }' }), /no entity field/);
  await assert.rejects(compareEndpoints(endpoints, { query: '{ pings { id } }', maxEntities: 0 }), /bound on entities/);
  assert.equal(a.documents.length, 0);
});

/** An endpoint that answers the probe as graph-node does (head 5 unless given, a pageable `pings`) and each page as `page` says. */
async function lying(page: (query: string) => string, head: unknown = 5): Promise<{ url: string }> {
  const args = ['block', 'first', 'skip', 'orderBy', 'orderDirection', 'where'].map((name) => ({ name }));
  const probe = { data: { _meta: { block: { number: head } }, __schema: { queryType: { fields: [{ name: 'pings', args, type: { kind: 'NON_NULL', ofType: { kind: 'LIST' } } }] } } } };
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { query } = JSON.parse(body) as { query: string };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(query.includes('__schema') ? JSON.stringify(probe) : page(query));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/subgraphs/name/x` };
}

test("a node that lies in its pages is that side's one failure, not a false verdict or a crash", async () => {
  const ids = (list: unknown[]) => JSON.stringify({ data: { pings: list } });
  const ten = Array.from({ length: 10 }, (_, i) => ({ id: `0x0${i}` }));
  const cases: [string, (query: string) => string, RegExp][] = [
    // It ignores id_gt: the same full page for ever (counted up to the bound, then "equal").
    ['the same page again', () => ids(ten), /answered the entity "0x00" twice/],
    ['an id twice in a page', () => ids([{ id: 'a' }, { id: 'a' }]), /answered the entity "a" twice/],
    // More than asked: 200,000 entries overflowed the stack when spread into the list.
    ['more than first', () => ids(Array.from({ length: 200_000 }, (_, i) => ({ id: `x${i}` }))), /answered 200000 entities when asked for 10 at most/],
    ['null in the list', () => ids([null, { id: 'a' }]), /an entry that is not an entity with an id/],
  ];
  for (const [what, page, message] of cases) {
    const honest = await lying((q) => ids(/id_gt/.test(q) ? [] : ten));
    const result = await compareEndpoints({ a: honest, b: await lying(page) }, { query: '{ pings { id } }', pageSize: 10, maxEntities: 50 });
    assert.equal(result.a.failure, undefined, what);
    assert.match(result.b.failure ?? '', message, what);
    assert.equal(result.equal, false, what);
  }
});

test('a head that is no block number is a failure, not the block sent on', async () => {
  const empty = () => JSON.stringify({ data: { pings: [] } });
  for (const head of [-3, 2.5, 1e99]) {
    const result = await compareEndpoints({ a: await lying(empty, head), b: await lying(empty, head) }, { query: '{ pings { id } }' });
    assert.match(result.a.failure ?? '', /does not report its indexed block/, String(head));
    assert.equal(result.equal, false);
  }
});

test("an endpoint's words in its failure: one inert line, bounded, its key masked", async () => {
  const KEY = 'k3y0123456789abcdef';
  const said = (message: string) => () => JSON.stringify({ errors: [{ message }] });
  const many = () => JSON.stringify({ errors: Array.from({ length: 100_000 }, () => ({ message: 'no such field' })) });
  const honest = await lying(() => JSON.stringify({ data: { pings: [] } }));
  const result = await compareEndpoints({ a: honest, b: { ...(await lying(said(`bad\x1b]0;title\x07 key \u202e${KEY}\nline two`))), secrets: [KEY] } }, { query: '{ pings { id } }' });
  // The title-setting escape and the bidi override gone, the line break escaped, the key masked.
  assert.equal(result.b.failure, 'GraphQL error: bad key ***\\nline two');
  const long = await compareEndpoints({ a: honest, b: await lying(many) }, { query: '{ pings { id } }' });
  assert.ok((long.b.failure ?? '').length < 1100, `${long.b.failure?.length} characters`);
  assert.match(long.b.failure ?? '', /more characters cut\)$/);
});

test('what one endpoint sends in all is bounded: past it, its failure, not memory running out', async () => {
  const big = (query: string) => {
    const from = Number(/id_gt: "(\d+)"/.exec(query)?.[1] ?? -1) + 1;
    return JSON.stringify({ data: { pings: Array.from({ length: 10 }, (_, i) => ({ id: String(from + i).padStart(6, '0'), blob: 'x'.repeat(1000) })) } });
  };
  const result = await compareEndpoints({ a: await lying(big), b: await lying(big) }, { query: '{ pings { id blob } }', pageSize: 10, maxEntities: 1000, maxBytes: 50_000 });
  assert.match(result.a.failure ?? '', /^it answered more than 48\.8 KiB in all: compare fewer entities or select fewer fields$/);
  assert.equal(result.equal, false);
});
