/**
 * The whole-subgraph rules of project.ts on small manifests in memory: network and apiVersion
 * agreement (exact messages, which version wins), unique names, declared features, the
 * @entity immutable finding's rewrite, and generated code older than its sources.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Files } from '../../../../fixtures/subgraphs/corpus';

const APPROVAL = 'Approval(indexed address,indexed address,uint256)';

interface Ds {
  name?: string;
  network?: string;
  apiVersion?: string;
  abis?: string;
}

/** One data source (or template) entry of the tutorial's shape. */
function entry({ name = 'ERC20', network = 'mainnet', apiVersion = '0.0.7', abis }: Ds, template = false): string {
  const lines = ['  - kind: ethereum'];
  if (name) lines.push(`    name: ${name}`);
  if (network) lines.push(`    network: ${network}`);
  lines.push('    source:');
  if (!template) lines.push('      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"');
  lines.push('      abi: ERC20', '    mapping:', '      kind: ethereum/events');
  if (apiVersion) lines.push(`      apiVersion: ${apiVersion}`);
  lines.push('      language: wasm/assemblyscript', '      entities:', '        - ApprovalQuery');
  lines.push(abis ?? '      abis:\n        - name: ERC20\n          file: ./abis/ERC20.json');
  lines.push('      eventHandlers:', `        - event: ${APPROVAL}`, '          handler: handleApproval', '      file: ./src/mapping.ts');
  return lines.join('\n') + '\n';
}

function manifest(dataSources: Ds[], templates: Ds[] = [], head = 'specVersion: 0.0.5\n'): string {
  let text = `${head}schema:\n  file: ./schema.graphql\ndataSources:\n${dataSources.map((d) => entry(d)).join('')}`;
  if (templates.length) text += `templates:\n${templates.map((d) => entry(d, true)).join('')}`;
  return text;
}

function run(yaml: string, extra: Files = {}, mtimes: Record<string, number> = {}): Finding[] {
  const files = { ...tutorialFiles(), 'subgraph.yaml': yaml, ...extra };
  const p = virtualProject(files, mtimes);
  const result = validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes));
  assert.deepEqual(result.incomplete, []);
  return result.findings;
}

const of = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);
const messages = (findings: Finding[], code: string) => of(findings, code).map((f) => f.message);
const lineOf = (f: Finding) => f.range.start.line;

describe('one network', () => {
  test('a data source without a network against one with: both wordings, at the network or the name', () => {
    const f = run(manifest([{ name: 'A', network: '' }, { name: 'B' }, { name: 'C', network: '' }]));
    assert.deepEqual(messages(f, 'conflicting-networks'), ["Conflicting networks: 'mainnet' here, no network in dataSources[0]; all data sources and templates must use the same network"]);
    const g = run(manifest([{ name: 'A' }, { name: 'B', network: '' }]));
    const [c] = of(g, 'conflicting-networks');
    assert.equal(c.message, "Conflicting networks: no network here, 'mainnet' in dataSources[0]; all data sources and templates must use the same network");
    assert.equal(
      lineOf(c),
      manifest([{ name: 'A' }, { name: 'B', network: '' }])
        .split('\n')
        .indexOf('    name: B'),
    );
  });
  test('two networks: quoted both', () => {
    const f = run(manifest([{ name: 'A' }], [{ name: 'T', network: 'base' }]));
    assert.deepEqual(messages(f, 'conflicting-networks'), ["Conflicting networks: 'base' here, 'mainnet' in dataSources[0]; all data sources and templates must use the same network"]);
  });
});

describe('unique names', () => {
  test('data sources without a name are not duplicates of each other', () => {
    const f = run(manifest([{ name: '' }, { name: '' }]));
    assert.deepEqual(of(f, 'duplicate-data-source-name'), []);
    assert.ok(f.length > 0); // the missing names themselves are reported elsewhere
  });
});

