/**
 * Storage-layout labels from hand-written artifacts in the formats the compilers emit: a Hardhat
 * build-info (output.contracts[source][name].storageLayout + evm.deployedBytecode) and a Foundry
 * artifact (out/Vault.sol/Vault.json with storageLayout, deployedBytecode, metadata), for this
 * contract:
 *
 *   contract Vault {
 *     address owner; bool paused;          // slot 0, packed
 *     uint256 total;                       // slot 1
 *     uint128[3] data;                     // slots 2–3 (two per slot)
 *     struct S { uint256 a; address field; uint64 n; }
 *     S s;                                 // slots 4–5 (field and n packed)
 *     mapping(address => uint256) balances;// slot 6
 *     uint256[] items;                     // slot 7 (length), data at keccak256(7)
 *     string name;                         // slot 8
 *     uint256[2] big;                      // slots 9–10
 *     uint256 immutable cap;               // in the code, not in storage
 *   }
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { keccak256 } from 'ethers';
import {
  codeMatches,
  labelSlots,
  loadProjectLayouts,
  matchLayouts,
  parseFoundryArtifact,
  parseHardhatBuildInfo,
  stripMetadata,
  type SolcStorageLayout,
} from '../../../../src/core/storage/layout';
import { mappingSlot } from '../../../../src/core/storage/slots';

const C = 'contracts/Vault.sol:Vault';
const VAULT_LAYOUT: SolcStorageLayout = {
  storage: [
    { astId: 3, contract: C, label: 'owner', offset: 0, slot: '0', type: 't_address' },
    { astId: 5, contract: C, label: 'paused', offset: 20, slot: '0', type: 't_bool' },
    { astId: 7, contract: C, label: 'total', offset: 0, slot: '1', type: 't_uint256' },
    { astId: 11, contract: C, label: 'data', offset: 0, slot: '2', type: 't_array(t_uint128)3_storage' },
    { astId: 22, contract: C, label: 's', offset: 0, slot: '4', type: 't_struct(S)19_storage' },
    { astId: 26, contract: C, label: 'balances', offset: 0, slot: '6', type: 't_mapping(t_address,t_uint256)' },
    { astId: 29, contract: C, label: 'items', offset: 0, slot: '7', type: 't_array(t_uint256)dyn_storage' },
    { astId: 31, contract: C, label: 'name', offset: 0, slot: '8', type: 't_string_storage' },
    { astId: 35, contract: C, label: 'big', offset: 0, slot: '9', type: 't_array(t_uint256)2_storage' },
  ],
  types: {
    t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
    't_array(t_uint128)3_storage': { base: 't_uint128', encoding: 'inplace', label: 'uint128[3]', numberOfBytes: '64' },
    't_array(t_uint256)2_storage': { base: 't_uint256', encoding: 'inplace', label: 'uint256[2]', numberOfBytes: '64' },
    't_array(t_uint256)dyn_storage': { base: 't_uint256', encoding: 'dynamic_array', label: 'uint256[]', numberOfBytes: '32' },
    t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
    't_mapping(t_address,t_uint256)': { encoding: 'mapping', key: 't_address', label: 'mapping(address => uint256)', numberOfBytes: '32', value: 't_uint256' },
    t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
    't_struct(S)19_storage': {
      encoding: 'inplace',
      label: 'struct Vault.S',
      members: [
        { astId: 13, contract: C, label: 'a', offset: 0, slot: '0', type: 't_uint256' },
        { astId: 15, contract: C, label: 'field', offset: 0, slot: '1', type: 't_address' },
        { astId: 17, contract: C, label: 'n', offset: 20, slot: '1', type: 't_uint64' },
      ],
      numberOfBytes: '64',
    },
    t_uint128: { encoding: 'inplace', label: 'uint128', numberOfBytes: '16' },
    t_uint256: { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' },
    t_uint64: { encoding: 'inplace', label: 'uint64', numberOfBytes: '8' },
  },
};

/** solc's metadata tail: a CBOR map {ipfs: <34 bytes>, solc: 0.8.24} and its length, 0x0033. */
function metadata(hashByte: string): string {
  return `a2646970667358221220${hashByte.repeat(32)}64736f6c6343000818` + '0033';
}
/** Runtime code: PUSH32 <cap> (an immutable at byte 6), then the metadata. */
const RUNTIME_BODY_BEFORE = '6080604052' + '7f';
const RUNTIME_BODY_AFTER = '600055' + '00' + 'fe';
const ARTIFACT_CODE = `0x${RUNTIME_BODY_BEFORE}${'0'.repeat(64)}${RUNTIME_BODY_AFTER}${metadata('11')}`;
const CAP = 1000n.toString(16).padStart(64, '0');
const DEPLOYED_CODE = `0x${RUNTIME_BODY_BEFORE}${CAP}${RUNTIME_BODY_AFTER}${metadata('22')}`;
const IMMUTABLES = { '40': [{ length: 32, start: 6 }] };

