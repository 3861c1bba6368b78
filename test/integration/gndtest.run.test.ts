/**
 * Subgraph tests on the real programs: gnd 0.45.0's `gnd test` (from the user cache), the
 * system's Postgres as a private cluster, and the emitter fixture subgraph built by the real graph
 * CLI. A passing file, a failed assertion, a handler error and a malformed file in one run, read
 * back per test and assertion; the CLI's text and JSON, its exit statuses, its build step, a
 * missing tests folder and a Ctrl+C; the Postgres password in no output; nothing left running.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from '../../src/cli/graphNode';
import { startTestDatabase } from '../../src/core/gndtest/database';
import { runSubgraphTests } from '../../src/core/gndtest/run';
import { resolveGnd } from '../../src/core/localnode/gnd';
import { buildCli, runCli } from '../support/cli';
import { assertNothingLeft, copyProject, graphCli, removeScratch, repoRoot, scratchFolder } from '../support/localGraph';
import { killProcessesUsing, processesUsing } from '../support/processes';
import { until } from '../support/until';

const FIXTURES = path.join(repoRoot(), 'test', 'fixtures');
const CLI = path.join(repoRoot(), 'dist', 'cli.js');

let scratch: string;
let project: string;
let manifest: string;
let gnd: string;
/** The CLI's temporary folders (its Postgres among them) go below the scratch folder, where leftovers are seen. */
let tmp: string;
const test_ = (name: string) => path.join(project, 'tests', `${name}.json`);

before(async () => {
  scratch = scratchFolder('chaindeck-gndtest-');
  tmp = path.join(scratch, 'tmp');
  mkdirSync(tmp, { mode: 0o711 });
  project = copyProject(path.join(FIXTURES, 'subgraphs', 'emitter'), scratch);
  manifest = path.join(project, 'subgraph.yaml');
  mkdirSync(path.join(project, 'tests'));
  for (const name of ['pass', 'fail', 'boom', 'multi']) writeFileSync(test_(name), readFileSync(path.join(FIXTURES, 'gndtest', `${name}.json`)));
  writeFileSync(test_('broken'), '{ "name": "broken", ');
  gnd = (await resolveGnd({ cacheDir: userCacheDir(process.env) })).path;
  await Promise.all([buildCli(), graphCli(['codegen'], project).then(() => graphCli(['build'], project))]);
});

after(() => {
  killProcessesUsing(scratch);
  removeScratch(scratch);
});

test('core: a pass, a failed assertion, a handler error and a malformed file, each read back; the password nowhere; a kept database only started again', async () => {
  const dataDir = path.join(scratch, 'db');
  const first = await startTestDatabase({ dataDir });
  const lines: string[] = [];
  let results;
  const password = new URL(first.url).password;
  try {
    assert.ok(password.length >= 20, 'a random password');
    const started = performance.now();
    results = await runSubgraphTests({
      manifest,
      files: [test_('pass'), test_('fail'), test_('boom'), test_('broken')],
      skipBuild: true,
      gnd,
      postgresUrl: first.url,
      out: (line) => lines.push(line),
    });
    console.log(`database first start ${first.startMs} ms; four files ${Math.round(performance.now() - started)} ms`);
  } finally {
    await first.stop();
  }
  await assertNothingLeft(dataDir);
  const byName = new Map(results.map((r) => [path.basename(r.file), r]));
  assert.deepEqual(
    results.map((r) => path.basename(r.file)),
    ['boom.json', 'broken.json', 'fail.json', 'pass.json'],
  );
  assert.equal(byName.get('pass.json')!.passed, true);
  assert.deepEqual(byName.get('pass.json')!.assertions, [{ query: '{ pings { id n from version } }', passed: true }]);
  const fail = byName.get('fail.json')!;
  assert.equal(fail.name, 'Ping wrong n');
  assert.equal(fail.passed, false);
  assert.equal(fail.error, undefined);
  assert.deepEqual((fail.assertions[0].expected as { pings: { n: string }[] }).pings[0].n, '8');
  assert.deepEqual((fail.assertions[0].actual as { pings: { n: string }[] }).pings[0].n, '7');
  const boom = byName.get('boom.json')!;
  assert.equal(boom.passed, false);
  assert.match(boom.error!, /^Handler error: .*boom after 3 pings/);
  assert.doesNotMatch(boom.error!, /\n/);
  assert.deepEqual(boom.assertions, [{ query: '{ pings { id n from version } }', passed: false }]);
  const broken = byName.get('broken.json')!;
  assert.equal(broken.passed, false);
  assert.match(broken.error!, /broken\.json is not valid JSON/);
  assert.equal(broken.durationMs, undefined, 'never given to gnd');
  // gnd names the database it keeps after a failure, password and all: never passed on.
  assert.ok(!JSON.stringify({ results, lines }).includes(password), lines.join('\n'));

  // Kept: the second start finds the cluster and only starts it.
  const log: string[] = [];
  const second = await startTestDatabase({ dataDir, log: (line) => log.push(line) });
  try {
    console.log(`database second start ${second.startMs} ms`);
    assert.ok(!log.some((l) => l.startsWith('initdb')), log.join('\n'));
    assert.notEqual(new URL(second.url).password, password, 'a new password each start');
    const again = await runSubgraphTests({ manifest, files: [test_('pass')], skipBuild: true, gnd, postgresUrl: second.url });
    assert.equal(again[0].passed, true);
  } finally {
    await second.stop();
  }
  await assertNothingLeft(dataDir);
});

