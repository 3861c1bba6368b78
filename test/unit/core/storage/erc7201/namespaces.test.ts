/**
 * A contract's namespaces as storage entries (base-most first, after the plain variables), the
 * names the raw storage table gives their slots, and what is said of what cannot be decoded: a
 * storage location of another formula, a base whose AST is not at hand.
 */
import { AbiCoder, keccak256, toUtf8Bytes } from 'ethers';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AstIndex, contractIn, type AstNode } from '../../../../../src/core/storage/erc7201/ast';
import { namespacesOf } from '../../../../../src/core/storage/erc7201/namespaces';
import { readLayoutFile, selectLayout, type ContractLayout } from '../../../../../src/core/storage/layout';
import { slotLabeller } from '../../../../../src/core/storage/slotLabels';
import { compileSource, writeArtifacts, type SolcCompiled } from '../../../../support/solidity';

const SOURCE = 'contracts/Vaulted.sol';
const TEXT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
abstract contract Counted {
  /// @custom:storage-location erc7201:example.counted
  struct CountedStorage { uint64 count; bool frozen; uint256[] history; string memo; }
}
contract Vaulted is Initializable, Counted {
  /// @custom:storage-location erc1234:example.other
  struct Other { uint256 x; }
  /// The vault's own state.
  /// @custom:storage-location erc7201:example.vault
  struct VaultStorage { uint256 total; mapping(address => uint256) shares; }
  uint256 plain;
}`;

const root = (id: string) => BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['uint256'], [BigInt(keccak256(toUtf8Bytes(id))) - 1n]))) & ~0xffn;

describe('namespaces of a contract', () => {
  let compiled: SolcCompiled;
  let dir: string;
  let layout: ContractLayout;
  before(() => {
    compiled = compileSource(SOURCE, TEXT, ['storageLayout']);
    dir = mkdtempSync(path.join(os.tmpdir(), 'chaindeck-ns-'));
    const { solcOutput } = writeArtifacts(dir, compileSource(SOURCE, TEXT), SOURCE, 'Vaulted');
    layout = selectLayout(readLayoutFile(solcOutput).layouts, 'Vaulted', solcOutput);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('plain variables first, then each namespace base-most first, at its root; another formula is named, not decoded', () => {
    assert.deepEqual(
      layout.storage.map((v) => [v.label, v.slot, v.type]),
      [
        ['plain', '0', 'uint256'],
        ['erc7201:openzeppelin.storage.Initializable', root('openzeppelin.storage.Initializable').toString(), 'struct Initializable.InitializableStorage'],
        ['erc7201:example.counted', root('example.counted').toString(), 'struct Counted.CountedStorage'],
        ['erc7201:example.vault', root('example.vault').toString(), 'struct Vaulted.VaultStorage'],
      ],
    );
    assert.deepEqual(layout.notes, ["erc1234:example.other (struct Vaulted.Other) is not decoded: its formula is not ERC-7201's"]);
  });

  test("the raw storage table's slot names name namespace members, array elements and string data", () => {
    const label = slotLabeller(layout);
    const counted = root('example.counted');
    const init = root('openzeppelin.storage.Initializable');
    assert.equal(label(init), 'erc7201:openzeppelin.storage.Initializable._initialized, erc7201:openzeppelin.storage.Initializable._initializing');
    assert.equal(label(counted), 'erc7201:example.counted.count, erc7201:example.counted.frozen');
    assert.equal(label(counted + 1n), 'erc7201:example.counted.history.length');
    assert.equal(label(BigInt(keccak256(`0x${(counted + 1n).toString(16).padStart(64, '0')}`)) + 4n), 'erc7201:example.counted.history[4]');
    assert.equal(label(counted + 2n), 'erc7201:example.counted.memo');
    assert.equal(label(BigInt(keccak256(`0x${(counted + 2n).toString(16).padStart(64, '0')}`)) + 1n), 'erc7201:example.counted.memo (data 1)');
    assert.equal(label(root('example.vault')), 'erc7201:example.vault.total');
    assert.equal(label(0n), 'plain');
    assert.equal(label(counted + 3n), undefined);
  });

  test('a base whose AST is not at hand is said to be missing, the others still laid out', () => {
    const unit = (compiled.output.sources[SOURCE] as { ast: AstNode }).ast;
    const ns = namespacesOf(contractIn(unit, 'Vaulted')!, new AstIndex([unit]), `${SOURCE}:Vaulted`);
    assert.deepEqual(
      ns.storage.map((v) => v.label),
      ['erc7201:example.counted', 'erc7201:example.vault'],
    );
    assert.equal(ns.notes.length, 2);
    assert.match(ns.notes[0], /^contracts\/Vaulted\.sol:Vaulted: a base contract \(AST id \d+\) is not in the AST at hand; its ERC-7201 namespaces, if any, are not decoded$/);
  });

  test('two bases declaring one id: one element, the base-most’s; said when the two are laid out differently', () => {
    const text = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
abstract contract A {
  /// @custom:storage-location erc7201:example.shared
  struct S { uint256 a; }
}
abstract contract B {
  /// @custom:storage-location erc7201:example.shared
  struct Copy { uint256 a; }
}
abstract contract C {
  /// @custom:storage-location erc7201:example.shared
  struct T { address owner; uint256 a; }
}
contract Same is A, B {}
contract Clash is A, C {}`;
    const out = compileSource('contracts/Shared.sol', text, []);
    const unit = (out.output.sources['contracts/Shared.sol'] as { ast: AstNode }).ast;
    const index = new AstIndex([unit]);
    const same = namespacesOf(contractIn(unit, 'Same')!, index, 'contracts/Shared.sol:Same');
    assert.deepEqual(
      same.storage.map((v) => [v.label, v.type]),
      [['erc7201:example.shared', 'struct A.S']],
    );
    assert.deepEqual(same.notes, []);
    const clash = namespacesOf(contractIn(unit, 'Clash')!, index, 'contracts/Shared.sol:Clash');
    assert.deepEqual(
      clash.storage.map((v) => [v.label, v.type]),
      [['erc7201:example.shared', 'struct A.S']],
    );
    assert.deepEqual(clash.notes, ['erc7201:example.shared is declared by struct A.S and by struct C.T, laid out differently: decoded as struct A.S']);
  });
});

