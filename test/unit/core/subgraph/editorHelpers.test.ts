/**
 * The helpers the editor builds completions, hovers and the CLI problem matcher on: ABI events
 * and topics, list query names, mapping scans, stubs, key-path ranges, the YAML reading.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { id } from 'ethers';
import { bestEvent, canonicalSignature, events, normalizeSignature, parseAbi, topic0, type Abi } from '../../../../src/core/subgraph/code/abi';
import { nodeAtPath, parseCliPath, parseManifest, parseWithYaml, rangeOfKeyPath } from '../../../../src/core/subgraph/manifest/manifestDoc';
import { blankComments, handlerNames, scanMapping } from '../../../../src/core/subgraph/code/mappingScan';
import { listQueryName as entityListQueryName } from '../../../../src/core/subgraph/query/naming';
import { entityStub, graphqlTypeOf, handlerStub } from '../../../../src/core/subgraph/code/stubs';
import { LineIndex } from '../../../../src/core/subgraph/text';
import { resolvePlain } from '../../../../src/core/subgraph/manifest/fastYaml';
import { compareVersions, parseVersion } from '../../../../src/core/subgraph/rules/versions';
import { TUTORIAL } from '../../../fixtures/subgraphs/corpus';

const tutorialAbi = (): Abi => {
  const r = parseAbi(fs.readFileSync(path.join(TUTORIAL, 'abis/ERC20.json'), 'utf8'));
  assert.ok('abi' in r);
  return r.abi;
};
const APPROVAL = 'Approval(indexed address,indexed address,uint256)';

describe('ABI', () => {
  test('events with indexed markers, as manifests write them', () => {
    assert.deepEqual(events(tutorialAbi()), [APPROVAL, 'Transfer(indexed address,indexed address,uint256)']);
  });
  test('call functions: state-changing ones only', () => {
    assert.deepEqual(tutorialAbi().callFunctions, ['approve(address,uint256)', 'transfer(address,uint256)', 'transferFrom(address,address,uint256)']);
  });
  test('tuples, arrays and artifacts with an abi key', () => {
    const artifact = {
      abi: [
        {
          type: 'event',
          name: 'Order',
          inputs: [
            { name: 'o', type: 'tuple', indexed: true, components: [{ type: 'address' }, { type: 'uint256[]' }] },
            { name: 'list', type: 'tuple[2]', components: [{ type: 'bool' }] },
          ],
        },
      ],
    };
    const r = parseAbi(JSON.stringify(artifact));
    assert.ok('abi' in r);
    assert.deepEqual(events(r.abi), ['Order((indexed address,uint256[]),(bool)[2])']);
  });
  test('not an ABI', () => {
    assert.match((parseAbi('{') as { error: string }).error, /^Could not parse ABI/);
    assert.match((parseAbi('{"contractName": "X"}') as { error: string }).error, /^No valid ABI/);
    assert.deepEqual(parseAbi('[1, null, {"type": "event"}]'), { abi: { events: [], callFunctions: [] } });
  });
  test('topic0 is the keccak of the canonical signature', () => {
    assert.equal(canonicalSignature(APPROVAL), 'Approval(address,address,uint256)');
    assert.equal(topic0(APPROVAL), '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925');
    assert.equal(topic0('Transfer(address,address,uint256)'), id('Transfer(address,address,uint256)'));
  });
  test('whitespace normalisation keeps one space after indexed', () => {
    assert.equal(normalizeSignature(' Approval( indexed  address ,indexed address,  uint256 ) '), APPROVAL);
  });
  test('the best replacement for a wrong signature', () => {
    assert.equal(bestEvent(tutorialAbi(), 'Approval(address,address,uint256)')?.signature, APPROVAL);
    assert.equal(bestEvent(tutorialAbi(), 'Tranfser(address)')?.name, 'Transfer');
    assert.equal(bestEvent(tutorialAbi(), 'Paused()'), undefined);
  });
});

describe('names', () => {
  test('entity list queries: lower camel case plural', () => {
    assert.equal(entityListQueryName('ApprovalQuery'), 'approvalQueries');
    assert.equal(entityListQueryName('Transfer'), 'transfers');
    assert.equal(entityListQueryName('TokenBox'), 'tokenBoxes');
  });
});

describe('mapping scan', () => {
  const source = `import { Approval as ApprovalEvent, Transfer } from "../generated/ERC20/ERC20";
import { ApprovalQuery } from '../generated/schema';
// export function commentedOut(): void {}
/* export function alsoCommented(): void {} */
const url = "http://example.com/*not a comment*/";
export function handleApproval(event: ApprovalEvent): void {}
export function  handleTransfer (event: Transfer): void {}
function helper(): void {}
export { helper as handleHelper };
export * from "./more";
`;
  test('exported functions, not commented ones or strings', () => {
    assert.deepEqual(handlerNames(source), ['handleApproval', 'handleHelper', 'handleTransfer']);
    assert.deepEqual(scanMapping(source).exportAll, ['./more']);
  });
  test('imports with their positions', () => {
    const scan = scanMapping(source);
    assert.deepEqual(
      scan.imports.map((i) => i.from),
      ['../generated/ERC20/ERC20', '../generated/schema'],
    );
    const approval = scan.imports[0].names[0];
    assert.deepEqual([approval.name, approval.local, source.slice(approval.start, approval.end)], ['Approval', 'ApprovalEvent', 'Approval']);
  });
  test('export and import statements written without spaces', () => {
    const tight = `import{ A }from'./a';\nexport{ handleA };\nexport*from'./b';\nexport *from "./c";\nexport* from "./d";\nexport * from"./e";\nimport {B} from"./f";\nimport {C}from "./g";\n`;
    const scan = scanMapping(tight);
    assert.deepEqual([...scan.exports], ['handleA']);
    assert.deepEqual(scan.exportAll, ['./b', './c', './d', './e']);
    assert.deepEqual(
      scan.imports.map((i) => [i.from, i.names.map((n) => n.name)]),
      [
        ['./a', ['A']],
        ['./f', ['B']],
        ['./g', ['C']],
      ],
    );
  });
  test('a template literal with escapes (a backslash before a letter or a line end) is kept whole, /* inside it too', () => {
    // Misread, the /* in the first literal would open a comment up to the */ in the second one.
    for (const escape of ['\\n', '\\\n']) {
      const text = `const s = \`a${escape}/*\`;\nexport function handleA(): void {}\nconst t = \`*/\`;\n`;
      assert.equal(blankComments(text), text);
      assert.deepEqual([...scanMapping(text).exports], ['handleA']);
    }
  });
});