describe('one apiVersion', () => {
  const versions = (...v: string[]) => manifest(v.map((apiVersion, i) => ({ name: `D${i}`, apiVersion })));
  test('the most used version wins, wherever it is listed, and is named first; values that are no version are left out', () => {
    const f = run(versions('0.0.6', '0.0.7', 'latest', '0.0.7'));
    assert.deepEqual(messages(f, 'api-version-mismatch'), ['All mappings must use the same apiVersion: this one has 0.0.6, the others 0.0.7 (found 0.0.7, 0.0.6)']);
  });
  test('versions all older than 0.0.5 may differ; one at 0.0.5 or newer may not', () => {
    assert.deepEqual(of(run(versions('0.0.3', '0.0.4')), 'api-version-mismatch'), []);
    assert.deepEqual(messages(run(versions('0.0.4', '0.0.5', '0.0.5')), 'api-version-mismatch'), [
      'All mappings must use the same apiVersion: this one has 0.0.4, the others 0.0.5 (found 0.0.5, 0.0.4)',
    ]);
    assert.equal(of(run(versions('0.0.4', '0.0.6', '0.0.6')), 'api-version-mismatch').length, 1);
  });
  test('five versions are listed; from six on, five and a count', () => {
    const five = messages(run(versions('0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.0.9', '0.0.9')), 'api-version-mismatch');
    assert.equal(five.length, 4);
    assert.equal(five[0], 'All mappings must use the same apiVersion: this one has 0.0.5, the others 0.0.9 (found 0.0.9, 0.0.5, 0.0.6, 0.0.7, 0.0.8)');
    const six = messages(run(versions('0.0.4', '0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.0.9', '0.0.9')), 'api-version-mismatch');
    assert.equal(six[0], 'All mappings must use the same apiVersion: this one has 0.0.4, the others 0.0.9 (found 0.0.9, 0.0.4, 0.0.5, 0.0.6, 0.0.7 and 1 more)');
  });
});

describe('declared features', () => {
  const graft = 'graft:\n  base: QmbKv2Lp5srWZeTyVPdaH5NHHdCis7UYrMRy5AQBjweLiM\n  block: 1\n';
  const undeclared = (head: string) => messages(run(manifest([{}], [], head)), 'feature-undeclared');
  test('checked from specVersion 0.0.4 on, and only with a specVersion that is a version', () => {
    const msg = ['graft needs the grafting feature: add `grafting` to features'];
    assert.deepEqual(undeclared(`specVersion: 0.0.4\n${graft}`), msg);
    assert.deepEqual(undeclared(`specVersion: 0.0.3\n${graft}`), []);
    assert.deepEqual(undeclared(`specVersion: latest\n${graft}`), []);
    assert.deepEqual(undeclared(`specVersion: 1.0.0-beta\n${graft}`), []); // no x.y.z version, though it compares as 1.0.0
    assert.deepEqual(undeclared(graft), []);
  });
  test('an empty feature name does not declare fullTextSearch', () => {
    const fulltext = '\ntype _Schema_ @fulltext(name: "search", language: en, algorithm: rank, include: [{entity: "ApprovalQuery", fields: [{name: "owner"}]}])\n';
    const schema = tutorialFiles()['schema.graphql'] + fulltext;
    const f = run(manifest([{}], [], 'specVersion: 0.0.5\nfeatures:\n  - ""\n'), { 'schema.graphql': schema });
    assert.deepEqual(messages(f, 'feature-undeclared'), ['The schema defines @fulltext search: add `fullTextSearch` to features']);
  });
});

describe('@entity without immutable', () => {
  test('the rewritten finding: one fix for all entities, other schema findings untouched', () => {
    const schema = 'type A @entity { id: ID! }\ntype B @entity { id: ID! }\ntype C @entity(immutable: true) { id: ID! other: Strin! }\n';
    const f = run(manifest([{}]), { 'schema.graphql': schema });
    const missing = of(f, 'entity-immutable-missing');
    assert.equal(missing.length, 2);
    assert.equal(
      missing[0].message,
      "@entity on 'A' has no immutable argument: graph-cli 0.97.0 and newer reject it; graph-node and older graph-cli make the entity mutable. Write immutable: true for records never updated, false otherwise",
    );
    assert.equal(missing[0].severity, 'warning');
    const fix = (missing[0] as Finding & { fixAll?: { title: string; edits: { text: string }[] } }).fixAll;
    assert.equal(fix?.title, 'Add immutable: false to every entity');
    assert.equal((fix as { kind?: string } | undefined)?.kind, 'replace');
    assert.deepEqual(
      fix?.edits.map((e) => e.text),
      ['@entity(immutable: false)', '@entity(immutable: false)'],
    );
    const others = f.filter((x) => x.file === path.join(VIRTUAL_ROOT, 'schema.graphql') && x.code !== 'entity-immutable-missing');
    assert.ok(others.length > 0);
    for (const o of others) assert.doesNotMatch(o.message, /immutable argument/);
  });
});

