/**
 * `chaindeck validate` in-process, beyond the line-format suite below: each usage error's exact
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
import type { CliIO } from '../../../src/cli/command';
import { main } from '../../../src/cli/main';
import { tutorialFiles, writeProject, type Edit, type Files } from '../../fixtures/subgraphs/corpus';
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

describe('the line format problem matchers read, JSON, order, file names and exit status', () => {
  /**
   * `chaindeck validate` in-process: the line format problem matchers read, the JSON form, the
   * order, file names relative to the current folder, and the exit status.
   */
  interface Run {
    code: number;
    out: string;
    err: string;
  }

  async function cli(...args: string[]): Promise<Run> {
    let out = '';
    let err = '';
    const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {} };
    const code = await main(['validate', ...args], io);
    return { code, out, err };
  }

  let dir: string;
  const cwd = process.cwd();

  function writeProject(name: string, edit: (files: Files) => void = () => {}): string {
    const files = tutorialFiles();
    edit(files);
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, name, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, name, file), text);
    }
    return name;
  }

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-validate-cli-'));
    writeProject('good');
    writeProject('broken', (f) => {
      f['subgraph.yaml'] = f['subgraph.yaml'].replace('startBlock: 6082465', 'startblock: 6082465').replace('network: mainnet', 'network: mainet');
      f['schema.graphql'] = f['schema.graphql'].replace('id: ID!', 'id: Int!');
    });
    writeProject('warned', (f) => void (f['subgraph.yaml'] = f['subgraph.yaml'].replace('network: mainnet', 'network: mainet')));
    process.chdir(dir);
  });

  after(() => {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('chaindeck validate', () => {
    test('a valid subgraph: no output, exit 0', async () => {
      const run = await cli('good/subgraph.yaml');
      assert.equal(run.code, 0);
      assert.equal(run.out, '');
      assert.equal(run.err, 'good/subgraph.yaml: 0 errors, 0 warnings\n');
    });

    test('FILE:LINE:COL: severity: MESSAGE, 1-based, sorted by file and position, exit 1', async () => {
      const run = await cli('broken/subgraph.yaml');
      assert.equal(run.code, 1);
      assert.deepEqual(run.out.trimEnd().split('\n'), [
        "broken/schema.graphql:3:7: error: Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)",
        "broken/subgraph.yaml:8:14: info: Unknown network 'mainet': not in The Graph's networks registry; did you mean 'mainnet'?",
        "broken/subgraph.yaml:12:7: error: Unexpected key 'startblock' in dataSources[0].source; did you mean 'startBlock'?",
      ]);
      assert.equal(run.err, 'broken/subgraph.yaml: 2 errors, 0 warnings\n');
    });

    test('files named relative to the current folder, the manifest as given', async () => {
      process.chdir(path.join(dir, 'broken'));
      try {
        const run = await cli(path.join(dir, 'broken', 'subgraph.yaml'));
        const files = run.out
          .trimEnd()
          .split('\n')
          .map((l) => l.split(':')[0]);
        // Sorted by the names shown: the absolute path sorts first here.
        assert.deepEqual(files, [path.join(dir, 'broken', 'subgraph.yaml'), path.join(dir, 'broken', 'subgraph.yaml'), 'schema.graphql']);
        // Without PATH: ./subgraph.yaml.
        assert.equal((await cli()).code, 1);
      } finally {
        process.chdir(dir);
      }
    });

    test('warnings alone: exit 0', async () => assert.equal((await cli('warned/subgraph.yaml')).code, 0));

    test('a folder means its subgraph.yaml', async () => assert.equal((await cli('broken')).out.split('\n').length, 4));

    test('--format json', async () => {
      const run = await cli('--format', 'json', 'broken/subgraph.yaml');
      assert.equal(run.code, 1);
      const lines = JSON.parse(run.out) as Record<string, unknown>[];
      assert.deepEqual(lines[0], {
        file: 'broken/schema.graphql',
        line: 3,
        column: 7,
        endLine: 3,
        endColumn: 11,
        severity: 'error',
        code: 'entity-id-type',
        message: "Field 'id': Entity ids must be of type Int8!, Bytes! or String! (or ID!)",
      });
      assert.deepEqual(JSON.parse((await cli('--format=json', 'good')).out), []);
    });

    test('usage errors: exit 2 with a clear message', async () => {
      const missing = await cli('nowhere/subgraph.yaml');
      assert.equal(missing.code, 2);
      assert.match(missing.err, /^chaindeck validate: nowhere\/subgraph\.yaml: no such file\n/);
      assert.equal((await cli('--format', 'xml', 'good')).code, 2);
      assert.equal((await cli('--strict', 'good')).code, 2);
      assert.equal((await cli('good', 'broken')).code, 2);
      fs.mkdirSync('empty-folder', { recursive: true });
      assert.match((await cli('empty-folder')).err, /a folder without a subgraph\.yaml/);
    });

    test('--help', async () => {
      const run = await cli('--help');
      assert.equal(run.code, 0);
      assert.match(run.out, /^Usage: chaindeck validate \[PATH\] \[--format text\|json\]/);
    });
  });
});

