import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeDirective, parseRequestFile, requestAt } from '../../../../src/core/rpc/requestFile';

const lines = (...l: string[]) => l.join('\n');

test('a single request without separators gets jsonrpc, id and params filled in', () => {
  const file = parseRequestFile('{"method": "eth_blockNumber"}\n');
  assert.equal(file.requests.length, 1);
  assert.deepEqual(file.requests[0].payload, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  assert.deepEqual(file.requests[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 29 } });
  assert.equal(file.requests[0].title, undefined);
  assert.equal(file.node, undefined);
});

test('what the request gives is kept', () => {
  const file = parseRequestFile('{"jsonrpc":"2.0","id":7,"method":"eth_getBalance","params":["0xabc","latest"]}');
  assert.deepEqual(file.requests[0].payload, { jsonrpc: '2.0', id: 7, method: 'eth_getBalance', params: ['0xabc', 'latest'] });
});

test('several requests separated by ### lines, with titles, comments and ranges', () => {
  const text = lines(
    '# @node Local anvil',
    '',
    '### Latest block',
    '// the newest block number',
    '{',
    '  "method": "eth_blockNumber"',
    '}',
    '',
    '###',
    '  {"method": "web3_clientVersion", "id": 3}',
    '### Chain id   ',
    '{"method": "eth_chainId"}',
  );
  const file = parseRequestFile(text);
  assert.deepEqual(file.node, { name: 'Local anvil', line: 0 });
  assert.deepEqual(
    file.requests.map((r) => [r.title, r.sectionLine, r.range.start, r.range.end]),
    [
      ['Latest block', 2, { line: 4, character: 0 }, { line: 6, character: 1 }],
      [undefined, 8, { line: 9, character: 2 }, { line: 9, character: 43 }],
      ['Chain id', 10, { line: 11, character: 0 }, { line: 11, character: 25 }],
    ],
  );
  assert.deepEqual(
    file.requests.map((r) => r.payload),
    [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'web3_clientVersion', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
    ],
  );
});

test('a JSON array is a batch; missing ids get numbers not used by the others', () => {
  const file = parseRequestFile('[{"method":"a"},{"method":"b","id":1},{"method":"c"}]');
  assert.deepEqual(file.requests[0].payload, [
    { jsonrpc: '2.0', id: 2, method: 'a', params: [] },
    { jsonrpc: '2.0', id: 1, method: 'b', params: [] },
    { jsonrpc: '2.0', id: 3, method: 'c', params: [] },
  ]);
});

test('empty sections and comment-only sections are no requests', () => {
  const file = parseRequestFile(lines('### one', '', '# just a note', '### two', '{"method":"x"}', '###', '   ', '###'));
  assert.equal(file.requests.length, 1);
  assert.equal(file.requests[0].title, 'two');
  assert.equal(parseRequestFile('').requests.length, 0);
});

test('a syntax error is reported at its line and character, with a readable reason', () => {
  const text = lines('### broken', '{', '  "method": "eth_call",', '  "params": [1, 2,]', '}');
  const [request] = parseRequestFile(text).requests;
  assert.equal(request.payload, undefined);
  assert.deepEqual(request.parseError?.position, { line: 3, character: 18 });
  assert.match(request.parseError?.message ?? '', /trailing comma/);
});

test('other syntax errors: missing comma, unquoted name, unterminated string, extra text', () => {
  const position = (text: string) => parseRequestFile(text).requests[0].parseError;
  assert.deepEqual(position('{"method": "a" "params": []}')?.position, { line: 0, character: 15 });
  assert.match(position('{"method": "a" "params": []}')?.message ?? '', /expected ',' or '}'/);
  assert.deepEqual(position('{method: "a"}')?.position, { line: 0, character: 1 });
  assert.deepEqual(position('\n\n{"method": "a}\n')?.position, { line: 2, character: 14 });
  assert.deepEqual(position('{"method": "a"} x')?.position, { line: 0, character: 16 });
  assert.deepEqual(position('{"method": tru}')?.position, { line: 0, character: 14 });
});

