/**
 * `chaindeck validate` in-process, beyond test/unit/subgraph.cli.test.ts: each usage error's exact
 * message followed by the usage (exit 2), manifests that cannot be read (exit 1, no usage), the
 * summary line's counts and plurals (text only), info and warning findings printed without
 * failing, and an incomplete check failing the run whatever the findings.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tutorialFiles, writeProject } from '../../fixtures/subgraphs/corpus';
import { assertUsageError, runMain, type MainRun } from '../../support/cli';

const USAGE_START = '\n\nUsage: chaindeck validate [PATH] [--format text|json]\n';
const cwd = process.cwd();
let dir: string;

const validate = (...args: string[]) => runMain(['validate', ...args]);

function assertUsage(run: MainRun, message: string): void {
  assertUsageError(run, { command: 'validate', start: USAGE_START, end: 'manifest that does not exist).\n' }, message);
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-cli-validate-'));
  writeProject(dir, 'good');
  // One warning (graft.base) and one info finding (an entity not in the schema): no error.
  writeProject(dir, 'hints', (f) => {
    f['subgraph.yaml'] = f['subgraph.yaml']
      .replace('specVersion: 0.0.5', 'specVersion: 0.0.5\nfeatures:\n  - grafting\ngraft:\n  base: nope\n  block: 1')
      .replace('ApprovalQuery', 'ApprovalQuerry');
  });
  writeProject(dir, 'one-error', (f) => void (f['subgraph.yaml'] = f['subgraph.yaml'].replace('startBlock: 6082465', 'startblock: 6082465')));
  writeProject(dir, 'fifo-schema');
  fs.rmSync(path.join(dir, 'fifo-schema', 'schema.graphql'));
  execFileSync('mkfifo', [path.join(dir, 'fifo-schema', 'schema.graphql')]);
  fs.mkdirSync(path.join(dir, 'empty'));
  fs.mkdirSync(path.join(dir, 'folder-manifest', 'subgraph.yaml'), { recursive: true });
  fs.symlinkSync('/dev/null', path.join(dir, 'null.yaml'));
  execFileSync('mkfifo', [path.join(dir, 'pipe.yaml')]);
  process.chdir(dir);
});

after(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('chaindeck validate: usage errors (exit 2, the message then the usage)', () => {
  test('--format needs text or json', async () => {
    assertUsage(await validate('good', '--format'), '--format takes text or json, not nothing');
    assertUsage(await validate('--format', 'xml', 'good'), "--format takes text or json, not 'xml'");
    assertUsage(await validate('--format=JSON', 'good'), "--format takes text or json, not 'JSON'");
    assertUsage(await validate('--format=', 'good'), "--format takes text or json, not ''");
  });

  test('unknown options, short or long', async () => {
    assertUsage(await validate('--strict', 'good'), 'unknown option --strict');
    assertUsage(await validate('good', '-q'), 'unknown option -q');
    assertUsage(await validate('--formats=json'), 'unknown option --formats=json');
  });

  test('one manifest at most', async () => {
    assertUsage(await validate('good', 'one-error'), 'give one manifest, not 2: good one-error');
    assertUsage(await validate('good', 'one-error', 'hints'), 'give one manifest, not 3: good one-error hints');
  });

  test('a manifest that does not exist; the default one with a hint; a folder without subgraph.yaml', async () => {
    assertUsage(await validate('nowhere.yaml'), 'nowhere.yaml: no such file');
    assertUsage(await validate('-'), '-: no such file');
    assertUsage(await validate('empty'), 'empty is a folder without a subgraph.yaml');
    process.chdir(path.join(dir, 'empty'));
    try {
      assertUsage(await validate(), 'subgraph.yaml: no such file (run in the subgraph folder, or give the manifest path)');
      assertUsage(await validate('--format', 'json'), 'subgraph.yaml: no such file (run in the subgraph folder, or give the manifest path)');
    } finally {
      process.chdir(dir);
    }
  });
});

describe('chaindeck validate: manifests that cannot be read (exit 1, the reason alone)', () => {
  test('a folder named subgraph.yaml, a device, a FIFO', async () => {
    assert.deepEqual(await validate('folder-manifest'), {
      code: 1,
      out: '',
      revealed: '',
      err: `chaindeck validate: ${path.join('folder-manifest', 'subgraph.yaml')} is a folder, not a file\n`,
    });
    assert.deepEqual(await validate('null.yaml'), { code: 1, out: '', revealed: '', err: 'chaindeck validate: null.yaml is a device: only regular files are read\n' });
    const started = Date.now();
    assert.deepEqual(await validate('pipe.yaml', '--format', 'json'), {
      code: 1,
      out: '',
      revealed: '',
      err: 'chaindeck validate: pipe.yaml is a named pipe (FIFO): only regular files are read\n',
    });
    assert.ok(Date.now() - started < 10_000, 'at once');
  });

  test('a symlink loop and a name too long say so, not "no such file"', async () => {
    fs.symlinkSync('loop-b.yaml', path.join(dir, 'loop-a.yaml'));
    fs.symlinkSync('loop-a.yaml', path.join(dir, 'loop-b.yaml'));
    assert.deepEqual(await validate('loop-a.yaml'), { code: 1, out: '', revealed: '', err: 'chaindeck validate: loop-a.yaml cannot be read: too many symbolic links (a loop?)\n' });
    const long = `${'n'.repeat(300)}.yaml`;
    assertUsage(await validate(long), `${long} cannot be read: the path is too long`);
  });
});

describe('chaindeck validate: findings and the exit status', () => {
  test('the default manifest in the current folder; a folder means its subgraph.yaml', async () => {
    process.chdir(path.join(dir, 'good'));
    try {
      assert.deepEqual(await validate(), { code: 0, out: '', revealed: '', err: 'subgraph.yaml: 0 errors, 0 warnings\n' });
    } finally {
      process.chdir(dir);
    }
    assert.deepEqual(await validate('good'), { code: 0, out: '', revealed: '', err: `${path.join('good', 'subgraph.yaml')}: 0 errors, 0 warnings\n` });
  });

  test('a warning and an info finding: both printed, exit 0, "1 warning" in the singular', async () => {
    const run = await validate('hints/subgraph.yaml');
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(run.out.trimEnd().split('\n'), [
      "hints/subgraph.yaml:5:9: warning: graft.base 'nope' does not look like a deployment id (Qm… , 46 characters)",
      "hints/subgraph.yaml:23:11: info: Entity 'ApprovalQuerry' is not an @entity type of schema.graphql; did you mean 'ApprovalQuery'? (a hint: graph-cli and graph-node do not check mapping.entities)",
    ]);
    assert.equal(run.err, 'hints/subgraph.yaml: 0 errors, 1 warning\n');
  });

  test('--format json: the same findings as objects with their codes and ranges, no summary line', async () => {
    const run = await validate('--format=json', 'hints/subgraph.yaml');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.err, '');
    const lines = JSON.parse(run.out) as Record<string, unknown>[];
    assert.equal(run.out, `${JSON.stringify(lines, null, 2)}\n`);
    assert.deepEqual(
      lines.map((l) => [l.file, l.line, l.column, l.severity, l.code]),
      [
        ['hints/subgraph.yaml', 5, 9, 'warning', 'invalid-deployment-id'],
        ['hints/subgraph.yaml', 23, 11, 'info', 'entity-not-in-schema'],
      ],
    );
    assert.deepEqual(Object.keys(lines[0]), ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'code', 'message']);
    assert.equal(lines[0].endLine, 5);
    assert.equal(lines[0].endColumn, 13);
  });

  test('one error: exit 1, "1 error" in the singular', async () => {
    const run = await validate('one-error/subgraph.yaml', '--format', 'text');
    assert.equal(run.code, 1);
    assert.equal(run.out, "one-error/subgraph.yaml:12:7: error: Unexpected key 'startblock' in dataSources[0].source; did you mean 'startBlock'?\n");
    assert.equal(run.err, 'one-error/subgraph.yaml: 1 error, 0 warnings\n');
  });

  test('a file that cannot be read: the finding, then "could not check everything", exit 1 in both formats', async () => {
    const text = await validate('fifo-schema/subgraph.yaml');
    assert.equal(text.code, 1);
    assert.match(text.out, /^fifo-schema\/subgraph\.yaml:4:9: error: File cannot be read: \.\/schema\.graphql is a named pipe \(FIFO\)/);
    const [summary, ...reasons] = text.err.trimEnd().split('\n');
    assert.match(summary, /^fifo-schema\/subgraph\.yaml: \d+ errors?, \d+ warnings?$/);
    assert.ok(reasons.length >= 1);
    for (const line of reasons) assert.match(line, /^chaindeck validate: could not check everything: /);
    const json = await validate('fifo-schema/subgraph.yaml', '--format', 'json');
    assert.equal(json.code, 1);
    assert.equal(json.err, reasons.map((l) => `${l}\n`).join(''), 'json: the reasons only, no summary');
  });
});

describe('validate: findings sorted by file, then line, then column', () => {
  const cwd = process.cwd();
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-cli-sort-'));
    const files = tutorialFiles();
    // Two findings on one line 9 of the manifest (a flow mapping), and two in the schema, at
    // lines 4 and 11: ordered by file first, whatever the lines.
    files['subgraph.yaml'] = files['subgraph.yaml'].replace(
      '    source:\n      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"\n      abi: ERC20\n      startBlock: 6082465\n',
      '    source: { address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", abi: ERC20, startblock: 6082465, endblock: 1 }\n',
    );
    files['schema.graphql'] = files['schema.graphql'].replace('owner: Bytes!', 'owner: Bytez!');
    files['schema.graphql'] += '\ntype Holder @entity(immutable: true) {\n  id: ID!\n  balance: Bigint!\n}\n';
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, 'p', path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'p', file), text);
    }
    process.chdir(dir);
  });
  after(() => {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The findings' positions as printed, checked to be the same in JSON and text and sorted. */
  async function positions(manifest: string): Promise<(readonly [string, number, number])[]> {
    const run = await runMain(['validate', manifest, '--format', 'json']);
    assert.equal(run.code, 1, run.err);
    const found = (JSON.parse(run.out) as { file: string; line: number; column: number }[]).map((l) => [l.file, l.line, l.column] as const);
    const sorted = [...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2]));
    assert.deepEqual(found, sorted);
    const text = await runMain(['validate', manifest]);
    assert.deepEqual(
      text.out
        .trimEnd()
        .split('\n')
        .map((l) => l.split(': ')[0]),
      found.map(([f, l, c]) => `${f}:${l}:${c}`),
    );
    return found;
  }

  test("by file before line: the schema's findings (lines 4 and 11) before the manifest's (line 9); one line by column", async () => {
    const found = await positions(path.join('p', 'subgraph.yaml'));
    assert.deepEqual(
      found.map(([f, l]) => `${f}:${l}`),
      ['p/schema.graphql:4', 'p/schema.graphql:11', 'p/subgraph.yaml:9', 'p/subgraph.yaml:9'],
    );
    assert.ok(found[2][2] < found[3][2], 'two on one line: by column');
  });

  test('by the file names shown, not the paths read: an absolute manifest sorts before p/schema.graphql', async () => {
    const manifest = path.join(dir, 'p', 'subgraph.yaml');
    const found = await positions(manifest);
    assert.deepEqual([...new Set(found.map(([f]) => f))], [manifest, path.join('p', 'schema.graphql')]);
  });
});
