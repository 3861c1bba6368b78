/**
 * The corpus of broken tutorial variants (test/fixtures/subgraphs/corpus.ts), in memory: each
 * gives the rule ids it should, and every quick fix offered, once applied, removes its finding.
 * Every finding's words, place and fix are also compared with corpus.findings.txt beside the
 * corpus (test/support/findings.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import { LineIndex } from '../../../../../src/core/subgraph/text';
import type { Finding, Fix } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { assertFindingsFile } from '../../../../support/findings';
import { tutorialFiles, VARIANTS, virtualProject, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Files } from '../../../../fixtures/subgraphs/corpus';

function validate(files: Files): Finding[] {
  const p = virtualProject(files);
  return validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes)).findings;
}

/** Applies a fix's edits to the project's files (last edit first, so offsets hold). */
function applyFix(files: Files, fix: Fix): Files {
  const file = path.relative(VIRTUAL_ROOT, fix.file).split(path.sep).join('/');
  const text = files[file];
  assert.ok(text !== undefined, `fix for a file the project does not have: ${fix.file}`);
  const lines = new LineIndex(text);
  const edits = fix.edits.map((e) => ({ start: lines.offset(e.range.start), end: lines.offset(e.range.end), text: e.text })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { ...files, [file]: out };
}

test('the tutorial subgraph gives no finding', () => {
  assert.deepEqual(validate(tutorialFiles()), []);
});

describe('corpus', () => {
  for (const variant of VARIANTS) {
    test(variant.name, () => {
      const files = tutorialFiles();
      variant.edit(files);
      const findings = validate(files);
      const has = (code: string, severity: string) => findings.some((f) => f.code === code && f.severity === severity);
      for (const code of variant.errors) assert.ok(has(code, 'error'), `no ${code} error in ${JSON.stringify(findings.map((f) => `${f.severity} ${f.code}`))}`);
      for (const code of variant.warnings ?? []) assert.ok(has(code, 'warning'), `no ${code} warning in ${JSON.stringify(findings.map((f) => `${f.severity} ${f.code}`))}`);
      for (const code of variant.hints ?? []) assert.ok(has(code, 'info'), `no ${code} hint in ${JSON.stringify(findings.map((f) => `${f.severity} ${f.code}`))}`);
      if (!variant.errors.length) assert.ok(!findings.some((f) => f.severity === 'error'), `unexpected errors: ${findings.map((f) => f.message).join('; ')}`);
      for (const finding of findings.filter((f) => f.fix)) {
        const after = validate(applyFix(files, finding.fix!));
        const count = (list: Finding[]) => list.filter((f) => f.code === finding.code).length;
        assert.ok(count(after) < count(findings), `the fix "${finding.fix!.title}" leaves ${finding.code}: ${after.map((f) => f.message).join('; ')}`);
      }
    });
  }
});

test('every variant gives exactly the findings in corpus.findings.txt', () => {
  const sections = VARIANTS.map((variant) => {
    const files = tutorialFiles();
    variant.edit(files);
    return { title: variant.name, findings: validate(files) };
  });
  assertFindingsFile(sections, VIRTUAL_ROOT, 'subgraphs/corpus.findings.txt');
});
