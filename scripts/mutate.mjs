// `npm run mutate [-- PATH…] [--concurrency N]`: StrykerJS over src/core and src/cli (or the
// given folders/files), incremental, then a score table per folder from Stryker's JSON report.
// `--scores [--files]` runs nothing: it prints the table below (per folder, or per file) from the results kept.
// `--survivors` runs nothing: it lists the last report's surviving and uncovered mutants that
// docs/mutation.md does not explain (`--all`: every one), and explanations no survivor matches.
// Not part of `npm test`: a full run takes tens of minutes (docs/mutation.md).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const { default: config } = await import(join(root, 'stryker.config.mjs'));
const reportFile = join(root, config.jsonReporter.fileName);
const incrementalFile = join(root, config.incrementalFile);
// The results travel with the repository (gzipped, about a tenth of the size): a fresh clone
// re-tests only what changed since the last committed run instead of starting over (hours here).
const storedFile = `${incrementalFile}.gz`;
if (!existsSync(incrementalFile) && existsSync(storedFile)) {
  mkdirSync(dirname(incrementalFile), { recursive: true });
  writeFileSync(incrementalFile, gunzipSync(readFileSync(storedFile)));
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      concurrency: { type: 'string' },
      force: { type: 'boolean' },
      survivors: { type: 'boolean' },
      all: { type: 'boolean' },
      scores: { type: 'boolean' },
      files: { type: 'boolean' },
    },
  });
} catch (err) {
  console.error(`${err.message}\nusage: npm run mutate -- [src/core/FOLDER|FILE …] [--concurrency N] [--force] | --survivors [--all] [PATH…] | --scores [--files]`);
  process.exit(2);
}
const { values, positionals } = parsed;

/** Every file measured so far, not only the last run's (a file changed since is re-tested next run). */
function keptResults() {
  if (!existsSync(incrementalFile)) {
    console.error('no results yet: run `npm run mutate` first');
    process.exit(1);
  }
  return JSON.parse(readFileSync(incrementalFile, 'utf8'));
}

if (values.scores) {
  printScores(keptResults(), values.files);
  process.exit(0);
}

// One line per mutant a test run could reach but no test caught: the list to explain or to kill.
// Those explained in docs/mutation.md ("Surviving mutants kept") are left out unless --all.
if (values.survivors) {
  const report = keptResults();
  const explained = keptSurvivors();
  const used = new Set();
  const wanted = positionals.map((p) => relative(root, resolve(p)));
  let hidden = 0;
  for (const [file, data] of Object.entries(report.files)) {
    const rel = relative(root, resolve(root, file));
    if (wanted.length && !wanted.some((w) => rel === w || rel.startsWith(`${w}/`))) continue;
    for (const m of data.mutants) {
      if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
      const why = explained.find((e) => e.file === rel && m.location.start.line >= e.from && m.location.start.line <= e.to);
      if (why) used.add(why);
      if (why && !values.all) {
        hidden++;
        continue;
      }
      const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60);
      console.log(
        `${rel}:${m.location.start.line}:${m.location.start.column}  ${m.status === 'NoCoverage' ? 'no coverage' : 'survived'}  ${m.mutatorName}  ${replacement}${why ? `  (kept: ${why.reason})` : ''}`,
      );
    }
  }
  if (hidden) console.log(`(${hidden} more explained in docs/mutation.md; --all shows them)`);
  for (const e of explained) {
    if (!used.has(e) && (!wanted.length || wanted.some((w) => e.file === w || e.file.startsWith(`${w}/`)))) console.log(`stale explanation, no survivor there now: ${e.text}`);
  }
  process.exit(0);
}