const HARDHAT_BUILD_INFO = {
  _format: 'hh-sol-build-info-1',
  id: '0b7c1a6c6e2f9f7d3c1d2b9a8e7f6a5b',
  solcVersion: '0.8.24',
  solcLongVersion: '0.8.24+commit.e11b9ed9',
  input: { language: 'Solidity', sources: {}, settings: { outputSelection: { '*': { '*': ['storageLayout', 'evm.deployedBytecode'] } } } },
  output: {
    contracts: {
      'contracts/Vault.sol': {
        Vault: {
          abi: [],
          evm: { deployedBytecode: { object: ARTIFACT_CODE.slice(2), immutableReferences: IMMUTABLES, linkReferences: {}, opcodes: '', sourceMap: '' } },
          storageLayout: VAULT_LAYOUT,
        },
      },
      'contracts/Math.sol': {
        Math: { abi: [], evm: { deployedBytecode: { object: `73${'0'.repeat(40)}3014`, immutableReferences: {}, linkReferences: {} } }, storageLayout: { storage: [], types: null } },
      },
    },
    sources: { 'contracts/Vault.sol': { id: 0 }, 'contracts/Math.sol': { id: 1 } },
  },
};

const FOUNDRY_ARTIFACT = {
  abi: [],
  bytecode: { object: '0x', linkReferences: {} },
  deployedBytecode: { object: ARTIFACT_CODE, linkReferences: {}, immutableReferences: IMMUTABLES },
  methodIdentifiers: {},
  storageLayout: VAULT_LAYOUT,
  metadata: { compiler: { version: '0.8.24+commit.e11b9ed9' }, language: 'Solidity', settings: { compilationTarget: { 'src/Vault.sol': 'Vault' } } },
  id: 12,
};

const word = (n: bigint) => `0x${n.toString(16)}`;

