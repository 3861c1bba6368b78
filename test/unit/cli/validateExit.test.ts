/**
 * `chaindeck validate` through dist/cli.js, as CI runs it, on files it cannot read: it answers at
 * once (a FIFO never blocks it) and exits 1 whenever it could not check everything; only a
 * manifest that does not exist is a usage error (2).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { memoryFileSource } from '../../../src/core/subgraph/fileSource';
import { validateSubgraph } from '../../../src/core/subgraph/rules/validate';
import { tutorialFiles } from '../../fixtures/subgraphs/corpus';
import { buildCli, runCli } from '../../support/cli';

let dir: string;

function project(name: string): string {
  const root = path.join(dir, name);
  for (const [file, text] of Object.entries(tutorialFiles())) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-validate-exit-'));
  await buildCli();
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('chaindeck validate exit status on unreadable input', () => {
  test('a clean project exits 0 (the baseline the others differ from)', async () => {
    const run = await runCli(['validate', path.join(project('clean'), 'subgraph.yaml')]);
    assert.equal(run.code, 0, run.stderr);
  });

  test('a FIFO as the manifest: exit 1 at once, with the reason', async () => {
    const fifo = path.join(dir, 'subgraph.fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const run = await runCli(['validate', fifo]);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, `chaindeck validate: ${fifo} is a named pipe (FIFO): only regular files are read\n`);
  });

  test('a /dev/zero symlink as the manifest: exit 1, not an endless read', async () => {
    const zero = path.join(dir, 'zero.yaml');
    fs.symlinkSync('/dev/zero', zero);
    const run = await runCli(['validate', zero]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /is a device: only regular files are read/);
  });

  test('an oversize manifest: exit 1 naming the 8 MiB cap', async () => {
    const big = path.join(dir, 'big.yaml');
    fs.writeFileSync(big, `specVersion: 1.0.0\n${'#'.repeat(8 * 1024 * 1024)}\n`);
    const run = await runCli(['validate', big]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /big\.yaml is larger than the 8 MiB cap for this kind of file \(8 MiB\)/);
  });

  test('a FIFO as the schema: the finding, "could not check everything", exit 1', async () => {
    const root = project('fifo-schema');
    fs.rmSync(path.join(root, 'schema.graphql'));
    execFileSync('mkfifo', [path.join(root, 'schema.graphql')]);
    const run = await runCli(['validate', path.join(root, 'subgraph.yaml')]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /subgraph\.yaml:4:9: error: File cannot be read: \.\/schema\.graphql is a named pipe \(FIFO\)/);
    assert.match(run.stderr, /could not check everything: .*schema\.graphql is a named pipe/);
  });

  // The mapping re-exports its handlers from './more': when that module cannot be read, nothing
  // says whether handleApproval exists, and no error was found: still exit 1.
  function reexporting(name: string): string {
    const root = project(name);
    fs.renameSync(path.join(root, 'src', 'mapping.ts'), path.join(root, 'src', 'handlers.ts'));
    fs.writeFileSync(path.join(root, 'src', 'mapping.ts'), "export * from './more';\n");
    return root;
  }

  for (const [what, make, reason] of [
    ['a folder', (more: string) => fs.mkdirSync(more), /src\/more\.ts is a folder, not a file/],
    ['over the 8 MiB cap', (more: string) => fs.writeFileSync(more, `export * from './handlers';\n${' '.repeat(8 * 1024 * 1024)}`), /src\/more\.ts is larger than the 8 MiB cap/],
    ['missing', () => {}, /the handlers of .*src\/mapping\.ts are not checked: it re-exports '\.\/more' \(export \* from\), and neither .*more\.ts nor .*more\/index\.ts exists/],
  ] as const) {
    test(`export * from a module that is ${what}: no error found, still exit 1, with the reason`, async () => {
      const root = reexporting(`reexport-${what.replace(/\W+/g, '-')}`);
      make(path.join(root, 'src', 'more.ts'));
      for (const format of ['text', 'json']) {
        const run = await runCli(['validate', path.join(root, 'subgraph.yaml'), '--format', format]);
        assert.equal(run.code, 1, run.stderr);
        assert.doesNotMatch(run.stdout, /error/);
        assert.match(run.stderr, reason);
      }
    });
  }

  test('export * from a readable module: the handlers are checked through it (exit 0, or 1 for a missing one)', async () => {
    const root = reexporting('reexport-readable');
    fs.writeFileSync(path.join(root, 'src', 'more.ts'), "export * from './handlers';\n");
    assert.equal((await runCli(['validate', path.join(root, 'subgraph.yaml')])).code, 0);
    fs.writeFileSync(path.join(root, 'src', 'more.ts'), 'export function handleOther(): void {}\n');
    const missing = await runCli(['validate', path.join(root, 'subgraph.yaml')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /error: Handler 'handleApproval' is not an exported function of \.\/src\/mapping\.ts/);
  });

  test('export * chains deeper than 16 modules: the handlers are not checked, still exit 1, with the reason', async () => {
    const root = reexporting('reexport-deep');
    for (let i = 0; i < 17; i++) fs.writeFileSync(path.join(root, 'src', i ? `more${i}.ts` : 'more.ts'), `export * from './more${i + 1}';\n`);
    fs.writeFileSync(path.join(root, 'src', 'more17.ts'), "export * from './handlers';\n");
    const run = await runCli(['validate', path.join(root, 'subgraph.yaml')]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /the handlers of .*src\/mapping\.ts are not checked: its re-exports \(export \* from\) go more than 16 modules deep, to .*src\/more15\.ts/);
  });

  test('a missing manifest stays a usage error (2)', async () => {
    const run = await runCli(['validate', path.join(dir, 'nothing.yaml')]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /no such file/);
  });
});

describe('a check that fails partway', () => {
  test('is an error finding and an incomplete run, not a warning that passes', () => {
    const files = tutorialFiles();
    // A FileSource breaking its contract (a non-string text) makes a rule throw.
    const source = memoryFileSource(files);
    const broken = { ...source, read: (f: string) => (f.endsWith('schema.graphql') ? (42 as unknown as string) : source.read(f)) };
    const result = validateSubgraph('subgraph.yaml', broken);
    const internal = result.findings.filter((f) => f.code === 'internal-error');
    assert.equal(internal.length, 1, JSON.stringify(result.findings));
    assert.equal(internal[0].severity, 'error');
    assert.match(result.incomplete[0], /^Chaindeck could not finish checking this manifest/);
  });
});