test('a tag with no id after "erc7201:" is a note, not a namespace silently left out', () => {
  const struct: AstNode = {
    nodeType: 'StructDefinition',
    id: 2,
    name: 'S',
    canonicalName: 'C.S',
    documentation: { text: '@custom:storage-location erc7201:\n@dev the id was forgotten' },
    members: [{ nodeType: 'VariableDeclaration', name: 'a', typeName: { nodeType: 'ElementaryTypeName', name: 'uint256', typeDescriptions: { typeString: 'uint256' } } }],
  };
  const contract: AstNode = { nodeType: 'ContractDefinition', id: 1, name: 'C', linearizedBaseContracts: [1], nodes: [struct] };
  const ns = namespacesOf(contract, new AstIndex([{ nodeType: 'SourceUnit', nodes: [contract] }]), 'C.sol:C');
  assert.deepEqual(ns.storage, []);
  assert.deepEqual(ns.notes, ['erc7201: (struct C.S) is not decoded: the tag names no namespace id']);
});

test('a hostile list of bases (200,000 copies of the contract, a number, 200,000 ids not in the AST): each namespace once, one note', () => {
  const struct: AstNode = {
    nodeType: 'StructDefinition',
    id: 2,
    name: 'S',
    canonicalName: 'C.S',
    documentation: { text: '@custom:storage-location erc7201:x' },
    members: [{ nodeType: 'VariableDeclaration', name: 'a', typeName: { nodeType: 'ElementaryTypeName', name: 'uint256', typeDescriptions: { typeString: 'uint256' } } }],
  };
  const contract = (bases: number[]): AstNode => ({ nodeType: 'ContractDefinition', id: 1, name: 'C', linearizedBaseContracts: bases, nodes: [struct] });
  const of = (c: AstNode) => namespacesOf(c, new AstIndex([{ nodeType: 'SourceUnit', nodes: [c] }]), 'C.sol:C');
  const copies = of(contract(new Array<number>(200_000).fill(1)));
  assert.deepEqual(
    copies.storage.map((v) => v.label),
    ['erc7201:x'],
  );
  assert.deepEqual(
    of(contract(5 as unknown as number[])).storage.map((v) => v.label),
    ['erc7201:x'],
    'a list that is no list: the contract alone',
  );
  const missing = of(contract([1, ...Array.from({ length: 200_000 }, (_, i) => 1000 + i)]));
  assert.deepEqual(
    missing.storage.map((v) => v.label),
    ['erc7201:x'],
  );
  assert.deepEqual(missing.notes, [
    'C.sol:C: 200000 base contracts (AST ids 1000, 1001, 1002, 1003, 1004, …) are not in the AST at hand; their ERC-7201 namespaces, if any, are not decoded',
  ]);
});