describe('an untrusted subgraph: one finding, one line; files named, never quoted', () => {
  /**
   * `chaindeck validate` on a subgraph from an untrusted pull request, in-process: one finding is
   * one line whatever the manifest's values and file names hold (no forged `::error …::` workflow
   * command, no fake finding), and a file the manifest points at is named, never quoted.
   */
  const cwd = process.cwd();
  let dir: string;

  /** The tutorial, changed by `edit`, in folder `name`; returns its manifest, relative to `dir`. */
  const writeEdited = (name: string, edit: Edit): string => path.relative(dir, path.join(writeProject(dir, name, edit), 'subgraph.yaml'));

  const validate = (...args: string[]) => runMain(['validate', ...args]);
  const manifestEdit = (from: string, to: string) => (files: Files) => {
    const after = files['subgraph.yaml'].replace(from, to);
    assert.notEqual(after, files['subgraph.yaml'], `edit does not apply: ${from}`);
    files['subgraph.yaml'] = after;
  };

  /** Every line printed is a finding of `manifest`'s project: FILE:LINE:COL: SEVERITY: MESSAGE. */
  function assertOneLineEach(out: string, count: number): void {
    const lines = out.split('\n').slice(0, -1);
    assert.equal(lines.length, count, out);
    for (const line of lines) assert.match(line, /^[^:\n]+:\d+:\d+: (error|warning|info): /, line);
    assert.doesNotMatch(out, /^::/m);
  }

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaindeck-validate-hostile-'));
    process.chdir(dir);
  });

  after(() => {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('one finding, one line', () => {
    test('a manifest value with line breaks cannot print a workflow command or a finding of its own', async () => {
      // YAML double quotes make \n, \r, NEL and U+2028 real line breaks in the value.
      const forged = '"mainet\\n::error file=src/mapping.ts,line=1::forged\\r\\nsubgraph.yaml:1:1: error: fake\\x85\\u2028::warning::x"';
      const manifest = writeEdited('network', manifestEdit('network: mainnet', `network: ${forged}`));
      for (const format of ['text', 'json']) {
        const run = await validate(manifest, '--format', format);
        if (format === 'text') {
          assertOneLineEach(run.out, 1);
          assert.match(run.out, /Unknown network 'mainet\\n::error file=src\/mapping\.ts,line=1::forged\\nsubgraph\.yaml:1:1: error: fake\\u0085\\u2028::warning::x'/);
        } else {
          // JSON escapes them itself; the value still reads back as one line.
          const [finding] = JSON.parse(run.out) as { message: string }[];
          assert.doesNotMatch(finding.message, /[\n\r\u2028\u2029\x85]/);
        }
      }
    });

    test('a file name with a line break, in the finding that names it and in "could not check everything"', async () => {
      const manifest = writeEdited('file-name', manifestEdit('file: ./schema.graphql', 'file: "./schema\\n::error::forged.graphql"'));
      const run = await validate(manifest);
      assertOneLineEach(run.out, 1);
      assert.match(run.out, /File does not exist: \.\/schema\\n::error::forged\.graphql$/m);
      fs.mkdirSync(path.join(dir, 'file-name', 'schema\n::error::forged.graphql'));
      const folder = await validate(manifest);
      assert.equal(folder.code, 1);
      for (const line of folder.err.trimEnd().split('\n')) assert.match(line, /^(file-name\/subgraph\.yaml: \d+ errors?|chaindeck validate: could not check everything: )/, line);
    });

    test('a file named like a workflow command is printed as ./name, in a finding and in the summary', async () => {
      const forged = '::error title=Forged::all good.graphql';
      const project = writeProject(dir, 'command-name', (files) => {
        manifestEdit('file: ./schema.graphql', `file: "./${forged}"`)(files);
        files[forged] = files['schema.graphql'].replace('id: ID!', 'id: Id!');
        delete files['schema.graphql'];
      });
      fs.renameSync(path.join(project, 'subgraph.yaml'), path.join(project, '::error::forged.yaml'));
      process.chdir(project);
      try {
        const run = await validate('::error::forged.yaml');
        assert.equal(run.code, 1, run.err);
        // Runners read a line that starts with `::` (after spaces) as a command, on stdout and stderr.
        const lines = run.out.trimEnd().split('\n');
        assert.equal(lines.length, 2, run.out);
        for (const line of lines) assert.ok(line.startsWith(`./${forged}:3:7: error: `), line);
        assert.doesNotMatch(run.err, /^\s*::/m);
        assert.match(run.err, /^\.\/::error::forged\.yaml: 2 errors, /);
      } finally {
        process.chdir(dir);
      }
    });

    test('terminal controls in a value are stripped, as in every other output', async () => {
      const manifest = writeEdited('controls', manifestEdit('network: mainnet', 'network: "main\\e[2J\\e]0;title\\anet"'));
      const run = await validate(manifest);
      assertOneLineEach(run.out, 1);
      assert.ok(!run.out.includes('\x1b') && !run.out.includes('\x07'), run.out);
      assert.match(run.out, /Unknown network 'mainnet'/);
    });
  });

  describe('files the manifest points at are named, never quoted', () => {
    const SECRET = 'CHAINDECK_TEST_SECRET=hunter2-do-not-print';

    test('an ABI that is /etc/passwd, a secret file or a symlink to one: the file and the problem, not its first bytes', async () => {
      fs.writeFileSync(path.join(dir, 'secret.env'), `${SECRET}\n`);
      fs.writeFileSync(path.join(dir, 'secret.json'), `{"token": ${SECRET}}\n`);
      const notJson = 'Could not parse ABI: the file is not JSON \\(it does not start with \\[ or \\{\\)';
      const cases: [string, (files: Files) => void, RegExp][] = [
        ['passwd', manifestEdit('file: ./abis/ERC20.json', 'file: /etc/passwd'), new RegExp(`${notJson} \\(/etc/passwd\\)$`, 'm')],
        ['env-link', () => {}, new RegExp(`${notJson} \\(\\./abis/ERC20\\.json\\)$`, 'm')],
        ['json-link', () => {}, /Could not parse ABI: the file is not valid JSON \(\.\/abis\/ERC20\.json\)$/m],
      ];
      for (const [name, edit, message] of cases) {
        const manifest = writeEdited(`abi-${name}`, edit);
        if (name !== 'passwd') {
          fs.rmSync(path.join(dir, `abi-${name}`, 'abis', 'ERC20.json'));
          fs.symlinkSync(path.join(dir, name === 'env-link' ? 'secret.env' : 'secret.json'), path.join(dir, `abi-${name}`, 'abis', 'ERC20.json'));
        }
        const run = await validate(manifest);
        assert.equal(run.code, 1, run.err);
        assert.match(run.out, message);
        for (const secret of ['root:', 'hunter2', 'CHAINDECK_TEST_SECRET', 'token']) assert.ok(!run.out.includes(secret) && !run.err.includes(secret), `${secret} in ${run.out}`);
      }
    });

    test('a schema that is /etc/passwd, a symlink to a token or JSON: the file and the problem, not its first token; a typo in a real schema keeps its quote', async () => {
      const TOKEN = 'ghp_TOKENSECRET1234567890';
      fs.writeFileSync(path.join(dir, 'tok'), `${TOKEN}\n`);
      fs.writeFileSync(path.join(dir, 'tok.json'), `{"token": "${TOKEN}"}\n`);
      const notSchema = /^schema-[\w.]+\/schema\.graphql:1:1: error: the file is not a GraphQL schema \(it does not start with a definition\)/m;
      const cases: [string, (files: Files) => void, RegExp][] = [
        ['passwd', manifestEdit('file: ./schema.graphql', 'file: /etc/passwd'), /^[./]*etc\/passwd:1:1: error: the file is not a GraphQL schema \(it does not start with a definition\)/m],
        ['tok', () => {}, notSchema],
        ['tok.json', () => {}, notSchema],
      ];
      for (const [name, edit, message] of cases) {
        const manifest = writeEdited(`schema-${name}`, edit);
        if (name !== 'passwd') {
          fs.rmSync(path.join(dir, `schema-${name}`, 'schema.graphql'));
          fs.symlinkSync(path.join(dir, name), path.join(dir, `schema-${name}`, 'schema.graphql'));
        }
        const run = await validate(manifest);
        assert.equal(run.code, 1, run.err);
        assert.match(run.out, message);
        for (const secret of ['root', 'ghp_', 'TOKENSECRET', 'token']) assert.ok(!run.out.includes(secret) && !run.err.includes(secret), `${secret} in ${run.out}`);
      }
      const typo = writeEdited('schema-typo', (files) => void (files['schema.graphql'] = files['schema.graphql'].replace('id: ID!', 'id ID!')));
      assert.match((await validate(typo)).out, /^schema-typo\/schema\.graphql:\d+:\d+: error: Syntax Error: Expected ":", found Name "ID"\./m);
    });

    test('an ABI cut short: said so, without quoting it', async () => {
      const manifest = writeEdited('abi-short', (files) => void (files['abis/ERC20.json'] = files['abis/ERC20.json'].slice(0, 200)));
      const run = await validate(manifest);
      assert.match(run.out, /Could not parse ABI: the JSON ends early \(is the file cut short\?\) \(\.\/abis\/ERC20\.json\)$/m);
    });
  });
});
