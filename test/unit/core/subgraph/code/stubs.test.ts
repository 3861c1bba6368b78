/**
 * The code quick fixes write, exactly: handler stubs with the import their parameter needs (and
 * the names already taken), entity stubs from an event's parameters, Solidity to graph-node
 * types at the bit widths where i32 stops, and what the mapping scan reads out of a file.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blankComments, handlerNames, scanMapping } from '../../../../../src/core/subgraph/code/mappingScan';
import { entityStub, graphqlTypeOf, handlerStub, type HandlerStubInput } from '../../../../../src/core/subgraph/code/stubs';
import { applyFix } from '../../../../support/findings';

const APPROVAL = { kind: 'event' as const, name: 'Approval', signature: 'Approval(indexed address,indexed address,uint256)', params: [{ name: 'owner', type: 'address', indexed: true }] };

function stub(mappingText: string, trigger: HandlerStubInput['trigger'], extra: Partial<HandlerStubInput> = {}) {
  const input: HandlerStubInput = {
    mappingFile: '/p/src/mapping.ts',
    mappingText,
    scan: scanMapping(mappingText),
    handler: 'handleIt',
    generatedDir: '/p/generated',
    dataSourceFolder: 'ERC20',
    abiName: 'ERC20',
    trigger,
    ...extra,
  };
  const fix = handlerStub(input);
  return { fix, text: applyFix(mappingText, fix) };
}

describe('handler stubs', () => {
  test('an event into an empty file: the import at the top, the handler after it', () => {
    const { fix, text } = stub('', APPROVAL);
    assert.equal(
      text,
      'import { Approval } from "../generated/ERC20/ERC20";\nexport function handleIt(event: Approval): void {\n  // TODO: write entities for this event (Approval(indexed address,indexed address,uint256))\n}\n',
    );
    assert.deepEqual({ kind: fix.kind, title: fix.title, file: fix.file }, { kind: 'add-handler', title: 'Add handler handleIt to mapping.ts', file: '/p/src/mapping.ts' });
    assert.deepEqual(fix.kind === 'add-handler' && [fix.mappingFile, fix.handler, fix.event], [
      '/p/src/mapping.ts',
      'handleIt',
      { name: 'Approval', signature: APPROVAL.signature, params: APPROVAL.params },
    ]);
  });

  test('the event already imported under another name: that name, no new import', () => {
    const { fix, text } = stub('import { Approval as A } from "../generated/ERC20/ERC20"\n\n', APPROVAL);
    assert.equal(fix.edits.length, 1);
    assert.equal(
      text,
      'import { Approval as A } from "../generated/ERC20/ERC20"\n\nexport function handleIt(event: A): void {\n  // TODO: write entities for this event (Approval(indexed address,indexed address,uint256))\n}\n',
    );
  });

  test('an entity named like the event: the event comes in as ApprovalEvent, after the last import', () => {
    const { text } = stub('import { Approval } from "../generated/schema";\nimport { log } from "@graphprotocol/graph-ts";', APPROVAL);
    assert.equal(
      text,
      'import { Approval } from "../generated/schema";\nimport { log } from "@graphprotocol/graph-ts";\nimport { Approval as ApprovalEvent } from "../generated/ERC20/ERC20";\n\n\nexport function handleIt(event: ApprovalEvent): void {\n  // TODO: write entities for this event (Approval(indexed address,indexed address,uint256))\n}\n',
    );
  });

  test('a call handler for a taken name keeps the Call class name; templates import from their folder', () => {
    const { text } = stub('import { ApproveCall } from "./elsewhere";\n', { kind: 'call', functionName: 'approve' }, { dataSourceFolder: 'templates/Pair', abiName: 'Pair' });
    assert.equal(
      text,
      'import { ApproveCall } from "./elsewhere";\nimport { ApproveCall } from "../generated/templates/Pair/Pair";\n\nexport function handleIt(call: ApproveCall): void {\n  // TODO: write entities for this call\n}\n',
    );
  });

  test('a mapping beside the generated folder gets a ./ path', () => {
    const { text } = stub('x();\n\n', APPROVAL, { mappingFile: '/p/mapping.ts' });
    assert.match(text, /^import \{ Approval \} from "\.\/generated\/ERC20\/ERC20";\nx\(\);\n\nexport function handleIt/);
  });

  test('block and file handlers import from graph-ts unless it is there', () => {
    assert.equal(
      stub('', { kind: 'block' }).text,
      'import { ethereum } from "@graphprotocol/graph-ts";\nexport function handleIt(block: ethereum.Block): void {\n  // TODO: write entities for this block\n}\n',
    );
    assert.equal(
      stub('import { Bytes } from "@graphprotocol/graph-ts";', { kind: 'file' }).text,
      'import { Bytes } from "@graphprotocol/graph-ts";\n\nexport function handleIt(content: Bytes): void {\n  // TODO: write entities for this file\n}\n',
    );
    const other = stub('import { Bytes } from "./mine";\n', { kind: 'file' });
    assert.equal(other.fix.edits.length, 2, 'a Bytes from elsewhere is not graph-ts’s');
    assert.equal(other.fix.kind === 'add-handler' && 'event' in other.fix, false);
  });
});

describe('entity stubs and types', () => {
  test('fields from the event, id left to the stub, types without a scalar as comments; gaps by how the file ends', () => {
    const params = [
      { name: 'id', type: 'uint256', indexed: false },
      { name: 'who', type: 'address', indexed: true },
      { name: 'data', type: '(uint8,bool)', indexed: false },
    ];
    const body = 'type Swap @entity(immutable: true) {\n  id: Bytes!\n  who: Bytes!\n  # data: (uint8,bool) has no direct GraphQL type\n}\n';
    for (const [schema, gap] of [
      ['', ''],
      ['type A { id: ID! }\n\n', ''],
      ['type A { id: ID! }\n', '\n'],
      ['type A { id: ID! }', '\n\n'],
    ]) {
      const fix = entityStub('/p/schema.graphql', schema, 'Swap', params);
      assert.equal(applyFix(schema, fix), `${schema}${gap}${body}`, JSON.stringify(schema));
      assert.deepEqual({ kind: fix.kind, title: fix.title, file: fix.file }, { kind: 'add-entity', title: 'Add entity Swap to schema.graphql', file: '/p/schema.graphql' });
    }
    assert.equal(entityStub('/p/s.graphql', '', 'Empty').edits[0].text, 'type Empty @entity(immutable: true) {\n  id: Bytes!\n}\n');
  });

  test('Solidity types: i32 holds int8…int32 and uint8…uint24; arrays of any depth become non-null lists', () => {
    const cases: [string, string | undefined][] = [
      ['int', 'BigInt!'],
      ['uint', 'BigInt!'],
      ['int24', 'Int!'],
      ['uint24', 'Int!'],
      ['int32', 'Int!'],
      ['uint32', 'BigInt!'],
      ['int40', 'BigInt!'],
      ['bytes', 'Bytes!'],
      ['bytes1', 'Bytes!'],
      ['bytesx', undefined],
      ['xaddress', undefined],
      ['uint8x', undefined],
      ['bool[]', '[Boolean!]!'],
      ['string[3]', '[String!]!'],
      ['uint8[][2]', '[[Int!]!]!'],
      ['tuple[]', undefined],
      ['fixed128x18', undefined],
    ];
    for (const [solidity, graphql] of cases) assert.equal(graphqlTypeOf(solidity), graphql, solidity);
  });
});

describe('mapping scan', () => {
  test('comments blanked with lines kept; strings with // and /* kept', () => {
    assert.equal(blankComments('a // x\nb /* y\nz */ c "//s" \'/*t\' `//u`'), 'a     \nb     \n     c "//s" \'/*t\' `//u`');
    assert.equal(blankComments('a /* open'), 'a        ');
  });

  test('exports in every form graph-cli accepts; generators and declare; renamed exports by their public name', () => {
    const text =
      'export function a() {}\nexport declare function b(): void;\nexport function* c() {}\nexport function  d () {}\nexport { e, f as g , }\nexport {h}\nexport * from "./x";\nexport * from \'./y\';\nfunction notExported() {}\n// export function commented() {}\n';
    assert.deepEqual(handlerNames(text), ['a', 'b', 'c', 'd', 'e', 'g', 'h']);
    assert.deepEqual(scanMapping(text).exportAll, ['./x', './y']);
  });

  test('imports: names, local names and exact offsets; several per line; single quotes', () => {
    const text = "import {A, B as C} from './m'; import { $d } from \"n\"\nimport {} from 'e'";
    const scan = scanMapping(text);
    assert.deepEqual(
      scan.imports.map((i) => [i.from, text.slice(i.start, i.end), i.names.map((n) => [n.name, n.local, text.slice(n.start, n.end)])]),
      [
        [
          './m',
          "import {A, B as C} from './m'",
          [
            ['A', 'A', 'A'],
            ['B', 'C', 'B'],
          ],
        ],
        ['n', 'import { $d } from "n"', [['$d', '$d', '$d']]],
        ['e', "import {} from 'e'", []],
      ],
    );
  });
});

describe('mappings that already import several names; types that only look like Solidity types', () => {
  /**
   * Handler stubs when the mapping already imports several names: which import counts as the
   * event's (or graph-ts's), when the event's name is taken, and where a new import goes when code
   * follows the imports. Solidity types that only look like arrays, bytes or integers get no type.
   */
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
});
