/**
 * The pure logic behind the subgraph feature's editor pieces: what the Subgraphs view lists of a
 * manifest (summarizeManifest, functionOffset), query files (parseQueryFile and the operation to
 * send), and where the graph CLI's problems go (problemRange).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { problemRange } from '../../../../../src/core/subgraph/graphcli/problemRange';
import { functionOffset, summarizeManifest } from '../../../../../src/core/subgraph/manifest/manifestSummary';
import { operationAt, operationText, parseQueryFile, subgraphDirective } from '../../../../../src/core/subgraph/query/file';
import { TUTORIAL } from '../../../../fixtures/subgraphs/corpus';

const MANIFEST = fs.readFileSync(path.join(TUTORIAL, 'subgraph.yaml'), 'utf8');
const MAPPING = fs.readFileSync(path.join(TUTORIAL, 'src', 'mapping.ts'), 'utf8');
const range = (line: number, character: number, endCharacter: number, endLine = line) => ({ start: { line, character }, end: { line: endLine, character: endCharacter } });

test('a manifest summary: schema, data sources with their source and handlers, templates marked', () => {
  const templates =
    'templates:\n  - kind: ethereum\n    name: Pair\n    network: mainnet\n    mapping:\n      file: ./src/pair.ts\n      blockHandlers:\n        - handler: handleBlock\n      callHandlers:\n        - function: swap(uint256)\n          handler: handleSwap\n        - function: noHandler()\n';
  assert.deepEqual(summarizeManifest(MANIFEST + templates), {
    schemaFile: './schema.graphql',
    dataSources: [
      {
        name: 'ERC20',
        kind: 'ethereum',
        network: 'mainnet',
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        startBlock: 6082465,
        mappingFile: './src/mapping.ts',
        handlers: [{ kind: 'event', handler: 'handleApproval', trigger: 'Approval(indexed address,indexed address,uint256)' }],
        template: false,
      },
      {
        name: 'Pair',
        kind: 'ethereum',
        network: 'mainnet',
        address: undefined,
        startBlock: undefined,
        mappingFile: './src/pair.ts',
        // Event, call, then block handlers; an entry without a handler is not one.
        handlers: [
          { kind: 'call', handler: 'handleSwap', trigger: 'swap(uint256)' },
          { kind: 'block', handler: 'handleBlock', trigger: undefined },
        ],
        template: true,
      },
    ],
  });
});

test('a manifest that does not parse, or is empty, has no data sources; a start block must be a number', () => {
  assert.deepEqual(summarizeManifest('dataSources: ['), { schemaFile: undefined, dataSources: [] });
  assert.deepEqual(summarizeManifest(''), { schemaFile: undefined, dataSources: [] });
  assert.equal(summarizeManifest('dataSources:\n  - source:\n      startBlock: latest\n').dataSources[0].startBlock, undefined);
});

test("a handler's function in its mapping: at its name, comments skipped, `$` in names matched as written", () => {
  assert.equal(functionOffset(MAPPING, 'handleApproval'), MAPPING.indexOf('handleApproval(event'));
  assert.equal(functionOffset(MAPPING, 'handleTransfer'), undefined);
  assert.equal(functionOffset('// export function handleA(e: A): void {}\n/* function handleA( */', 'handleA'), undefined);
  assert.equal(functionOffset('export function handle$1 (e: A): void {}', 'handle$1'), 16);
  assert.equal(functionOffset('export function handleAB(e: A): void {}', 'handleA'), undefined);
});

const QUERIES = `# a comment first
# @subgraph  my/erc20  
fragment F on ApprovalQuery { id }
query Approvals($first: Int = 25, $skip: Int = 0) { approvalQueries(first: $first, skip: $skip) { ...F } }
query One { approvalQuery(id: "1") { ...F } }
`;

