import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcFailure, type FailureContext } from '../../../../src/core/rpc/failure';
import { checkSingle, isResponse, makeRequest, matchBatch, methodsOf } from '../../../../src/core/rpc/jsonrpc';
import type { JsonRpcResponse } from '../../../../src/core/rpc/types';

const KEY = '3c6e0b8a9c15224a8228b9a98ca1531d';
const ctx: FailureContext = { url: `https://eth.example.com/${KEY}`, auth: 'key', secrets: [KEY], timeoutMs: 1000 };
const sent = [makeRequest(7, { method: 'eth_blockNumber' }), makeRequest(8, { method: 'foo_bar', params: [1] }), makeRequest(9, { method: 'eth_chainId' })];

test('makeRequest builds a JSON-RPC 2.0 request with empty params by default', () => {
  assert.deepEqual(sent[0], { jsonrpc: '2.0', method: 'eth_blockNumber', params: [], id: 7 });
});

test('batch replies are matched by id whatever their order, and returned in request order', () => {
  const reply = [
    { jsonrpc: '2.0', id: 9, result: '0x1' },
    { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'Method not found' } },
    { jsonrpc: '2.0', id: 7, result: '0x10' },
  ];
  const items = matchBatch(sent, reply, ctx);
  assert.equal(items.length, 3);
  assert.ok('result' in items[0] && items[0].result === '0x10');
  assert.ok('error' in items[1] && items[1].error.kind === 'rpc' && items[1].error.code === -32601);
  assert.equal('error' in items[1] && items[1].error.message, 'JSON-RPC error -32601: Method not found');
  assert.ok('result' in items[2] && items[2].result === '0x1');
});

test('a request the batch reply does not answer gets its own error; the others keep their results', () => {
  const items = matchBatch(
    sent,
    [
      { jsonrpc: '2.0', id: 7, result: '0x10' },
      { jsonrpc: '2.0', id: 9, result: '0x1' },
      { jsonrpc: '2.0', id: 99, result: 'stray' },
    ],
    ctx,
  );
  assert.ok('result' in items[0]);
  assert.ok('error' in items[1] && items[1].error.kind === 'mismatch' && /no answer for request id 8 \(foo_bar\)/.test(items[1].error.message));
  assert.equal(items[1].response, undefined);
  assert.ok('result' in items[2]);
});

test('an id-less error in a batch reply is quoted in the missing elements', () => {
  const items = matchBatch(sent.slice(0, 1), [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }], ctx);
  assert.ok('error' in items[0] && items[0].error.message.includes('JSON-RPC error -32600: Invalid request'));
});

test('one error object instead of an array: the node rejected the whole batch', () => {
  assert.throws(
    () => matchBatch(sent, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }, ctx),
    (err: unknown) => err instanceof RpcFailure && err.kind === 'rpc' && err.code === -32600 && err.message === 'The node rejected the whole batch: JSON-RPC error -32600: Invalid request',
  );
  assert.throws(
    () => matchBatch(sent, { hello: 1 }, ctx),
    (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch',
  );
});

