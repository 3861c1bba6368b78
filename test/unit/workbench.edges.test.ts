/**
 * The pure logic behind the workbench's rough edges (issue 11, item 7): hex quantities read as
 * numbers, the graph CLI's output without stack noise and its problems as file:line:col, query
 * editor titles, storage export names. The workbench suites check what a user sees of each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGrowsLinearly } from '../support/growth';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeQuantity, quantityComments, quantityNotes } from '../../src/core/rpc/quantities';
import { CliNoiseFilter, extractProblems, formatProblem } from '../../src/core/subgraph/graphcli/output';
import { queryTabName } from '../../src/core/subgraph/query/tabName';
import { commonFailure, shortError } from '../../src/core/nodes/health';
import { storageExportName } from '../../src/core/storage/exportName';

const byMethod = (method: string) => ({ methodOf: () => method });

test('scalar results read by their method: balance in ether, gas price in gwei, block number, gas', () => {
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x1bc16d674ec80000' }, byMethod('eth_getBalance')), [
    '// result: 0x1bc16d674ec80000 = 2000000000000000000 wei = 2.0 ETH',
  ]);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x3b9aca00' }, byMethod('eth_gasPrice')), ['// result: 0x3b9aca00 = 1000000000 wei = 1.0 gwei']);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x1a' }, byMethod('eth_blockNumber')), ['// result: 0x1a = 26']);
  assert.deepEqual(quantityComments({ jsonrpc: '2.0', id: 1, result: '0x5208' }, byMethod('eth_estimateGas')), ['// result: 0x5208 = 21000 gas']);
  // 10000 ether, the anvil default balance: past 2^53, exact.
  assert.equal(describeQuantity('0x21e19e0c9bab2400000', 'ether'), '10000000000000000000000 wei = 10000.0 ETH');
  assert.equal(describeQuantity('0x1', 'ether'), '1 wei = 0.000000000000000001 ETH');
});

test('what is not a quantity is left alone: hashes and words, data, unknown methods, errors', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  assert.deepEqual(quantityNotes({ id: 1, result: hash }, byMethod('eth_getStorageAt')).notes, []);
  assert.deepEqual(quantityNotes({ id: 1, result: '0x1' }, byMethod('eth_call')).notes, []);
  assert.deepEqual(quantityNotes({ id: 1, result: '0x1' }).notes, [], 'no method known: no guess');
  assert.deepEqual(quantityNotes({ id: 1, error: { code: -1, message: '0x10' } }, byMethod('eth_getBalance')).notes, []);
  // Not minimal hex (leading zero), a hash in a field named like a quantity, or over 256 bits.
  assert.deepEqual(quantityNotes({ id: 1, result: { number: '0x01', gasUsed: `0x1${'0'.repeat(64)}`, hash, value: 'abc' } }, byMethod('eth_getBlockByNumber')).notes, []);
});

test('fields of a block, a receipt and a batch, by name and path; the raw reply is not touched', () => {
  const block = {
    number: '0x10',
    timestamp: '0x6553f100',
    gasUsed: '0x5208',
    gasLimit: '0x1c9c380',
    baseFeePerGas: '0x7',
    hash: `0x${'1'.repeat(64)}`,
    miner: `0x${'2'.repeat(40)}`,
    transactions: [{ value: '0xde0b6b3a7640000', gas: '0x5208', nonce: '0x0' }],
  };
  const reply = { jsonrpc: '2.0', id: 3, result: block };
  const before = JSON.stringify(reply);
  assert.deepEqual(quantityComments(reply, byMethod('eth_getBlockByNumber')), [
    '// result.number: 0x10 = 16',
    '// result.timestamp: 0x6553f100 = 1700000000 = 2023-11-14T22:13:20Z',
    '// result.gasUsed: 0x5208 = 21000 gas',
    '// result.gasLimit: 0x1c9c380 = 30000000 gas',
    '// result.baseFeePerGas: 0x7 = 7 wei = 0.000000007 gwei',
    '// result.transactions[0].value: 0xde0b6b3a7640000 = 1000000000000000000 wei = 1.0 ETH',
    '// result.transactions[0].gas: 0x5208 = 21000 gas',
  ]);
  assert.equal(JSON.stringify(reply), before);

  const methods: Record<number, string> = { 1: 'eth_blockNumber', 2: 'eth_getBalance' };
  const batch = [
    { id: 2, result: '0x0' },
    { id: 1, result: '0xff' },
  ];
  assert.deepEqual(quantityComments(batch, { methodOf: (id) => methods[id as number] }), ['// [0].result: 0x0 = 0 wei = 0.0 ETH', '// [1].result: 0xff = 255']);
});

test("a node's keys cannot break out of the comment lines: odd keys are quoted and escaped", () => {
  const reply = { id: 1, result: { 'a\nforged: line': { gasUsed: '0x5208' }, 'b\u2028c': { gas: '0x1' }, plain_1: { gas: '0x2' } } };
  const lines = quantityComments(reply, byMethod('eth_getBlockByNumber'));
  assert.deepEqual(lines, ['// result["a\\nforged: line"].gasUsed: 0x5208 = 21000 gas', '// result["b\\u2028c"].gas: 0x1 = 1 gas', '// result.plain_1.gas: 0x2 = 2 gas']);
  for (const line of lines) assert.doesNotMatch(line, /[\n\r\u2028\u2029]/);
});

test('a huge reply costs bounded work and lines', () => {
  const reply = (n: number) => ({ id: 1, result: { number: '0x1', transactions: Array.from({ length: n }, () => ({ gas: '0x5208', value: '0x1' })) } });
  const lines = quantityComments(reply(100_000), byMethod('eth_getBlockByNumber'));
  // Bounded work: 40× the transactions must not cost 40× the time (the walk stops at its limit).
  const big = reply(100_000);
  const small = reply(2500);
  assertGrowsLinearly((n) => quantityComments(n === 2500 ? small : big, byMethod('eth_getBlockByNumber')), 2500, 100_000, 1);
  assert.equal(lines.length, 21);
  assert.match(lines.at(-1)!, /^\/\/ … and \d+ more quantities$/);
  // Deeper than the bound: ignored, not a stack overflow.
  let deep: unknown = { gas: '0x1' };
  for (let i = 0; i < 10_000; i++) deep = { inner: deep };
  assert.deepEqual(quantityNotes({ id: 1, result: deep }, byMethod('debug_traceTransaction')).notes, []);
});

const BUILD = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'graph-output', 'build-ts2305.txt'), 'utf8');

test('graph build output without stack frames, the thrown copy and the false "compiler crashed" text', () => {
  const filter = new CliNoiseFilter();
  // In chunks of whole lines, as runGraph hands them on.
  const lines = BUILD.split('\n');
  let shown = '';
  for (let i = 0; i < lines.length; i += 7) shown += filter.push(lines.slice(i, i + 7).join('\n') + (i + 7 < lines.length ? '\n' : ''));
  assert.doesNotMatch(shown, /^\s+at /m, 'a stack frame is shown');
  assert.doesNotMatch(shown, /EEXIT|crashed|Discord|Github issues|Suggestion/);
  assert.doesNotMatch(shown, /^Error: Failed to compile data source mapping/m, 'the thrown copy of the ✖ line is shown');
  assert.match(shown, /^ERROR TS2305: Module 'generated\/schema' has no exported member 'NoSuchEntity'\.$/m);
  assert.match(shown, /^ in src\/mapping\.ts\(4,25\)$/m);
  assert.match(shown, /^✖ Failed to compile subgraph: Failed to compile data source mapping: 1 compile error\(s\)$/m);
  assert.equal(shown.match(/^- Apply migrations$/gm)?.length, 1, 'the spinner step once');
  assert.ok(shown.split('\n').length < 25, `still ${shown.split('\n').length} lines`);

  const [problem] = extractProblems(BUILD, 'subgraph.yaml');
  assert.equal(formatProblem(problem), "src/mapping.ts:4:25 error TS2305: Module 'generated/schema' has no exported member 'NoSuchEntity'.");
  assert.equal(
    formatProblem({ severity: 'warning', file: 'subgraph.yaml', keyPath: ['dataSources', 0, 'source'], message: 'a\n  b' }),
    'subgraph.yaml (dataSources > 0 > source) warning: a b',
  );
});

test('a real compiler crash (no compile error before it) keeps its text', () => {
  const shown = new CliNoiseFilter().push(
    "Error: The AssemblyScript compiler crashed when compiling this file: 'src/mapping.ts'\nSuggestion: try to comment the whole file\n    at process.<anonymous> (file:///x/asc.js:3:11)\n",
  );
  assert.match(shown, /compiler crashed/);
  assert.match(shown, /Suggestion/);
  assert.doesNotMatch(shown, /at process/);
});

test('query editors are titled by their one operation, else the subgraph; never by the comment line', () => {
  assert.equal(queryTabName(['ApprovalQueries'], 'chaindeck/erc20-approvals'), 'ApprovalQueries.graphql');
  assert.equal(queryTabName(['ApprovalQueries', 'Tokens'], 'chaindeck/erc20-approvals'), 'chaindeck_erc20-approvals.graphql');
  assert.equal(queryTabName([undefined], 'approvals'), 'approvals.graphql');
  assert.equal(queryTabName([], '# @subgraph x'), '@subgraph x.graphql');
  const taken = new Set(['Health.graphql', 'Health 2.graphql']);
  assert.equal(
    queryTabName(['Health'], 's', (n) => taken.has(n)),
    'Health 3.graphql',
  );
  assert.equal(queryTabName([], '...'), 'query.graphql');
  assert.equal(queryTabName(['a\x1b[2Jb/c'], 's'), 'a_[2Jb_c.graphql', 'control characters and slashes');
  assert.equal(queryTabName(['Named', undefined], 'sub'), 'sub.graphql', 'two operations, one of them unnamed');
  assert.equal(queryTabName([' _.x._ '], 's'), 'x.graphql', 'spaces, dots and underscores trimmed at both ends');
  assert.equal(queryTabName(['a'.repeat(90)], 's'), `${'a'.repeat(80)}.graphql`);
  assert.equal(queryTabName(['a::b'], 's'), 'a_b.graphql', 'a run of unsafe characters is one _');
  assert.equal(
    queryTabName(['Q'], 's', () => true),
    'Q 100.graphql',
    'bounded: the hundredth reuses its name',
  );
  assert.equal(
    queryTabName(['Q'], 's', (n) => n !== 'Q 99.graphql'),
    'Q 99.graphql',
  );
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

test('a node whose every fact failed has one failure; a node that answered some has none', () => {
  const refused = 'Cannot reach the node at http://127.0.0.1:9: connection refused (ECONNREFUSED). Is the node running, and are the host and port right?';
  assert.equal(commonFailure({ clientVersion: { error: refused }, latestBlock: { error: refused }, chainId: { error: refused } }), refused);
  assert.equal(commonFailure({ clientVersion: { error: 'a' }, chainId: { error: 'b' } }), 'a; b');
  assert.equal(commonFailure({ clientVersion: { error: 'Method not found' }, latestBlock: { value: '1', raw: '0x1' } }), undefined);
  assert.equal(commonFailure({}), undefined, 'a protocol without facts is not failing');
  assert.equal(shortError(refused), 'Cannot reach the node at http://127.0.0.1:9: connection refused (ECONNREFUSED).');
  assert.equal(shortError(`${'x'.repeat(200)}\nsecond line`).length, 90);
});
