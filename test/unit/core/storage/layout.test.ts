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
import { keccak256 } from 'ethers';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { CallOptions } from '../../../../src/core/rpc/types';
import { codeMatches, layoutsForAddress, matchLayouts, stripMetadata } from '../../../../src/core/storage/deployedCode';
import { loadProjectLayouts, parseFoundryArtifact, parseHardhatBuildInfo, type SolcStorageLayout, type SolcType } from '../../../../src/core/storage/layout';
import { labelSlots } from '../../../../src/core/storage/slotLabels';
import { mappingSlot } from '../../../../src/core/storage/slots';
import type { StorageRpc } from '../../../../src/core/storage/types';

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

  test('immutable ranges a hostile file gives (a length of 10^9, negative numbers, past the end, 100,000 of them): no JavaScript error, no quadratic time', () => {
    const code = `0x${'60'.repeat(24_576)}`;
    const filled = `0x${'60'.repeat(100)}ff${'60'.repeat(24_475)}`;
    for (const range of [
      { start: 0, length: 1e9 },
      { start: 0, length: -10 },
      { start: -5, length: 3 },
      { start: 1e15, length: 5 },
      { start: 1.5, length: 2 },
    ])
      assert.equal(codeMatches(code, { deployedBytecode: code, variableRanges: [range] }), true, JSON.stringify(range));
    assert.equal(codeMatches(filled, { deployedBytecode: code, variableRanges: [{ start: 90, length: 1e9 }] }), true, 'a range to past the end masks to the end');
    assert.equal(codeMatches(filled, { deployedBytecode: code, variableRanges: [{ start: 0, length: -10 }] }), false);
    const many = Array.from({ length: 100_000 }, (_, i) => ({ start: (i * 7) % 24_000, length: 32 }));
    const started = Date.now();
    assert.equal(codeMatches(filled, { deployedBytecode: code, variableRanges: many }), true);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });
});

