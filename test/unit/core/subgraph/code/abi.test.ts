/**
 * ABIs as the graph CLI reads them: where the entries are, which functions a call handler may
 * name, signatures with tuples, arrays and `indexed`, whitespace, topic hashes, best guesses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  bestEvent,
  bestFunction,
  canonicalSignature,
  events,
  MAX_TUPLE_DEPTH,
  normalizeSignature,
  parseAbi,
  topic0,
  type Abi,
  type AbiEvent,
} from '../../../../../src/core/subgraph/code/abi';

const TRANSFER = {
  type: 'event',
  name: 'Transfer',
  inputs: [
    { name: 'from', type: 'address', indexed: true },
    { name: 'to', type: 'address', indexed: true },
    { name: 'value', type: 'uint256' },
  ],
};
const abiOf = (text: string): Abi => {
  const r = parseAbi(text);
  assert.ok('abi' in r, JSON.stringify(r));
  return r.abi;
};

describe('parseAbi', () => {
  test('a bare array, an artifact with abi, a truffle-style compilerOutput', () => {
    for (const json of [[TRANSFER], { abi: [TRANSFER] }, { compilerOutput: { abi: [TRANSFER] } }]) {
      assert.deepEqual(
        abiOf(JSON.stringify(json)).events.map((e) => e.signature),
        ['Transfer(indexed address,indexed address,uint256)'],
      );
    }
  });

  test('what is not an ABI, in the words of the message', () => {
    const none = 'No valid ABI in file: expected a JSON array of ABI entries (or an object with an "abi" array)';
    for (const text of ['{}', '{"abi": "x"}', '{"compilerOutput": {}}', '"abi"', 'null', '5']) assert.deepEqual(parseAbi(text), { error: none }, text);
    // The parser's own words quote the file's first bytes: the message says what is wrong instead.
    assert.deepEqual(parseAbi('[1,'), { error: 'Could not parse ABI: the JSON ends early (is the file cut short?)' });
    assert.deepEqual(parseAbi('[1,]'), { error: 'Could not parse ABI: the file is not valid JSON' });
    assert.deepEqual(parseAbi('root:x:0:0'), { error: 'Could not parse ABI: the file is not JSON (it does not start with [ or {)' });
    assert.deepEqual(parseAbi(' \n'), { error: 'Could not parse ABI: the file is empty' });
  });

  test('entries that are not objects are skipped; events need a name', () => {
    const abi = abiOf(JSON.stringify([null, 5, 'x', { type: 'event' }, TRANSFER]));
    assert.deepEqual(abi, {
      events: [
        {
          name: 'Transfer',
          signature: 'Transfer(indexed address,indexed address,uint256)',
          params: [
            { name: 'from', type: 'address', indexed: true },
            { name: 'to', type: 'address', indexed: true },
            { name: 'value', type: 'uint256', indexed: false },
          ],
        },
      ],
      callFunctions: [],
    });
  });

  test('event params: unnamed ones numbered, tuples spelled out, indexed inside the parentheses', () => {
    const abi = abiOf(
      JSON.stringify([
        {
          type: 'event',
          name: 'Swap',
          inputs: [
            { type: 'uint256', name: '' },
            {
              type: 'tuple[2][]',
              name: 'legs',
              indexed: true,
              components: [
                { type: 'address', name: 'pool' },
                { type: 'tuple', name: 'fee', components: [{ type: 'uint24' }, { type: 'bool' }] },
              ],
            },
            { type: 'tuple', name: 'bad' },
            { name: 'noType' },
          ],
        },
      ]),
    );
    assert.deepEqual(abi.events[0], {
      name: 'Swap',
      signature: 'Swap(uint256,(indexed address,(uint24,bool))[2][],tuple,)',
      params: [
        { name: 'param0', type: 'uint256', indexed: false },
        { name: 'legs', type: '(address,(uint24,bool))[2][]', indexed: true },
        { name: 'bad', type: 'tuple', indexed: false },
        { name: 'noType', type: '', indexed: false },
      ],
    });
  });

  test('call functions: those that change state (nonpayable, payable, or constant: false), fallback without a name', () => {
    const abi = abiOf(
      JSON.stringify([
        { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'uint256' }] },
        { type: 'function', name: 'deposit', stateMutability: 'payable', inputs: [] },
        { name: 'old', constant: false, inputs: [{ type: 'bytes32' }] },
        { name: 'oldView', constant: true, inputs: [] },
        { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ type: 'address' }] },
        { type: 'function', name: 'pure', stateMutability: 'pure' },
        { type: 'fallback', stateMutability: 'payable' },
        { type: 'constructor', stateMutability: 'nonpayable', inputs: [{ type: 'uint256' }] },
        { type: 'receive', stateMutability: 'payable' },
        { type: 'function', name: 'batch', stateMutability: 'nonpayable', inputs: [{ type: 'tuple[]', components: [{ type: 'address' }, { type: 'bytes' }] }], outputs: [] },
      ]),
    );
    assert.deepEqual(abi.callFunctions, ['approve(address,uint256)', 'deposit()', 'old(bytes32)', '<default>()', 'batch((address,bytes)[])']);
    assert.deepEqual(abi.events, []);
  });

  test(`tuples nested past ${MAX_TUPLE_DEPTH} levels are refused by name, not by a stack overflow`, () => {
    const nest = (levels: number): object => (levels === 0 ? { type: 'uint8' } : { type: 'tuple', components: [nest(levels - 1)] });
    const ok = abiOf(JSON.stringify([{ type: 'event', name: 'Deep', inputs: [nest(MAX_TUPLE_DEPTH)] }]));
    assert.equal(ok.events[0].signature, `Deep(${'('.repeat(MAX_TUPLE_DEPTH)}uint8${')'.repeat(MAX_TUPLE_DEPTH)})`);
    const message = (where: string) => `The ABI nests tuples more than ${MAX_TUPLE_DEPTH} levels deep (in ${where}); a real contract needs a few, so it is not read`;
    assert.deepEqual(parseAbi(JSON.stringify([{ type: 'event', name: 'Deeper', inputs: [nest(MAX_TUPLE_DEPTH + 1)] }])), { error: message('event Deeper') });
    assert.deepEqual(parseAbi(JSON.stringify([{ type: 'function', stateMutability: 'payable', inputs: [nest(MAX_TUPLE_DEPTH + 1)] }])), { error: message('function <default>') });
  });
});

describe('signatures', () => {
  test('whitespace as the CLI wants it: none, except one space after indexed', () => {
    assert.equal(normalizeSignature('  Transfer ( indexed   address ,\n address , uint256 [ ] ) '), 'Transfer(indexed address,address,uint256[])');
    assert.equal(normalizeSignature('E(indexedaddress)'), 'E(indexed address)');
    assert.equal(canonicalSignature('Transfer(indexed address, indexed address,uint256)'), 'Transfer(address,address,uint256)');
  });

  test('topic0 is keccak-256 of the canonical signature', () => {
    assert.equal(topic0('Transfer(indexed address,indexed address,uint256)'), '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    assert.equal(topic0('Approval(address,address,uint256)'), '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925');
  });

  test('events() lists signatures, from a parsed ABI or from text; none from text that does not parse', () => {
    assert.deepEqual(events(JSON.stringify([TRANSFER])), ['Transfer(indexed address,indexed address,uint256)']);
    assert.deepEqual(events(abiOf(JSON.stringify([TRANSFER]))), ['Transfer(indexed address,indexed address,uint256)']);
    assert.deepEqual(events('not json'), []);
  });
});

describe('best guesses', () => {
  const abi = abiOf(
    JSON.stringify([
      { type: 'event', name: 'Transfer', inputs: [{ type: 'address' }] },
      TRANSFER,
      { type: 'event', name: 'Approval', inputs: [{ type: 'address', indexed: true }] },
      { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ type: 'address' }] },
      { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [{ type: 'address' }, { type: 'uint256' }] },
    ]),
  );

  test('an event: same name and types first, then the first of that name, then the nearest name, else none', () => {
    assert.equal(bestEvent(abi, 'Transfer(address,address,uint256)')?.signature, 'Transfer(indexed address,indexed address,uint256)');
    assert.equal(bestEvent(abi, 'Transfer( indexed address )')?.signature, 'Transfer(address)');
    assert.equal(bestEvent(abi, 'Transfer(uint8)')?.signature, 'Transfer(address)');
    assert.equal(bestEvent(abi, 'Aproval(address)')?.signature, 'Approval(indexed address)');
    assert.equal(bestEvent(abi, 'Minted(uint256)'), undefined);
  });

  test('a function: same name, else the nearest, else none', () => {
    assert.equal(bestFunction(abi, 'transfer(address)'), 'transfer(address,uint256)');
    assert.equal(bestFunction(abi, 'aprove(address)'), 'approve(address)');
    assert.equal(bestFunction(abi, 'mint(uint256)'), undefined);
  });
});

describe('entries the compilers do not write, and signature whitespace', () => {
  /**
   * ABI entries the compilers do not write but a hand-edited or hostile file may hold: an event
   * without inputs, inputs that are null or have a name that is no text, types that only start or
   * end like a tuple. And signature whitespace between two words, which is kept as one space.
   */
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
});
