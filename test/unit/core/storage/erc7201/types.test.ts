/**
 * solc's packing rules, as erc7201/types.ts computes them, against solc itself: structs of many
 * random shapes (seeded, so a failure replays) are compiled in one source, each used as an ordinary
 * state variable and tagged as an ERC-7201 namespace; the namespace's computed type (and every
 * type it reaches: members' slots, offsets, sizes, labels, ids) must equal what solc's
 * storageLayout gives for the ordinary variable.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namespacesOf } from '../../../../../src/core/storage/erc7201/namespaces';
import { AstIndex, contractIn, type AstNode } from '../../../../../src/core/storage/erc7201/ast';
import type { SolcStorageLayout } from '../../../../../src/core/storage/layout';
import { prng, propertyRuns } from '../../../../support/prng';
import { compileSource } from '../../../../support/solidity';

const SOURCE = 'contracts/Shapes.sol';

/** A Solidity source with `count` tagged structs S0… each held by a state variable v0…, and the helper structs they use. */
function shapes(seed: number, count: number): string {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const helpers: string[] = [];
  const valueType = (): string =>
    pick([
      () => `uint${8 * int(1, 32)}`,
      () => `int${8 * int(1, 32)}`,
      () => `bytes${int(1, 32)}`,
      () => 'address',
      () => 'address payable',
      () => 'bool',
      () => pick(['E3', 'E256', 'UD', 'UF', 'Top.UE', 'IToken']),
      () => pick(['function (uint256) external returns (uint256)', 'function (bool) internal']),
    ])();
  const keyType = (): string =>
    pick([() => `uint${8 * int(1, 32)}`, () => `int${8 * int(1, 4)}`, () => `bytes${int(1, 32)}`, () => pick(['address', 'bool', 'string', 'bytes', 'E3', 'IToken', 'UD'])])();
  const anyType = (depth: number): string => {
    if (depth >= 2 || random() < 0.5) return valueType();
    return pick([
      () => (helpers.length ? pick(helpers) : 'Node'),
      () => 'Node',
      () => `${anyType(depth + 1)}[${int(1, 5)}]`,
      () => `${anyType(depth + 1)}[]`,
      () => pick(['string', 'bytes']),
      () => `mapping(${keyType()} => ${anyType(depth + 1)})`,
    ])();
  };
  const members = (n: number) =>
    Array.from({ length: n }, (_, k) => `${anyType(0)} m${k};`)
      .join(' ')
      // function types in a struct need a name before the semicolon as any member; static arrays of function types need parentheses
      .replace(/(function \([^)]*\)[^;[\]]*?)\[/g, '$1 [');
  const body: string[] = [];
  for (let h = 0; h < 12; h++) {
    body.push(`struct H${h} { ${members(int(1, 5))} }`);
    helpers.push(`H${h}`);
  }
  for (let i = 0; i < count; i++) {
    body.push(`/// @custom:storage-location erc7201:prop.${i}\nstruct S${i} { ${members(int(1, 9))} }`);
    body.push(`S${i} v${i};`);
  }
  const e256 = Array.from({ length: 256 }, (_, k) => `X${k}`).join(', ');
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IToken {}
type UF is int40;
contract Top { type UE is bytes7; }
contract Shapes {
  enum E3 { A, B, C }
  enum E256 { ${e256} }
  type UD is uint96;
  struct Node { uint8 v; mapping(uint256 => Node) kids; Node[] list; }
  ${body.join('\n  ')}
}`;
}

test('namespaced structs of random shapes are laid out as solc lays out the same structs as state variables', () => {
  const count = propertyRuns(400);
  const seed = 7201;
  const source = shapes(seed, count);
  const compiled = compileSource(SOURCE, source, ['storageLayout']);
  const solc = compiled.output.contracts[SOURCE].Shapes.storageLayout as SolcStorageLayout;
  const unit = (compiled.output.sources[SOURCE] as { ast: AstNode }).ast;
  const ns = namespacesOf(contractIn(unit, 'Shapes')!, new AstIndex([unit]), `${SOURCE}:Shapes`);
  assert.deepEqual(ns.notes, []);
  assert.equal(ns.storage.length, count);
  for (let i = 0; i < count; i++) {
    const plain = solc.storage.find((s) => s.label === `v${i}`)!;
    const entry = ns.storage[i];
    assert.equal(entry.label, `erc7201:prop.${i}`);
    assert.equal(entry.typeId, plain.type, `seed ${seed}, struct S${i}`);
    assert.equal(entry.type, solc.types![plain.type].label);
  }
  for (const [id, type] of Object.entries(ns.types)) assert.deepEqual(type, solc.types![id], `seed ${seed}: type ${id}`);
});

describe('hostile ASTs: a type that cannot be laid out is a note, the rest of the file still decodes', () => {
  const uint = (): AstNode => ({ nodeType: 'ElementaryTypeName', name: 'uint256', typeDescriptions: { typeString: 'uint256' } });
  const member = (name: string, typeName: AstNode): AstNode => ({ nodeType: 'VariableDeclaration', name, typeName });
  const contract = (...structs: AstNode[]): AstNode => ({ nodeType: 'ContractDefinition', id: 1, name: 'C', linearizedBaseContracts: [1], nodes: structs });
  const tagged = (id: number, ns: string, members: AstNode[]): AstNode => ({
    nodeType: 'StructDefinition',
    id,
    name: `S${id}`,
    canonicalName: `C.S${id}`,
    documentation: { text: `@custom:storage-location erc7201:${ns}` },
    members,
  });
  const namespaces = (c: AstNode) => namespacesOf(c, new AstIndex([{ nodeType: 'SourceUnit', nodes: [c] }]), 'C.sol:C');

  test('a mapping nested 100,000 deep (JSON parses it; laying it out would overflow the stack)', () => {
    let deep = uint();
    for (let i = 0; i < 100_000; i++) deep = { nodeType: 'Mapping', keyType: uint(), valueType: deep };
    const ns = namespaces(contract(tagged(2, 'deep', [member('m', deep)]), tagged(3, 'fine', [member('a', uint())])));
    assert.deepEqual(
      ns.storage.map((v) => v.label),
      ['erc7201:fine'],
    );
    assert.deepEqual(ns.notes, ['erc7201:deep (struct C.S2) is not decoded: its types nest more than 64 deep']);
  });

  test('a struct that holds itself in place (solc refuses it; a file may still say so) is a note, not a layout', () => {
    const self: AstNode = { nodeType: 'UserDefinedTypeName', referencedDeclaration: 2, typeDescriptions: { typeString: 'struct C.S2' } };
    const ns = namespaces(contract(tagged(2, 'self', [member('a', uint()), member('me', self)])));
    assert.deepEqual(ns.storage, []);
    assert.deepEqual(ns.notes, ['erc7201:self (struct C.S2) is not decoded: struct C.S2 holds itself, not through a mapping or a dynamic array']);
  });

  test('a struct that holds itself through a mapping or a dynamic array is laid out', () => {
    const self = (): AstNode => ({ nodeType: 'UserDefinedTypeName', referencedDeclaration: 2, typeDescriptions: { typeString: 'struct C.S2' } });
    const list: AstNode = { nodeType: 'ArrayTypeName', baseType: self(), typeDescriptions: { typeString: 'struct C.S2[]' } };
    const ns = namespaces(contract(tagged(2, 'tree', [member('a', uint()), member('kids', { nodeType: 'Mapping', keyType: uint(), valueType: self() }), member('list', list)])));
    assert.deepEqual(ns.notes, []);
    assert.equal(ns.types['t_struct(S2)2_storage'].numberOfBytes, '96');
  });
});
