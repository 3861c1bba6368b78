/**
 * `chaindeck subgraph compare` on the real local graph-node (gnd, Postgres) and anvil: the
 * emitter subgraph deployed three times from one chain — v1, a copy that differs only in its
 * description (another deployment, the same entities), and v2 of the same name whose mapping
 * skips one event and stores another's value doubled. Over 1,000 Pings each, so the compare
 * pages by id on graph-node itself. The compare finds exactly the two planted differences
 * (exit 1), none between v1 and its copy (exit 0), none at a block before the planted events,
 * and says when an endpoint has not indexed the block asked for.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { buildCli, runCli } from '../support/cli';
import { startDevnet, type Devnet } from '../support/devnets';
import { deployEmitter, emitterProject, type Emitter } from '../support/emitter';
import { removeScratch, scratchFolder, startLocalGraph, type LocalGraph } from '../support/localGraph';

const NAME = 'test/compare';
const SKIPPED = 100_001n;
const DOUBLED = 100_002n;

let anvil: Devnet;
let scratch: string;
let graph: LocalGraph;
let emitter: Emitter;
let queryFile: string;
let v1Url: string;
let copyUrl: string;
let v2Url: string;
/** The last block before the planted events, and the chain's head once all are indexed. */
let beforePlanted: number;
let head: number;

const ids = async (where: string) => (await graph.query<{ pings: { id: string }[] }>('test/copy', `{ pings(where: ${where}, orderBy: id) { id } }`)).pings.map((p) => p.id);

before(async () => {
  await buildCli();
  anvil = await startDevnet('anvil');
  scratch = scratchFolder('chaindeck-compare-');
  graph = await startLocalGraph(anvil.url, { dataDir: path.join(scratch, 'data') });
  emitter = await deployEmitter(anvil.url);
  beforePlanted = await emitter.ping(1100);
  await emitter.pingWith(SKIPPED);
  head = await emitter.pingWith(DOUBLED);

  const v1 = await graph.deploy(emitterProject(scratch, emitter.address, emitter.block, 'v1'), NAME, 'v1');
  const copyDir = emitterProject(scratch, emitter.address, emitter.block, 'copy');
  const manifest = path.join(copyDir, 'subgraph.yaml');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^description: .*$/m, 'description: The same mapping, another deployment'));
  const copy = await graph.deploy(copyDir, 'test/copy', 'v1');
  const v2Dir = emitterProject(scratch, emitter.address, emitter.block, 'v2');
  const mapping = path.join(v2Dir, 'src', 'mapping.ts');
  writeFileSync(
    mapping,
    readFileSync(mapping, 'utf8').replace(
      'ping.n = event.params.n;',
      `if (event.params.n.toString() == '${SKIPPED}') return;\n  ping.n = event.params.n.toString() == '${DOUBLED}' ? event.params.n.plus(event.params.n) : event.params.n;`,
    ),
  );
  const v2 = await graph.deploy(v2Dir, NAME, 'v2');
  assert.notEqual(copy.deployment, v1.deployment);
  assert.notEqual(v2.deployment, v1.deployment);
  for (const d of [v1, copy, v2]) await graph.waitSynced(d.deployment, head, 120_000);
  // v1 by its deployment id, v2 as the name now serves it: the two versions of one name.
  v1Url = `${graph.urls.graphql}/subgraphs/id/${v1.deployment}`;
  copyUrl = `${graph.urls.graphql}/subgraphs/name/test/copy`;
  v2Url = `${graph.urls.graphql}/subgraphs/name/${NAME}`;
  queryFile = path.join(scratch, 'pings.graphql');
  writeFileSync(
    queryFile,
    '# @subgraph test/compare\nquery Pings($first: Int = 100, $skip: Int = 0) {\n  pings(first: $first, skip: $skip) { id n from blockNumber version }\n  _meta { block { number } }\n}\n',
  );
});

after(async () => {
  emitter?.close();
  await graph?.stop();
  await anvil?.stop();
  if (scratch) removeScratch(scratch);
});

const compare = (a: string, b: string, ...more: string[]) => runCli(['subgraph', 'compare', '--query', queryFile, '--a', a, '--b', b, '--format', 'json', ...more], {}, 120_000);

test('v1 against v2 of the name: exactly the skipped event (only in A) and the doubled value (changed), exit 1', async () => {
  const run = await compare(v1Url, v2Url);
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stderr, '');
  const result = JSON.parse(run.stdout);
  assert.equal(result.equal, false);
  assert.equal(result.blockFrom, 'heads');
  assert.ok(result.block >= head, `compared at ${result.block}, the head is ${head}`);
  const [pings] = result.fields;
  assert.equal(result.fields.length, 1, '_meta is not compared');
  assert.deepEqual([pings.field, pings.countA, pings.countB, pings.truncated], ['pings', 1102, 1101, false]);
  const [skipped] = await ids(`{ n: "${SKIPPED}" }`);
  const [doubled] = await ids(`{ n: "${DOUBLED}" }`);
  assert.deepEqual(
    pings.onlyInA.map((e: { id: string }) => e.id),
    [skipped],
  );
  assert.deepEqual(pings.onlyInB, []);
  assert.deepEqual(pings.changed, [{ id: doubled, changes: [{ path: 'n', a: String(DOUBLED), b: String(2n * DOUBLED) }] }]);

  const text = await runCli(['subgraph', 'compare', '--query', queryFile, '--a', v1Url, '--b', v2Url], {}, 120_000);
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /pings: 1102 in A, 1101 in B: 1 only in A, 1 changed\n/);
  assert.match(text.stdout, new RegExp(`changed {4}${doubled} {2}n: "${DOUBLED}" → "${2n * DOUBLED}"`));
});

test('v1 against a copy deployed apart: equal, exit 0; v2 at a block before the planted events: equal too', async () => {
  const same = await compare(v1Url, copyUrl);
  assert.equal(same.code, 0, same.stderr);
  const result = JSON.parse(same.stdout);
  assert.equal(result.equal, true);
  assert.deepEqual([result.fields[0].countA, result.fields[0].countB], [1102, 1102]);

  const earlier = await compare(v1Url, v2Url, '--block', String(beforePlanted));
  assert.equal(earlier.code, 0, earlier.stderr);
  assert.deepEqual(JSON.parse(earlier.stdout).fields[0].countA, 1100);
});

test('a block neither endpoint has indexed: exit 1, one line per endpoint saying how far it is', async () => {
  const run = await compare(v1Url, copyUrl, '--block', String(head + 1000));
  assert.equal(run.code, 1);
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 2, run.stderr);
  for (const [i, side] of ['A', 'B'].entries())
    assert.match(lines[i], new RegExp(`^chaindeck subgraph compare: ${side} \\(.*\\): it has indexed only to block \\d+, behind block ${head + 1000}`));
});
