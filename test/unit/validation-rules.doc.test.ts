/**
 * Keeps docs/validation-rules.md true: every finding code the validator (src/core/subgraph) can
 * emit has a row, with the severities the code gives it, and no row names a code the code lost.
 * Codes are read from the source, since severities are chosen where each finding is made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatRecord, graphCliResult, readRecord, RECORD } from '../../scripts/gnd-corpus';
import { VARIANTS } from '../fixtures/subgraphs/corpus';
import { REPO_ROOT } from '../support/paths';

const ROOT = REPO_ROOT;
const SOURCE_DIR = path.join(ROOT, 'src', 'core', 'subgraph');
const DOC = path.join(ROOT, 'docs', 'validation-rules.md');
type Severity = 'error' | 'warning' | 'info';
const SEV = '(error|warning|info)';
const CODE = '([a-z][a-z0-9]*(?:-[a-z0-9]+)+)';

/** The validator's sources, without the graph CLI wrapper and the query client (they make no findings). */
function sources(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of fs.readdirSync(SOURCE_DIR, { recursive: true, encoding: 'utf8' })) {
    if (name.endsWith('.ts') && !/^(graphcli|query)\//.test(name)) out.set(path.basename(name), fs.readFileSync(path.join(SOURCE_DIR, name), 'utf8'));
  }
  return out;
}