/** The explained survivors: `- file:line[-line] reason` lines under "Surviving mutants kept" in docs/mutation.md. */
function keptSurvivors() {
  const doc = readFileSync(join(root, 'docs', 'mutation.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Surviving mutants kept'));
  const out = [];
  for (const m of section.matchAll(/^- `(src\/[^`:]+):(\d+)(?:-(\d+))?` (.+)$/gm)) {
    out.push({ file: m[1], from: Number(m[2]), to: Number(m[3] ?? m[2]), reason: m[4].slice(0, 80), text: m[0] });
  }
  return out;
}

// A folder becomes its .ts files; only paths under src/core and src/cli are accepted.
const mutate = [];
for (const p of positionals) {
  const rel = relative(root, resolve(p));
  if (!/^src\/(core|cli)(\/|$)/.test(rel) || !existsSync(join(root, rel))) {
    console.error(`not a file or folder under src/core or src/cli: ${p}`);
    process.exit(2);
  }
  mutate.push(statSync(join(root, rel)).isDirectory() ? `${rel}/**/*.ts` : rel);
}
if (values.concurrency !== undefined && !/^[1-9]\d?$/.test(values.concurrency)) {
  console.error(`--concurrency must be 1..99, not ${values.concurrency}`);
  process.exit(2);
}

// Stryker rewrites the incremental file with this run's files only: keep a subset run from
// dropping the results of the others (the next run re-checks them against the current code).
const earlier = existsSync(incrementalFile) ? JSON.parse(readFileSync(incrementalFile, 'utf8')) : undefined;

const args = ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'stryker.config.mjs'];
if (mutate.length) args.push('--mutate', mutate.join(','));
if (values.concurrency) args.push('--concurrency', values.concurrency);
if (values.force) args.push('--force');
const code = await new Promise((done) => {
  // Property tests run a tenth of their random cases per mutant (test/support/prng.ts).
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, CHAINDECK_PROPERTY_SCALE: '0.1' } });
  child.on('close', (c, signal) => done(c ?? (signal ? 1 : 0)));
});
if (code !== 0 || !existsSync(reportFile)) {
  console.error(`stryker failed (exit ${code})`);
  process.exit(1);
}

const report = JSON.parse(readFileSync(incrementalFile, 'utf8'));
if (earlier && mutate.length) {
  for (const [file, data] of Object.entries(earlier.files)) {
    if (!(file in report.files) && existsSync(join(root, file))) report.files[file] = data;
  }
  writeFileSync(incrementalFile, JSON.stringify(report));
}
writeFileSync(storedFile, gzipSync(readFileSync(incrementalFile), { level: 9 }));
const thisRun = Object.keys(JSON.parse(readFileSync(reportFile, 'utf8')).files).length;
console.log(`Scores over every file measured so far (${Object.keys(report.files).length} files, ${thisRun} in this run); commit ${relative(root, storedFile)} to keep them.`);

printScores(report, false);

/** The score table over every file in `report`: per folder (each file's own, src/core/subgraph/rules apart from src/core/subgraph), or per file, and the total. */
function printScores(report, perFile) {
  // Score as Stryker counts it: detected (killed + timeout) over valid mutants (no compile errors).
  const rows = new Map();
  const add = (key, status) => {
    const row = rows.get(key) ?? { Killed: 0, Survived: 0, NoCoverage: 0, Timeout: 0, other: 0 };
    if (status in row) row[status]++;
    else if (status !== 'CompileError' && status !== 'Ignored') row.other++;
    rows.set(key, row);
  };
  for (const [file, data] of Object.entries(report.files)) {
    const rel = relative(root, resolve(root, file));
    const folder = perFile ? rel : dirname(rel);
    for (const m of data.mutants) {
      add(folder, m.status);
      add('total', m.status);
    }
  }
  const score = (r) => {
    const valid = r.Killed + r.Survived + r.NoCoverage + r.Timeout + r.other;
    return valid ? (100 * (r.Killed + r.Timeout)) / valid : 100;
  };
  const width = Math.max(22, ...[...rows.keys()].map((k) => k.length));
  const line = (name, r) => [name.padEnd(width), ...[r.Killed, r.Survived, r.NoCoverage, r.Timeout].map((n) => String(n).padStart(9)), `${score(r).toFixed(1)}%`.padStart(8)].join(' ');
  console.log([(perFile ? 'file' : 'folder').padEnd(width), 'killed', 'survived', 'no-cover', 'timeout'].map((s, i) => (i ? s.padStart(9) : s)).join(' ') + '    score');
  for (const key of [...rows.keys()].filter((k) => k !== 'total').sort()) console.log(line(key, rows.get(key)));
  if (rows.has('total')) console.log(line('total', rows.get('total')));
}