const cli = (args: string[], timeoutMs = 90_000) => runCli(['subgraph', 'test', '--manifest', manifest, ...args], { TMPDIR: tmp, NO_COLOR: undefined }, timeoutMs);

/** No URL with a password, and not gnd's line that would have shown one. */
function assertNoPassword(run: { stdout: string; stderr: string }): void {
  for (const text of [run.stdout, run.stderr]) {
    assert.doesNotMatch(text, /postgres(ql)?:\/\/[^\s/]*:[^\s/@]*@/);
    assert.doesNotMatch(text, /database preserved/);
  }
}

test('CLI: exit 0 when all pass, with a line per test; the build step through the graph CLI the project has', async () => {
  const run = await cli([test_('pass')]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^✔ Ping stores a record {2}.*tests\/pass\.json {2}\d+\.\d s\n\nTests: 1 passed, 0 failed \(\d+\.\d s\)\n$/);
  assert.match(run.stderr, /building with graph \(codegen, build\)/);
  assertNoPassword(run);
  await assertNothingLeft(scratch);
});

test('CLI --format json: one array, exactly the agreed keys; exit 1 when any fails', async () => {
  const run = await cli(['--skip-build', '--format', 'json', test_('multi'), test_('pass'), test_('boom'), test_('broken')]);
  assert.equal(run.code, 1, run.stderr);
  const value = JSON.parse(run.stdout) as Record<string, unknown>[];
  const rel = (name: string) => path.relative(repoRoot(), test_(name));
  assert.deepEqual(
    value.map((r) => Object.keys(r)),
    [
      ['file', 'name', 'passed', 'assertions', 'error'],
      ['file', 'name', 'passed', 'assertions', 'error'],
      ['file', 'name', 'passed', 'assertions'],
      ['file', 'name', 'passed', 'assertions'],
    ],
  );
  assert.deepEqual(
    value.map((r) => [r.file, r.name, r.passed]),
    [
      [rel('boom'), 'Boom fails the handler', false],
      [rel('broken'), 'broken.json', false],
      [rel('multi'), 'multi-line and two assertions', false],
      [rel('pass'), 'Ping stores a record', true],
    ],
  );
  const multi = value[2].assertions as Record<string, unknown>[];
  assert.deepEqual(multi[0], { query: '{ pings { n } }', passed: true });
  assert.deepEqual(multi[2], {
    query: '{\n  pings {\n    from\n  }\n}',
    passed: false,
    expected: { pings: [{ from: '0x3333333333333333333333333333333333333333' }, { from: '0x4444444444444444444444444444444444444444' }] },
    actual: { pings: [{ from: '0x1111111111111111111111111111111111111111' }] },
  });
  assertNoPassword(run);
  await assertNothingLeft(scratch);
});

test('CLI text: the failed assertion named with its diff; usage errors (a missing manifest too) exit 2; no tests folder exits 1 in one line', async () => {
  const run = await cli(['--skip-build', test_('fail')]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /^✘ Ping wrong n {2}/);
  assert.match(
    run.stdout,
    /\n● Ping wrong n → .*tests\/fail\.json\n {2}Query: \{ pings \{ id n from version \} \}\n {2}- expected\n {2}\+ actual\n[^●]*\n {2}- {7}"n": "8",\n {2}\+ {7}"n": "7",\n/,
  );
  assertNoPassword(run);
  const usage = await cli(['--format', 'yaml']);
  assert.equal(usage.code, 2);
  const elsewhere = path.join(scratch, 'empty', 'subgraph.yaml');
  const missing = await runCli(['subgraph', 'test', '--manifest', elsewhere, '--skip-build'], { TMPDIR: tmp });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^chaindeck subgraph test: .*empty\/subgraph\.yaml: no such file\n/);
  mkdirSync(path.dirname(elsewhere));
  writeFileSync(elsewhere, readFileSync(manifest));
  const none = await runCli(['subgraph', 'test', '--manifest', path.dirname(elsewhere), '--skip-build'], { TMPDIR: tmp });
  assert.equal(none.code, 1);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /^chaindeck subgraph test: no tests: .*empty\/tests does not exist .*\n$/);
  await assertNothingLeft(scratch);
});

test('CLI: Ctrl+C while a test runs stops gnd and Postgres, and removes the temporary database', async () => {
  const child = spawn(process.execPath, [CLI, 'subgraph', 'test', '--manifest', manifest, '--skip-build', test_('pass'), test_('multi')], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    await until('a test to start', () => (/running /.test(stderr) ? true : undefined), 30_000);
    child.kill('SIGINT');
    assert.equal(await exit, 1);
    assert.match(stderr, /cancelled/);
    await assertNothingLeft(scratch);
    await until('the temporary database to be removed', () => (readdirSync(tmp).length === 0 ? true : undefined), 5000);
  } finally {
    child.kill('SIGKILL');
  }
});

test('CLI killed (SIGKILL) while a test runs: a leash stops gnd, the watchdog Postgres, and the temporary database is removed', async () => {
  const child = spawn(process.execPath, [CLI, 'subgraph', 'test', '--manifest', manifest, '--skip-build', test_('pass')], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<unknown>((resolve) => child.on('close', resolve));
  try {
    await until('a test to start', () => (/running /.test(stderr) ? true : undefined), 30_000);
    child.kill('SIGKILL');
    await exit;
    // gnd, left without its parent, ends once its test does (or its database is gone).
    await until('everything of the run to end', () => (processesUsing(scratch).length === 0 ? true : undefined), 20_000);
    await until('the temporary database to be removed', () => (readdirSync(tmp).length === 0 ? true : undefined), 5000);
  } finally {
    child.kill('SIGKILL');
  }
});