describe('spec versions the schema needs', () => {
  test('@aggregation below specVersion 1.1.0', () => {
    const schema = `${tutorialFiles()['schema.graphql']}\ntype Data @entity(timeseries: true) { id: Int8! timestamp: Timestamp! amount: BigDecimal! }\ntype Stats @aggregation(intervals: ["hour"], source: "Data") { id: Int8! timestamp: Timestamp! sum: BigDecimal! @aggregate(fn: "sum", arg: "amount") }\n`;
    const f = run(manifest([{}], [], 'specVersion: 1.0.0\n'), { 'schema.graphql': schema });
    assert.ok(messages(f, 'spec-version-too-low').includes('@aggregation needs specVersion 1.1.0 or newer; the manifest has 1.0.0'), JSON.stringify(messages(f, 'spec-version-too-low')));
  });
});

describe('generated code', () => {
  // The mapping imports the generated class of data source A, as graph build needs.
  const mapping = tutorialFiles()['src/mapping.ts'].replace('../generated/ERC20/ERC20', '../generated/A/ERC20');
  const gen = { 'generated/schema.ts': '// generated', 'generated/A/ERC20.ts': '// generated', 'src/mapping.ts': mapping };
  test('as old as its sources is not stale', () => {
    assert.deepEqual(run(manifest([{ name: 'A' }]), gen, { 'generated/schema.ts': 100, 'generated/A/ERC20.ts': 100, 'schema.graphql': 100, 'abis/ERC20.json': 100 }), []);
  });
  test('templates are generated under generated/templates/<name>', () => {
    const files = { ...gen, 'generated/templates/T/ERC20.ts': '// generated' };
    const before = { 'generated/schema.ts': 300, 'generated/A/ERC20.ts': 300, 'schema.graphql': 100, 'abis/ERC20.json': 100 };
    const t = { ...before, 'generated/templates/T/ERC20.ts': 300 };
    assert.deepEqual(run(manifest([{ name: 'A' }], [{ name: 'T' }]), files, t), []);
    const stale = run(manifest([{ name: 'A' }], [{ name: 'T' }]), files, { ...t, 'generated/templates/T/ERC20.ts': 50 });
    assert.deepEqual(messages(stale, 'generated-stale'), ['Generated code is older than ./abis/ERC20.json; run graph codegen']);
    const missing = run(manifest([{ name: 'A' }], [{ name: 'T' }]), gen, before);
    assert.deepEqual(messages(missing, 'generated-missing'), ['No generated code for ABI ERC20 of T; run graph codegen']);
  });
  test('entries without a name, an ABI without a name or file, or a missing ABI file are skipped', () => {
    const t = { 'generated/schema.ts': 300, 'generated/A/ERC20.ts': 300, 'schema.graphql': 100, 'abis/ERC20.json': 100 };
    const codes = (f: Finding[]) => f.filter((x) => x.code.startsWith('generated-'));
    assert.deepEqual(codes(run(manifest([{ name: 'A' }, { name: '' }]), gen, t)), []);
    const noName = '      abis:\n        - file: ./abis/ERC20.json';
    const noFile = '      abis:\n        - name: ERC20';
    assert.deepEqual(codes(run(manifest([{ name: 'A' }, { name: 'B', abis: noName }, { name: 'C', abis: noFile }]), gen, t)), []);
    const other = '      abis:\n        - name: Other\n          file: ./abis/Other.json';
    assert.deepEqual(codes(run(manifest([{ name: 'A' }, { name: 'B', abis: other }]), gen, t)), []);
  });
});