describe('parsing artifacts', () => {
  test('Hardhat build-info: every contract with a storageLayout, source and name, deployed code', () => {
    const layouts = parseHardhatBuildInfo(HARDHAT_BUILD_INFO, 'artifacts/build-info/0b7c.json');
    assert.deepEqual(
      layouts.map((l) => [l.source, l.contractName, l.storage.length]),
      [
        ['contracts/Vault.sol', 'Vault', 9],
        ['contracts/Math.sol', 'Math', 0],
      ],
    );
    const vault = layouts[0];
    assert.deepEqual(vault.storage[1], { label: 'paused', slot: '0', offset: 20, type: 'bool', typeId: 't_bool', numberOfBytes: 1 });
    assert.deepEqual(vault.storage[3], { label: 'data', slot: '2', offset: 0, type: 'uint128[3]', typeId: 't_array(t_uint128)3_storage', numberOfBytes: 64 });
    assert.equal(vault.deployedBytecode, ARTIFACT_CODE);
    assert.deepEqual(vault.variableRanges, [{ start: 6, length: 32 }]);
    assert.equal(vault.artifact, 'artifacts/build-info/0b7c.json');
    assert.deepEqual(parseHardhatBuildInfo({ input: {} }), [], 'a file without output holds no layout');
  });

  test('Foundry artifact: name and source from compilationTarget, else from the path', () => {
    const layout = parseFoundryArtifact(FOUNDRY_ARTIFACT, 'out/Vault.sol/Vault.json')!;
    assert.equal(layout.contractName, 'Vault');
    assert.equal(layout.source, 'src/Vault.sol');
    assert.equal(layout.storage.length, 9);
    const bare = parseFoundryArtifact({ ...FOUNDRY_ARTIFACT, metadata: undefined }, path.join('out', 'Vault.sol', 'Vault.json'))!;
    assert.deepEqual([bare.contractName, bare.source], ['Vault', 'Vault.sol']);
    assert.equal(parseFoundryArtifact({ abi: [], bytecode: { object: '0x' } }), undefined, 'no storageLayout (extra_output not set)');
  });

  test('loadProjectLayouts reads artifacts/build-info and out/<File>.sol/<Name>.json', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-layouts-'));
    try {
      mkdirSync(path.join(root, 'artifacts', 'build-info'), { recursive: true });
      writeFileSync(path.join(root, 'artifacts', 'build-info', '0b7c.json'), JSON.stringify(HARDHAT_BUILD_INFO));
      mkdirSync(path.join(root, 'out', 'Vault.sol'), { recursive: true });
      writeFileSync(path.join(root, 'out', 'Vault.sol', 'Vault.json'), JSON.stringify(FOUNDRY_ARTIFACT));
      mkdirSync(path.join(root, 'out', 'build-info'), { recursive: true });
      writeFileSync(path.join(root, 'out', 'build-info', 'x.json'), '{"not":"an artifact"}');
      writeFileSync(path.join(root, 'out', 'Vault.sol', 'broken.json'), '{');
      const layouts = loadProjectLayouts(root);
      assert.deepEqual(
        layouts.map((l) => `${l.source}:${l.contractName}`),
        ['contracts/Vault.sol:Vault', 'contracts/Math.sol:Math', 'src/Vault.sol:Vault'],
      );
      assert.deepEqual(loadProjectLayouts(path.join(root, 'nothing-here')), []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('labelSlots', () => {
  const vault = parseFoundryArtifact(FOUNDRY_ARTIFACT)!;

  test('plain slots: packed variables, fixed arrays, struct fields, dynamic array length', () => {
    const labels = labelSlots(vault, [0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n]);
    assert.deepEqual(Object.fromEntries(labels), {
      '0x0': 'owner, paused',
      '0x1': 'total',
      '0x2': 'data[0..1]',
      '0x3': 'data[2]',
      '0x4': 's.a',
      '0x5': 's.field, s.n',
      '0x6': 'balances',
      '0x7': 'items.length',
      '0x8': 'name',
      '0x9': 'big[0]',
      '0xa': 'big[1]',
    });
  });

  test('dynamic array elements and long string data above keccak256(slot)', () => {
    const items = BigInt(keccak256(`0x${'7'.padStart(64, '0')}`));
    const name = BigInt(keccak256(`0x${'8'.padStart(64, '0')}`));
    const labels = labelSlots(vault, [word(items), word(items + 2n), `0x${(name + 1n).toString(16).padStart(64, '0')}`]);
    assert.deepEqual(Object.fromEntries(labels), {
      [word(items)]: 'items[0]',
      [word(items + 2n)]: 'items[2]',
      [word(name + 1n)]: 'name (data 1)',
    });
  });

  test('mapping entries and unknown slots get no label', () => {
    const entry = mappingSlot(6, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'address');
    assert.equal(labelSlots(vault, [entry, 0x1234n]).size, 0);
  });
});

describe('matching deployed code to a layout', () => {
  const layouts = parseHardhatBuildInfo(HARDHAT_BUILD_INFO);

  test('the metadata tail is stripped; code without one is kept', () => {
    assert.equal(stripMetadata(ARTIFACT_CODE), `${RUNTIME_BODY_BEFORE}${'0'.repeat(64)}${RUNTIME_BODY_AFTER}`);
    assert.equal(stripMetadata('0x6080604052'), '6080604052');
  });

  test('same code with another metadata hash and the immutable filled in: a match', () => {
    assert.ok(codeMatches(DEPLOYED_CODE, layouts[0]));
    assert.deepEqual(
      matchLayouts(layouts, DEPLOYED_CODE).map((l) => l.contractName),
      ['Vault'],
    );
  });

  test('one byte of code different: no match', () => {
    const other = DEPLOYED_CODE.replace('600055', '600155');
    assert.equal(codeMatches(other, layouts[0]), false);
    assert.deepEqual(matchLayouts(layouts, other), []);
    assert.deepEqual(matchLayouts(layouts, '0x'), [], 'an account without code');
  });
});
