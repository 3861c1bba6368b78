import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Interface } from 'ethers';
import { transactionView, valueText } from '../../../../../src/core/indexing/replay/block';
import { diffEntity } from '../../../../../src/core/indexing/replay/entities';
import { mappingLocation } from '../../../../../src/core/indexing/replay/errorLine';

const ABI = new Interface(['function transfer(address to, uint256 amount)', 'function ping(uint256 count)']);

test('a transaction decodes with the ABI that knows its selector; an unknown one keeps its selector', () => {
  const data = ABI.encodeFunctionData('transfer', ['0x00000000000000000000000000000000000000aa', 10n ** 20n]);
  const tx = { hash: '0x01', from: '0xf', to: '0xc', value: '0x0', input: data };
  assert.deepEqual(transactionView(tx, [new Interface(['function other()']), ABI]), {
    hash: '0x01',
    from: '0xf',
    to: '0xc',
    value: '0',
    call: {
      signature: 'transfer(address,uint256)',
      args: [
        { name: 'to', type: 'address', value: '0x00000000000000000000000000000000000000AA' },
        { name: 'amount', type: 'uint256', value: '100000000000000000000' },
      ],
    },
  });
  assert.equal(transactionView({ ...tx, input: '0xdeadbeef00', value: '0xde0b6b3a7640000' }, [ABI]).selector, '0xdeadbeef');
  assert.equal(transactionView({ ...tx, input: '0xdeadbeef00', value: '0xde0b6b3a7640000' }, [ABI]).value, '1000000000000000000');
  assert.equal(transactionView({ ...tx, input: '0x', to: null }, [ABI]).to, undefined);
  assert.equal(valueText([1n, ['a', 2n]]), '["1","[\\"a\\",\\"2\\"]"]');
});

test('the entity diff: created, updated fields, unchanged', () => {
  assert.deepEqual(diffEntity('Ping', undefined, { id: 'a', n: '1' }), { entity: 'Ping', id: 'a', kind: 'created', after: { id: 'a', n: '1' }, changed: ['id', 'n'] });
  const updated = diffEntity('Token', { id: 't', supply: '1', owner: 'x', tags: ['a'] }, { id: 't', supply: '2', owner: 'x', tags: ['a', 'b'] });
  assert.equal(updated.kind, 'updated');
  assert.deepEqual(updated.changed, ['supply', 'tags']);
  assert.equal(diffEntity('Token', { id: 't', n: '1' }, { id: 't', n: '1' }).kind, 'unchanged');
});

test("graph-node's abort text gives the mapping file, line, column and message", () => {
  const text =
    'transaction d585…: error while executing at wasm backtrace:\t    0:   0x3496 - <unknown>!src/mapping/handleBoom: Mapping aborted at src/mapping.ts, line 23, column 3, with message: boom after 3 pings in handler `handleBoom` at block #4 (c06b…)';
  assert.deepEqual(mappingLocation(text), { file: 'src/mapping.ts', line: 23, column: 3, message: 'boom after 3 pings' });
  assert.deepEqual(mappingLocation('Mapping aborted at src/a b.ts, line 1, column 10'), { file: 'src/a b.ts', line: 1, column: 10 });
  assert.equal(mappingLocation('store error: duplicate key value'), undefined);
});