describe('malformed artifacts, link ranges, project layouts, nested labels, metadata tails', () => {
  /**
   * Storage-layout edge cases beyond the tests above: artifacts with parts missing or
   * malformed (no evm/deployedBytecode, null layouts, junk immutable/link references, metadata as a
   * JSON string, no name anywhere), library link ranges, which files loadProjectLayouts reads and in
   * which order, labels of nested fixed arrays, arrays of structs and the region cap, the CBOR
   * metadata tail rule of stripMetadata, and layoutsForAddress passing its AbortSignal to the RPC.
   */
  const word = (n: bigint) => `0x${n.toString(16)}`;
  const dataOf = (slot: bigint) => BigInt(keccak256(`0x${slot.toString(16).padStart(64, '0')}`));

  const UINT256: SolcType = { encoding: 'inplace', label: 'uint256', numberOfBytes: '32' };
  const SIMPLE: SolcStorageLayout = {
    storage: [{ label: 'total', offset: 0, slot: '0', type: 't_uint256' }],
    types: { t_uint256: UINT256 },
  };

  describe('parsing artifacts with parts missing or malformed', () => {
    test('a variable whose type id is missing from types keeps the id as its type and counts 32 bytes', () => {
      const [layout] = parseHardhatBuildInfo({
        output: { contracts: { 'a.sol': { A: { storageLayout: { storage: [{ label: 'x', offset: 0, slot: '3', type: 't_odd' }], types: null } } } } },
      });
      assert.deepEqual(layout.storage, [{ label: 'x', slot: '3', offset: 0, type: 't_odd', typeId: 't_odd', numberOfBytes: 32 }]);
      assert.deepEqual(layout.types, {});
    });

    test('Hardhat: contracts without storageLayout are skipped, a contract without evm has no deployed code, types are kept', () => {
      const layouts = parseHardhatBuildInfo(
        { output: { contracts: { 'a.sol': { NoLayout: { abi: [] }, NullLayout: { storageLayout: null }, A: { storageLayout: SIMPLE } } } } },
        'bi/1.json',
      );
      assert.deepEqual(
        layouts.map((l) => [l.contractName, l.deployedBytecode, l.variableRanges, l.artifact]),
        [['A', undefined, [], 'bi/1.json']],
      );
      assert.deepEqual(layouts[0].types, SIMPLE.types);
      assert.deepEqual(parseHardhatBuildInfo({ output: { contracts: null } }), [], 'output.contracts null');
    });

    test('deployed code: 0x-prefixed kept, bare hex prefixed, empty ("0x" or "") is no code', () => {
      const hh = (object: unknown) =>
        parseHardhatBuildInfo({ output: { contracts: { 'a.sol': { A: { storageLayout: SIMPLE, evm: { deployedBytecode: { object } } } } } } })[0].deployedBytecode;
      assert.equal(hh('6080'), '0x6080');
      assert.equal(hh('0x6080'), '0x6080');
      assert.equal(hh('0x'), undefined);
      assert.equal(hh(''), undefined);
      assert.equal(hh(42), undefined);
      assert.equal(parseFoundryArtifact({ storageLayout: SIMPLE, deployedBytecode: { object: '0xfe' } })!.deployedBytecode, '0xfe');
      assert.equal(parseFoundryArtifact({ storageLayout: SIMPLE, deployedBytecode: { object: '0x' } })!.deployedBytecode, undefined);
    });

    test('immutable and library-link references become ranges; malformed entries are ignored', () => {
      const [layout] = parseHardhatBuildInfo({
        output: {
          contracts: {
            'a.sol': {
              A: {
                storageLayout: SIMPLE,
                evm: {
                  deployedBytecode: {
                    object: '00',
                    immutableReferences: { '1': [null, { start: '1', length: 2 }, { start: 3 }, { length: 4 }, { start: 6, length: 32 }], '2': { start: 9, length: 1 }, '3': 7 },
                    linkReferences: {
                      'lib/Math.sol': {
                        Math: [
                          { start: 100, length: 20 },
                          { start: 200, length: 20 },
                        ],
                      },
                      'lib/Odd.sol': null,
                    },
                  },
                },
              },
            },
          },
        },
      });
      assert.deepEqual(layout.variableRanges, [
        { start: 6, length: 32 },
        { start: 100, length: 20 },
        { start: 200, length: 20 },
      ]);
    });

    test('Foundry: null storageLayout is no layout; no deployedBytecode is no code', () => {
      assert.equal(parseFoundryArtifact({ storageLayout: null }), undefined);
      const bare = parseFoundryArtifact({ storageLayout: SIMPLE })!;
      assert.equal(bare.deployedBytecode, undefined);
      assert.deepEqual(bare.variableRanges, []);
      assert.equal('artifact' in bare, false);
    });

    test('Foundry: metadata as a JSON string names the contract; else ast.absolutePath, the path, or "unknown"', () => {
      const fromString = parseFoundryArtifact(
        { storageLayout: SIMPLE, metadata: JSON.stringify({ settings: { compilationTarget: { 'src/Token.sol': 'Token' } } }) },
        path.join('out', 'X.sol', 'X.json'),
      )!;
      assert.deepEqual([fromString.contractName, fromString.source, fromString.artifact], ['Token', 'src/Token.sol', path.join('out', 'X.sol', 'X.json')]);
      const broken = parseFoundryArtifact({ storageLayout: SIMPLE, metadata: '{not json', ast: { absolutePath: 'src/Y.sol' } }, path.join('out', 'Y.sol', 'Y.json'))!;
      assert.deepEqual([broken.contractName, broken.source], ['Y', 'src/Y.sol']);
      const noSettings = parseFoundryArtifact({ storageLayout: SIMPLE, metadata: { compiler: { version: '0.8.24' } } }, path.join('out', 'Z.sol', 'Z.json'))!;
      assert.deepEqual([noSettings.contractName, noSettings.source], ['Z', 'Z.sol']);
      const nameless = parseFoundryArtifact({ storageLayout: SIMPLE })!;
      assert.deepEqual([nameless.contractName, nameless.source], ['unknown', 'unknown']);
      assert.deepEqual(nameless.types, SIMPLE.types);
    });
  });

  describe('loadProjectLayouts: which files, in which order', () => {
    const buildInfo = (name: string) => ({ output: { contracts: { [`${name}.sol`]: { [name]: { storageLayout: SIMPLE } } } } });
    const artifact = (name: string) => ({ storageLayout: SIMPLE, metadata: { settings: { compilationTarget: { [`src/${name}.sol`]: name } } } });

    test('only *.json files, out/build-info skipped, files and folders in name order', () => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-layouts-'));
      try {
        const bi = path.join(root, 'artifacts', 'build-info');
        mkdirSync(bi, { recursive: true });
        for (const n of ['Hc', 'Ha', 'Hd', 'Hb']) writeFileSync(path.join(bi, `${n}.json`), JSON.stringify(buildInfo(n)));
        writeFileSync(path.join(bi, 'Hz.json.bak'), JSON.stringify(buildInfo('Hz')));
        for (const dir of ['Fc.sol', 'Fa.sol', 'Fb.sol']) {
          mkdirSync(path.join(root, 'out', dir), { recursive: true });
          for (const n of ['2', '1', '3']) writeFileSync(path.join(root, 'out', dir, `${dir[1]}${n}.json`), JSON.stringify(artifact(`${dir.slice(0, 2)}${n}`)));
        }
        writeFileSync(path.join(root, 'out', 'Fa.sol', 'notes.txt'), JSON.stringify(artifact('Txt')));
        mkdirSync(path.join(root, 'out', 'build-info'), { recursive: true });
        writeFileSync(path.join(root, 'out', 'build-info', 'b.json'), JSON.stringify(artifact('BuildInfo')));
        writeFileSync(path.join(root, 'out', 'stray.json'), JSON.stringify(artifact('Stray')));
        assert.deepEqual(
          loadProjectLayouts(root).map((l) => l.contractName),
          ['Ha', 'Hb', 'Hc', 'Hd', 'Fa1', 'Fa2', 'Fa3', 'Fb1', 'Fb2', 'Fb3', 'Fc1', 'Fc2', 'Fc3'],
        );
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('labelSlots: nested arrays, arrays of structs, caps', () => {
    test('a fixed array of fixed arrays (uint256[2][3]) is 3 elements of uint256[2]', () => {
      const layout = {
        storage: [{ label: 'grid', slot: '1', offset: 0, type: 'uint256[2][3]', typeId: 't_array(t_array(t_uint256)2_storage)3_storage', numberOfBytes: 192 }],
        types: {
          't_array(t_array(t_uint256)2_storage)3_storage': { encoding: 'inplace', label: 'uint256[2][3]', numberOfBytes: '192', base: 't_array(t_uint256)2_storage' },
          't_array(t_uint256)2_storage': { encoding: 'inplace', label: 'uint256[2]', numberOfBytes: '64', base: 't_uint256' },
          t_uint256: UINT256,
        } as Record<string, SolcType>,
      };
      assert.deepEqual(Object.fromEntries(labelSlots(layout, [1n, 2n, 5n, 6n, 7n])), { '0x1': 'grid[0][0]', '0x2': 'grid[0][1]', '0x5': 'grid[2][0]', '0x6': 'grid[2][1]' });
    });

    test('a slot past the last element of a fixed array is not named, even when numberOfBytes claims more', () => {
      const layout = {
        storage: [
          { label: 'small', slot: '0', offset: 0, type: 'uint8[32]', typeId: 't_array(t_uint8)32_storage', numberOfBytes: 64 },
          { label: 'big', slot: '2', offset: 0, type: 'uint256[2]', typeId: 't_array(t_uint256)2_storage', numberOfBytes: 96 },
        ],
        types: {
          't_array(t_uint8)32_storage': { encoding: 'inplace', label: 'uint8[32]', numberOfBytes: '64', base: 't_uint8' },
          't_array(t_uint256)2_storage': { encoding: 'inplace', label: 'uint256[2]', numberOfBytes: '96', base: 't_uint256' },
          t_uint8: { encoding: 'inplace', label: 'uint8', numberOfBytes: '1' },
          t_uint256: UINT256,
        } as Record<string, SolcType>,
      };
      assert.deepEqual(Object.fromEntries(labelSlots(layout, [0n, 1n, 2n, 3n, 4n])), { '0x0': 'small[0..31]', '0x2': 'big[0]', '0x3': 'big[1]' });
    });

    test('a dynamic array element slot past the inner fixed array is not named (uint256[2][] claiming 96 bytes per element)', () => {
      const layout = {
        storage: [{ label: 'pairs', slot: '3', offset: 0, type: 'uint256[2][]', typeId: 't_array(t_array(t_uint256)2_storage)dyn_storage', numberOfBytes: 32 }],
        types: {
          't_array(t_array(t_uint256)2_storage)dyn_storage': { encoding: 'dynamic_array', label: 'uint256[2][]', numberOfBytes: '32', base: 't_array(t_uint256)2_storage' },
          't_array(t_uint256)2_storage': { encoding: 'inplace', label: 'uint256[2]', numberOfBytes: '96', base: 't_uint256' },
          t_uint256: UINT256,
        } as Record<string, SolcType>,
      };
      const base = dataOf(3n);
      assert.deepEqual(Object.fromEntries(labelSlots(layout, [base, base + 1n, base + 2n, base + 4n])), {
        [word(base)]: 'pairs[0][0]',
        [word(base + 1n)]: 'pairs[0][1]',
        [word(base + 4n)]: 'pairs[1][1]',
      });
    });

    test('dynamic array of packed structs: an element slot names every field in it', () => {
      const layout = {
        storage: [{ label: 'ps', slot: '4', offset: 0, type: 'struct P[]', typeId: 't_array(t_struct(P)9_storage)dyn_storage', numberOfBytes: 32 }],
        types: {
          't_array(t_struct(P)9_storage)dyn_storage': { encoding: 'dynamic_array', label: 'struct P[]', numberOfBytes: '32', base: 't_struct(P)9_storage' },
          't_struct(P)9_storage': {
            encoding: 'inplace',
            label: 'struct P',
            numberOfBytes: '64',
            members: [
              { label: 'a', offset: 0, slot: '0', type: 't_uint256' },
              { label: 'field', offset: 0, slot: '1', type: 't_address' },
              { label: 'n', offset: 20, slot: '1', type: 't_uint64' },
            ],
          },
          t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
          t_uint64: { encoding: 'inplace', label: 'uint64', numberOfBytes: '8' },
          t_uint256: UINT256,
        } as Record<string, SolcType>,
      };
      const base = dataOf(4n);
      assert.deepEqual(Object.fromEntries(labelSlots(layout, [base + 2n, base + 3n])), { [word(base + 2n)]: 'ps[1].a', [word(base + 3n)]: 'ps[1].field, ps[1].n' });
    });

    test('fixed array of two-slot structs holding a string: each element string data is at keccak256 of its own slot', () => {
      const layout = {
        storage: [{ label: 'recs', slot: '0', offset: 0, type: 'struct R[3]', typeId: 't_array(t_struct(R)5_storage)3_storage', numberOfBytes: 192 }],
        types: {
          't_array(t_struct(R)5_storage)3_storage': { encoding: 'inplace', label: 'struct R[3]', numberOfBytes: '192', base: 't_struct(R)5_storage' },
          't_struct(R)5_storage': {
            encoding: 'inplace',
            label: 'struct R',
            numberOfBytes: '64',
            members: [
              { label: 'note', offset: 0, slot: '0', type: 't_string_storage' },
              { label: 'x', offset: 0, slot: '1', type: 't_uint256' },
            ],
          },
          t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
          t_uint256: UINT256,
        } as Record<string, SolcType>,
      };
      const slots = [dataOf(0n), dataOf(2n) + 1n, dataOf(4n)];
      assert.deepEqual([...labelSlots(layout, slots).values()], ['recs[0].note (data 0)', 'recs[1].note (data 1)', 'recs[2].note (data 0)']);
    });

    test('the packed names of a slot come in offset order even when the storage list is not in slot order', () => {
      const items = [
        { label: 'e', slot: '2', offset: 16, typeId: 't_uint128' },
        { label: 'c', slot: '1', offset: 0, typeId: 't_uint256' },
        { label: 'b', slot: '0', offset: 20, typeId: 't_bool' },
        { label: 'd', slot: '2', offset: 0, typeId: 't_uint128' },
        { label: 'a', slot: '0', offset: 0, typeId: 't_address' },
        { label: 'f', slot: '3', offset: 0, typeId: 't_uint256' },
      ].map((v) => ({ ...v, type: v.typeId, numberOfBytes: 0 }));
      const types: Record<string, SolcType> = {
        t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
        t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
        t_uint128: { encoding: 'inplace', label: 'uint128', numberOfBytes: '16' },
        t_uint256: UINT256,
      };
      assert.deepEqual(Object.fromEntries(labelSlots({ storage: items, types }, [0n, 1n, 2n, 3n])), { '0x0': 'a, b', '0x1': 'c', '0x2': 'd, e', '0x3': 'f' });
      const byLabel = (labels: string) =>
        [...labels].map((l) => items.find((v) => v.label === l) ?? { label: 'g', slot: '0', offset: 21, typeId: 't_bool', type: 't_bool', numberOfBytes: 0 });
      assert.equal(labelSlots({ storage: byLabel('abcdefg'), types }, [0n]).get('0x0'), 'a, b, g', 'a late variable of slot 0 listed last');
    });

    test('data regions are capped: of 300 strings the first ones have named data, the last does not', () => {
      const storage = Array.from({ length: 300 }, (_, i) => ({ label: `s${i}`, slot: String(i), offset: 0, type: 'string', typeId: 't_string_storage', numberOfBytes: 32 }));
      const types: Record<string, SolcType> = { t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' } };
      const labels = labelSlots({ storage, types }, [dataOf(0n), dataOf(255n), dataOf(299n)]);
      assert.deepEqual([...labels.values()], ['s0 (data 0)', 's255 (data 0)']);
    });

    test('data regions inside a fixed array of strings are capped too (string[300][2])', () => {
      const layout = {
        storage: [{ label: 'g', slot: '0', offset: 0, type: 'string[300][2]', typeId: 't_array(t_array(t_string_storage)300_storage)2_storage', numberOfBytes: 600 * 32 }],
        types: {
          't_array(t_array(t_string_storage)300_storage)2_storage': {
            encoding: 'inplace',
            label: 'string[300][2]',
            numberOfBytes: String(600 * 32),
            base: 't_array(t_string_storage)300_storage',
          },
          't_array(t_string_storage)300_storage': { encoding: 'inplace', label: 'string[300]', numberOfBytes: String(300 * 32), base: 't_string_storage' },
          t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' },
        } as Record<string, SolcType>,
      };
      const labels = labelSlots(layout, [dataOf(0n), dataOf(255n), dataOf(300n + 5n)]);
      assert.deepEqual([...labels.values()], ['g[0][0] (data 0)', 'g[0][255] (data 0)']);
    });
  });

  describe('stripMetadata: the CBOR tail rule', () => {
    test('a length pointing before the start of the code is no metadata tail', () => {
      assert.equal(stripMetadata('0xa1a10005'), 'a1a10005');
    });

    test('a tail that spans the whole code leaves nothing', () => {
      assert.equal(stripMetadata('0xa1000002'), '');
    });
  });

  describe('layoutsForAddress', () => {
    const layouts = parseHardhatBuildInfo({ output: { contracts: { 'a.sol': { A: { storageLayout: SIMPLE, evm: { deployedBytecode: { object: '600160005500' } } } } } } });

    /** A StorageRpc answering eth_getCode with `code`, honouring the AbortSignal like RpcClient does. */
    const rpcWith = (code: unknown): Pick<StorageRpc, 'call'> & { seen: unknown[] } => {
      const seen: unknown[] = [];
      return {
        seen,
        call: async <T>(method: string, params?: unknown, options?: CallOptions): Promise<T> => {
          seen.push([method, params]);
          if (options?.signal?.aborted) throw new Error('cancelled');
          return code as T;
        },
      };
    };

    test('asks eth_getCode at the block given and returns the matching layouts; no code string, none', async () => {
      const rpc = rpcWith('0x600160005500');
      assert.deepEqual(
        (await layoutsForAddress(rpc, '0xabc', layouts, '0x10')).map((l) => l.contractName),
        ['A'],
      );
      assert.deepEqual(rpc.seen, [['eth_getCode', ['0xabc', '0x10']]]);
      assert.deepEqual(await layoutsForAddress(rpcWith(null), '0xabc', layouts), []);
    });

    test('the AbortSignal reaches the RPC call', async () => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(layoutsForAddress(rpcWith('0x600160005500'), '0xabc', layouts, 'latest', controller.signal), /cancelled/);
    });
  });
});
