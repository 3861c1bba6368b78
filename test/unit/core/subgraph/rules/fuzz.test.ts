/**
 * Robustness: thousands of seeded mutations of the tutorial's files (lines deleted, duplicated,
 * swapped, re-indented, cut; random bytes and YAML indicators inserted; truncations) and a few
 * monsters (5 MB manifests, binary, deep nesting, alias bombs). Validation must never throw,
 * every range must lie inside its file, and whenever the fast YAML parser accepts a text its
 * tree must equal the `yaml` package's.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { memoryFileSource } from '../../../../../src/core/subgraph/fileSource';
import type { Finding, Range } from '../../../../../src/core/subgraph/types';
import { validateSubgraph } from '../../../../../src/core/subgraph/rules/validate';
import { parseFastYaml } from '../../../../../src/core/subgraph/manifest/fastYaml';
import { parseWithYaml } from '../../../../../src/core/subgraph/manifest/manifestDoc';
import { tutorialFiles, virtualProject, VIRTUAL_MANIFEST, type Files } from '../../../../fixtures/subgraphs/corpus';
import { propertyRuns } from '../../../../support/prng';

/** A small seeded PRNG (mulberry32), so a failure replays. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n) as number;
  };
}

const INDICATORS = ':-[]{}#&*!|>\'"%@`,? \t\n\r\\';

function mutate(text: string, rnd: (n: number) => number): string {
  const lines = text.split('\n');
  const i = rnd(lines.length);
  const j = rnd(lines.length);
  const at = rnd(text.length + 1);
  switch (rnd(9)) {
    case 0:
      lines.splice(i, 1);
      break;
    case 1:
      lines.splice(i, 0, lines[j]);
      break;
    case 2:
      [lines[i], lines[j]] = [lines[j], lines[i]];
      break;
    case 3:
      lines[i] = ' '.repeat(rnd(9)) + lines[i].trimStart();
      break;
    case 4:
      lines[i] = lines[i].slice(0, rnd(lines[i].length + 1));
      break;
    case 5:
      return text.slice(0, at);
    case 6:
      return text.slice(0, at) + String.fromCharCode(rnd(0x250)) + text.slice(at);
    case 7:
      return text.slice(0, at) + INDICATORS[rnd(INDICATORS.length)] + text.slice(at);
    case 8:
      return text.slice(0, at) + text.slice(at + 1 + rnd(20));
  }
  return lines.join('\n');
}

/** Does a range lie inside the text (lines and characters in bounds, start before end)? */
function inside(text: string, r: Range): boolean {
  const lines = text.split('\n');
  const ok = (p: Range['start']) => p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length;
  const ordered = r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character);
  return ok(r.start) && ok(r.end) && ordered;
}

function check(files: Files): Finding[] {
  const p = virtualProject(files);
  const findings = validateSubgraph(VIRTUAL_MANIFEST, memoryFileSource(p.files, p.mtimes)).findings;
  for (const f of findings) {
    assert.notEqual(f.code, 'internal-error', f.message);
    const text = p.files[f.file];
    assert.ok(text !== undefined, `finding in a file the project does not have: ${f.file}`);
    assert.ok(inside(text, f.range), `range ${JSON.stringify(f.range)} outside ${f.file} (${f.code}: ${f.message})`);
    for (const e of f.fix?.edits ?? []) {
      const target = p.files[f.fix!.file];
      assert.ok(target !== undefined && inside(target, e.range), `fix edit outside ${f.fix!.file}`);
    }
  }
  return findings;
}

