/**
 * The edges of the quantity notes the response view shows above a reply (the common cases are in
 * the tests at the end of this file): what counts as a quantity, the last plausible date, the note limit and its
 * "more" line, fee histories, how deep the walk goes, and which id a batch element's method is
 * looked up by.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeQuantity, quantityComments, quantityNotes } from '../../../../src/core/rpc/quantities';
import { assertGrowsLinearly } from '../../../support/growth';

const byMethod = (method: string) => ({ methodOf: () => method });
const texts = (body: unknown, method = 'eth_getBlockByNumber') => quantityNotes(body, byMethod(method)).notes.map((n) => `${n.path} ${n.unit} ${n.text}`);

test('a quantity is 0x and 1 to 64 minimal hex digits, either case; nothing else', () => {
  const max = `0x${'f'.repeat(64)}`;
  assert.deepEqual(texts({ id: 1, result: max }, 'eth_blockNumber'), [`result number ${(2n ** 256n - 1n).toString()}`]);
  assert.deepEqual(texts({ id: 1, result: '0xABc' }, 'eth_blockNumber'), ['result number 2748']);
  assert.deepEqual(texts({ id: 1, result: '0x0' }, 'eth_chainId'), ['result number 0']);
  for (const bad of ['0x', '0X1', '0x00', '0x0a', '1', ' 0x1', '0x1 ', '0xg', `0x1${'0'.repeat(64)}`]) {
    assert.deepEqual(texts({ id: 1, result: bad }, 'eth_blockNumber'), [], bad);
    assert.deepEqual(texts({ id: 1, result: { gas: bad } }), [], bad);
  }
  assert.deepEqual(texts({ id: 1, result: { gas: 21000, number: null, value: ['0x1'] } }), [], 'numbers, null and lists under a quantity name are not quantities');
});

test('each unit reads as its own words', () => {
  assert.equal(describeQuantity('0x0', 'gwei'), '0 wei = 0.0 gwei');
  assert.equal(describeQuantity('0x3b9aca01', 'gwei'), '1000000001 wei = 1.000000001 gwei');
  assert.equal(describeQuantity('0x0', 'ether'), '0 wei = 0.0 ETH');
  assert.equal(describeQuantity('0x10', 'gas'), '16 gas');
  assert.equal(describeQuantity('0x10', 'number'), '16');
  assert.equal(describeQuantity('0x0', 'time'), '0 = 1970-01-01T00:00:00Z');
});

test('a timestamp becomes a date up to 9999-12-31T23:59:59Z; one second later it stays a number', () => {
  const last = 253402300799;
  assert.equal(describeQuantity(`0x${last.toString(16)}`, 'time'), `${last} = 9999-12-31T23:59:59Z`);
  assert.equal(describeQuantity(`0x${(last + 1).toString(16)}`, 'time'), String(last + 1));
});

test('the note limit: notes in document order up to it, then one line counting the rest (singular and plural)', () => {
  const reply = { id: 1, result: { number: '0x1', gas: '0x2', gasUsed: '0x3' } };
  const one = quantityNotes(reply, { ...byMethod('eth_getBlockByNumber'), limit: 1 });
  assert.deepEqual(
    one.notes.map((n) => n.path),
    ['result.number'],
  );
  assert.equal(one.more, 2);
  assert.deepEqual(quantityComments(reply, { ...byMethod('eth_getBlockByNumber'), limit: 1 }), ['// result.number: 0x1 = 1', '// … and 2 more quantities']);
  assert.deepEqual(quantityComments(reply, { ...byMethod('eth_getBlockByNumber'), limit: 2 }), ['// result.number: 0x1 = 1', '// result.gas: 0x2 = 2 gas', '// … and 1 more quantity']);
  assert.deepEqual(quantityComments(reply, { ...byMethod('eth_getBlockByNumber'), limit: 3 }), ['// result.number: 0x1 = 1', '// result.gas: 0x2 = 2 gas', '// result.gasUsed: 0x3 = 3 gas']);
  assert.deepEqual(quantityNotes(reply, { ...byMethod('eth_getBlockByNumber'), limit: 0 }), { notes: [], more: 3 });
  // The default is 20.
  const many = { id: 1, result: Array.from({ length: 25 }, () => ({ gas: '0x1' })) };
  const byDefault = quantityNotes(many, byMethod('eth_getLogs'));
  assert.equal(byDefault.notes.length, 20);
  assert.equal(byDefault.more, 5);
});

test('a fee history gives only its oldest block; its per-block lists are not notes', () => {
  const history = { id: 1, result: { oldestBlock: '0x10', baseFeePerGas: ['0x1', '0x2'], gasUsedRatio: [0.5], reward: [['0x1']] } };
  assert.deepEqual(texts(history, 'eth_feeHistory'), ['result.oldestBlock number 16']);
  assert.deepEqual(texts({ id: 1, result: { oldestBlock: 16 } }, 'eth_feeHistory'), []);
  assert.deepEqual(texts({ id: 1, result: null }, 'eth_feeHistory'), []);
  // Any other method walks the same object field by field.
  assert.deepEqual(texts(history, 'eth_somethingElse'), ['result.oldestBlock number 16']);
});

test('the walk reads fields six levels below the result and no deeper; lists count as a level', () => {
  const nest = (levels: number): unknown => {
    let value: unknown = { gas: '0x5' };
    for (let i = 0; i < levels; i++) value = { inner: value };
    return value;
  };
  assert.deepEqual(texts({ id: 1, result: nest(6) }), [`result${'.inner'.repeat(6)}.gas gas 5 gas`]);
  assert.deepEqual(texts({ id: 1, result: nest(7) }), []);
  let listed: unknown = { gas: '0x5' };
  for (let i = 0; i < 6; i++) listed = [listed];
  assert.deepEqual(texts({ id: 1, result: listed }), [`result${'[0]'.repeat(6)}.gas gas 5 gas`]);
  assert.deepEqual(texts({ id: 1, result: [listed] }), []);
});

test("a batch element's method is asked for by that element's id; elements without a result are skipped", () => {
  const asked: unknown[] = [];
  const batch = [{ id: 'a', result: '0x1' }, { id: 7, error: { code: 1, message: 'x' } }, null, 'text', { id: 9, result: '0x2' }];
  const notes = quantityNotes(batch, {
    methodOf: (id) => {
      asked.push(id);
      return id === 'a' ? 'eth_gasPrice' : 'eth_estimateGas';
    },
  }).notes;
  assert.deepEqual(asked, ['a', 9]);
  assert.deepEqual(
    notes.map((n) => [n.path, n.text]),
    [
      ['[0].result', '1 wei = 0.000000001 gwei'],
      ['[4].result', '2 gas'],
    ],
  );
  assert.deepEqual(quantityNotes('0x1', byMethod('eth_blockNumber')), { notes: [], more: 0 });
});

const notesOf = (body: unknown, method: string, limit?: number) => quantityNotes(body, { methodOf: () => method, ...(limit === undefined ? {} : { limit }) });

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

test('scalar results read by their method: balance in ether, gas price in gwei, block number, gas', () => {
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x1bc16d674ec80000' }, byMethod('eth_getBalance')), [
    '// result: 0x1bc16d674ec80000 = 2000000000000000000 wei = 2.0 ETH',
  ]);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x3b9aca00' }, byMethod('eth_gasPrice')), ['// result: 0x3b9aca00 = 1000000000 wei = 1.0 gwei']);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x1a' }, byMethod('eth_blockNumber')), ['// result: 0x1a = 26']);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x5208' }, byMethod('eth_estimateGas')), ['// result: 0x5208 = 21000 gas']);
  // 10000 ether, the anvil default balance: past 2^53, exact.
  assert.equal(describeQuantity('0x21e19e0c9bab2400000', 'ether'), '10000000000000000000000 wei = 10000.0 ETH');
  assert.equal(describeQuantity('0x1', 'ether'), '1 wei = 0.000000000000000001 ETH');
});

test('what is not a quantity is left alone: hashes and words, data, unknown methods, errors', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  assert.deepEqual(quantityNotes({ id: 1, result: hash }, byMethod('eth_getStorageAt')).notes, []);
  assert.deepEqual(quantityNotes({ id: 1, result: '0x1' }, byMethod('eth_call')).notes, []);
  assert.deepEqual(quantityNotes({ id: 1, result: '0x1' }).notes, [], 'no method known: no guess');
  assert.deepEqual(quantityNotes({ id: 1, error: { code: -1, message: '0x10' } }, byMethod('eth_getBalance')).notes, []);
  // Not minimal hex (leading zero), a hash in a field named like a quantity, or over 256 bits.
  assert.deepEqual(quantityNotes({ id: 1, result: { number: '0x01', gasUsed: `0x1${'0'.repeat(64)}`, hash, value: 'abc' } }, byMethod('eth_getBlockByNumber')).notes, []);
});

test('fields of a block, a receipt and a batch, by name and path; the raw reply is not touched', () => {
  const block = {
    number: '0x10',
    timestamp: '0x6553f100',
    gasUsed: '0x5208',
    gasLimit: '0x1c9c380',
    baseFeePerGas: '0x7',
    hash: `0x${'1'.repeat(64)}`,
    miner: `0x${'2'.repeat(40)}`,
    transactions: [{ value: '0xde0b6b3a7640000', gas: '0x5208', nonce: '0x0' }],
  };
  const reply = { jsonrpc: '2.0', id: 3, result: block };
  const before = JSON.stringify(reply);
  assert.deepEqual(quantityComments(reply, byMethod('eth_getBlockByNumber')), [
    '// result.number: 0x10 = 16',
    '// result.timestamp: 0x6553f100 = 1700000000 = 2023-11-14T22:13:20Z',
    '// result.gasUsed: 0x5208 = 21000 gas',
    '// result.gasLimit: 0x1c9c380 = 30000000 gas',
    '// result.baseFeePerGas: 0x7 = 7 wei = 0.000000007 gwei',
    '// result.transactions[0].value: 0xde0b6b3a7640000 = 1000000000000000000 wei = 1.0 ETH',
    '// result.transactions[0].gas: 0x5208 = 21000 gas',
  ]);
  assert.equal(JSON.stringify(reply), before);

  const methods: Record<number, string> = { 1: 'eth_blockNumber', 2: 'eth_getBalance' };
  const batch = [
    { id: 2, result: '0x0' },
    { id: 1, result: '0xff' },
  ];
  assert.deepEqual(quantityComments(batch, { methodOf: (id) => methods[id as number] }), ['// [0].result: 0x0 = 0 wei = 0.0 ETH', '// [1].result: 0xff = 255']);
});

test("a node's keys cannot break out of the comment lines: odd keys are quoted and escaped", () => {
  const reply = { id: 1, result: { 'a\nforged: line': { gasUsed: '0x5208' }, 'b\u2028c': { gas: '0x1' }, plain_1: { gas: '0x2' } } };
  const lines = quantityComments(reply, byMethod('eth_getBlockByNumber'));
  assert.deepEqual(lines, ['// result["a\\nforged: line"].gasUsed: 0x5208 = 21000 gas', '// result["b\\u2028c"].gas: 0x1 = 1 gas', '// result.plain_1.gas: 0x2 = 2 gas']);
  for (const line of lines) assert.doesNotMatch(line, /[\n\r\u2028\u2029]/);
});

test('a huge reply costs bounded work and lines', () => {
  const reply = (n: number) => ({ id: 1, result: { number: '0x1', transactions: Array.from({ length: n }, () => ({ gas: '0x5208', value: '0x1' })) } });
  const lines = quantityComments(reply(100_000), byMethod('eth_getBlockByNumber'));
  // Bounded work: 40× the transactions must not cost 40× the time (the walk stops at its limit).
  const big = reply(100_000);
  const small = reply(2500);
  assertGrowsLinearly((n) => quantityComments(n === 2500 ? small : big, byMethod('eth_getBlockByNumber')), 2500, 100_000, 1);
  assert.equal(lines.length, 21);
  assert.match(lines.at(-1)!, /^\/\/ … and \d+ more quantities$/);
  // Deeper than the bound: ignored, not a stack overflow.
  let deep: unknown = { gas: '0x1' };
  for (let i = 0; i < 10_000; i++) deep = { inner: deep };
  assert.deepEqual(quantityNotes({ id: 1, result: deep }, byMethod('debug_traceTransaction')).notes, []);
});