describe('stubs', () => {
  test('Solidity types to graph-node scalars', () => {
    assert.deepEqual(['address', 'uint256', 'int32', 'uint32', 'uint8', 'bool', 'string', 'bytes32', 'address[]', 'tuple'].map(graphqlTypeOf), [
      'Bytes!',
      'BigInt!',
      'Int!',
      'BigInt!',
      'Int!',
      'Boolean!',
      'String!',
      'Bytes!',
      '[Bytes!]!',
      undefined,
    ]);
  });
  test('an entity appended to the schema', () => {
    const fix = entityStub('/p/schema.graphql', 'type A @entity(immutable: true) { id: ID! }', 'Swap', [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'pool', type: 'tuple', indexed: false },
    ]);
    assert.equal(fix.edits[0].text, '\n\ntype Swap @entity(immutable: true) {\n  id: Bytes!\n  sender: Bytes!\n  # pool: tuple has no direct GraphQL type\n}\n');
    assert.deepEqual(fix.edits[0].range.start, { line: 0, character: 43 });
  });
  test('call and block handlers', () => {
    const base = {
      mappingFile: '/p/src/mapping.ts',
      mappingText: 'import { log } from "@graphprotocol/graph-ts";\n',
      generatedDir: '/p/generated',
      dataSourceFolder: 'ERC20',
      abiName: 'ERC20',
    };
    const call = handlerStub({ ...base, scan: scanMapping(base.mappingText), handler: 'handleApprove', trigger: { kind: 'call', functionName: 'approve' } });
    assert.deepEqual(
      call.edits.map((e) => e.text),
      ['import { ApproveCall } from "../generated/ERC20/ERC20";\n', '\nexport function handleApprove(call: ApproveCall): void {\n  // TODO: write entities for this call\n}\n'],
    );
    assert.deepEqual(call.edits[0].range.start, { line: 1, character: 0 });
    const block = handlerStub({ ...base, scan: scanMapping(base.mappingText), handler: 'handleBlock', trigger: { kind: 'block' } });
    assert.ok(block.edits.some((e) => e.text.includes('handleBlock(block: ethereum.Block)')));
  });
});

