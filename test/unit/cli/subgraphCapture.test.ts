import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runMain } from '../../support/cli';
import { answerFrom, startScriptedNode, type ScriptedNode } from '../../support/rpcNode';

const manifest = path.resolve(__dirname, '../../fixtures/subgraphs/emitter/subgraph.yaml');
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
