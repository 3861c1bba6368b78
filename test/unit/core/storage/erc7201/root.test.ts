/**
 * EIP-7201's root formula against the roots others computed: the EIP's own example and every
 * OpenZeppelin 5 upgradeable contract that writes its namespace's root as a constant beside the
 * tagged struct (node_modules/@openzeppelin/contracts-upgradeable, pinned).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { namespaceRoot, storageLocations } from '../../../../../src/core/storage/erc7201/root';

const OZ = path.dirname(require.resolve('@openzeppelin/contracts-upgradeable/package.json'));

function solidityFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? solidityFiles(path.join(dir, e.name)) : e.name.endsWith('.sol') ? [path.join(dir, e.name)] : []));
}

test("the root of EIP-7201's example namespace", () => {
  assert.equal(namespaceRoot('example.main'), 0x183a6125c38840424c4a85fa12bab2ab606c4b6d0e7cc73c0c06ba5300eab500n);
});

test('the roots OpenZeppelin writes beside its namespaced structs', () => {
  let compared = 0;
  for (const file of solidityFiles(OZ)) {
    const text = readFileSync(file, 'utf8');
    const ids = storageLocations(text).filter((l) => l.formula === 'erc7201');
    const constants = [...text.matchAll(/bytes32 private constant \w*StorageLocation\s*=\s*(0x[0-9a-fA-F]{64})/g)].map((m) => BigInt(m[1]));
    if (ids.length !== 1 || constants.length !== 1) continue;
    assert.equal(namespaceRoot(ids[0].id), constants[0], `${path.relative(OZ, file)}: erc7201:${ids[0].id}`);
    compared++;
  }
  assert.ok(compared >= 20, `only ${compared} roots compared`);
});

test('storage locations are read from a NatSpec text, other formulas named as they are', () => {
  const text = 'Storage of the contract.\n@custom:storage-location erc7201:openzeppelin.storage.Initializable\n@custom:storage-location erc1234:other';
  assert.deepEqual(storageLocations(text), [
    { formula: 'erc7201', id: 'openzeppelin.storage.Initializable' },
    { formula: 'erc1234', id: 'other' },
  ]);
  assert.deepEqual(storageLocations('@custom:oz-upgrades-unsafe-allow constructor'), []);
});
