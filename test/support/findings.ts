/**
 * Findings written out word for word, and compared with a reviewed file: a rule's message, place
 * or fix that changes shows as a diff. After a deliberate change, CHAINDECK_WRITE_FINDINGS=1
 * rewrites the files; read the diff before committing it.
 */
import assert from 'node:assert/strict';
import { test as nodeTest, type TestContext } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Finding, Fix } from '../../src/core/subgraph/types';
import { LineIndex } from '../../src/core/subgraph/text';

/** A finding as one line (1-based line:column, files relative to `root`), its fixes' edits indented below it. */
export function renderFinding(f: Finding, root: string): string {
  const place = (r: Finding['range']) => `${r.start.line + 1}:${r.start.character + 1}-${r.end.line + 1}:${r.end.character + 1}`;
  const file = (name: string) => path.relative(root, name).split(path.sep).join('/');
  const lines = [`${f.severity} ${f.code} ${file(f.file)}:${place(f.range)} ${f.message}`];
  for (const [label, fix] of [
    ['fix', f.fix],
    ['alternative', f.alternative],
  ] as const) {
    if (!fix) continue;
    lines.push(`  ${label} (${fix.kind}) ${fix.title} in ${file(fix.file)}`);
    for (const e of fix.edits) lines.push(`    ${place(e.range)} ${JSON.stringify(e.text)}`);
  }
  return lines.join('\n');
}

/** Sections (`## title` and its findings) against a file under test/fixtures/. */
export function assertFindingsFile(sections: { title: string; findings: Finding[] }[], root: string, fixture: string): void {
  const text = `${sections.map((s) => [`## ${s.title}`, ...s.findings.map((f) => renderFinding(f, root))].join('\n')).join('\n\n')}\n`;
  const file = path.join(__dirname, '..', 'fixtures', fixture);
  if (process.env.CHAINDECK_WRITE_FINDINGS === '1') fs.writeFileSync(file, text);
  assert.equal(text, fs.readFileSync(file, 'utf8'));
}

/**
 * For a test file whose cases validate in many places: `test` names the section of every
 * `record`ed run after the test running it, and `check` (called by the file's last test)
 * compares all of them with the fixture.
 */
export function findingsRecorder() {
  const written: { title: string; findings: Finding[] }[] = [];
  let current = '';
  return {
    test(name: string, fn: (t: TestContext) => void | Promise<void>) {
      return nodeTest(name, (t) => {
        current = name;
        return fn(t);
      });
    },
    record(findings: Finding[]): Finding[] {
      written.push({ title: current, findings });
      return findings;
    },
    check(root: string, fixture: string): void {
      assertFindingsFile(written.splice(0), root, fixture);
    },
  };
}

/** The file after the fix's edits, as the editor applies them: inserts at one place keep their order. */
export function applyFix(text: string, fix: Fix): string {
  const lines = new LineIndex(text);
  let out = text;
  const order = fix.edits.map((e, i) => ({ e, i, at: lines.offset(e.range.start) }));
  for (const { e } of order.sort((a, b) => b.at - a.at || b.i - a.i)) {
    out = out.slice(0, lines.offset(e.range.start)) + e.text + out.slice(lines.offset(e.range.end));
  }
  return out;
}
