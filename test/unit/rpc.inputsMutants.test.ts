/**
 * The rules of the user's inputs and of the quantity notes that mutation testing found unpinned:
 * which method and field reads in which unit, the visit budget and fee-history special case of
 * the quantity notes, how a `.jsonrpc` request file splits into sections, comments and its
 * `# @node` line, the messages for requests that are not requests, and where a params syntax
 * error is reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantityNotes } from '../../src/core/rpc/quantities';
import { nodeDirective, parseRequestFile } from '../../src/core/rpc/requestFile';
import { parseParams } from '../../src/core/rpc/params';
import { RpcFailure } from '../../src/core/rpc/failure';

const notesOf = (body: unknown, method: string, limit?: number) => quantityNotes(body, { methodOf: () => method, ...(limit === undefined ? {} : { limit }) });
const lines = (...l: string[]) => l.join('\n');

test('every scalar method reads its result in its own unit', () => {
  const expected: Record<string, string> = {
    eth_getBalance: 'ether',
    eth_gasPrice: 'gwei',
    eth_maxPriorityFeePerGas: 'gwei',
    eth_blobBaseFee: 'gwei',
    eth_blockNumber: 'number',
    eth_estimateGas: 'gas',
    eth_getTransactionCount: 'number',
    eth_getBlockTransactionCountByNumber: 'number',
    eth_getBlockTransactionCountByHash: 'number',
    eth_chainId: 'number',
    eth_newFilter: 'number',
    net_peerCount: 'number',
    starknet_blockNumber: 'number',
  };
  for (const [method, unit] of Object.entries(expected)) {
    assert.deepEqual(
      notesOf({ id: 1, result: '0x5208' }, method).notes.map((n) => [n.path, n.unit]),
      [['result', unit]],
      method,
    );
  }
  assert.deepEqual(notesOf({ id: 1, result: '0x5208' }, 'eth_getStorageAt').notes, [], 'a storage word is not a quantity');
});

test('every quantity field of a block, transaction or receipt reads in its own unit', () => {
  const expected: Record<string, string> = {
    number: 'number',
    blockNumber: 'number',
    transactionIndex: 'number',
    logIndex: 'number',
    chainId: 'number',
    size: 'number',
    oldestBlock: 'number',
    timestamp: 'time',
    gas: 'gas',
    gasUsed: 'gas',
    gasLimit: 'gas',
    cumulativeGasUsed: 'gas',
    blobGasUsed: 'gas',
    excessBlobGas: 'gas',
    baseFeePerGas: 'gwei',
    gasPrice: 'gwei',
    effectiveGasPrice: 'gwei',
    maxFeePerGas: 'gwei',
    maxPriorityFeePerGas: 'gwei',
    maxFeePerBlobGas: 'gwei',
    blobGasPrice: 'gwei',
    value: 'ether',
    balance: 'ether',
  };
  const result = Object.fromEntries(Object.keys(expected).map((k) => [k, '0x5208']));
  const { notes } = notesOf({ id: 1, result }, 'eth_getBlockByNumber', 100);
  assert.deepEqual(
    notes.map((n) => [n.path, n.unit]),
    Object.entries(expected).map(([k, unit]) => [`result.${k}`, unit]),
  );
  assert.deepEqual(notesOf({ id: 1, result: { hash: '0x5208', nonce: '0x1', from: '0x2' } }, 'eth_getTransactionByHash').notes, [], 'hashes, nonces and addresses are left alone');
});

test('the walk stops after 5000 visited nodes: the 5000th is read, the 5001st is not', () => {
  // The result array is visit 1, its objects visits 2, 3, …: 4999 of them fit.
  const result = Array.from({ length: 5005 }, () => ({ gas: '0x1' }));
  const { notes, more } = notesOf({ id: 1, result }, 'eth_getBlockReceipts', 0);
  assert.equal(notes.length + more, 4999);
});

test('a batch reply is read for its first 5000 elements only', () => {
  const body = Array.from({ length: 5003 }, (_, i) => ({ id: i, result: '0x1' }));
  const { notes, more } = notesOf(body, 'eth_blockNumber', 0);
  assert.equal(notes.length + more, 5000);
});

test('text values are not walked into: a long data string does not use up the budget', () => {
  const { notes } = notesOf({ id: 1, result: { input: `0x${'ab'.repeat(6000)}`, logs: [{ logIndex: '0x2' }] } }, 'eth_getTransactionReceipt');
  assert.deepEqual(
    notes.map((n) => `${n.path} ${n.text}`),
    ['result.logs[0].logIndex 2'],
  );
});

test('a fee history notes its oldest block only, and only when it is a quantity', () => {
  const history = { oldestBlock: '0x10', baseFeePerGas: ['0x1', '0x2'], gasUsedRatio: [0.5], gasUsed: '0x5208', extra: { gasPrice: '0x1' } };
  assert.deepEqual(
    notesOf({ id: 1, result: history }, 'eth_feeHistory').notes.map((n) => `${n.path} ${n.unit} ${n.text}`),
    ['result.oldestBlock number 16'],
  );
  for (const oldestBlock of [16, ['0x10'], '0x', '0x010', 'latest', null]) {
    assert.deepEqual(notesOf({ id: 1, result: { oldestBlock, gasUsed: '0x5208' } }, 'eth_feeHistory').notes, [], String(oldestBlock));
  }
});

test('nodeDirective writes the line that parseRequestFile reads back', () => {
  assert.equal(nodeDirective('Local anvil'), '# @node Local anvil');
  assert.deepEqual(parseRequestFile(`${nodeDirective('Local anvil')}\n{"method": "eth_chainId"}`).node, { name: 'Local anvil', line: 0 });
});

test('indented separators, comments and @node lines count; ###, #, // and @node inside a JSON line do not', () => {
  const text = lines(
    '  # @node Sepolia',
    '{"method": "eth_call", "params": ["a###b", "http://x/#y", "# @node Evil"]}',
    '  ### Second',
    '    // a comment',
    '\t# another',
    '{"method": "eth_blockNumber"}',
  );
  const file = parseRequestFile(text);
  assert.deepEqual(file.node, { name: 'Sepolia', line: 0 });
  assert.equal(file.requests.length, 2);
  assert.deepEqual(file.requests[0].payload, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: ['a###b', 'http://x/#y', '# @node Evil'] });
  assert.equal(file.requests[1].title, 'Second');
  assert.equal(file.requests[1].sectionLine, 2);
  assert.deepEqual(file.requests[1].payload, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
});

test('a request range ends on its last non-blank line, not on a line of spaces after it', () => {
  const file = parseRequestFile(lines('{"method": "eth_chainId"}', '   ', '\t', '### next'));
  assert.deepEqual(file.requests[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 25 } });
});

test('a value that is not a request is refused with a message naming the request or the batch item', () => {
  const errorOf = (text: string) => parseRequestFile(text).requests[0].parseError?.message;
  assert.equal(errorOf('"eth_blockNumber"'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('null'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('42'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('{"method": ""}'), 'A request needs a "method" string.');
  assert.equal(errorOf('{"params": []}'), 'A request needs a "method" string.');
  assert.equal(errorOf('[{"params": []}]'), 'Batch item 1 needs a "method" string.');
  assert.equal(errorOf('[{"method": "eth_chainId"}, "x"]'), 'Batch item 2 must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('[{"method": "eth_chainId"}, {"method": ""}]'), 'Batch item 2 needs a "method" string.');
});

const paramsError = (text: string): string => {
  try {
    parseParams(text);
  } catch (err) {
    assert.ok(err instanceof RpcFailure && err.kind === 'invalid-request', String(err));
    return err.message;
  }
  assert.fail(`no error for ${text}`);
};

test('a params syntax error is reported where it is, past spaces in strings and exponents in numbers', () => {
  assert.equal(paramsError('{"a b": 1,}'), "Params are not valid JSON: a trailing comma before '}' at line 1, column 11 (position 10).");
  assert.equal(paramsError('[1e5, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 7 (position 6).");
  assert.equal(paramsError('[1e10, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 8 (position 7).");
  assert.equal(paramsError('[1E+2, 2.5e-3, ]'), "Params are not valid JSON: a trailing comma before ']' at line 1, column 16 (position 15).");
  assert.equal(paramsError('[-, 1]'), "Params are not valid JSON: expected a number but found '-' at line 1, column 2 (position 1).");
});
