/**
 * validateSubgraph's own edges (a missing manifest, a syntax error, the parser choice, a rule
 * that throws, one finding flagged twice) and sortFindings' order: file, position, severity.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationCache } from '../../../../../src/core/subgraph/rules/context';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { Finding } from '../../../../../src/core/subgraph/types';
import { sortFindings, validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, type Files } from '../../../../fixtures/subgraphs/corpus';

function source(extra: Files = {}) {
  const p = virtualProject({ ...tutorialFiles(), ...extra }, {});
  return memoryFileSource(p.files, p.mtimes);
}

const brief = (findings: Finding[]) =>
  findings.map((f) => `${f.file.split('/').pop()} ${f.code} ${f.severity} ${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character} ${f.message}`);

describe('validateSubgraph', () => {
  test('a manifest that does not exist: no findings, no doc, and why the run is incomplete', () => {
    assert.deepEqual(validateSubgraph('/nowhere/subgraph.yaml', source()), { findings: [], incomplete: ['/nowhere/subgraph.yaml does not exist'] });
  });

  test('a YAML syntax error gives only its findings, and the run is complete', () => {
    const result = validateSubgraph(VIRTUAL_MANIFEST, source(), { text: 'a: [\n' });
    assert.deepEqual(
      result.findings.map((f) => f.code),
      ['yaml-syntax'],
    );
    assert.deepEqual(result.incomplete, []);
  });

  test('yamlOnly parses with the yaml package', () => {
    assert.equal(validateSubgraph(VIRTUAL_MANIFEST, source()).doc?.parser, 'fast');
    assert.equal(validateSubgraph(VIRTUAL_MANIFEST, source(), { yamlOnly: true }).doc?.parser, 'yaml');
  });

  test('a rule that throws: an internal error at the start of the manifest, and the run is incomplete', () => {
    class Throwing extends ValidationCache {
      override schema(): never {
        throw new Error('boom');
      }
    }
    const result = validateSubgraph(VIRTUAL_MANIFEST, source(), { cache: new Throwing() });
    assert.deepEqual(brief(result.findings), ['subgraph.yaml internal-error error 0:0-0:0 Chaindeck could not finish checking this manifest: boom']);
    assert.deepEqual(result.incomplete, ['Chaindeck could not finish checking this manifest: boom']);
  });

  test('one finding flagged twice is reported once', () => {
    class Twice extends ValidationCache {
      override schema(file: string, text: string) {
        const info = super.schema(file, text);
        return { ...info, findings: [...info.findings, ...info.findings] };
      }
    }
    const files = source({ 'schema.graphql': 'type ApprovalQuery @entity(immutable: true) { id: ID! owner: Strin! }' });
    const result = validateSubgraph(VIRTUAL_MANIFEST, files, { cache: new Twice() });
    assert.deepEqual(brief(result.findings), ["schema.graphql unknown-field-type error 0:61-0:67 Field 'owner': unknown type 'Strin'; did you mean 'String'?"]);
  });
});

describe('sortFindings', () => {
  const finding = (file: string, line: number, character: number, severity: Finding['severity']): Finding => ({
    file,
    range: { start: { line, character }, end: { line, character: character + 1 } },
    severity,
    message: `${file} ${severity}`,
    code: 'x',
  });
  const order = (findings: Finding[]) => sortFindings(findings).map((f) => `${f.file}@${f.range.start.line}:${f.range.start.character} ${f.severity}`);

  test('by file first, whatever the position', () => {
    assert.deepEqual(order([finding('b', 0, 0, 'error'), finding('a', 5, 0, 'error')]), ['a@5:0 error', 'b@0:0 error']);
    assert.deepEqual(order([finding('a', 5, 0, 'error'), finding('b', 0, 0, 'error')]), ['a@5:0 error', 'b@0:0 error']);
  });

  test('then line, then character', () => {
    assert.deepEqual(order([finding('a', 2, 0, 'info'), finding('a', 1, 9, 'info'), finding('a', 1, 3, 'info')]), ['a@1:3 info', 'a@1:9 info', 'a@2:0 info']);
  });

  test('at one place: errors, then warnings, then infos, in any input order', () => {
    const expected = ['a@1:1 error', 'a@1:1 warning', 'a@1:1 info'];
    assert.deepEqual(order([finding('a', 1, 1, 'error'), finding('a', 1, 1, 'warning'), finding('a', 1, 1, 'info')]), expected);
    assert.deepEqual(order([finding('a', 1, 1, 'info'), finding('a', 1, 1, 'warning'), finding('a', 1, 1, 'error')]), expected);
    assert.deepEqual(order([finding('a', 1, 1, 'warning'), finding('a', 1, 1, 'info'), finding('a', 1, 1, 'error')]), expected);
  });
});
