/**
 * `chaindeck validate` on a subgraph from an untrusted pull request, in-process: one finding is
 * one line whatever the manifest's values and file names hold (no forged `::error …::` workflow
 * command, no fake finding), and a file the manifest points at is named, never quoted.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeProject, type Edit, type Files } from '../fixtures/subgraphs/corpus';
import { runMain } from '../support/cli';

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
