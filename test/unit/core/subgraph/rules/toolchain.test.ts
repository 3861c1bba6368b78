/**
 * The workspace's graph-ts against its graph-cli (toolchain.ts), on the tutorial in memory with
 * the two packages' package.json files in node_modules. Every pairing here was run for real with
 * graph-cli 0.98.1 (docs/validation-rules.md, "graph-ts against graph-cli"): 0.24.1 fails codegen,
 * 0.30.0 fails the build (TS2305 Int8), 0.33.0 fails the build once a mapping sets a Timestamp
 * field (TS2339) and builds when none does, 0.32.0 builds apiVersion 0.0.9.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { replaceIn, type Edit } from '../../../../fixtures/subgraphs/corpus';
import { validateTutorial } from '../../../../support/rules';

const installed =
  (name: 'graph-ts' | 'graph-cli', version: string): Edit =>
  (files) =>
    void (files[`node_modules/@graphprotocol/${name}/package.json`] = JSON.stringify({ name: `@graphprotocol/${name}`, version }));
const asks =
  (range: string): Edit =>
  (files) =>
    void (files['package.json'] = JSON.stringify({ devDependencies: { '@graphprotocol/graph-cli': range } }));

function run(...edits: Edit[]): Finding[] {
  return validateTutorial(edits);
}

/** The one graph-ts-too-old finding as `severity line:col message`, or nothing. */
function toolchain(...edits: Edit[]): string[] {
  return run(...edits)
    .filter((f) => f.code === 'graph-ts-too-old')
    .map((f) => `${f.severity} ${f.range.start.line + 1}:${f.range.start.character + 1} ${f.message}`);
}

const cli = installed('graph-cli', '0.98.1');
const TIMESTAMP_FIELD = replaceIn('schema.graphql', '  value: BigInt!', '  value: BigInt!\n  at: Timestamp!');
/** The field, and the mapping sets it: graph build compiles its setter. */
const TIMESTAMP: Edit = (files) => {
  TIMESTAMP_FIELD(files);
  replaceIn('src/mapping.ts', '  record.save();', '  record.at = event.block.timestamp.toI64();\n  record.save();')(files);
};

