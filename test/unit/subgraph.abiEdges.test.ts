/**
 * ABI entries the compilers do not write but a hand-edited or hostile file may hold: an event
 * without inputs, inputs that are null or have a name that is no text, types that only start or
 * end like a tuple. And signature whitespace between two words, which is kept as one space.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalSignature, normalizeSignature, parseAbi, type AbiEvent } from '../../src/core/subgraph/code/abi';

const eventOf = (entry: object): AbiEvent => {
  const r = parseAbi(JSON.stringify([entry]));
  assert.ok('abi' in r, JSON.stringify(r));
  assert.equal(r.abi.events.length, 1);
  return r.abi.events[0];
};

describe('parseAbi: odd entries', () => {
  test('an event without inputs (or with inputs that are no list) has no parameters', () => {
    for (const entry of [
      { type: 'event', name: 'Paused' },
      { type: 'event', name: 'Paused', inputs: 'x' },
    ]) {
      assert.deepEqual(eventOf(entry), { name: 'Paused', signature: 'Paused()', params: [] }, JSON.stringify(entry));
    }
  });

  test('a null input is an unnamed parameter without a type; a name that is no text is not used', () => {
    assert.deepEqual(eventOf({ type: 'event', name: 'E', inputs: [null, { type: 'uint8', name: 7, indexed: true }] }), {
      name: 'E',
      signature: 'E(,indexed uint8)',
      params: [
        { name: 'param0', type: '', indexed: false },
        { name: 'param1', type: 'uint8', indexed: true },
      ],
    });
  });

  test('a null component of a tuple is an empty type, not a throw', () => {
    assert.equal(eventOf({ type: 'event', name: 'E', inputs: [{ type: 'tuple', components: [null, { type: 'bool' }] }] }).signature, 'E((,bool))');
  });

  test('only tuple followed by array brackets is spelled out: a type that merely starts or ends so is written as it is', () => {
    const components = [{ type: 'uint8' }];
    for (const type of ['tuple[2]x', 'tupletuple[2]']) {
      assert.deepEqual(eventOf({ type: 'event', name: 'E', inputs: [{ type, components }] }).signature, `E(${type})`, type);
    }
    assert.equal(eventOf({ type: 'event', name: 'E', inputs: [{ type: 'tuple[2][]', components }] }).signature, 'E((uint8)[2][])');
  });
});

describe('signature whitespace between words', () => {
  test('a run of blanks between two words becomes one space: parameter names pasted from Solidity stay apart', () => {
    assert.equal(normalizeSignature('Transfer(address  from,\tuint256 \n value)'), 'Transfer(address from,uint256 value)');
    assert.equal(canonicalSignature('Transfer(indexed address from, uint256 value)'), 'Transfer(address from,uint256 value)');
  });
});