describe('fuzz', () => {
  test('3000 mutated manifests: no exception, ranges inside', () => {
    const rnd = random(20240601);
    const base = tutorialFiles();
    const runs = propertyRuns(3000);
    let flagged = 0;
    for (let n = 0; n < runs; n++) {
      const files = { ...base };
      for (let k = 1 + rnd(4); k > 0; k--) files['subgraph.yaml'] = mutate(files['subgraph.yaml'], rnd);
      try {
        if (check(files).length > 0) flagged++;
      } catch (err) {
        throw new Error(`mutation ${n} failed (${err instanceof Error ? err.message : err}) on:\n${JSON.stringify(files['subgraph.yaml'])}`);
      }
    }
    // A validator that stopped reporting would still pass the checks above: most mutations break something.
    assert.ok(flagged >= runs * 0.9, `only ${flagged} of ${runs} mutated manifests got a finding`);
  });

  test('3000 texts: whenever the fast YAML parser accepts one, yaml reads the same tree', () => {
    const rnd = random(424242);
    const base = tutorialFiles()['subgraph.yaml'];
    const runs = propertyRuns(3000);
    let accepted = 0;
    for (let n = 0; n < runs; n++) {
      const text = mutate(n % 2 ? base : mutate(base, rnd), rnd);
      const fast = parseFastYaml(text);
      if (!fast) continue;
      accepted++;
      const slow = parseWithYaml(text);
      assert.deepEqual(
        slow.problems.filter((p) => p.severity === 'error'),
        [],
        `fast parser accepted a text yaml rejects:\n${JSON.stringify(text)}`,
      );
      assert.ok(isDeepStrictEqual(fast, slow.root), `fast and yaml trees differ for:\n${JSON.stringify(text)}`);
    }
    // The comparison means something only if the fast path ran often.
    assert.ok(accepted > runs / 3, `fast parser accepted only ${accepted} of ${runs} texts`);
  });

  test('1000 mutated schemas, ABIs and mappings: no exception, ranges inside', () => {
    const rnd = random(7);
    const base = tutorialFiles();
    for (let n = 0, runs = propertyRuns(1000); n < runs; n++) {
      const files = { ...base };
      const file = ['schema.graphql', 'abis/ERC20.json', 'src/mapping.ts'][n % 3];
      for (let k = 1 + rnd(3); k > 0; k--) files[file] = mutate(files[file], rnd);
      check(files);
    }
  });
});

describe('monsters', () => {
  const generous = { timeout: 60_000 };
  const alone = (text: string) => ({ ...tutorialFiles(), 'subgraph.yaml': text });

  test('a 5 MB manifest of real data sources', generous, () => {
    const base = tutorialFiles()['subgraph.yaml'];
    const block = base.slice(base.indexOf('  - kind'));
    const parts = [base];
    let size = base.length;
    for (let i = 0, target = propertyRuns(5_000_000); size < target; i++) {
      const part = block.replace('name: ERC20', `name: Token${i}`);
      parts.push(part);
      size += part.length;
    }
    const started = Date.now();
    const findings = check(alone(parts.join('')));
    assert.deepEqual(findings, [], 'all data sources are valid');
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
  });

  test('5 MB of binary garbage', generous, () => {
    const rnd = random(99);
    check(alone(Array.from({ length: propertyRuns(5_000_000) }, () => String.fromCharCode(rnd(256))).join('')));
  });

  test('one 5 MB line', generous, () => {
    assert.ok(check(alone(`specVersion: ${'9'.repeat(propertyRuns(5_000_000))}`)).length > 0);
  });

  test('deep nesting, flow and block', generous, () => {
    check(alone('['.repeat(20_000) + ']'.repeat(20_000)));
    check(alone(Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')));
  });

  test('an alias bomb and a self-referencing anchor', () => {
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 12 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`), 'dataSources: *a12'];
    assert.ok(check(alone(bomb.join('\n'))).some((f) => f.code === 'unknown-key'));
    check(alone('dataSources: &d\n  - *d\n'));
  });

  test('a list where the manifest map belongs, and other wrong roots', () => {
    // Each wrong root is an error at the top of the file, so a validator that says nothing fails.
    const expected: [string, string][] = [
      ['- a\n- b\n', 'error type-mismatch 0'],
      ['42', 'error type-mismatch 0'],
      ['"just a string"', 'error type-mismatch 0'],
      ['~', 'error type-mismatch 0'],
      ['', 'error empty-manifest 0'],
      ['\u0000', 'error type-mismatch 0'],
      ['---\n---\n', 'error yaml-syntax 1'],
    ];
    for (const [text, finding] of expected) {
      assert.deepEqual(
        check(alone(text)).map((f) => `${f.severity} ${f.code} ${f.range.start.line}`),
        [finding],
        JSON.stringify(text),
      );
    }
    const codes = check(alone('%YAML 1.2\n---\na: 1\n')).map((f) => f.code);
    assert.deepEqual([...new Set(codes)].sort(), ['missing-key', 'unknown-key']);
  });
});