describe('graph-ts against graph-cli', () => {
  test('graph-ts 0.24.1 with graph-cli 0.98.1: codegen refuses it and the build would fail on Int8; one error naming the upgrade', () => {
    assert.deepEqual(toolchain(installed('graph-ts', '0.24.1'), cli), [
      'error 15:19 @graphprotocol/graph-ts 0.24.1 is too old for this project: graph codegen refuses graph-ts older than 0.25.0 (the installed graph-cli 0.98.1); the installed graph-cli 0.98.1 writes a generated/schema.ts that imports Int8, which graph-ts has from 0.31.0 (graph build fails: TS2305). Upgrade @graphprotocol/graph-ts to 0.31.0 or newer',
    ]);
  });

  test('graph-ts 0.30.0 with graph-cli 0.98.1: the build fails on Int8 (TS2305); with graph-cli 0.96.0, which does not import it, nothing', () => {
    assert.deepEqual(toolchain(installed('graph-ts', '0.30.0'), cli), [
      'error 15:19 @graphprotocol/graph-ts 0.30.0 is too old for this project: the installed graph-cli 0.98.1 writes a generated/schema.ts that imports Int8, which graph-ts has from 0.31.0 (graph build fails: TS2305). Upgrade @graphprotocol/graph-ts to 0.31.0 or newer',
    ]);
    assert.deepEqual(toolchain(installed('graph-ts', '0.30.0'), installed('graph-cli', '0.96.0')), []);
    assert.deepEqual(toolchain(installed('graph-ts', '0.31.0'), cli), []);
  });

  test('a graph-cli told only by package.json: an error when every release it allows imports Int8, a warning when it cannot be told', () => {
    assert.match(toolchain(installed('graph-ts', '0.30.0'), asks('^0.98.0'))[0], /^error .*graph-cli \^0\.98\.0, as package\.json asks writes a generated/);
    assert.deepEqual(toolchain(installed('graph-ts', '0.30.0'), asks('^0.95.0')), []);
    assert.deepEqual(toolchain(installed('graph-ts', '0.30.0')), [
      'warning 15:19 @graphprotocol/graph-ts 0.30.0 is too old for this project: graph-cli 0.97.0 and newer write a generated/schema.ts that imports Int8, which graph-ts has from 0.31.0 (graph build fails: TS2305). Upgrade @graphprotocol/graph-ts to 0.31.0 or newer',
    ]);
  });

  test('a Timestamp field with graph-ts 0.33.0: Value.fromTimestamp is missing (TS2339), whatever the graph-cli; 0.34.0 has it', () => {
    assert.deepEqual(toolchain(installed('graph-ts', '0.33.0'), TIMESTAMP), [
      'error 15:19 @graphprotocol/graph-ts 0.33.0 is too old for this project: the Timestamp field ApprovalQuery.at is set through Value.fromTimestamp, which graph-ts has from 0.34.0 (graph build fails: TS2339). Upgrade @graphprotocol/graph-ts to 0.34.0 or newer',
    ]);
    assert.deepEqual(toolchain(installed('graph-ts', '0.34.0'), TIMESTAMP, cli), []);
    // Every reason at once: the upgrade named is the one that answers them all.
    assert.match(toolchain(installed('graph-ts', '0.24.1'), TIMESTAMP, cli)[0], /refuses .* imports Int8, .* ApprovalQuery\.at .*\. Upgrade @graphprotocol\/graph-ts to 0\.34\.0 or newer$/);
  });

  test('a Timestamp field no mapping sets is never compiled: no finding, also beside a generated/schema.ts that holds its setter', () => {
    const generated: Edit = (files) =>
      void (files['generated/schema.ts'] =
        '\n// THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\nexport class ApprovalQuery {\n  set at(value: i64) {\n    this.set("at", Value.fromTimestamp(value));\n  }\n}\n');
    assert.deepEqual(toolchain(installed('graph-ts', '0.33.0'), TIMESTAMP_FIELD, generated, cli), []);
    // Set in a helper module the mapping imports, or through Value.fromTimestamp: found.
    const helper: Edit = (files) => {
      files['src/helpers.ts'] = 'export function stamp(r: ApprovalQuery, t: i64): void {\n  r.set("at", Value.fromTimestamp(t));\n}\n';
      replaceIn('src/mapping.ts', 'import { ApprovalQuery } from "../generated/schema";', 'import { ApprovalQuery } from "../generated/schema";\nimport { stamp } from "./helpers";')(files);
    };
    assert.match(
      toolchain(installed('graph-ts', '0.33.0'), TIMESTAMP_FIELD, generated, helper, cli)[0],
      /^error .*the Timestamp field ApprovalQuery\.at is set through Value\.fromTimestamp/,
    );
  });

  test('a timeseries timestamp is written by graph-node, not by the mapping: no finding', () => {
    const timeseries = replaceIn('schema.graphql', /$/, '\ntype Point @entity(timeseries: true) {\n  id: Int8!\n  timestamp: Timestamp!\n  value: BigInt!\n}\n');
    assert.deepEqual(toolchain(installed('graph-ts', '0.33.0'), timeseries), []);
  });

  test('the apiVersion is not part of the pairing: graph-ts 0.32.0 builds apiVersion 0.0.9', () => {
    assert.deepEqual(
      run(installed('graph-ts', '0.32.0'), cli, replaceIn('subgraph.yaml', 'apiVersion: 0.0.7', 'apiVersion: 0.0.9')).map((f) => f.code),
      [],
    );
  });

  test('no graph-ts installed: nothing to compare', () => {
    assert.deepEqual(toolchain(cli, TIMESTAMP), []);
  });
});
