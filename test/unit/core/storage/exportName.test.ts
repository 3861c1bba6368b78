/** The file names a storage export gets (storageExportName): the contract, the address, the block and the page, safe as a file name. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storageExportName } from '../../../../src/core/storage/exportName';

test("an export name keeps the contract's first word cleaned: runs of unsafe characters become one _, none at the ends, at most 64 characters", () => {
  const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  assert.equal(storageExportName({ address, contract: 'My  Token_! (src/T.sol)', block: 123, format: 'csv' }), 'storage-My_Token-0x5fbdb231-block-123.csv');
  assert.equal(storageExportName({ address, contract: 'A'.repeat(80), block: 1, page: 2, format: 'json' }), `storage-${'A'.repeat(64)}-0x5fbdb231-block-1-page-2.json`);
  assert.equal(storageExportName({ address, block: '12 345', format: 'csv' }), 'storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-12345.csv');
});

test('storage export names say the contract and the block', () => {
  const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  assert.equal(storageExportName({ address, block: 123, format: 'csv' }), 'storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-123.csv');
  assert.equal(storageExportName({ address, contract: 'Counter (src/Counter.sol)', block: '456', page: 2, format: 'json' }), 'storage-Counter-0x5fbdb231-block-456-page-2.json');
  assert.equal(
    storageExportName({ address: ` ${address.toUpperCase().replace('0X', '0x')} `, block: 'latest', format: 'csv' }),
    'storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-latest.csv',
  );
  assert.equal(storageExportName({ address, contract: '__My Token!! (a.sol)', block: 1, page: 1, format: 'csv' }), 'storage-My_Token-0x5fbdb231-block-1.csv');
  assert.equal(storageExportName({ address, contract: 'a/b\\c:d', block: '0x1f', format: 'json' }), 'storage-a_b_c_d-0x5fbdb231-block-0x1f.json');
  assert.equal(storageExportName({ address, contract: '***', block: 2, format: 'json' }), 'storage-0x5fbdb2315678afecb367f032d93f642f64180aa3-block-2.json');
  assert.equal(storageExportName({ address, contract: '../../etc/passwd (x)', block: 1n, format: 'csv' }), 'storage-etc_passwd-0x5fbdb231-block-1.csv');
});