test('a single reply with another id is a mismatch; an id-less error is the answer', () => {
  const request = makeRequest(5, { method: 'eth_blockNumber' });
  assert.throws(
    () => checkSingle(request, { jsonrpc: '2.0', id: 6, result: '0x1' }, ctx),
    (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch' && err.message.includes('id 6 to request id 5') && err.message.includes('/***') && !err.message.includes(KEY),
  );
  const parseError: JsonRpcResponse = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
  assert.equal(checkSingle(request, parseError, ctx), parseError);
  assert.throws(() => checkSingle(request, { jsonrpc: '2.0', id: null, result: '0x1' }, ctx), RpcFailure);
});

test("isResponse accepts real nodes' variants and refuses what is not a response", () => {
  assert.ok(isResponse({ jsonrpc: '2.0', id: 1, result: null }));
  assert.ok(isResponse({ result: 800000, error: null, id: 1 }), 'Bitcoin-style: error null beside the result');
  assert.ok(isResponse({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }));
  assert.ok(isResponse({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } }), 'ganache: an error without any id');
  assert.ok(!isResponse({ jsonrpc: '2.0', id: 1 }));
  assert.ok(!isResponse({ jsonrpc: '2.0', result: 1 }), 'a result needs an id');
  assert.ok(!isResponse({ id: 1, error: 'bad' }));
  assert.ok(!isResponse([{ id: 1, result: 1 }]));
  assert.ok(!isResponse('{"id":1}'));
});

test('methodsOf: the method each request asked for, by id (a missing id is null), for one call or a batch', () => {
  assert.equal(methodsOf(undefined), undefined);
  const one = methodsOf({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })!;
  assert.equal(one(1), 'eth_chainId');
  assert.equal(one('1'), undefined, 'ids compare by JSON: 1 is not "1"');
  const batch = methodsOf([{ id: 'a', method: 'eth_blockNumber' }, { method: 'net_version' }, { id: 2 }, null])!;
  assert.equal(batch('a'), 'eth_blockNumber');
  assert.equal(batch(null), 'net_version');
  assert.equal(batch(undefined), 'net_version');
  assert.equal(batch(2), undefined, 'a request without a method names none');
});

describe('envelope checks at their edges', () => {
  const ctx: FailureContext = { url: `https://eth.example.com/${KEY}`, auth: 'key', secrets: [KEY], timeoutMs: 1500 };

  test('only objects with a numeric code and a string message are JSON-RPC errors', () => {
    assert.equal(isResponse(null), false);
    assert.equal(isResponse({ jsonrpc: '2.0', id: 1, error: { code: '-32000', message: 'boom' } }), false);
    assert.equal(isResponse({ jsonrpc: '2.0', id: 1, error: { code: -32000 } }), false);
    assert.equal(isResponse({ jsonrpc: '2.0', id: 1, result: '0x1', error: 'boom' }), false);
    assert.equal(isResponse({ jsonrpc: '2.0', id: 1, result: '0x1', error: null }), true);
  });

  test('an error reply with another (non-null) id is a mismatch, not an answer', () => {
    const request = makeRequest(5, { method: 'eth_blockNumber' });
    assert.throws(
      () => checkSingle(request, { jsonrpc: '2.0', id: 6, error: { code: -32000, message: 'boom' } }, ctx),
      (err: unknown) => err instanceof RpcFailure && err.kind === 'mismatch',
    );
  });

  test('a batch answered with one plain response says what came back, cut to 80 characters', () => {
    const sent = [makeRequest(1, { method: 'eth_chainId' }), makeRequest(2, { method: 'eth_blockNumber' })];
    const reply = { jsonrpc: '2.0', id: 1, result: `0x${'f'.repeat(100)}` };
    assert.throws(
      () => matchBatch(sent, reply, ctx),
      (err: unknown) =>
        err instanceof RpcFailure &&
        err.kind === 'mismatch' &&
        err.message === `The node answered a batch of 2 calls with something other than a JSON array: ${JSON.stringify(reply).slice(0, 80)}`,
    );
  });

  test('batch elements that are not responses are ignored, and the first answer for an id wins', () => {
    const sent = [makeRequest(7, { method: 'eth_chainId' }), makeRequest(8, { method: 'eth_blockNumber' })];
    const items = matchBatch(sent, [null, { id: 8, foo: 1 }, { jsonrpc: '2.0', id: 7, result: '0x1' }, { jsonrpc: '2.0', id: 7, result: '0x2' }], ctx);
    const [first, second] = items;
    assert.ok('result' in first, 'id 7 is answered');
    assert.equal(first.result, '0x1');
    assert.ok('error' in second, 'id 8 is not answered');
    assert.equal(second.error.kind, 'mismatch');
    assert.equal(second.error.message, "The node's batch reply has no answer for request id 8 (eth_blockNumber).");
  });
});