test('a query file: the record its directive names, its operations with paging, its fragments', () => {
  const file = parseQueryFile(QUERIES);
  assert.deepEqual(file.subgraph, { name: 'my/erc20', line: 1 });
  assert.deepEqual(
    file.operations.map((o) => [o.name, o.type, QUERIES.slice(o.start, o.end).split(' ', 2).join(' '), o.paging]),
    [
      ['Approvals', 'query', 'query Approvals($first:', { pageSize: 25 }],
      ['One', 'query', 'query One', undefined],
    ],
  );
  assert.ok(QUERIES.slice(file.operations[1].start, file.operations[1].end).endsWith('{ ...F } }'));
  assert.deepEqual(
    file.fragments.map((f) => QUERIES.slice(f.start, f.end)),
    ['fragment F on ApprovalQuery { id }'],
  );
  assert.equal(file.syntaxError, undefined);
  assert.equal(subgraphDirective('my/erc20'), '# @subgraph my/erc20');
  assert.deepEqual(parseQueryFile(`${subgraphDirective('a b')}\n{ x }`).subgraph, { name: 'a b', line: 0 });
});

test('a directive only among the opening comments; paging needs $first and $skip, else the default size', () => {
  assert.equal(parseQueryFile('{ x }\n# @subgraph late\n').subgraph, undefined);
  const [noDefault, firstOnly, zero] = parseQueryFile('query A($first: Int, $skip: Int) { x }\nquery B($first: Int = 5) { x }\nquery C($first: Int = 0, $skip: Int) { x }').operations;
  assert.deepEqual([noDefault.paging, firstOnly.paging, zero.paging], [{ pageSize: 100 }, undefined, { pageSize: 100 }]);
});

test('text that is not GraphQL is one query from its first brace, with the syntax error', () => {
  const text = '# @subgraph s\n\n{ approvals( }';
  const file = parseQueryFile(text);
  assert.deepEqual(file.operations, [{ type: 'query', start: text.indexOf('{'), end: text.length }]);
  assert.match(file.syntaxError ?? '', /Syntax Error/);
});

test('the text sent for one operation blanks the others (line breaks kept); the operation at a cursor', () => {
  const file = parseQueryFile(QUERIES);
  const sent = operationText(QUERIES, file, 1);
  assert.equal(sent.length, QUERIES.length);
  assert.equal(sent.split('\n').length, QUERIES.split('\n').length);
  assert.ok(sent.includes('fragment F on ApprovalQuery { id }') && sent.includes('query One') && !sent.includes('Approvals'));
  const [a, b] = file.operations;
  assert.deepEqual([operationAt(file, a.start), operationAt(file, a.end), operationAt(file, b.start + 3), operationAt(file, 0), operationAt(file, QUERIES.length)], [0, 0, 1, 0, 1]);
  assert.equal(operationAt(parseQueryFile('fragment F on X { id }'), 0), undefined);
});

test("a CLI problem's range: at the printed line and column over the word there, clamped into the file", () => {
  const text = 'import { X } from "a";\nlet y = NoSuchEntity;\n';
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'f.ts', line: 2, column: 9 }, text), range(1, 8, 20));
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'f.ts', line: 2, column: 8 }, text), range(1, 7, 8), 'not on a word: one character');
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'f.ts', line: 99 }, text), range(2, 0, 1), 'past the end: the last line');
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'f.ts', line: 0, column: 0 }, text), range(0, 0, 6));
});

test("a CLI problem's range: by key path in the manifest, else at the value it names, else the file's start", () => {
  const network = MANIFEST.split('\n').findIndex((l) => l.includes('network: mainnet'));
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'subgraph.yaml', keyPath: ['dataSources', 0, 'network'] }, MANIFEST), range(network, 13, 20));
  const handler = MANIFEST.split('\n').findIndex((l) => l.includes('handler: handleApproval'));
  assert.deepEqual(problemRange({ severity: 'error', message: 'm', file: 'subgraph.yaml', value: 'handleApproval' }, MANIFEST), range(handler, 19, 33));
  // Not after `handler:`: its first whole-word use (not inside xa.b); its `.` is literal (not axb).
  assert.deepEqual(problemRange({ severity: 'warning', message: 'm', file: 'f', value: 'a.b' }, 'xa.b\naxb a.b'), range(1, 4, 7));
  assert.deepEqual(problemRange({ severity: 'warning', message: 'm', file: 'f', value: 'missing' }, MANIFEST), range(0, 0, 0));
  assert.deepEqual(problemRange({ severity: 'warning', message: 'm', file: 'f' }, MANIFEST), range(0, 0, 0));
});
