/**
 * nearMatch: the name a misspelt one most likely meant, behind "Change to …" quick fixes of
 * handlers, events, entities and ABI names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearMatch } from '../../../../src/core/subgraph/nearMatch';

const HANDLERS = ['handleTransfer', 'handleApproval'];

test('a typo a few edits away: the candidate it meant', () => {
  assert.equal(nearMatch('handleTransfr', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('handleTranfser', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('HandleApproval', HANDLERS), 'handleApproval');
});

test('a name past a typo but holding the candidate nearly whole: an added suffix or prefix, another case style', () => {
  assert.equal(nearMatch('handleTransferEvent', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('onTransfer', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('handle_transfer', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('Transfer', HANDLERS), 'handleTransfer');
  assert.equal(nearMatch('TokenTransfer', ['Transfer', 'Approval']), 'Transfer');
  assert.equal(nearMatch('ERC20Token', ['ERC20', 'Factory']), undefined, 'a run of five letters is too short to tell');
  assert.equal(nearMatch('DemoTokenABI', ['DemoToken']), 'DemoToken');
});

test('no guess: another word sharing only a common prefix, a tie, short names, the name itself', () => {
  assert.equal(nearMatch('handleFoo', HANDLERS), undefined);
  assert.equal(nearMatch('handleMint', HANDLERS), undefined);
  assert.equal(nearMatch('handleAllowance', HANDLERS), undefined);
  assert.equal(nearMatch('Account', ['AccountBalance', 'AccountSnapshot']), undefined);
  assert.equal(nearMatch('onMint', ['handleMint']), undefined);
  assert.equal(nearMatch('handleTransfer', ['handleTransfer']), undefined);
  assert.equal(nearMatch('x', HANDLERS), undefined);
  assert.equal(nearMatch('', HANDLERS), undefined);
});

test('bounded: long names and many candidates answer at once', () => {
  const many = Array.from({ length: 5000 }, (_, i) => `handleEvent${i}WithALongerName`);
  const long = 'handle'.repeat(2000);
  const t0 = performance.now();
  assert.equal(nearMatch(long, many), undefined);
  assert.equal(nearMatch('somethingElseEntirely', [...many, 'somethingElseEntirelyToo']), undefined, 'past the candidates compared: missed, never slow');
  assert.equal(nearMatch('handleEvent7WithALongerNameX', many), 'handleEvent7WithALongerName');
  assert.ok(performance.now() - t0 < 1000, `${performance.now() - t0} ms`);
});