/** code → severities, as the sources emit them. */
function emitted(): Map<string, Set<Severity>> {
  const found = new Map<string, Set<Severity>>();
  const add = (code: string, severity: Severity) => {
    if (!found.has(code)) found.set(code, new Set());
    found.get(code)!.add(severity);
  };
  const files = sources();
  const all = [...files.values()].join('\n');
  const patterns: [RegExp, number, number][] = [
    // flag(span, 'error', 'code', …) and the schema's flag(start, end, 'error', 'code', …)
    [new RegExp(`'${SEV}',\\s*'${CODE}'`, 'g'), 2, 1],
    // { severity: 'error', code: 'x' } and { code: 'x', severity: 'error' }, problem(…, 'code', 'error', …)
    [new RegExp(`severity:\\s*'${SEV}',\\s*code:\\s*'${CODE}'`, 'g'), 2, 1],
    [new RegExp(`code:\\s*'${CODE}',\\s*severity:\\s*'${SEV}'`, 'g'), 1, 2],
    [new RegExp(`'${CODE}',\\s*'${SEV}'`, 'g'), 1, 2],
  ];
  for (const [re, c, s] of patterns) for (const m of all.matchAll(re)) add(m[c], m[s] as Severity);
  // Value rules built by helpers: oneOf(code) is information; version({ code }) an error, or a warning
  // above the newest known version; tooOld: { code } an error.
  for (const m of all.matchAll(new RegExp(`oneOf\\('${CODE}'`, 'g'))) add(m[1], 'info');
  for (const m of all.matchAll(new RegExp(`version\\(\\{\\s*key: '\\w+',\\s*code: '${CODE}'`, 'g'))) {
    add(m[1], 'error');
    add(m[1], 'warning');
  }
  for (const m of all.matchAll(new RegExp(`tooOld: \\{\\s*code: '${CODE}'`, 'g'))) add(m[1], 'error');
  // Codes built from a template literal: expand them from what they are built of.
  const checkShape = files.get('checkShape.ts')!;
  assert.match(checkShape, /'error', `file-\$\{problem\.kind\}`/, 'the file-<kind> codes are built differently now: update this test');
  const kinds = /export type FileProblemKind = ([^;]+);/.exec(fs.readFileSync(path.join(ROOT, 'src', 'core', 'files.ts'), 'utf8'))![1];
  for (const m of kinds.matchAll(/'([a-z-]+)'/g)) if (m[1] !== 'missing') add(`file-${m[1]}`, 'error');
  assert.match(
    files.get('project.ts')!,
    /'error',\s*`duplicate-\$\{list === 'dataSources' \? 'data-source' : 'template'\}-name`/,
    'the duplicate-*-name codes are built differently now: update this test',
  );
  add('duplicate-data-source-name', 'error');
  add('duplicate-template-name', 'error');
  // A code whose severity is a variable: reserved-type-name is an error, or a warning when asked.
  assert.match(files.get('schema.ts')!, /severity: Severity = 'error'\) => this\.flag\(at\.start, at\.end, severity, 'reserved-type-name'/);
  add('reserved-type-name', 'error');
  if (/'reserved-type-name'[\s\S]{0,400}'warning'\)/.test(files.get('schema.ts')!) || /reserved\([^;]*'warning'\)/.test(files.get('schema.ts')!)) add('reserved-type-name', 'warning');
  // A reporting helper `report(at, 'code', message)` takes its severity where it is bound to flag.
  const bound = /\(at, code, message\) => this\.flag\(at\.start, at\.end, '(error|warning|info)', code, message\)/.exec(all)?.[1] as Severity | undefined;
  for (const m of all.matchAll(new RegExp(`\\breport\\([^;]{0,200}?,\\s*'${CODE}',`, 'g'))) {
    if (bound) add(m[1], bound);
    else found.set(m[1], found.get(m[1]) ?? new Set());
  }
  // `fulltext-${what}` codes, one per enumerated @fulltext argument.
  if (all.includes('`fulltext-${what}`')) for (const m of all.matchAll(/enumArgument\(arg\('(\w+)'\)/g)) add(`fulltext-${m[1]}`, bound ?? 'error');
  // Any other call passing a literal code to flag still needs a row; a code built from a template
  // literal must be expanded above.
  for (const m of all.matchAll(new RegExp(`\\bflag\\([^;]{0,200}?,\\s*'${CODE}',`, 'g'))) if (!found.has(m[1])) found.set(m[1], new Set());
  const built = [...all.matchAll(/\b(?:flag|report)\([^;]{0,200}?,\s*`([a-z-]+)\$\{/g)]
    .map((m) => m[1])
    .filter((p) => p !== 'file-' && p !== 'duplicate-' && !(p === 'fulltext-' && all.includes('enumArgument(arg(')));
  assert.deepEqual(built, [], 'codes built from a template literal this test does not expand: add them');
  return found;
}

/** code → severities, as the table writes them. */
function documented(): Map<string, Set<Severity>> {
  const rows = new Map<string, Set<Severity>>();
  for (const line of fs.readFileSync(DOC, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1].startsWith('`')) continue;
    const severities = new Set((cells[2].match(/\b(error|warning|info)\b/g) ?? []) as Severity[]);
    for (const m of cells[1].matchAll(/`([^`]+)`/g)) rows.set(m[1], severities);
  }
  return rows;
}

test('the rule table lists every finding code with the severities it is emitted with', () => {
  const code = emitted();
  const doc = documented();
  assert.ok(code.size >= 60, `only ${code.size} codes found in the sources: the extraction is broken`);
  const missing = [...code.keys()].filter((c) => !doc.has(c));
  assert.deepEqual(missing, [], `codes without a row in docs/validation-rules.md: ${missing.join(', ')}`);
  for (const [c, severities] of code) {
    for (const s of severities) assert.ok(doc.get(c)!.has(s), `${c} is emitted as ${s}, the table says ${[...doc.get(c)!].join('/')}`);
  }
});

test('the rule table names no code the validator cannot emit', () => {
  const code = emitted();
  const stale = [...documented().keys()].filter((c) => !code.has(c));
  assert.deepEqual(stale, [], `rows for codes the validator no longer emits: ${stale.join(', ')}`);
});

test('the table lists each code once', () => {
  const seen: string[] = [];
  for (const line of fs.readFileSync(DOC, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length >= 5 && cells[1].startsWith('`')) for (const m of cells[1].matchAll(/`([^`]+)`/g)) seen.push(m[1]);
  }
  assert.deepEqual(
    seen.filter((c, i) => seen.indexOf(c) !== i),
    [],
  );
});

test('the gnd table lists exactly the corpus projects where gnd and graph-cli disagree, as recorded', () => {
  const record = readRecord();
  assert.equal(formatRecord(record), fs.readFileSync(RECORD, 'utf8'), 'the record reads back as written');
  assert.deepEqual(
    record.map((r) => r.name),
    ['the tutorial (no mistake)', ...VARIANTS.map((v) => v.name)],
    'corpus.gnd.txt covers the corpus as it is now: run node --import tsx scripts/gnd-corpus.ts',
  );
  for (const variant of VARIANTS) assert.equal(record.find((r) => r.name === variant.name)!.graphCli, graphCliResult(variant), variant.name);
  const text = fs.readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## gnd and graph-cli'), text.indexOf('\n## ', text.indexOf('## gnd and graph-cli') + 1));
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| project') && !l.startsWith('| ---'))
    .map((l) =>
      l
        .split('|')
        .map((c) => c.trim())
        .slice(1, 4),
    );
  const disagree = record.filter((r) => r.graphCli !== r.gnd);
  assert.deepEqual(
    rows,
    disagree.map((r) => [r.name, r.graphCli, r.gnd]),
  );
  assert.match(section, new RegExp(`${record.length - disagree.length} of the ${record.length} projects get the same result`));
});
