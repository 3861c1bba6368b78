/**
 * The corpus of broken tutorial variants (test/fixtures/subgraphs/corpus.ts), in memory: each
 * gives the rule ids it should, and every quick fix offered, once applied, removes its finding.
 * Every finding's words, place and fix are also compared with corpus.findings.txt beside the
 * corpus (rewrite it with CHAINDECK_WRITE_FINDINGS=1 after a deliberate change, and read the diff).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LineIndex, memoryFileSource, validateSubgraph, type Finding, type Fix } from '../../src/core/subgraph';
import { tutorialFiles, VARIANTS, virtualProject, VIRTUAL_MANIFEST, VIRTUAL_ROOT, type Files } from '../fixtures/subgraphs/corpus';

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

/** A finding as one line (1-based line:column), its fix's edits indented below it. */
function render(f: Finding): string {
  const place = (r: Finding['range']) => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;
  const file = (name: string) => path.relative(VIRTUAL_ROOT, name).split(path.sep).join('/');
  const lines = [`${f.severity} ${f.code} ${file(f.file)}:${place(f.range)} ${f.message}`];
  if (f.fix) {
    lines.push(`  fix (${f.fix.kind}) ${f.fix.title} in ${file(f.fix.file)}`);
    for (const e of f.fix.edits) lines.push(`    ${place(e.range)} ${JSON.stringify(e.text)}`);
  }
  return lines.join('\n');
}

test('every variant gives exactly the findings in corpus.findings.txt', () => {
  const sections = VARIANTS.map((variant) => {
    const files = tutorialFiles();
    variant.edit(files);
    return [`## ${variant.name}`, ...validate(files).map(render)].join('\n');
  });
  const text = `${sections.join('\n\n')}\n`;
  const file = path.join(__dirname, '..', 'fixtures', 'subgraphs', 'corpus.findings.txt');
  if (process.env.CHAINDECK_WRITE_FINDINGS === '1') fs.writeFileSync(file, text);
  assert.equal(text, fs.readFileSync(file, 'utf8'));
});
