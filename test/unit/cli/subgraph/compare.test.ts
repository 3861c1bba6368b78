/**
 * `chaindeck subgraph compare` against two loopback endpoints answering as graph-node does:
 * exit 0 equal, 1 differ or an endpoint failed (its reason on stderr, one line), 2 usage; the
 * text and JSON reports; a key in either URL never printed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { textReport } from '../../../../src/cli/subgraph/compare';
import { closeIdleConnections } from '../../../../src/core/rpc/http';
import { runMain } from '../../../support/cli';
import { pings, startSubgraphEndpoint, store, type Store } from '../../../support/subgraphEndpoint';

const KEY = 'gw0123456789abcdefKEY';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-cli-'));
const queryFile = path.join(dir, 'pings.graphql');
fs.writeFileSync(queryFile, '# @subgraph pings\nquery Pings($first: Int = 100, $skip: Int = 0) {\n  pings(first: $first, skip: $skip) { id n version }\n  _meta { block { number } }\n}\n');
const closers: (() => Promise<void>)[] = [];
after(async () => {
  closeIdleConnections();
  await Promise.all(closers.map((c) => c()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function urls(a: Store, b: Store): Promise<[string, string]> {
  const [ea, eb] = await Promise.all([startSubgraphEndpoint(a), startSubgraphEndpoint(b, `/api/${KEY}/subgraphs/id/QmB`)]);
  closers.push(ea.close, eb.close);
  return [ea.url, eb.url];
}

test('equal endpoints: exit 0 and "Equal."; a planted difference: exit 1, the entity named; the key never printed', async () => {
  const [a, b] = await urls(store(6, pings(3)), store(7, pings(3)));
  const equal = await runMain(['subgraph', 'compare', '--query', queryFile, '--a', a, '--b', b], {}, true);
  assert.equal(equal.code, 0, equal.err);
  assert.match(equal.out, /^Compared at block 6 \(the lower/);
  assert.match(equal.out, /pings: 3 in A, 3 in B: equal\nEqual\.\n$/);

  const changed = pings(3);
  changed[1] = { ...changed[1], version: 'v2' };
  const [a2, b2] = await urls(store(6, pings(3)), store(6, changed));
  const differ = await runMain(['subgraph', 'compare', '--query', queryFile, '--a', a2, '--b', b2, '--block', '5'], {}, true);
  assert.equal(differ.code, 1, differ.err);
  assert.match(differ.out, /^Compared at block 5\n/);
  assert.match(differ.out, new RegExp(`changed {4}${changed[1].id} {2}version: "v1" → "v2"`));
  assert.match(differ.out, /The endpoints differ\.\n$/);
  assert.doesNotMatch(differ.out + differ.err + equal.out, new RegExp(KEY));

  const json = await runMain(['subgraph', 'compare', '--query', queryFile, '--a', a2, '--b', b2, '--format', 'json'], {}, true);
  assert.equal(json.code, 1);
  const result = JSON.parse(json.out);
  assert.deepEqual(Object.keys(result), ['equal', 'block', 'blockFrom', 'a', 'b', 'fields']);
  assert.deepEqual([result.equal, result.block, result.blockFrom, result.a.head, result.b.failure], [false, 6, 'heads', 6, null]);
  assert.deepEqual(result.fields[0].changed, [{ id: changed[1].id, changes: [{ path: 'version', a: 'v1', b: 'v2' }] }]);
  assert.doesNotMatch(json.out, new RegExp(KEY));
  assert.match(result.b.url, /^http:\/\/127\.0\.0\.1:\d+\/\*\*\*/);
});

test('an endpoint that fails: exit 1, its one line on stderr naming it (redacted)', async () => {
  const [a, b] = await urls(store(6, pings(3)), { ...store(6, []), raw: { status: 401, body: 'bad key' } });
  const run = await runMain(['subgraph', 'compare', '--query', queryFile, '--a', a, '--b', b], {}, true);
  assert.equal(run.code, 1);
  const lines = run.err.split('\n');
  assert.deepEqual([lines.length, lines[1]], [2, ''], `one line: ${run.err}`);
  assert.match(lines[0], /^chaindeck subgraph compare: B \(http:\/\/127\.0\.0\.1:\d+\/\*\*\*.*\): The query endpoint refused the request \(HTTP 401/);
  assert.match(run.out, /Not compared: an endpoint failed\./);
  // Not "Compared at block 6": nothing was.
  assert.doesNotMatch(run.out, /Compared at/);
  assert.doesNotMatch(run.err + run.out, new RegExp(KEY));
});

test("the text report cuts an endpoint's long id to one short line", () => {
  const id = 'x'.repeat(100_000);
  const side = { shown: 'http://127.0.0.1:1/***', head: 3 };
  const report = textReport({
    block: 3,
    blockFrom: 'heads',
    equal: false,
    a: side,
    b: side,
    fields: [{ field: 'pings', countA: 1, countB: 1, truncated: false, onlyInA: [{ id }], onlyInB: [], changed: [{ id, changes: [{ path: 'n', a: '1', b: '2' }] }] }],
  });
  for (const line of report.split('\n')) assert.ok(line.length < 400, `${line.length} characters`);
});

test('usage errors: exit 2 before anything is sent', async () => {
  const a = store(1, []);
  const [ua, ub] = await urls(a, store(1, []));
  const bad = path.join(dir, 'meta.graphql');
  fs.writeFileSync(bad, '{ _meta { block { number } } }');
  const cases: [string[], RegExp][] = [
    [['--a', ua, '--b', ub], /--query is required/],
    [['--query', queryFile, '--a', ua], /--b is required/],
    [['--query', queryFile, '--a', ua, '--b', 'ws://127.0.0.1:1/x'], /not a WebSocket URL/],
    [['--query', queryFile, '--a', ua, '--b', ub, '--block', '-1'], /--block takes a whole number/],
    [['--query', queryFile, '--a', ua, '--b', ub, '--max-entities', '0'], /--max-entities takes a whole number from 1/],
    [['--query', queryFile, '--a', ua, '--b', ub, '--format', 'yaml'], /--format takes text or json/],
    [['--query', path.join(dir, 'missing.graphql'), '--a', ua, '--b', ub], /--query: /],
    [['--query', bad, '--a', ua, '--b', ub], /no entity field to compare.*\(--query\)/],
  ];
  for (const [args, message] of cases) {
    const run = await runMain(['subgraph', 'compare', ...args], {}, true);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.err}`);
    assert.match(run.err, message);
  }
  assert.equal(a.documents.length, 0);
});
