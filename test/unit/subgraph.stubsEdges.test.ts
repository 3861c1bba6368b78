/**
 * Handler stubs when the mapping already imports several names: which import counts as the
 * event's (or graph-ts's), when the event's name is taken, and where a new import goes when code
 * follows the imports. Solidity types that only look like arrays, bytes or integers get no type.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scanMapping } from '../../src/core/subgraph/code/mappingScan';
import { graphqlTypeOf, handlerStub, type HandlerStubInput } from '../../src/core/subgraph/code/stubs';
import { applyFix } from '../support/findings';

const APPROVAL = { kind: 'event' as const, name: 'Approval', signature: 'Approval(indexed address,indexed address,uint256)', params: [] };
const GENERATED = '"../generated/ERC20/ERC20"';
const HANDLER = 'export function handleIt(event: Approval): void {\n  // TODO: write entities for this event (Approval(indexed address,indexed address,uint256))\n}\n';
const BLOCK_HANDLER = 'export function handleIt(block: ethereum.Block): void {\n  // TODO: write entities for this block\n}\n';

function stub(mappingText: string, trigger: HandlerStubInput['trigger']): string {
  const input: HandlerStubInput = {
    mappingFile: '/p/src/mapping.ts',
    mappingText,
    scan: scanMapping(mappingText),
    handler: 'handleIt',
    generatedDir: '/p/generated',
    dataSourceFolder: 'ERC20',
    abiName: 'ERC20',
    trigger,
  };
  return applyFix(mappingText, handlerStub(input));
}

describe('handler stubs among existing imports', () => {
  test('the event imported with other names from its module: its own name, no new import', () => {
    const text = `import { Transfer, Approval } from ${GENERATED};\n`;
    assert.equal(stub(text, APPROVAL), `${text}\n${HANDLER}`);
  });

  test('two imports from the event module: the one that names the event counts', () => {
    const text = `import { Transfer } from ${GENERATED};\nimport { Approval } from ${GENERATED};\n`;
    assert.equal(stub(text, APPROVAL), `${text}\n${HANDLER}`);
  });

  test('an entity of the same name among several imported names: the event comes in renamed', () => {
    const text = 'import { Transfer, Approval } from "../generated/schema";\n';
    assert.equal(stub(text, APPROVAL), `${text}import { Approval as ApprovalEvent } from ${GENERATED};\n\n${HANDLER.replace('event: Approval', 'event: ApprovalEvent')}`);
  });

  test('only a name imported as the event name takes it; the new import goes after the last import, before the code', () => {
    const text = 'import { BigInt } from "@graphprotocol/graph-ts";\n\nexport function other(): void {}\n';
    assert.equal(stub(text, APPROVAL), `import { BigInt } from "@graphprotocol/graph-ts";\nimport { Approval } from ${GENERATED};\n\nexport function other(): void {}\n\n${HANDLER}`);
  });

  test('a block handler: ethereum imported among other graph-ts names is enough; other graph-ts names are not', () => {
    const both = 'import { BigInt, ethereum } from "@graphprotocol/graph-ts";\n';
    assert.equal(stub(both, { kind: 'block' }), `${both}\n${BLOCK_HANDLER}`);
    const other = 'import { BigInt } from "@graphprotocol/graph-ts";\n';
    assert.equal(stub(other, { kind: 'block' }), `${other}import { ethereum } from "@graphprotocol/graph-ts";\n\n${BLOCK_HANDLER}`);
  });
});

describe('Solidity types that only look like known ones', () => {
  test('the whole type must match: text before or after an array, bytes or integer type gives no type', () => {
    for (const solidity of ['uint8[2]x', 'uint8[2]]', 'x\nuint8[]', 'xbytes32', 'notbytes', 'bigint', 'xuint8']) assert.equal(graphqlTypeOf(solidity), undefined, JSON.stringify(solidity));
    assert.equal(graphqlTypeOf('uint8[2]'), '[Int!]!');
  });
});