describe('versions', () => {
  test('parse and compare', () => {
    assert.deepEqual(parseVersion('1.3.0'), [1, 3, 0]);
    assert.equal(parseVersion('1.3'), undefined);
    assert.equal(parseVersion(5), undefined);
    assert.ok(compareVersions('0.0.10', '0.0.9') > 0);
    assert.equal(compareVersions('0.38.0-alpha-1', '0.38.0'), 0);
  });
});

describe('positions and key paths', () => {
  const text = fs.readFileSync(path.join(TUTORIAL, 'subgraph.yaml'), 'utf8');
  const doc = parseManifest(text);

  test('LineIndex maps offsets both ways and clamps', () => {
    const lines = new LineIndex('ab\ncd\n');
    assert.deepEqual(lines.position(4), { line: 1, character: 1 });
    assert.equal(lines.offset({ line: 1, character: 1 }), 4);
    assert.equal(lines.offset({ line: 1, character: 99 }), 5);
    assert.deepEqual(lines.position(99), { line: 2, character: 0 });
  });
  test('the graph CLI path, with or without mapping', () => {
    assert.deepEqual(parseCliPath('dataSources > 0 > eventHandlers > 0'), ['dataSources', 0, 'eventHandlers', 0]);
    assert.deepEqual(parseCliPath('/'), []);
    const viaCli = rangeOfKeyPath(doc, parseCliPath('dataSources > 0 > eventHandlers > 0'));
    const full = rangeOfKeyPath(doc, ['dataSources', 0, 'mapping', 'eventHandlers', 0]);
    assert.deepEqual(viaCli, full);
    assert.deepEqual(full, { start: { line: 22, character: 10 }, end: { line: 23, character: 33 } });
  });
  test('the key or the value', () => {
    assert.deepEqual(rangeOfKeyPath(doc, ['dataSources', 0, 'source', 'startBlock'], 'key'), { start: { line: 11, character: 6 }, end: { line: 11, character: 16 } });
    assert.deepEqual(rangeOfKeyPath(doc, ['dataSources', 0, 'source', 'startBlock']), { start: { line: 11, character: 18 }, end: { line: 11, character: 25 } });
  });
  test('a path past the document stops at the deepest part there', () => {
    const target = nodeAtPath(doc.root, ['dataSources', 0, 'source', 'nothing', 3]);
    assert.equal(target?.matched, 3);
    assert.deepEqual(rangeOfKeyPath(doc, ['dataSources', 0, 'mapping', 'abis', 0, 'file']).start, { line: 20, character: 16 });
    assert.deepEqual(rangeOfKeyPath(parseManifest(''), ['dataSources']), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });
  test('the fast parser reads the tutorial; anchors send it to the yaml package', () => {
    assert.equal(doc.parser, 'fast');
    assert.equal(parseManifest('a: &x 1\nb: *x\n').parser, 'yaml');
  });
  test('aliases resolve to the anchored node; a self-reference does not loop', () => {
    const { root } = parseWithYaml('a: &x {k: v}\nb: *x\nc: &s [*s]\n');
    assert.equal(nodeAtPath(root, ['b'])?.node, nodeAtPath(root, ['a'])?.node);
    assert.equal(nodeAtPath(root, ['c', 0, 0, 0])?.matched, 4);
  });
  test('plain scalars resolve like YAML 1.2 core, as the yaml package does', () => {
    const samples = [
      '~',
      'null',
      'Null',
      'true',
      'False',
      'TRUE',
      '0o17',
      '0x1F',
      '-12',
      '+5',
      '1e3',
      '.5',
      '1.',
      '.inf',
      '-.Inf',
      '.nan',
      '1_000',
      '0b101',
      '-0x5',
      'yes',
      '0.0.5',
      'ethereum/events',
    ];
    for (const s of samples) {
      const fromYaml = parseWithYaml(`k: ${s}`).root;
      const expected = fromYaml?.kind === 'map' && fromYaml.pairs[0].value.kind === 'scalar' ? fromYaml.pairs[0].value.value : Symbol('none');
      assert.ok(Object.is(resolvePlain(s), expected), `${s}: ${String(resolvePlain(s))} vs ${String(expected)}`);
    }
  });
});
