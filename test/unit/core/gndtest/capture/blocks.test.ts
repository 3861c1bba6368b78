/**
 * What graph-node read, as a test's blocks: the watched logs of eth_getLogs and of receipts,
 * once each, decoded, in log-index order with fillers where other logs stood; the eth_calls
 * decoded by selector with their answers (an error or empty data a revert), at the block they
 * were made at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbiCoder, id, Interface, zeroPadValue } from 'ethers';
import { blockMocks, callBlock, capturedEvents, FILLER, gndEthCall, withFillers, type CapturedEvent } from '../../../../../src/core/gndtest/capture/blocks';
import type { RecordedCall } from '../../../../../src/core/gndtest/capture/gateway';

const TOKEN = '0x1111111111111111111111111111111111111111';
const CHILD = '0x2222222222222222222222222222222222222222';
const OTHER = '0x3333333333333333333333333333333333333333';
const erc20 = new Interface([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function balanceOf(address who) view returns (uint256)',
  'function name() view returns (string)',
]);
const child = new Interface(['event Bumped(address indexed by, uint256 amount)']);
const TRANSFER = id('Transfer(address,address,uint256)');
const BUMPED = id('Bumped(address,uint256)');
const watch = { sources: new Map([[TOKEN, new Set([TRANSFER])]]), templateTopics: new Set([BUMPED]) };

function log(address: string, block: number, logIndex: number, topics: string[], data: string, tx = `0x${'ab'.repeat(32)}`) {
  return {
    address,
    topics,
    data,
    blockNumber: `0x${block.toString(16)}`,
    blockHash: `0x${block.toString(16).padStart(64, '0')}`,
    transactionHash: tx,
    logIndex: `0x${logIndex.toString(16)}`,
  };
}
const word = (n: bigint) => AbiCoder.defaultAbiCoder().encode(['uint256'], [n]);
const addr = (a: string) => zeroPadValue(a, 32);

test('watched logs from eth_getLogs and from receipts, once each, in range, decoded; others left out', () => {
  const transfer = log(TOKEN, 5, 3, [TRANSFER, addr(OTHER), addr(CHILD)], word(10n), `0x${'CD'.repeat(32)}`);
  const records: RecordedCall[] = [
    { method: 'eth_getLogs', params: [], result: [transfer, log(TOKEN, 4, 0, [TRANSFER, addr(OTHER), addr(CHILD)], word(1n))] },
    // The same log again in a receipt, a template's event, and an unwatched contract's Transfer.
    { method: 'eth_getBlockReceipts', params: [], result: [transfer, log(CHILD, 5, 1, [BUMPED, addr(OTHER)], word(7n)), log(OTHER, 5, 0, [TRANSFER, addr(OTHER), addr(CHILD)], word(2n))] },
    { method: 'eth_call', params: [], result: '0x' },
  ];
  const events = capturedEvents(records, 5, 9, [erc20, child], watch);
  assert.deepEqual(
    events.map((e) => [e.block, e.logIndex, e.event.address, e.event.event]),
    [
      [5, 1, CHILD, 'Bumped(address indexed by, uint256 amount)'],
      [5, 3, TOKEN, 'Transfer(address indexed from, address indexed to, uint256 value)'],
    ],
  );
  assert.deepEqual(events[1].event.params, { from: OTHER, to: CHILD, value: '10' });
  assert.equal(events[1].event.txHash, `0x${'cd'.repeat(32)}`);
});

test('fillers keep each event at its real log index', () => {
  const at = (logIndex: number) => ({ block: 1, blockHash: '0x', logIndex, event: { address: TOKEN, event: `E${logIndex}()`, params: {} } }) satisfies CapturedEvent;
  const list = withFillers([at(0), at(3), at(4)]);
  assert.deepEqual(
    list.map((e) => (e === FILLER ? 'filler' : e.event)),
    ['E0()', 'filler', 'filler', 'E3()', 'E4()'],
  );
  assert.equal(FILLER.address, '0x0000000000000000000000000000000000000000');
});

test('an eth_call decoded by its selector: params and returns as gnd wants them, input as well as data', () => {
  const data = erc20.encodeFunctionData('balanceOf', [CHILD]);
  const call = gndEthCall({ method: 'eth_call', params: [{ to: TOKEN.toUpperCase().replace('0X', '0x'), input: data }, { blockHash: '0x01' }], result: word(42n) }, [child, erc20]);
  assert.deepEqual(call, { address: TOKEN, function: 'balanceOf(address)(uint256)', params: [CHILD], returns: ['42'] });
});

test('a call that errs, or answers no data where outputs are expected, is a revert', () => {
  const data = erc20.encodeFunctionData('name');
  for (const answer of [{ error: { code: 3, message: 'execution reverted' } }, { result: '0x' }]) {
    assert.deepEqual(gndEthCall({ method: 'eth_call', params: [{ to: TOKEN, data }, 'latest'], ...answer }, [erc20]), {
      address: TOKEN,
      function: 'name()(string)',
      params: [],
      returns: [],
      reverts: true,
    });
  }
});

test('a call no ABI declares is refused, naming the selector and address', () => {
  assert.throws(() => gndEthCall({ method: 'eth_call', params: [{ to: TOKEN, data: '0xdeadbeef' }, 'latest'], result: '0x' }, [erc20]), /0xdeadbeef on 0x1111/);
});

test('the block of a call: a number, or a hash (EIP-1898)', () => {
  assert.deepEqual(callBlock({ method: 'eth_call', params: [{}, '0x10'] }), { number: 16 });
  assert.deepEqual(callBlock({ method: 'eth_call', params: [{}, { blockHash: '0xABC' }] }), { hash: '0xabc' });
  assert.deepEqual(callBlock({ method: 'eth_call', params: [{}, { blockNumber: '0x2' }] }), { number: 2 });
});

test("a block's mocks: each call once, balances and code checks", () => {
  const data = erc20.encodeFunctionData('name');
  const name = AbiCoder.defaultAbiCoder().encode(['string'], ['Token']);
  const mocks = blockMocks(
    [
      { method: 'eth_call', params: [{ to: TOKEN, data }, { blockHash: '0x01' }], result: name },
      { method: 'eth_call', params: [{ to: TOKEN, data }, { blockHash: '0x01' }], result: name },
      { method: 'eth_getBalance', params: [CHILD, '0x1'], result: '0x64' },
      { method: 'eth_getCode', params: [OTHER, '0x1'], result: '0x' },
    ],
    [erc20],
  );
  assert.deepEqual(mocks, {
    ethCalls: [{ address: TOKEN, function: 'name()(string)', params: [], returns: ['Token'] }],
    getBalanceCalls: [{ address: CHILD, value: '100' }],
    hasCodeCalls: [{ address: OTHER, hasCode: false }],
  });
});
