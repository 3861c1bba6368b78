/**
 * No quadratic paths: a map of 40,000 keys validates on either parser with a duplicate key still
 * reported where it is, and the time grows with the size, not its square (a ratio of two sizes in
 * this process: bench/ holds the absolute figures).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { parseManifest } from '../../../../../src/core/subgraph/manifest/manifestDoc';
import { tutorialFiles } from '../../../../fixtures/subgraphs/corpus';
import { manyKeys } from '../../../../fixtures/subgraphs/manyKeys';
import { assertGrowsLinearly } from '../../../../support/growth';

function validate(files: Record<string, string>): Finding[] {
  return validateSubgraph('subgraph.yaml', memoryFileSource({ ...tutorialFiles(), ...files })).findings;
}

describe('a mapping with 40,000 keys', () => {
  for (const yamlOnly of [false, true]) {
    const parser = yamlOnly ? 'the yaml package' : 'the fast parser';
    test(`with a duplicate, through ${parser}: the duplicate reported at its key, time linear in the keys`, () => {
      const text = manyKeys(40_000, { duplicate: true, yamlOnly });
      assert.equal(parseManifest(text).parser, yamlOnly ? 'yaml' : 'fast');
      const findings = validate({ 'subgraph.yaml': text });
      assertGrowsLinearly((n) => validate({ 'subgraph.yaml': manyKeys(n, { duplicate: true, yamlOnly }) }), 1000, 40_000);
      const duplicates = findings.filter((f) => f.code === 'duplicate-key');
      assert.equal(duplicates.length, 1, JSON.stringify(findings.slice(0, 5)));
      const line = text.split('\n').findIndex((l) => l === '      k7: again');
      assert.deepEqual(duplicates[0].range, { start: { line, character: 6 }, end: { line, character: 8 } });
      assert.equal(duplicates[0].message, "Duplicate key 'k7': already set on line 21; keys of a map must be unique");
    });
  }

  test('without a duplicate: 40,000 unknown-key findings, time linear in the keys', () => {
    const findings = validate({ 'subgraph.yaml': manyKeys(40_000) });
    assert.equal(findings.filter((f) => f.code === 'unknown-key').length, 40_000);
    assertGrowsLinearly((n) => validate({ 'subgraph.yaml': manyKeys(n) }), 1000, 40_000);
  });

  test('duplicates in nested maps and in several maps are each reported once', () => {
    const text = 'specVersion: 0.0.5\nspecVersion: 0.0.6\nschema:\n  file: a\n  file: b\n  file: c\n';
    const doc = parseManifest(text);
    assert.deepEqual(
      doc.problems.map((p) => [p.start, p.message]),
      [
        [19, "Duplicate key 'specVersion': already set on line 1; keys of a map must be unique"],
        [58, "Duplicate key 'file': already set on line 4; keys of a map must be unique"],
        [68, "Duplicate key 'file': already set on line 4; keys of a map must be unique"],
      ],
    );
  });
});

describe('a manifest with 2,000 data sources, each with its own apiVersion', () => {
  const manifest = tutorialFiles()['subgraph.yaml'];
  const dataSource = manifest.slice(manifest.indexOf('  - kind: ethereum'));
  const withDataSources = (n: number) => {
    let text = `${manifest.slice(0, manifest.indexOf('dataSources:'))}dataSources:\n`;
    for (let i = 0; i < n; i++) text += dataSource.replace('name: ERC20\n', `name: ERC20x${i}\n`).replace('apiVersion: 0.0.7', `apiVersion: 0.0.${i + 5}`);
    return text;
  };
  test('one mismatch per data source, each message short, time linear in the data sources', () => {
    const findings = validate({ 'subgraph.yaml': withDataSources(2000) });
    const mismatches = findings.filter((f) => f.code === 'api-version-mismatch');
    assert.equal(mismatches.length, 1999);
    assert.equal(mismatches[0].message, 'All mappings must use the same apiVersion: this one has 0.0.6, the others 0.0.5 (found 0.0.5, 0.0.6, 0.0.7, 0.0.8, 0.0.9 and 1995 more)');
    assertGrowsLinearly((n) => validate({ 'subgraph.yaml': withDataSources(n) }), 50, 2000);
  });
});

describe('4,000 unknown entity names against a schema of 4,000 entities', () => {
  test('each reported with a suggestion, without comparing every name with every entity', () => {
    const files = tutorialFiles();
    const withEntities = (n: number) => ({
      'schema.graphql': files['schema.graphql'] + Array.from({ length: n }, (_, i) => `type Entity${i} @entity(immutable: true) { id: ID! }`).join('\n'),
      'subgraph.yaml': files['subgraph.yaml'].replace('        - ApprovalQuery\n', Array.from({ length: n }, (_, i) => `        - Entitx${i}\n`).join('')),
    });
    const n = 4000;
    const findings = validate(withEntities(n));
    const unknown = findings.filter((f) => f.code === 'entity-not-in-schema');
    assert.equal(unknown.length, n);
    assert.equal(unknown[0].message, "Entity 'Entitx0' is not an @entity type of schema.graphql; did you mean 'Entity0'? (a hint: graph-cli and graph-node do not check mapping.entities)");
    // Before: 17 s of CPU for 4,000 (every name against every entity, a full edit-distance table each).
    // Past the per-word bounds (500 compared, 2,000 looked at) each name costs the same.
    assertGrowsLinearly((size) => validate(withEntities(size)), 1000, n);
  });
});
