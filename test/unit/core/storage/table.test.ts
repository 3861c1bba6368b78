import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modeNotes, rangeTable } from '../../../../src/core/storage/table';

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
const titles = (t: { columns: { title: string }[] }) => t.columns.map((c) => c.title);

test('an emulated range: plain slots in numeric order, values decoded', () => {
  const table = rangeTable({
    mode: 'emulate',
    storage: {
      '0xb': { key: null, value: word(0x2an) },
      '0x2': { key: null, value: `0x${Buffer.from('hello').toString('hex').padEnd(62, '0')}0a` },
      '0x0': { key: null, value: word(0x5fbdb2315678afecb367f032d93f642f64180aa3n) },
    },
  });
  assert.deepEqual(titles(table), ['Slot', 'Value', 'Decimal', 'Address', 'Text']);
  assert.deepEqual(
    table.rows.map((r) => r[0]),
    ['0x0', '0x2', '0xb'],
  );
  assert.equal(table.rows[0][3], '0x5FbDB2315678afecb367f032d93F642f64180aa3');
  assert.equal(table.rows[1][4], 'hello');
  assert.deepEqual(table.rows[2].slice(2), ['42', '', ''], 'a small integer has no address reading');
});

test('a native range: hashed slots with their preimages, labelled through the preimage', () => {
  const hashedA = '0x290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563'; // keccak256(0)
  const hashedB = '0xb10e2d527612073b26eecdfd717e6a320cf44b4afac2b0732d9fcbe2b7fa0cf6'; // keccak256(1)
  const table = rangeTable(
    {
      mode: 'native',
      storage: {
        [hashedB]: { key: word(1n), value: word(7n) },
        [hashedA]: { key: word(0n), value: word(3n) },
        '0xf000000000000000000000000000000000000000000000000000000000000000': { key: null, value: word(1n) },
      },
    },
    (slot) => ({ '0': 'owner', '1': 'total' })[BigInt(slot).toString()],
  );
  assert.deepEqual(titles(table), ['Slot (hashed)', 'Preimage', 'Variable', 'Value', 'Decimal', 'Address', 'Text']);
  assert.deepEqual(
    table.rows.map((r) => [r[0], r[1], r[2], r[4]]),
    [
      [hashedA, word(0n), 'owner', '3'],
      [hashedB, word(1n), 'total', '7'],
      ['0xf000000000000000000000000000000000000000000000000000000000000000', '', '', '1'],
    ],
  );
});

test('an empty range has the columns and no rows', () => {
  const table = rangeTable({ mode: 'emulate', storage: {} });
  assert.equal(table.rows.length, 0);
  assert.equal(table.columns.length, 5);
});

test('the banner says what the emulation cannot do', () => {
  const notes = modeNotes({ mode: 'emulate', nativeUnavailable: 'JSON-RPC error -32601: Method not found', emulation: { reads: 42, strategy: 'batch' } }, 3);
  assert.match(notes[0], /debug_storageRangeAt is not available on this node \(JSON-RPC error -32601: Method not found\)/);
  assert.ok(notes.includes('Tx index 3 ignored: reads show end-of-block state.'));
  assert.ok(notes.some((n) => /^Mapping and dynamic-array slots are invisible unless you compute them — use the slot tools/.test(n)));
  assert.ok(notes.some((n) => /^Slower: 42 reads/.test(n)));
  assert.deepEqual(modeNotes({ mode: 'native' }, 3).slice(1), ['State before transaction 3 of the block.']);
});

test('no tx index given: the banner speaks of none (native mode reads before transaction 0)', () => {
  const notes = modeNotes({ mode: 'emulate', emulation: { reads: 4, strategy: 'batch' } }, undefined);
  assert.ok(notes.includes('Reads show end-of-block state.'));
  assert.ok(!notes.some((n) => /tx index/i.test(n)), notes.join('\n'));
  assert.deepEqual(modeNotes({ mode: 'native' }, undefined).slice(1), ['State before transaction 0 of the block.']);
});