test('values that are not requests are explained', () => {
  const error = (text: string) => parseRequestFile(text).requests[0].parseError?.message;
  assert.match(error('{"params": []}') ?? '', /needs a "method"/);
  assert.match(error('[{"method":"a"}, 5]') ?? '', /Batch item 2 must be a JSON object/);
  assert.match(error('[]') ?? '', /empty batch/);
  assert.match(error('"eth_blockNumber"') ?? '', /must be a JSON object/);
});

test('CRLF files keep the same positions', () => {
  const file = parseRequestFile('### a\r\n{"method":"x"}\r\n###b\r\n{"method":}\r\n');
  assert.equal(file.requests[0].range.end.character, 14);
  assert.deepEqual(file.requests[1].parseError?.position, { line: 3, character: 10 });
  assert.equal(file.requests[1].title, 'b');
});

test('the last node directive wins, and the directive line format round-trips', () => {
  const file = parseRequestFile(lines(nodeDirective('First'), '{"method":"a"}', '#   @node   Second node  '));
  assert.deepEqual(file.node, { name: 'Second node', line: 2 });
  assert.equal(file.requests.length, 1);
});

test('requestAt finds the request whose section holds a line', () => {
  const file = parseRequestFile(lines('{"method":"a"}', '### b', '{"method":"b"}', '', '### c', '{"method":"c"}'));
  const method = (line: number) => (requestAt(file, line)?.payload as { method: string }).method;
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(method), ['a', 'b', 'b', 'b', 'c', 'c']);
});

test('nodeDirective writes the line that parseRequestFile reads back', () => {
  assert.equal(nodeDirective('Local anvil'), '# @node Local anvil');
  assert.deepEqual(parseRequestFile(`${nodeDirective('Local anvil')}\n{"method": "eth_chainId"}`).node, { name: 'Local anvil', line: 0 });
});

test('indented separators, comments and @node lines count; ###, #, // and @node inside a JSON line do not', () => {
  const text = lines(
    '  # @node Sepolia',
    '{"method": "eth_call", "params": ["a###b", "http://x/#y", "# @node Evil"]}',
    '  ### Second',
    '    // a comment',
    '\t# another',
    '{"method": "eth_blockNumber"}',
  );
  const file = parseRequestFile(text);
  assert.deepEqual(file.node, { name: 'Sepolia', line: 0 });
  assert.equal(file.requests.length, 2);
  assert.deepEqual(file.requests[0].payload, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: ['a###b', 'http://x/#y', '# @node Evil'] });
  assert.equal(file.requests[1].title, 'Second');
  assert.equal(file.requests[1].sectionLine, 2);
  assert.deepEqual(file.requests[1].payload, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
});

test('a request range ends on its last non-blank line, not on a line of spaces after it', () => {
  const file = parseRequestFile(lines('{"method": "eth_chainId"}', '   ', '\t', '### next'));
  assert.deepEqual(file.requests[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 25 } });
});

test('a value that is not a request is refused with a message naming the request or the batch item', () => {
  const errorOf = (text: string) => parseRequestFile(text).requests[0].parseError?.message;
  assert.equal(errorOf('"eth_blockNumber"'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('null'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('42'), 'A request must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('{"method": ""}'), 'A request needs a "method" string.');
  assert.equal(errorOf('{"params": []}'), 'A request needs a "method" string.');
  assert.equal(errorOf('[{"params": []}]'), 'Batch item 1 needs a "method" string.');
  assert.equal(errorOf('[{"method": "eth_chainId"}, "x"]'), 'Batch item 2 must be a JSON object like {"method": "eth_blockNumber", "params": []}.');
  assert.equal(errorOf('[{"method": "eth_chainId"}, {"method": ""}]'), 'Batch item 2 needs a "method" string.');
});
