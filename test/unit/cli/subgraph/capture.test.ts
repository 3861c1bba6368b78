import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMain } from '../../../support/cli';
import { answerFrom, startScriptedNode, type ScriptedNode } from '../../../support/rpcNode';

const manifest = path.resolve(__dirname, '../../../fixtures/subgraphs/emitter/subgraph.yaml');
const nodes: ScriptedNode[] = [];
after(() => Promise.all(nodes.map((n) => n.close())));

test('--user NAME with CHAINDECK_PASSWORD reaches a node behind HTTP Basic (the refusal of user:password@ in the URL names --user, so the command has it); the password is never printed', async () => {
  const answer = answerFrom({ eth_blockNumber: '0x100', eth_getLogs: [] });
  const expected = `Basic ${Buffer.from('alice:s3cr3t-pw').toString('base64')}`;
  const node = await startScriptedNode((r) => (r.headers.authorization === expected ? answer(r) : { status: 401, body: 'no' }));
  nodes.push(node);
  const args = ['subgraph', 'capture-test', '--rpc', node.url, '--from', '1', '--to', '5', '--manifest', manifest, '--gnd', '/bin/false'];

  const inUrl = await runMain([...args.slice(0, 3), node.url.replace('//', '//alice:s3cr3t-pw@'), ...args.slice(4)]);
  assert.equal(inUrl.code, 2);
  assert.match(inUrl.err, /put the username in --user/);

  const run = await runMain([...args, '--user', 'alice'], { CHAINDECK_PASSWORD: 's3cr3t-pw' });
  assert.ok(node.seen.length > 0 && node.seen.every((r) => r.headers.authorization === expected), 'every request carries the Basic credentials');
  assert.equal(run.code, 1, run.err);
  assert.match(run.err, /No event of the subgraph's data sources in blocks 1–5/);
  assert.doesNotMatch(run.err + run.out, /s3cr3t-pw/);
});

test('a range past the bound or an --out that cannot be written is a usage error (exit 2) said before gnd is resolved or the node is asked', async () => {
  const node = await startScriptedNode();
  nodes.push(node);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-cli-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'taken.json');
  fs.writeFileSync(file, '{}');
  const base = ['subgraph', 'capture-test', '--rpc', node.url, '--manifest', manifest, '--gnd', path.join(dir, 'no-gnd')];
  const cases: [string[], RegExp][] = [
    [['--from', '0', '--to', '10000000'], /The range holds 10,000,001 blocks; at most 100,000/],
    [['--from', '1', '--to', '2', '--out', dir], /is a folder: give a file name for --out/],
    [['--from', '1', '--to', '2', '--out', file], /exists: pass --force/],
    [['--from', '1', '--to', '2', '--out', path.join(file, 'sub', 'x.json')], /taken\.json is not a folder/],
  ];
  for (const [extra, message] of cases) {
    const run = await runMain([...base, ...extra]);
    assert.equal(run.code, 2, `${extra.join(' ')}: ${run.err}`);
    assert.match(run.err, message);
  }
  assert.equal(node.seen.length, 0);
  assert.deepEqual(fs.readdirSync(dir), ['taken.json']);
});

test('a ws:// or wss:// --rpc is a usage error (the capture reads over HTTP), not a call of the same address as http://', async () => {
  const node = await startScriptedNode();
  nodes.push(node);
  for (const scheme of ['ws', 'wss']) {
    const run = await runMain(['subgraph', 'capture-test', '--rpc', node.url.replace('http', scheme), '--from', '1', '--to', '2', '--manifest', manifest, '--gnd', '/bin/false']);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /--rpc takes the node's http:\/\/ or https:\/\/ URL/);
  }
  assert.equal(node.seen.length, 0);
});
