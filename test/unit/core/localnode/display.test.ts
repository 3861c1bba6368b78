/**
 * How the local graph-node is shown: a deployment's row in the Subgraphs view (state and block
 * first, the id only in its tooltip) and the level each gnd log line gets in its output channel.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gndChannelLine, gndLogLevel, PLACEHOLDER_LABEL } from '../../../../src/core/localnode/gndLog';
import { deploymentSummary } from '../../../../src/core/localnode/status';

test('a deployment’s row leads with its state and block, then its entities; no deployment id', () => {
  assert.equal(deploymentSummary({ synced: true, health: 'healthy', indexed: 14, chainHead: 14, entityCount: 3 }), 'synced · #14 · 3 entities');
  assert.equal(deploymentSummary({ synced: false, health: 'healthy', indexed: 12, chainHead: 14, entityCount: 1 }), 'syncing · #12/14 · 1 entity');
  // Unhealthy or failed is the state that matters, synced or not.
  assert.equal(deploymentSummary({ synced: true, health: 'failed', indexed: 9, chainHead: 14, entityCount: 2 }), 'failed · #9/14 · 2 entities');
  assert.equal(deploymentSummary({ synced: false, health: 'unhealthy', indexed: 9 }), 'unhealthy · #9');
  assert.equal(deploymentSummary({ synced: false, health: 'healthy' }), 'syncing · no block yet');
});

test('gnd’s ERRO and CRIT lines are errors, WARN warnings, DEBG debug, the rest info', () => {
  const at = 'Nov 28 17:49:01.123';
  assert.equal(gndLogLevel(`${at} ERRO Subgraph failed with non-deterministic error: boom, sgd: 1, component: SubgraphInstanceManager`), 'error');
  assert.equal(gndLogLevel(`${at} CRIT Database unavailable`), 'error');
  assert.equal(gndLogLevel(`${at} WARN Trying again after eth_getLogs RPC call failed (attempt #1)`), 'warning');
  assert.equal(gndLogLevel(`${at} INFO Starting up, node_id: default`), 'info');
  assert.equal(gndLogLevel(`${at} DEBG Done processing trigger`), 'debug');
  // Colour codes around the level (a terminal wrapper) do not hide it.
  assert.equal(gndLogLevel(`${at} \u001b[31mERRO\u001b[0m Subgraph failed`), 'error');
  // Words in the message are not the level; lines without one (a panic, Chaindeck's own) are info.
  assert.equal(gndLogLevel(`${at} INFO No ERRO here, WARN neither`), 'info');
  assert.equal(gndLogLevel("thread 'main' panicked at ERRO"), 'info');
  assert.equal(gndLogLevel('chaindeck: ERRO is not a level here'), 'info');
  assert.equal(gndLogLevel('chaindeck: 2026-11-28 17:49:01.123 UTC [42] ERROR:  relation does not exist'), 'info');
});

const fixture = (name: string) => readFileSync(path.join(__dirname, '..', '..', '..', 'fixtures', 'gnd-logs', name), 'utf8').split('\n');

test('in the channel (which stamps time and level) a gnd line keeps its level without gnd’s own stamp; debug lines are debug', () => {
  const lines = fixture('emitter-supervisor.log');
  const skipped = gndChannelLine(lines.find((l) => l.includes('ERRO Handler skipped'))!);
  assert.equal(skipped.level, 'error');
  assert.match(skipped.text, /^Handler skipped due to execution failure, transaction: 0xd585/);
  const warn = gndChannelLine(lines.find((l) => l.includes('WARN warn ping'))!);
  assert.deepEqual([warn.level, warn.text.slice(0, 9)], ['warning', 'warn ping']);
  assert.equal(gndChannelLine(lines.find((l) => l.includes('DEBG Done processing trigger'))!).level, 'debug');
  assert.deepEqual(gndChannelLine('chaindeck: starting gnd'), { level: 'info', text: 'chaindeck: starting gnd' });
});

test("the placeholder subgraph's start failure on a restart (real gnd output) is labelled harmless, not an error", () => {
  const lines = fixture('placeholder-restart.log').filter((l) => l.trim());
  const failure = lines.find((l) => l.includes('SubgraphStartFailure'))!;
  assert.equal(gndLogLevel(failure), 'error');
  const shown = gndChannelLine(failure);
  assert.equal(shown.level, 'info');
  assert.ok(shown.text.startsWith(`${PLACEHOLDER_LABEL} Failed to start subgraph, code: SubgraphStartFailure`), shown.text);
  // Nothing of that restart shows as an error or a warning; the user's deployments' errors still do.
  assert.deepEqual(
    lines.map(gndChannelLine).filter((l) => l.level === 'error' || l.level === 'warning'),
    [],
  );
  assert.equal(gndChannelLine(fixture('emitter-supervisor.log').find((l) => l.includes('ERRO Subgraph error 1/1'))!).level, 'error');
});
