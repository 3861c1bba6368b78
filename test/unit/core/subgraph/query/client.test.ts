/**
 * The GraphQL query client against a scripted endpoint on loopback: what it sends, graph-node's
 * JSON answers passed on as sent (errors with a 4xx too), every other reply turned into a failure
 * of its own kind and words, the key kept out of them, health from _meta, and the schema check
 * that keeps an invalid query from being sent at all.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, test } from 'node:test';
import { closeIdleConnections } from '../../../../../src/core/rpc/http';
import { buildQuerySchema } from '../../../../../src/core/subgraph/query/apiSchema';
import { errorMessages, parseJsonLossless, postGraphql, querySubgraph, subgraphHealth } from '../../../../../src/core/subgraph/query/client';
import { failureOf, startScriptedNode, type Answer, type ScriptedNode } from '../../../../support/rpcNode';

const KEY = 'qk_0123456789abcdefghij';
let answer: Answer = { body: { data: {} } };
let node: ScriptedNode;
const nodeReady = startScriptedNode(() => answer, `/${KEY}/subgraphs/name/my/erc20`).then((n) => (node = n));
after(async () => (await nodeReady).close());

const options = { timeoutMs: 5000, secrets: [KEY] };
const shown = () => `http://127.0.0.1:${node.port}/***/***/***/***/***`;

test('sends the query, variables only when there are some, the operation name when given', async () => {
  await nodeReady;
  answer = { body: { data: { tokens: [] } } };
  const first = await postGraphql(node.url, { query: '{ tokens { id } }', variables: {} }, { ...options, headers: { Authorization: 'Bearer x' } });
  const second = await postGraphql(node.url, { query: 'query Q($n: Int) { tokens(first: $n) { id } }', variables: { n: 2 }, operationName: 'Q' }, options);
  const [a, b] = node.seen.slice(-2);
  assert.deepEqual(JSON.parse(a.body), { query: '{ tokens { id } }' });
  assert.deepEqual(JSON.parse(b.body), { query: 'query Q($n: Int) { tokens(first: $n) { id } }', variables: { n: 2 }, operationName: 'Q' });
  assert.equal(a.method, 'POST');
  assert.equal(a.headers['content-type'], 'application/json');
  assert.equal(a.headers.accept, 'application/json');
  assert.equal(a.headers.authorization, 'Bearer x');
  assert.equal(b.headers.authorization, undefined);
  for (const r of [first, second]) {
    assert.equal(r.status, 200);
    assert.deepEqual(r.data, { tokens: [] });
    assert.equal('errors' in r, false);
    assert.ok(r.bytes > 0 && r.timeMs >= 0);
  }
});

test('graph-node answers are passed on as sent: errors with a 400, a lone error object as a list, extensions, big integers as text', async () => {
  await nodeReady;
  answer = { status: 400, body: { errors: [{ message: 'Type `Query` has no field `nope`' }] } };
  const bad = await postGraphql(node.url, { query: '{ nope }' }, options);
  assert.deepEqual([bad.status, bad.data, bad.errors], [400, undefined, [{ message: 'Type `Query` has no field `nope`' }]]);
  assert.deepEqual(Object.keys(bad).sort(), ['bytes', 'errors', 'status', 'timeMs'], 'no data or extensions keys when the endpoint sent none');
  answer = { body: { data: null, errors: { message: 'one' }, extensions: { cost: 3 } } };
  const one = await postGraphql(node.url, { query: '{ a }' }, options);
  assert.deepEqual([one.data, one.errors, one.extensions], [null, [{ message: 'one' }], { cost: 3 }]);
  answer = { body: '{"data":{"n":123456789012345678901234567890,"f":1.5}}' };
  assert.deepEqual((await postGraphql(node.url, { query: '{ n }' }, options)).data, { n: '123456789012345678901234567890', f: 1.5 });
  assert.deepEqual(errorMessages([{ message: 'm' }, 'text', { code: 1 }, null]), ['m', '"text"', '{"code":1}', 'null']);
});

test('every other reply is a failure of its kind, in words that say what to do, without the key', async () => {
  await nodeReady;
  const cases: [Answer, string, string][] = [
    [
      { status: 401, body: 'no' },
      'auth',
      `The query endpoint refused the request (HTTP 401 Unauthorized from ${shown()}). Check the access key in the query URL (copy the query URL again from the console).`,
    ],
    [
      { status: 403 },
      'auth',
      `The query endpoint refused the request (HTTP 403 Forbidden from ${shown()}). Check the access key in the query URL (copy the query URL again from the console).`,
    ],
    [{ status: 404, body: 'x' }, 'http', `No subgraph answers at ${shown()} (HTTP 404): check the subgraph name and version label in the query URL, and that the subgraph is deployed.`],
    [{ status: 429 }, 'rate-limited', `Rate limited by the query endpoint (HTTP 429 Too Many Requests from ${shown()}). Wait, then query again.`],
    [{ status: 502, body: 'upstream down' }, 'server', `The query endpoint failed (HTTP 502 Bad Gateway from ${shown()}): "upstream down". Try again later.`],
    [{ status: 500 }, 'server', `The query endpoint failed (HTTP 500 Internal Server Error from ${shown()}). Try again later.`],
    [{ status: 302, body: 'moved' }, 'http', `Unexpected HTTP 302 Found from ${shown()}: "moved". Check the query URL.`],
    [{ body: '<html>GraphiQL</html>' }, 'not-json', `${shown()} answered with an HTML page, not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    [
      { body: 'plain words', headers: { 'Content-Type': 'text/html' } },
      'not-json',
      `${shown()} answered with an HTML page, not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`,
    ],
    [{ body: 'plain words' }, 'not-json', `${shown()} answered with "plain words", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    [{ body: '  ' }, 'not-json', `${shown()} answered with an empty body, not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    [{ body: { result: 1 } }, 'not-json', `${shown()} answered with "{\\"result\\":1}", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    [{ body: [{ data: 1 }] }, 'not-json', `${shown()} answered with "[{\\"data\\":1}]", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    // 300 is not a success: the query URL is wrong (2xx only is read as a result).
    [{ status: 300, body: 'choose' }, 'http', `Unexpected HTTP 300 Multiple Choices from ${shown()}: "choose". Check the query URL.`],
    // A status line without its reason phrase; a body of blanks says nothing.
    [{ status: 409, statusText: '', body: 'taken' }, 'http', `Unexpected HTTP 409 from ${shown()}: "taken". Check the query URL.`],
    [{ status: 502, body: ' \n ' }, 'server', `The query endpoint failed (HTTP 502 Bad Gateway from ${shown()}). Try again later.`],
    // HTML after leading blanks is still a page; a < inside plain text is not.
    [
      { body: ' \n <!doctype html><p>GraphiQL' },
      'not-json',
      `${shown()} answered with an HTML page, not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`,
    ],
    [{ body: 'a < b' }, 'not-json', `${shown()} answered with "a < b", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    // JSON that is not an object: a number, a string.
    [{ body: '42' }, 'not-json', `${shown()} answered with "42", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
    [{ body: '"data"' }, 'not-json', `${shown()} answered with "\\"data\\"", not a GraphQL result: check that this is the subgraph's query URL (not the GraphQL UI URL).`],
  ];
  for (const [reply, kind, message] of cases) {
    answer = reply;
    const failure = await failureOf(postGraphql(node.url, { query: '{ a }' }, options));
    assert.deepEqual([failure.kind, failure.message, failure.status], [kind, message, reply.status ?? 200], JSON.stringify(reply));
    assert.ok(!failure.message.includes(KEY));
  }
});

test('health: the indexed block and the error flag from _meta; no _meta or errors is a failure saying so', async () => {
  await nodeReady;
  answer = { body: { data: { _meta: { block: { number: 42 }, hasIndexingErrors: true } } } };
  assert.deepEqual(await subgraphHealth(node.url, options), { blockNumber: 42, hasIndexingErrors: true });
  assert.equal(JSON.parse(node.seen[node.seen.length - 1].body).query, '{ _meta { block { number } hasIndexingErrors } }');
  answer = { body: { data: { _meta: { block: { number: 7 }, hasIndexingErrors: 'yes' } } } };
  assert.deepEqual(await subgraphHealth(node.url, options), { blockNumber: 7, hasIndexingErrors: false });
  for (const [reply, why] of [
    [{ body: { data: {} } }, 'the reply has no _meta block'],
    [{ body: { data: { _meta: { block: { number: '7' } } } } }, 'the reply has no _meta block'],
    [{ body: { data: { _meta: { hasIndexingErrors: false } } } }, 'the reply has no _meta block'],
    [{ status: 400, body: { errors: [{ message: 'indexing failed' }, { message: 'again' }] } }, 'indexing failed; again'],
  ] as [Answer, string][]) {
    answer = reply;
    const failure = await failureOf(subgraphHealth(node.url, options));
    assert.deepEqual([failure.kind, failure.message, failure.status], ['rpc', `The subgraph at ${shown()} did not report its health: ${why}`, reply.status ?? 200]);
  }
});

test('querySubgraph: an invalid query is not sent; a valid one comes back as a table', async () => {
  await nodeReady;
  const schema = buildQuerySchema('type Token @entity(immutable: true) { id: ID! symbol: String! }');
  const before = node.seen.length;
  const invalid = await querySubgraph(node.url, { query: '{ tokens { nope } }' }, { ...options, schema });
  assert.equal(invalid.kind, 'invalid');
  assert.equal(invalid.kind === 'invalid' && invalid.diagnostics[0].message, 'Cannot query field "nope" on type "Token".');
  assert.equal(node.seen.length, before, 'nothing sent');
  answer = { body: { data: { tokens: [{ id: 'a', symbol: 'X' }] } } };
  const ok = await querySubgraph(node.url, { query: '{ tokens { id symbol } }' }, { ...options, schema });
  assert.equal(ok.kind, 'answered');
  assert.deepEqual(ok.kind === 'answered' && ok.fields.map((t) => [t.field, t.rows]), [['tokens', [['a', 'X']]]]);
  const unchecked = await querySubgraph(node.url, { query: '{ anything }' }, options);
  assert.equal(unchecked.kind, 'answered', 'without a schema the endpoint decides');
});

test('a query is sent again, once, when the kept-alive connection it went out on was closed (queries only read)', async () => {
  // Answers the first request of each connection and keeps it open; resets the connection when a
  // second request arrives on it, as a server closing an idle connection at that moment does.
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let answered = false;
    socket.on('data', () => {
      if (answered) return void socket.resetAndDestroy();
      answered = true;
      const body = '{"data":{"n":1}}';
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/subgraphs/name/x`;
  try {
    for (let i = 0; i < 2; i++) assert.deepEqual((await postGraphql(url, { query: '{ n }' }, options)).data, { n: 1 });
    assert.equal(connections, 2, 'the second query went out again on a fresh connection');
  } finally {
    closeIdleConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('JSON numbers too big for a double stay exact; strings with digits are untouched', () => {
  assert.deepEqual(parseJsonLossless('{"a":9007199254740993,"b":"9007199254740993","c":-1.25e3,"d":42,"e":"x\\"1234567890123456789"}'), {
    a: '9007199254740993',
    b: '9007199254740993',
    c: -1250,
    d: 42,
    e: 'x"1234567890123456789',
  });
});

test('lossless JSON: negative big integers, decimals and exponents stay numbers, broken JSON is a SyntaxError', () => {
  assert.deepEqual(parseJsonLossless('{"a":-9007199254740993,"b":12345678901234567.5,"c":1.2345678901234567890}'), { a: '-9007199254740993', b: 12345678901234568, c: 1.2345678901234567 });
  assert.deepEqual(parseJsonLossless('[12345678901234567e2,12345678901234567e+2,12345678901234567E-2,9007199254740993,1,1e99999999999999999,-0,-1.5]'), [
    1234567890123456800,
    1234567890123456800,
    123456789012345.67,
    '9007199254740993',
    1,
    Infinity,
    -0,
    -1.5,
  ]);
  for (const text of ['{"a":"abc', '[-]', '[-x]', '[-,1]']) assert.throws(() => parseJsonLossless(text), SyntaxError, text);
  assert.throws(() => parseJsonLossless(`${'['.repeat(513)}${']'.repeat(513)}`), { name: 'SyntaxError', message: 'nested more than 512 levels deep' });
  assert.deepEqual(parseJsonLossless(`${'['.repeat(512)}${']'.repeat(512)}`), JSON.parse(`${'['.repeat(512)}${']'.repeat(512)}`));
});
