/** Which manifests the editor treats as copies (build/, dist/ and node_modules outputs) and which files are manifests at all. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isManifestCopy, isManifestFile } from '../../../../src/core/subgraph/copies';

describe('compiled manifests are copies: build/ and dist/', () => {
  test('a manifest directly in build/ or dist/, or in node_modules, is a copy', () => {
    for (const p of ['/w/build/subgraph.yaml', '/w/dist/subgraph.yaml', 'C:\\w\\dist\\subgraph.yaml', '/w/node_modules/x/subgraph.yaml']) assert.equal(isManifestCopy(p), true, p);
    for (const p of ['/w/subgraph.yaml', '/w/distribution/subgraph.yaml', '/w/dist/sub/subgraph.yaml']) assert.equal(isManifestCopy(p), false, p);
  });
  test('a manifest file is subgraph.yaml or <name>.subgraph.yaml outside the copies', () => {
    for (const p of ['/w/subgraph.yaml', '/w/a/sepolia.subgraph.yaml', 'C:\\w\\subgraph.yaml', 'subgraph.yaml', '/w/dist/sub/subgraph.yaml']) assert.equal(isManifestFile(p), true, p);
    for (const p of ['/w/build/subgraph.yaml', '/w/node_modules/x/subgraph.yaml', '/w/subgraph.yml', '/w/mysubgraph.yaml', '/w/subgraph.yaml.bak', '/w/subgraph-sepolia.yaml'])
      assert.equal(isManifestFile(p), false, p);
  });
});
