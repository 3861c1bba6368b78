/**
 * gnd's real output (saved from gnd 0.45.0 indexing the emitter subgraph with a mapping that logs
 * at every level, then aborting handleBoom at block 4) turned into entries: each mapping line
 * carries the handler, block and transaction it ran for, the failure its source location.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { entriesOfLines, GndEntries } from '../../../../../src/core/indexing/logs/gndEntries';
import { parseGndLine } from '../../../../../src/core/indexing/logs/gndLine';
import type { LogEntry } from '../../../../../src/core/indexing/logs/entry';

const fixture = (name: string) => readFileSync(path.join(__dirname, '..', '..', '..', '..', 'fixtures', 'gnd-logs', name), 'utf8').split('\n');
const NOW = new Date(2026, 10, 29, 12, 0, 0);
const DEPLOYMENT = 'QmaSGUNZKigtRCXTE2eTfRLF7evEiLqF2a5L4VnKyVgiNj';
const TX_BLOCK2 = '0x28fe1496c4ccdeefcb05125acd6c0269a9153d5c7f31f21453f3b033cd3b7366';
const TX_BLOCK3 = '0xaf9ae9b5b406b7a424c5fde7ce6b02c94d21582921cecb621faa2269b65d449d';
const TX_BOOM = '0xd5859b6bd5022ebd05db568f490427fe3f61b1b66cb4d78b22d7b42666aec695';
const placeholder = (id: string) => id.endsWith('/dev/build/subgraph.yaml');

test("a slog line's time, level, message and fields; a mapping's text keeps its own ', key: ' parts", () => {
  const line = parseGndLine(
    'Nov 29 07:25:50.178 WARN price, note: stale, component: mine, data_source: Emitter, runner_index: 1, sgd: 2, subgraph_id: Qm1, component: SubgraphInstanceManager > UserMapping',
    NOW,
  )!;
  assert.equal(line.time, new Date(2026, 10, 29, 7, 25, 50, 178).toISOString());
  assert.equal(line.level, 'warning');
  assert.equal(line.message, 'price, note: stale, component: mine');
  assert.deepEqual([...line.fields.keys()], ['data_source', 'runner_index', 'sgd', 'subgraph_id', 'component']);
  const error = parseGndLine(
    'Nov 29 07:25:50.190 ERRO Handler skipped due to execution failure, transaction: 0xab, error: at src/m.ts, line 3, column 4, with message: x, handler: h, sgd: 2',
    NOW,
  )!;
  assert.equal(error.message, 'Handler skipped due to execution failure');
  assert.equal(error.fields.get('error'), 'at src/m.ts, line 3, column 4, with message: x');
  assert.equal(error.fields.get('handler'), 'h');
  assert.equal(parseGndLine("thread 'main' panicked at src/main.rs:1:1", NOW), undefined);
});

test('slog writes no year: a stamp later than tomorrow is last year’s', () => {
  const line = parseGndLine('Dec 31 23:59:59.000 INFO x, subgraph_id: Qm1', new Date(2027, 0, 1, 0, 0, 5))!;
  assert.equal(line.time, new Date(2026, 11, 31, 23, 59, 59, 0).toISOString());
});

for (const [name, level] of [
  ['emitter-debug.log', 'GRAPH_LOG=debug'],
  ['emitter-supervisor.log', "the supervisor's GRAPH_LOG=info,graph_runtime_wasm=debug"],
])
  test(`with ${level} each mapping line carries its handler, block and transaction; the abort its source line`, () => {
    const entries = entriesOfLines(fixture(name), placeholder, NOW).filter((e) => e.deployment === DEPLOYMENT);
    const mapping = entries.filter((e) => e.origin === 'mapping');
    assert.deepEqual(
      mapping.map((e) => [e.level, e.message.split(' ')[0], e.handler, e.block, e.tx]),
      [
        ...['debug', 'info', 'warning', 'error'].map((l) => [l, l === 'warning' ? 'warn' : l, 'handlePing', 2, TX_BLOCK2]),
        ...['debug', 'info', 'warning', 'error'].map((l) => [l, l === 'warning' ? 'warn' : l, 'handlePing', 2, TX_BLOCK2]),
        ...['debug', 'info', 'warning', 'error'].map((l) => [l, l === 'warning' ? 'warn' : l, 'handlePing', 3, TX_BLOCK3]),
        ['info', 'about', 'handleBoom', 4, TX_BOOM],
      ],
    );
    for (const e of mapping) assert.equal(e.dataSource, 'Emitter');
    // Each ping's id is `<tx>-<logIndex>`: the transaction the entry names is the one the text names.
    for (const e of mapping.filter((m) => m.handler === 'handlePing')) assert.ok(e.message.includes(`${e.tx}-`), e.message);
    const failures = entries.filter((e) => e.origin === 'graph-node');
    assert.ok(failures.length >= 2, JSON.stringify(failures));
    for (const f of failures) {
      assert.equal(f.level, 'error');
      assert.equal(f.handler, 'handleBoom', f.message);
      assert.equal(f.block, 4, f.message);
      assert.equal(f.tx, TX_BOOM, f.message);
      assert.deepEqual(f.source, { file: 'src/mapping.ts', line: 24, column: 3 });
    }
    assert.match(failures[0].message, /^Handler skipped due to execution failure: .*boom after 3 pings/);
  });

test("the placeholder subgraph's lines are no deployment's entries", () => {
  const all = entriesOfLines(fixture('emitter-debug.log'), undefined, NOW);
  assert.ok(all.some((e) => placeholder(e.deployment)) || all.every((e) => e.deployment === DEPLOYMENT));
  assert.ok(entriesOfLines(fixture('emitter-debug.log'), placeholder, NOW).every((e) => e.deployment === DEPLOYMENT));
});

test('at info level (no "Done processing trigger") mapping lines still carry their block, and are told when the block ends', () => {
  const got: LogEntry[] = [];
  const reader = new GndEntries((e) => got.push(e), placeholder);
  const lines = fixture('emitter-info.log');
  const upTo = lines.findIndex((l) => l.includes('Applying 3 entity operation'));
  for (const line of lines.slice(0, upTo)) reader.line(line, NOW);
  assert.equal(got.length, 0, 'the trigger may still log: nothing is told before its block ends');
  reader.line(lines[upTo], NOW);
  assert.deepEqual(
    got.map((e) => [e.level, e.block, e.handler]),
    [
      ['info', 2, undefined],
      ['warning', 2, undefined],
      ['error', 2, undefined],
      ['info', 2, undefined],
      ['warning', 2, undefined],
      ['error', 2, undefined],
    ],
  );
});

test("a mapping's abort message that imitates graph-node's context does not move the failure to another deployment", () => {
  const other = 'QmZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
  const forged = `boom, subgraph_id: ${other}, component: SubgraphInstanceManager > UserMapping`;
  const entries = entriesOfLines(
    [
      `Nov 29 07:25:50.190 ERRO Subgraph error 1/1, code: SubgraphSyncingFailure, error: Mapping aborted at src/mapping.ts, line 24, column 3, with message: ${forged} in handler \`handleBoom\` at block #4, block_number: 4, runner_index: 1, sgd: 2, subgraph_id: ${DEPLOYMENT}, component: SubgraphInstanceManager`,
    ],
    undefined,
    NOW,
  );
  assert.equal(entries.length, 1);
  assert.equal(entries[0].deployment, DEPLOYMENT);
  assert.equal(entries[0].origin, 'graph-node');
  assert.equal(entries[0].block, 4);
});

test('a handler that logs without end is told as it goes: at most 10,000 of its lines wait for its name', () => {
  let told = 0;
  const reader = new GndEntries(() => told++);
  const line = `Nov 29 07:25:50.178 INFO spam, data_source: Emitter, runner_index: 1, sgd: 2, subgraph_id: ${DEPLOYMENT}, component: SubgraphInstanceManager > UserMapping`;
  for (let i = 0; i < 25_000; i++) reader.line(line, NOW);
  assert.equal(told, 20_000);
});

test("the store's writer committing an earlier block in the middle of a handler's lines splits nothing (its line comes when it comes)", () => {
  const lines = fixture('emitter-supervisor.log');
  const firstMapping = lines.findIndex((l) => l.includes(DEPLOYMENT) && l.includes('> UserMapping'));
  const commit = lines.find((l) => l.includes('Committed write batch') && l.includes(DEPLOYMENT));
  assert.ok(firstMapping > 0 && commit, 'the fixture has a mapping line and a committed batch of the deployment');
  // As seen in CI: the writer's line for block 1 between the handler's first and second line.
  const raced = [...lines.slice(0, firstMapping + 1), commit, ...lines.slice(firstMapping + 1)];
  const mapping = entriesOfLines(raced, placeholder, NOW).filter((e) => e.deployment === DEPLOYMENT && e.origin === 'mapping');
  assert.ok(mapping.length >= 12, `${mapping.length} mapping entries`);
  for (const e of mapping) assert.ok(e.handler && e.tx, `no handler or tx: ${e.level} ${e.message}`);
});
