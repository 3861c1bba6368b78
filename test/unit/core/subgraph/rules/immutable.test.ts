/**
 * `@entity` without `immutable:`: graph-cli rejects it from 0.97.0 on, graph-node and older
 * graph-cli accept it (mutable). The severity follows the graph-cli the workspace uses, found in
 * node_modules from the manifest's folder up, else in package.json's range.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { LineIndex } from '../../../../../src/core/subgraph/text';
import { rangeAtLeast } from '../../../../../src/core/subgraph/rules/versions';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Files } from '../../../../fixtures/subgraphs/corpus';

const installedAt = (dir: string, version: string): Record<string, string> => ({
  [path.join(dir, 'node_modules', '@graphprotocol', 'graph-cli', 'package.json')]: JSON.stringify({ name: '@graphprotocol/graph-cli', version }),
});
const asking = (range: string): Record<string, string> => ({
  [path.join(VIRTUAL_ROOT, 'package.json')]: JSON.stringify({ devDependencies: { '@graphprotocol/graph-cli': range } }),
});

const SCHEMA = '@entity(immutable: true)';

function run(extra: Record<string, string>, edit: (files: Files) => void = (f) => void (f['schema.graphql'] = f['schema.graphql'].replace(SCHEMA, '@entity'))) {
  const files = tutorialFiles();
  edit(files);
  const p = virtualProject(files);
  const all = { ...p.files, ...extra };
  return { all, findings: validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(all)).findings.filter((f) => f.code === 'entity-immutable-missing') };
}

function one(findings: Finding[]): Finding {
  assert.equal(findings.length, 1, JSON.stringify(findings));
  return findings[0];
}

describe('severity follows the workspace graph-cli', () => {
  test('installed 0.98.1: an error naming it', () => {
    const f = one(run(installedAt(VIRTUAL_ROOT, '0.98.1')).findings);
    assert.equal(f.severity, 'error');
    assert.match(f.message, /installed graph-cli 0\.98\.1 rejects it/);
  });
  test('installed 0.97.0 (the first that rejects it), found in a parent folder: an error', () => {
    assert.equal(one(run(installedAt(path.dirname(VIRTUAL_ROOT), '0.97.0')).findings).severity, 'error');
  });
  test('installed 0.96.0: a hint, saying which versions reject it', () => {
    const f = one(run(installedAt(VIRTUAL_ROOT, '0.96.0')).findings);
    assert.equal(f.severity, 'info');
    assert.match(f.message, /graph-cli 0\.97\.0 and newer reject it/);
  });
  test('the installed version wins over the package.json range', () => {
    assert.equal(one(run({ ...installedAt(VIRTUAL_ROOT, '0.51.0'), ...asking('^0.98.0') }).findings).severity, 'info');
  });
  test('only package.json: ^0.98.1 an error, ^0.51.0 a hint, >=0.90.0 a warning', () => {
    assert.equal(one(run(asking('^0.98.1')).findings).severity, 'error');
    assert.equal(one(run(asking('^0.51.0')).findings).severity, 'info');
    const open = one(run(asking('>=0.90.0')).findings);
    assert.equal(open.severity, 'warning');
    assert.match(open.message, /package\.json asks for >=0\.90\.0/);
  });
  test('no graph-cli anywhere: a warning saying which versions reject it', () => {
    const f = one(run({}).findings);
    assert.equal(f.severity, 'warning');
    assert.match(f.message, /graph-cli 0\.97\.0 and newer reject it/);
  });
  test('@entity(timeseries: true) needs no immutable, whatever the version', () => {
    assert.deepEqual(run(installedAt(VIRTUAL_ROOT, '0.98.1'), (f) => void (f['schema.graphql'] = f['schema.graphql'].replace(SCHEMA, '@entity(timeseries: true)'))).findings, []);
  });
});

describe('rangeAtLeast', () => {
  const cases: [string, boolean | undefined][] = [
    ['0.98.1', true],
    ['^0.97.0', true],
    ['~0.97.2', true],
    ['>=0.97.0', true],
    ['v0.98.0', true],
    ['1.0.0', true],
    ['0.96.0', false],
    ['^0.96.3', false],
    ['~0.30.0', false],
    ['>=0.90.0', undefined],
    ['*', undefined],
    ['latest', undefined],
    ['', undefined],
    ['0.9x', undefined],
  ];
  for (const [range, expected] of cases) test(JSON.stringify(range), () => assert.equal(rangeAtLeast(range, '0.97.0'), expected));
});

describe('fix-all: Add immutable: false to every entity', () => {
  const twoMutable = (f: Files) => {
    f['schema.graphql'] = f['schema.graphql'].replace(SCHEMA, '@entity') + '\ntype Holder @entity {\n  id: Bytes!\n}\ntype Tagged @entity(immutable: true) {\n  id: Bytes!\n}\n';
  };
  test('one fix on every such finding, with one edit per entity, that clears them all', () => {
    const { all, findings } = run(installedAt(VIRTUAL_ROOT, '0.98.1'), twoMutable);
    assert.equal(findings.length, 2);
    const fix = findings[0].fixAll!;
    assert.equal(fix.title, 'Add immutable: false to every entity');
    assert.deepEqual(findings[1].fixAll, fix);
    assert.equal(fix.edits.length, 2);
    // Apply the edits (from the end) and validate again.
    const schemaFile = path.join(VIRTUAL_ROOT, 'schema.graphql');
    assert.equal(fix.file, schemaFile);
    const text = all[schemaFile];
    const lines = new LineIndex(text);
    let out = text;
    for (const e of [...fix.edits].sort((a, b) => lines.offset(b.range.start) - lines.offset(a.range.start))) {
      out = out.slice(0, lines.offset(e.range.start)) + e.text + out.slice(lines.offset(e.range.end));
    }
    assert.equal((out.match(/@entity\(immutable: false\)/g) ?? []).length, 2);
    assert.ok(out.includes('type Tagged @entity(immutable: true)'));
    assert.deepEqual(
      validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource({ ...all, [schemaFile]: out })).findings.map((f) => f.code),
      [],
    );
  });
});
