import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { linkedManifestText, manifestFiles, replayManifestText, ReplayManifestError } from '../../../../../src/core/indexing/replay/manifest';

const BUILT = `specVersion: 0.0.5
schema:
  file: schema.graphql
dataSources:
  - kind: ethereum
    name: A
    network: mainnet
    source:
      address: "0x0000000000000000000000000000000000000001"
      abi: A
      startBlock: 3
    mapping:
      abis:
        - name: A
          file: A/A.json
      file: A/A.wasm
  - kind: ethereum
    name: B
    network: mainnet
    source:
      abi: A
    mapping:
      abis:
        - name: A
          file: A/A.json
      file: B/B.wasm
templates:
  - kind: ethereum
    name: T
    source:
      abi: A
    mapping:
      file: T/T.wasm
`;

test('a graft adds the grafting feature once and the base at N−1, leaving start blocks alone', () => {
  const out = parse(replayManifestText(BUILT, { kind: 'graft', base: 'QmBase', block: 9 }));
  assert.deepEqual(out.features, ['grafting']);
  assert.deepEqual(out.graft, { base: 'QmBase', block: 9 });
  assert.equal(out.dataSources[0].source.startBlock, 3);
  const again = parse(replayManifestText(`features:\n  - fullTextSearch\n  - grafting\n${BUILT}`, { kind: 'graft', base: 'QmBase', block: 9 }));
  assert.deepEqual(again.features, ['fullTextSearch', 'grafting']);
});

test('startBlock N sets every data source (with or without one) to N, and no template', () => {
  const out = parse(replayManifestText(BUILT, { kind: 'startBlock', block: 12 }));
  assert.deepEqual(
    out.dataSources.map((d: { source: { startBlock?: number } }) => d.source.startBlock),
    [12, 12],
  );
  assert.equal(out.templates[0].source.startBlock, undefined);
  assert.equal(out.graft, undefined);
});

test('every file is named once, and linked as graph deploy links them', () => {
  assert.deepEqual(manifestFiles(BUILT), ['schema.graphql', 'A/A.json', 'A/A.wasm', 'B/B.wasm', 'T/T.wasm']);
  const out = parse(linkedManifestText(BUILT, (f) => `Qm${f.replace(/\W/g, '')}`));
  assert.deepEqual(out.schema.file, { '/': '/ipfs/Qmschemagraphql' });
  assert.deepEqual(out.dataSources[1].mapping.abis[0].file, { '/': '/ipfs/QmAAjson' });
  assert.deepEqual(out.templates[0].mapping.file, { '/': '/ipfs/QmTTwasm' });
});

test('a manifest that is no YAML mapping is refused with one line', () => {
  assert.throws(() => replayManifestText('- a\n- b\n', { kind: 'startBlock', block: 1 }), ReplayManifestError);
  assert.throws(() => replayManifestText('a: [\n', { kind: 'startBlock', block: 1 }), /not YAML/);
});
