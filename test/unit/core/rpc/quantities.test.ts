/**
 * The edges of the quantity notes the response view shows above a reply (the common cases are in
 * workbench.edges): what counts as a quantity, the last plausible date, the note limit and its
 * "more" line, fee histories, how deep the walk goes, and which id a batch element's method is
 * looked up by.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeQuantity, quantityComments, quantityNotes } from '../../../../src/core/rpc/quantities';

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
