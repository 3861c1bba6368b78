/**
 * `_logs` of a graph-node with a log store, as its docs/log-store.md describes the answer
 * (id, timestamp, level, text, arguments, meta), mapped to the entries gnd's output becomes;
 * gnd dev's refusal is one clear line. Served by a loopback imitation: the refusal is gnd's own
 * words (measured on gnd 0.45.0), the page the documented shape.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { deploymentQueryUrl, entryOfLogItem, fetchLogsPage, LogsNotEnabled } from '../../../../../src/core/indexing/logs/graphqlLogs';

const TX = '0x28fe1496c4ccdeefcb05125acd6c0269a9153d5c7f31f21453f3b033cd3b7366';
const ID = 'QmaSGUNZKigtRCXTE2eTfRLF7evEiLqF2a5L4VnKyVgiNj';
let server: Server;
let base: string;
const bodies: { url: string; body: { variables?: Record<string, unknown> } }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      bodies.push({ url: req.url!, body: JSON.parse(text) });
      res.setHeader('content-type', 'application/json');
      if (req.url!.includes('gnd')) return res.end('{"errors":[{"message":"Not supported: the `_logs` query is not enabled on this indexer"}]}');
      res.end(
        JSON.stringify({
          data: {
            _logs: [
              {
                id: '1',
                timestamp: '2026-11-29T07:25:50.178123456Z',
                level: 'WARNING',
                text: 'warn ping 1',
                arguments: [
                  { key: 'data_source', value: 'Emitter' },
                  { key: 'handler', value: 'handlePing' },
                  { key: 'block_number', value: '2' },
                  { key: 'transaction', value: TX },
                ],
                meta: { module: 'src/mapping.ts', line: 17, column: 3 },
              },
              { id: '2', timestamp: 'x', level: 'NOPE', text: 'dropped' },
            ],
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

test('a _logs item becomes an entry with its handler, block, transaction and source line', () => {
  const e = entryOfLogItem(
    {
      timestamp: '2026-11-29T07:25:50.178Z',
      level: 'ERROR',
      text: 'Mapping aborted at src/mapping.ts, line 23, column 3, with message: boom in handler `handleBoom` at block #4',
      arguments: [],
    },
    ID,
  );
  assert.deepEqual(e, {
    time: '2026-11-29T07:25:50.178Z',
    level: 'error',
    message: 'Mapping aborted at src/mapping.ts, line 23, column 3, with message: boom in handler `handleBoom` at block #4',
    deployment: ID,
    origin: 'graph-node',
    handler: 'handleBoom',
    source: { file: 'src/mapping.ts', line: 23, column: 3 },
  });
});

test('a page is asked within graph-node’s bounds and mapped; what is no entry is left out', async () => {
  const url = deploymentQueryUrl(`${base}/`, ID);
  assert.equal(url, `${base}/subgraphs/id/${ID}`);
  assert.equal(deploymentQueryUrl(base, 'facts/v2'), `${base}/subgraphs/name/facts/v2`);
  const entries = await fetchLogsPage(url, ID, { first: 5000, skip: 99_999 }, { timeoutMs: 5000 });
  assert.deepEqual(bodies.at(-1)!.body.variables, { first: 1000, skip: 10_000 });
  assert.deepEqual(entries, [
    {
      id: '1',
      time: '2026-11-29T07:25:50.178Z',
      level: 'warning',
      message: 'warn ping 1',
      deployment: ID,
      origin: 'mapping',
      handler: 'handlePing',
      block: 2,
      tx: TX,
      dataSource: 'Emitter',
      source: { file: 'src/mapping.ts', line: 17, column: 3 },
    },
  ]);
});

test('a node without a log store (gnd dev) is said in one line', async () => {
  await assert.rejects(fetchLogsPage(`${base}/gnd`, ID, { first: 10, skip: 0 }, { timeoutMs: 5000 }), (err: Error) => {
    assert.ok(err instanceof LogsNotEnabled);
    assert.equal(err.message, 'This graph-node keeps no subgraph logs: it answered that the `_logs` query is not enabled on this indexer.');
    return true;
  });
});
